// Package engine speaks arbiter's engine protocol, a line protocol in the
// style of UCI (docs/protocol.md): Serve runs the engine side over a reader
// and a writer; Client drives an external engine process and is an
// ai.Engine, so that matches can measure other people's engines.
package engine

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
)

// Name and Author are what the engine says in its handshake.
const (
	Name   = "arbiter"
	Author = "the arbiter developers"
)

// server is the engine side of one connection.
type server struct {
	out    io.Writer
	mu     sync.Mutex // guards out
	player string
	seed   uint64
	g      game.Game
	s      game.State
	cancel context.CancelFunc
	done   chan struct{}
}

// Serve reads commands from in and answers on out until quit or the end
// of the input. A bad command gets an "info string error: ..." line and is
// otherwise ignored, as UCI engines do.
func Serve(in io.Reader, out io.Writer) error {
	sv := &server{out: out, player: "ai:level=6", seed: 1}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64*1024), 4*1024*1024)
	defer sv.stop()
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if fields[0] == "quit" {
			return nil
		}
		if err := sv.command(fields); err != nil {
			sv.say("info string error: %v", err)
		}
	}
	return sc.Err()
}

func (sv *server) say(format string, args ...any) {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	fmt.Fprintf(sv.out, format+"\n", args...)
}

func (sv *server) command(f []string) error {
	switch f[0] {
	case "uci":
		sv.say("id name %s", Name)
		sv.say("id author %s", Author)
		var ids []string
		for _, d := range game.All() {
			ids = append(ids, d.ID)
		}
		sv.say("option name Player type string default %s", sv.player)
		sv.say("option name Seed type spin default %d min 0 max 4294967295", sv.seed)
		sv.say("info string games %s", strings.Join(ids, " "))
		sv.say("uciok")
	case "isready":
		sv.say("readyok")
	case "setoption":
		return sv.setOption(f[1:])
	case "newgame":
		return sv.newGame(f[1:])
	case "position":
		return sv.position(f[1:])
	case "go":
		return sv.goSearch(f[1:])
	case "stop":
		sv.stop()
	default:
		return fmt.Errorf("unknown command %q", f[0])
	}
	return nil
}

// setOption handles "setoption name NAME value VALUE".
func (sv *server) setOption(f []string) error {
	if len(f) < 4 || f[0] != "name" || f[2] != "value" {
		return fmt.Errorf("write setoption name NAME value VALUE")
	}
	value := strings.Join(f[3:], " ")
	switch strings.ToLower(f[1]) {
	case "player":
		if _, err := ai.New(value, 0); err != nil {
			return err
		}
		sv.player = value
	case "seed":
		n, err := strconv.ParseUint(value, 10, 64)
		if err != nil {
			return fmt.Errorf("seed %q: want a whole number", value)
		}
		sv.seed = n
	default:
		return fmt.Errorf("unknown option %q (options: Player, Seed)", f[1])
	}
	return nil
}

// newGame handles "newgame GAME [key=value ...]".
func (sv *server) newGame(f []string) error {
	if len(f) == 0 {
		return fmt.Errorf("write newgame GAME [key=value ...]")
	}
	opts := map[string]string{}
	for _, o := range f[1:] {
		k, v, err := game.ParseOption(o)
		if err != nil {
			return err
		}
		opts[k] = v
	}
	g, err := game.New(f[0], opts)
	if err != nil {
		return err
	}
	sv.stop()
	sv.g, sv.s = g, g.Start()
	return nil
}

