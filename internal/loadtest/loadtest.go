// Package loadtest plays many games at once against a running arbiter
// server, over its JSON API and its websockets, and measures how fast the
// server acknowledges moves and tells viewers about them.
//
// It only ever talks to this machine (loopback addresses), and it is
// bounded: in games, in moves per game and in time. Each human game is a
// slot: a goroutine holding one game with both seats' tokens and one
// websocket, playing random legal moves with their ply over that socket
// (each with its seat's token and an id) and timing each move from its
// message sent to its ack (the acknowledgement) and to the socket
// receiving the event with the new version (the broadcast): a game holds
// one connection. With Config.HTTPMoves the moves are POSTs instead, the
// acknowledgement their 200, beside the socket that watches. AI slots hold games of one AI level against itself and
// count the AI moves their viewers see. With accounts, the human games
// are played by accounts signed up at the start, paired through the
// lobby (a seek and its accepts, timed) and playing with their session
// cookies.
package loadtest

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"sync/atomic"
	"time"

	"github.com/arbiter-games/arbiter/game"
)

// The bounds of a run.
const (
	// MaxGames bounds the human games: 20,000 of one connection each
	// fit an open-file limit of 20,000 on neither side, so the bound is
	// the files (checkFiles), this only a sane ceiling.
	MaxGames    = 20000
	MaxAIGames  = 1000
	MaxMoves    = 1000
	MaxDuration = 2 * time.Hour
	MaxThink    = time.Minute
	MaxLevel    = 6
	// MaxFlood bounds the flood's workers, each one connection at a time.
	MaxFlood = 1000
	// MaxSlow bounds the slow connections, each one file descriptor of
	// the run's own (and one of the server's) for as long as it is open.
	MaxSlow = 5000
	// MaxPID is the largest process id Linux gives (PID_MAX_LIMIT).
	MaxPID = 1 << 22
)

// AckTarget is the acknowledgement p99 of the game slots' moves that the
// report's summary checks.
const AckTarget = 100 * time.Millisecond

// Config is what a run plays.
type Config struct {
	// Addr is the server, HOST:PORT on a loopback address.
	Addr string
	// Game is the game id of every game (pommel when empty).
	Game string
	// Games is the number of human-vs-human games held at once.
	Games int
	// HTTPMoves plays the anonymous human games' moves as POST requests,
	// each game's client holding an HTTP connection beside its socket,
	// as before the socket took moves; by default they go over the
	// socket, one connection a game. (The accounts' moves are POSTs
	// with their session cookies either way.)
	HTTPMoves bool
	// Accounts plays the human games with accounts: one a seat of each
	// game, signed up at the start and kept for the run; each game starts
	// as a rated seek of the first, accepted by the others after they
	// read the lobby, and each plays its seat with its session cookie.
	Accounts bool
	// Moves bounds each human game's moves: the run ends when every human
	// game has played that many (or the time is up). Every game, AI games
	// too, is created with maxplies=Moves, so that AI games still playing
	// on the server after the run end soon (the API cannot stop a game
	// without a human seat).
	Moves int
	// Duration bounds the run from the moment every game is held.
	Duration time.Duration
	// Think is a player's pause before each move (each pause drawn from
	// half to one and a half of it, so that games do not move in step).
	Think time.Duration
	// AIGames is the number of games of ai:level=Level against itself
	// held at once; a game that ends is replaced until the time is up.
	AIGames int
	Level   int
	// Flood is the number of workers that read the lobby and held games
	// as fast as they can, all from one source address of their own
	// (floodAddr), while the games play.
	Flood int
	// Slow is the number of slow connections held open from one other
	// source address of their own (slowAddr) while the games play, each
	// reopened when the server closes it: a third trickle a POST body, a
	// third stay idle after one GET, a third send nothing.
	Slow int
	// ServerPID, when above 0, is the server's process: the run samples
	// its resident memory and open files (from /proc) at the start, every
	// SampleEvery while the games play, and at the end.
	ServerPID int
	// SampleEvery is the time between the server's samples (0: a
	// minute).
	SampleEvery time.Duration
	// Seed seeds the random moves.
	Seed uint64
	// Resolver resolves Addr's host (nil: net.DefaultResolver).
	Resolver Resolver
	// Progress, when set, is told of each phase as it starts.
	Progress func(string)
}

