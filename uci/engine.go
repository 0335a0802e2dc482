// Package uci speaks arbiter's engine protocol, a line protocol in the
// style of UCI (docs/protocol.md): Serve runs the engine side over a reader
// and a writer; Client drives an external engine process and is an
// ai.Engine, so that matches can measure other people's engines.
package uci

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
)

// Name and Author are what the engine says in its handshake.
const (
	Name   = "arbiter"
	Author = "the arbiter developers"
)

// NoMove is what bestmove names when a go cannot be searched; an
// "info string error: ..." line before it says why.
const NoMove = "(none)"

// maxSeed is the largest Seed the handshake advertises.
const maxSeed = 1<<32 - 1

// server is the engine side of one connection. Only the goroutine reading
// the commands touches its fields, except out, which the search writes to
// under mu.
type server struct {
	out    io.Writer
	mu     sync.Mutex // guards out
	player string
	seed   uint64
	// threads is the Threads option: the threads ab and the levels search
	// with (lazy SMP), 1 to ai.MaxThreads.
	threads int
	// g is the game of the last newgame, nil before one and after a
	// refused one; s is the position to search, nil when none is set.
	g game.Game
	s game.State
	// eng searches every go of the game, so that what it learnt (the
	// alpha-beta table, the Monte Carlo tree) serves the next go; nil
	// until the first go after newgame or a change of Player or Seed.
	eng ai.Engine
	// tablesDir is the Tables option, "" for none; tables are those
	// tables opened for g, nil when there are none for it.
	tablesDir string
	tables    *endgame.Tables
	cancel    context.CancelFunc
	done      chan struct{}
}

// Serve reads commands from in and answers on out until quit or the end
// of the input. A bad command gets an "info string error: ..." line and is
// otherwise ignored, as UCI engines do; a go always ends with one bestmove
// line, "bestmove (none)" when it could not search. A search still running
// at the end is stopped and answered.
func Serve(in io.Reader, out io.Writer) error {
	sv := &server{out: out, player: "ai:level=6", seed: 1, threads: 1}
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
		sv.handshake()
	case "isready":
		sv.say("readyok")
	case "setoption":
		return sv.setOption(f[1:])
	case "newgame":
		return sv.newGame(f[1:])
	case "position":
		return sv.position(f[1:])
	case "go":
		sv.goSearch(f[1:])
	case "stop":
		sv.stop()
	default:
		return fmt.Errorf("unknown command %q", f[0])
	}
	return nil
}

func (sv *server) handshake() {
	sv.say("id name %s", Name)
	sv.say("id author %s", Author)
	var ids []string
	for _, d := range game.All() {
		ids = append(ids, d.ID)
	}
	sv.say("option name Player type string default %s", sv.player)
	sv.say("option name Seed type spin default %d min 0 max %d", sv.seed, maxSeed)
	sv.say("option name Tables type string default %s", noTables)
	sv.say("option name Threads type spin default 1 min 1 max %d", ai.MaxThreads)
	sv.say("info string games %s", strings.Join(ids, " "))
	sv.say("uciok")
}

// setOption handles "setoption name NAME value VALUE". A new Player,
// Seed or Threads makes a new engine, which starts with an empty memory.
func (sv *server) setOption(f []string) error {
	if len(f) < 4 || f[0] != "name" || f[2] != "value" {
		return fmt.Errorf("write setoption name NAME value VALUE")
	}
	value := strings.Join(f[3:], " ")
	switch strings.ToLower(f[1]) {
	case "player":
		e, err := ai.New(value, sv.seed, sv.engineOptions()...)
		if err != nil {
			return err
		}
		sv.player, sv.eng = value, e
	case "seed":
		n, err := strconv.ParseUint(value, 10, 64)
		if err != nil || n > maxSeed {
			return fmt.Errorf("seed %q: want a whole number from 0 to %d", value, maxSeed)
		}
		sv.seed, sv.eng = n, nil
	case "tables":
		return sv.setTables(value)
	case "threads":
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 || n > ai.MaxThreads {
			return fmt.Errorf("threads %s: want a whole number from 1 to %d", clip.Quote(value), ai.MaxThreads)
		}
		sv.threads, sv.eng = n, nil
	default:
		return fmt.Errorf("unknown option %s (options: Player, Seed, Tables, Threads)", clip.Quote(f[1]))
	}
	return nil
}