// position handles "position startpos [moves ...]" and
// "position fen FEN [moves ...]".
func (sv *server) position(f []string) error {
	if sv.g == nil {
		return fmt.Errorf("no game: send newgame GAME first")
	}
	if len(f) == 0 {
		return fmt.Errorf("write position startpos|fen FEN [moves ...]")
	}
	var s game.State
	rest := f[1:]
	switch f[0] {
	case "startpos":
		s = sv.g.Start()
	case "fen":
		if len(rest) == 0 {
			return fmt.Errorf("position fen: the FEN is missing")
		}
		var err error
		if s, err = sv.g.ParseFEN(rest[0]); err != nil {
			return err
		}
		rest = rest[1:]
	default:
		return fmt.Errorf("position %q: write startpos or fen FEN", f[0])
	}
	if len(rest) > 0 {
		if rest[0] != "moves" {
			return fmt.Errorf("position: %q where moves was expected", rest[0])
		}
		if err := game.PlayMoves(s, rest[1:]); err != nil {
			return err
		}
	}
	sv.stop()
	sv.s = s
	return nil
}

// goSearch handles "go [movetime MS] [nodes N] [depth D] [wtime MS btime MS
// rtime MS winc MS binc MS rinc MS] [infinite]": it starts a search in the
// background that ends with a bestmove line.
func (sv *server) goSearch(f []string) error {
	if sv.s == nil {
		return fmt.Errorf("no position: send newgame and position first")
	}
	if sv.s.Result().Over() {
		return fmt.Errorf("the game is over (%s)", sv.s.Result().Describe(sv.g))
	}
	lim, err := parseGo(f, sv.g, sv.s.ToMove())
	if err != nil {
		return err
	}
	e, err := ai.New(sv.player, sv.seed)
	if err != nil {
		return err
	}
	sv.stop()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	sv.cancel, sv.done = cancel, done
	s, b := sv.s.Clone(), sv.g.Board()
	go func() {
		defer close(done)
		info := e.Search(ctx, s, lim, func(i ai.Info) {
			sv.say("info depth %d score %d nodes %d time %d pv %s", i.Depth, i.Score, i.Nodes,
				i.Elapsed.Milliseconds(), moveTexts(i.PV, s))
		})
		sv.say("bestmove %s", info.Move.Text(b))
	}()
	return nil
}

// stop ends a running search and waits for its bestmove.
func (sv *server) stop() {
	if sv.cancel != nil {
		sv.cancel()
		<-sv.done
		sv.cancel, sv.done = nil, nil
	}
}

// parseGo reads the limits of a go command. Clock times give the mover a
// share of its remaining time.
func parseGo(f []string, g game.Game, me game.Player) (ai.Limits, error) {
	var lim ai.Limits
	clock := map[string]int64{}
	infinite := false
	for i := 0; i < len(f); i++ {
		key := f[i]
		if key == "infinite" {
			infinite = true
			continue
		}
		if i+1 >= len(f) {
			return lim, fmt.Errorf("go: %s needs a value", key)
		}
		n, err := strconv.ParseInt(f[i+1], 10, 64)
		if err != nil || n < 0 {
			return lim, fmt.Errorf("go: %s %q: want a whole number", key, f[i+1])
		}
		i++
		switch key {
		case "movetime":
			lim.MoveTime = time.Duration(n) * time.Millisecond
		case "nodes":
			lim.Nodes = n
		case "depth":
			lim.Depth = int(n)
		case "wtime", "btime", "rtime", "winc", "binc", "rinc", "movestogo":
			clock[key] = n
		default:
			return lim, fmt.Errorf("go: unknown limit %q", key)
		}
	}
	seat := strings.ToLower(g.PlayerName(me))[:1]
	if left, ok := clock[seat+"time"]; ok && lim.MoveTime == 0 {
		togo := clock["movestogo"]
		if togo == 0 {
			togo = 30
		}
		budget := left/togo + clock[seat+"inc"]*4/5
		// Never spend what is not on the clock: keep 50 ms for the answer
		// to travel, and with less than 100 ms left use half of it.
		budget = min(budget, max(left-50, left/2))
		lim.MoveTime = time.Duration(max(budget, 1)) * time.Millisecond
	}
	if lim == (ai.Limits{}) && !infinite {
		lim.MoveTime = time.Second
	}
	return lim, nil
}

func moveTexts(moves []game.Move, s game.State) string {
	texts := make([]string, len(moves))
	for i, m := range moves {
		texts[i] = m.Text(s.Game().Board())
	}
	return strings.Join(texts, " ")
}