// check refuses a configuration outside the bounds.
func (c *Config) check() error {
	if c.Game == "" {
		c.Game = "pommel"
	}
	if _, ok := game.Lookup(c.Game); !ok {
		return fmt.Errorf("loadtest: unknown game %q; want one of %s", c.Game, gameIDs())
	}
	for _, b := range []struct {
		name    string
		v, l, h int
	}{
		{"games", c.Games, 0, MaxGames}, {"AI games", c.AIGames, 0, MaxAIGames},
		{"moves", c.Moves, 1, MaxMoves}, {"level", c.Level, 1, MaxLevel},
		{"flood", c.Flood, 0, MaxFlood}, {"slow connections", c.Slow, 0, MaxSlow},
		{"server pid", c.ServerPID, 0, MaxPID},
	} {
		if b.v < b.l || b.v > b.h {
			return fmt.Errorf("loadtest: %s %d: want %d to %d", b.name, b.v, b.l, b.h)
		}
	}
	switch {
	case c.Games+c.AIGames == 0:
		return errors.New("loadtest: no games; want at least one human or AI game")
	case c.Accounts && c.Games == 0:
		return errors.New("loadtest: accounts play the human games, and there are none; want games above 0")
	case c.Duration <= 0 || c.Duration > MaxDuration:
		return fmt.Errorf("loadtest: duration %s: want above 0, up to %s", c.Duration, MaxDuration)
	case c.Think < 0 || c.Think > MaxThink:
		return fmt.Errorf("loadtest: think %s: want 0 up to %s", c.Think, MaxThink)
	case c.SampleEvery < 0:
		return fmt.Errorf("loadtest: sample every %s: want 0 (a minute) or more", c.SampleEvery)
	}
	rules, err := game.New(c.Game, nil)
	if err != nil {
		return fmt.Errorf("loadtest: %w", err)
	}
	return checkFiles(c.files(rules.Players()), c.filesPerGame(rules.Players()))
}

// Limits of the run's own waiting, so that it ends whatever the server
// does.
const (
	setupTime     = 2 * time.Minute  // to create every game and open its socket, and 10 ms a game more
	requestTime   = 30 * time.Second // for one request
	broadcastTime = 10 * time.Second // for a move's event after its 200
	settleTime    = time.Minute      // after the deadline, for the moves in flight
	setupParallel = 16               // games created at once during setup
	sampleSettle  = 10 * time.Second // from the end to the server's last sample
)

// Run plays cfg against the server and reports what it measured. It
// returns an error only when the run cannot start (a refused address, a
// server that does not answer, no game held); the refusals of single
// requests are counted in the report. Cancelling ctx ends the run early
// with the report so far.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	target, err := Target(ctx, cfg.Addr, cfg.Resolver)
	if err != nil {
		return nil, err
	}
	rules, err := game.New(cfg.Game, nil)
	if err != nil {
		return nil, fmt.Errorf("loadtest: %w", err)
	}
	r := &run{cfg: cfg, target: target, players: rules.Players(), tally: newTally(), tag: runTag()}
	r.ids = make([]atomic.Pointer[string], cfg.Games+cfg.AIGames)
	if cfg.ServerPID > 0 {
		s, err := SampleServer(cfg.ServerPID)
		if err != nil {
			return nil, fmt.Errorf("loadtest: server pid %d: %w", cfg.ServerPID, err)
		}
		s.Label = "start"
		r.samples = append(r.samples, s)
	}
	if err := r.probe(ctx); err != nil {
		return nil, err
	}
	return r.play(ctx)
}