// newGame handles "newgame GAME [key=value ...]": the game at its start
// position, with a fresh engine. A refused newgame leaves no game, so that
// the next go cannot search the previous one by mistake.
func (sv *server) newGame(f []string) error {
	sv.stop()
	sv.g, sv.s, sv.eng = nil, nil, nil
	if len(f) == 0 {
		return fmt.Errorf("write newgame GAME [key=value ...]")
	}
	opts := map[string]string{}
	for _, o := range f[1:] {
		k, v, err := game.ParseOption(o)
		if err != nil {
			return err
		}
		if _, twice := opts[k]; twice {
			return fmt.Errorf("option %s given twice", k)
		}
		opts[k] = v
	}
	g, err := game.New(f[0], opts)
	if err != nil {
		return err
	}
	sv.g, sv.s = g, g.Start()
	sv.openTables()
	return nil
}

// position handles "position startpos [moves ...]" and
// "position fen FEN [moves ...]". A refused position leaves no position.
func (sv *server) position(f []string) error {
	sv.stop()
	sv.s = nil
	if sv.g == nil {
		return errNoGame
	}
	s, err := sv.parsePosition(f)
	if err != nil {
		return err
	}
	sv.s = s
	return nil
}

func (sv *server) parsePosition(f []string) (game.State, error) {
	if len(f) == 0 {
		return nil, fmt.Errorf("write position startpos|fen FEN [moves M1 M2 ...]")
	}
	var s game.State
	rest := f[1:]
	switch f[0] {
	case "startpos":
		s = sv.g.Start()
	case "fen":
		if len(rest) == 0 {
			return nil, fmt.Errorf("position fen: the FEN is missing")
		}
		var err error
		if s, err = sv.g.ParseFEN(rest[0]); err != nil {
			return nil, err
		}
		rest = rest[1:]
	default:
		return nil, fmt.Errorf("position %q: write startpos or fen FEN", f[0])
	}
	if len(rest) > 0 {
		if rest[0] != "moves" {
			return nil, fmt.Errorf("position: %q where moves was expected", rest[0])
		}
		if err := game.PlayMoves(s, rest[1:]); err != nil {
			return nil, err
		}
	}
	return s, nil
}

var (
	errNoGame     = errors.New("no game: send newgame GAME first")
	errNoPosition = errors.New("no position: send position startpos|fen FEN [moves ...] first")
)

// goSearch handles go (see parseGo for its limits). It stops a running
// search first, so that one engine never searches twice at once, then
// starts a search in the background that ends with a bestmove line; a go
// that cannot search says why and answers bestmove (none) at once.
func (sv *server) goSearch(f []string) {
	sv.stop()
	if err := sv.startSearch(f); err != nil {
		sv.say("info string error: %v", err)
		sv.say("bestmove %s", NoMove)
	}
}

func (sv *server) startSearch(f []string) error {
	switch {
	case sv.g == nil:
		return errNoGame
	case sv.s == nil:
		return errNoPosition
	case sv.s.Result().Over():
		return fmt.Errorf("the game is over (%s)", sv.s.Result().Describe(sv.g))
	}
	lim, err := parseGo(f, sv.g, sv.s.ToMove())
	if err != nil {
		return err
	}
	if sv.eng == nil {
		if sv.eng, err = ai.New(sv.player, sv.seed, sv.engineOptions()...); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	sv.cancel, sv.done = cancel, done
	e, s := sv.eng, sv.s.Clone() // the search owns these until done
	go func() {
		defer close(done)
		sv.search(ctx, e, s, lim)
	}()
	return nil
}

// search runs one search and reports it: an info line per iteration, then
// bestmove.
func (sv *server) search(ctx context.Context, e ai.Engine, s game.State, lim ai.Limits) {
	info := e.Search(ctx, s, lim, func(i ai.Info) { sv.say("%s", infoLine(i, s)) })
	switch {
	case info.Err != nil:
		sv.say("info string error: %s: %v", e.Name(), info.Err)
		sv.say("bestmove %s", NoMove)
	case info.Move.Len() == 0:
		sv.say("info string error: %s chose no move", e.Name())
		sv.say("bestmove %s", NoMove)
	default:
		sv.say("bestmove %s", info.Move.Text(s.Game().Board()))
	}
}

func infoLine(i ai.Info, s game.State) string {
	line := fmt.Sprintf("info depth %d score %d nodes %d time %d", i.Depth, i.Score, i.Nodes, i.Elapsed.Milliseconds())
	if len(i.PV) > 0 {
		line += " pv " + moveTexts(i.PV, s)
	}
	return line
}

// stop ends a running search and waits for its bestmove.
func (sv *server) stop() {
	if sv.cancel != nil {
		sv.cancel()
		<-sv.done
		sv.cancel, sv.done = nil, nil
	}
}

func moveTexts(moves []game.Move, s game.State) string {
	texts := make([]string, len(moves))
	for i, m := range moves {
		texts[i] = m.Text(s.Game().Board())
	}
	return strings.Join(texts, " ")
}