// run is one load test under way.
type run struct {
	cfg    Config
	target netip.AddrPort
	spread bool // each slot has a source address of its own
	// players is the number of seats of the game.
	players int
	// tag is in the names of the run's accounts (Config.Accounts).
	tag string
	// addrs counts the source addresses given out (clientAddr).
	addrs atomic.Int64
	tally *tally
	// ids holds each slot's current game id, for the flood to read.
	ids []atomic.Pointer[string]
	// samples are the server's samples so far (ServerPID).
	samples []ServerSample
	// start and deadline bound the measured window.
	start, deadline time.Time
}

func (r *run) progress(format string, args ...any) {
	if r.cfg.Progress != nil {
		r.cfg.Progress(fmt.Sprintf(format, args...))
	}
}

// play sets every slot up, lets them play together until the deadline,
// with the flood and the slow connections beside them, and gathers the
// report.
func (r *run) play(ctx context.Context) (*Report, error) {
	slots := r.setup(ctx)
	held := 0
	for _, s := range slots {
		if s.ok() {
			held++
		}
	}
	if held == 0 {
		closeAll(slots)
		return nil, fmt.Errorf("loadtest: no game could be set up on %s: %s", r.target, r.tally.errorText())
	}
	r.start = time.Now()
	r.deadline = r.start.Add(r.cfg.Duration)
	r.progress("playing %d games for up to %s%s", held, r.cfg.Duration, r.sideLoad())
	// Stopping early (ctx) lets the moves in flight finish, so that every
	// move sent is either acknowledged or counted as an error.
	requests, cancel := context.WithTimeout(context.WithoutCancel(ctx), r.cfg.Duration+settleTime)
	defer cancel()
	// The flood, the slow connections and the samples go on while the
	// games play, and stop with them.
	side, stopSide := context.WithCancel(ctx)
	defer stopSide()
	flood := r.flood(side)
	slow := r.slow(side)
	sampled := r.sample(side)
	done := r.launch(requests, ctx, slots)
	<-done
	elapsed := time.Since(r.start)
	slow.atEnd()
	stopSide()
	rep := r.report(slots, elapsed)
	rep.Flood, rep.Slow = flood.wait(elapsed), slow.wait()
	<-sampled
	closeAll(slots)
	if r.cfg.ServerPID > 0 {
		r.addSample("end")
		// Once more after a while, as the server lets go of what the
		// closed connections held (unless the run is being stopped).
		settle := min(r.sampleEvery(), sampleSettle)
		if sleep(ctx, settle) {
			r.addSample("end+" + settle.String())
		}
		rep.Server = r.samples
	}
	return rep, nil
}

// sideLoad says what plays beside the games, for the progress line.
func (r *run) sideLoad() string {
	var parts []string
	if r.cfg.Flood > 0 {
		parts = append(parts, fmt.Sprintf("%d flood workers", r.cfg.Flood))
	}
	if r.cfg.Slow > 0 {
		parts = append(parts, fmt.Sprintf("%d slow connections", r.cfg.Slow))
	}
	if len(parts) == 0 {
		return ""
	}
	return ", with " + strings.Join(parts, " and ")
}

func gameIDs() string {
	var ids []string
	for _, d := range game.All() {
		ids = append(ids, d.ID)
	}
	return strings.Join(ids, ", ")
}

// filesPerGame is the open files a slot holds: its socket, and its
// client's connection when its moves are POSTs (a few more for a moment
// while one replaces its game); with accounts, a human slot holds one
// client a seat.
func (c *Config) filesPerGame(players int) int {
	switch {
	case c.Accounts:
		return players + 1
	case c.HTTPMoves:
		return 2
	}
	return 1
}

// files is about how many open files the run needs, with a game of
// players seats (one in fifty games more, for those replacing their
// game at any moment).
func (c *Config) files(players int) int {
	return c.filesPerGame(players)*c.Games + 2*c.AIGames + c.Flood + c.Slow + 256 + c.Games/50
}
