package reviews

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/all"
	"github.com/arbiter-games/arbiter/internal/riverdb"
	"github.com/arbiter-games/arbiter/record"
	"github.com/arbiter-games/arbiter/store/postgres/pgtest"
)

// pg is the test binary's PostgreSQL, started by TestMain (nil: skipped,
// noPG says why).
var (
	pg   *pgtest.Server
	noPG error
)

func TestMain(m *testing.M) {
	flag.Parse()
	if os.Getenv(workerEnv) != "" { // a worker process of TestKilledWorker: no PostgreSQL of its own
		os.Exit(m.Run())
	}
	pg, noPG = pgtest.StartIfWanted()
	if noPG != nil && !pgtest.Skip(noPG) {
		fmt.Fprintln(os.Stderr, noPG)
		os.Exit(1)
	}
	code := m.Run()
	if pg != nil {
		if err := pg.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	os.Exit(code)
}

// replayCompute is a review computed from the job's input alone, as a
// remote worker must: it replays the moves by the rules and writes what
// it sees (the legal moves' count as the score, the first legal move as
// the best), so that two workers that agree must have read the same
// game. Every seventh move is a mistake.
func replayCompute(ctx context.Context, in Input) (Result, error) {
	rules, err := game.New(in.Rules, in.Options)
	if err != nil {
		return Result{}, err
	}
	st := rules.Start()
	if in.StartFEN != "" {
		if st, err = rules.ParseFEN(in.StartFEN); err != nil {
			return Result{}, err
		}
	}
	res := Result{Nodes: in.Nodes, Accuracy: make([]float64, rules.Players()), Counts: make([]Counts, rules.Players())}
	for ply, mv := range in.Moves {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		legal := game.MoveTexts(st)
		m := Move{Ply: ply, Seat: int(st.ToMove()), Move: mv, Score: 10*len(legal) - ply, Best: legal[0], Line: legal[:1],
			WinChance: 0.5, After: 0.5}
		if ply%7 == 3 {
			m.Mark, m.After, m.Drop, m.Loss = Mistake, 0.3, 0.2, 40
			res.Counts[m.Seat].Mistake++
		}
		res.Moves = append(res.Moves, m)
		if err := game.PlayMoves(st, []string{mv}); err != nil {
			return Result{}, err
		}
	}
	for i := range res.Accuracy {
		res.Accuracy[i] = 100 - float64(res.Counts[i].Mistake)
	}
	return res, nil
}

// finished is a finished game of Pommel: its first plies, played by
// taking the first legal move each time.
func finished(t testing.TB, id string, plies int) Game {
	t.Helper()
	rules, err := game.New("pommel", nil)
	if err != nil {
		t.Fatal(err)
	}
	st := rules.Start()
	var moves []string
	for range plies {
		legal := game.MoveTexts(st)
		if len(legal) == 0 {
			break
		}
		moves = append(moves, legal[0])
		if err := game.PlayMoves(st, legal[:1]); err != nil {
			t.Fatal(err)
		}
	}
	return Game{ID: id, Over: true, Public: true, Input: Input{Rules: "pommel", Moves: moves}}
}

// queues are the databases the tests run on: an SQLite file, and a
// PostgreSQL database when there is one.
func queues(t *testing.T) map[string]func(t *testing.T) riverdb.Target {
	return map[string]func(t *testing.T) riverdb.Target{
		"sqlite": func(t *testing.T) riverdb.Target {
			return riverdb.Target{Address: filepath.Join(t.TempDir(), "queue.db")}
		},
		"postgres": func(t *testing.T) riverdb.Target {
			if pg == nil {
				t.Skip(noPG)
			}
			return riverdb.Target{Postgres: true, Address: pg.NewDatabase(t)}
		},
	}
}

func open(t *testing.T, cfg Config) *Service {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if cfg.Poll == 0 {
		cfg.Poll = 50 * time.Millisecond
	}
	s, err := Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// waitState waits, generously, for the review of game to reach one of
// states, and gives it.
func waitState(t *testing.T, s *Service, game string, states ...State) Review {
	t.Helper()
	deadline := time.Now().Add(3 * time.Minute)
	var last Review
	for time.Now().Before(deadline) {
		r, err := s.Get(context.Background(), game)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range states {
			if r.State == st {
				return r
			}
		}
		last = r
		time.Sleep(20 * time.Millisecond) // polling the condition, not waiting on time
	}
	t.Fatalf("the review of %s stayed %s (%s), want %v", game, last.State, last.Error, states)
	return last
}

// TestReviewDoneOnceAndRead: a review asked for twice is one job, goes
// queued then done, and its result is the computation's.
func TestReviewDoneOnceAndRead(t *testing.T) {
	for name, target := range queues(t) {
		t.Run(name, func(t *testing.T) {
			q := target(t)
			asker := open(t, Config{Queue: q, Nodes: 500})
			g := finished(t, "g1", 20)
			ctx := context.Background()
			r, isNew, err := asker.Request(ctx, g, Requester{Account: "a1", Addr: "10.0.0.1"})
			if err != nil || !isNew || r.State != Queued {
				t.Fatalf("first request: %+v new=%v %v", r, isNew, err)
			}
			r, isNew, err = asker.Request(ctx, g, Requester{Account: "a2", Addr: "10.0.0.2"})
			if err != nil || isNew || r.State != Queued {
				t.Fatalf("second request: %+v new=%v %v", r, isNew, err)
			}
			var jobs int
			if err := asker.db.SQL.QueryRow(`SELECT count(*) FROM river_job WHERE kind = 'review'`).Scan(&jobs); err != nil || jobs != 1 {
				t.Fatalf("%d review jobs (%v), want 1", jobs, err)
			}
			open(t, Config{Queue: q, Workers: 1, Compute: replayCompute})
			done := waitState(t, asker, "g1", Done, Failed)
			want, err := replayCompute(ctx, Input{Rules: "pommel", Moves: g.Input.Moves, Nodes: 500})
			if err != nil {
				t.Fatal(err)
			}
			if done.State != Done || !reflect.DeepEqual(*done.Result, want) {
				t.Fatalf("the review is %s %q %+v, want done %+v", done.State, done.Error, done.Result, want)
			}
			// Asked again once done: the same review, no new job.
			if r, isNew, err := asker.Request(ctx, g, Requester{Addr: "10.0.0.3"}); err != nil || isNew || r.State != Done {
				t.Fatalf("a request once done: %s new=%v %v", r.State, isNew, err)
			}
			if err := asker.db.SQL.QueryRow(`SELECT count(*) FROM river_job WHERE kind = 'review'`).Scan(&jobs); err != nil || jobs != 1 {
				t.Fatalf("%d review jobs after it was done (%v), want 1", jobs, err)
			}
		})
	}
}

// TestReviewRefusals: a game nobody asked about, an unfinished game, a
// private game asked by a stranger, and each limit.
func TestReviewRefusals(t *testing.T) {
	ctx := context.Background()
	q := riverdb.Target{Address: filepath.Join(t.TempDir(), "queue.db")}
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	s := open(t, Config{Queue: q, Limits: Limits{Pending: 2, PerHour: 3, Queue: 5}, Now: clock})
	if _, err := s.Get(ctx, "nobody"); ErrorCode(err) != NotFound {
		t.Fatalf("an unknown game: %v, want %s", err, NotFound)
	}
	long := strings.Repeat("x", 200)
	if _, err := s.Get(ctx, long); ErrorCode(err) != NotFound || len(err.Error()) > 150 {
		t.Fatalf("an unknown long id: %v", err)
	}
	g := finished(t, "going", 4)
	g.Over = false
	for _, c := range []struct {
		name string
		g    Game
		who  Requester
		want Code
	}{
		{"unfinished", g, Requester{Addr: "a"}, Unfinished},
		{"no moves", Game{ID: "empty", Over: true, Public: true, Input: Input{Rules: "pommel"}}, Requester{Addr: "a"}, Unfinished},
		{"private, a stranger", func() Game { g := finished(t, "private", 4); g.Public = false; return g }(), Requester{Addr: "a"}, Forbidden},
		{"no id", finished(t, "", 4), Requester{Addr: "a"}, Invalid},
		{"an empty move", Game{ID: "bad", Over: true, Public: true, Input: Input{Rules: "pommel", Moves: []string{""}}}, Requester{Addr: "a"}, Invalid},
		{"too many moves", Game{ID: "huge", Over: true, Public: true, Input: Input{Rules: "pommel", Moves: make([]string, MaxMoves+1)}}, Requester{Addr: "a"}, Invalid},
	} {
		if _, _, err := s.Request(ctx, c.g, c.who); ErrorCode(err) != c.want {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
	}
	// A private game's player may ask.
	p := finished(t, "private", 4)
	p.Public = false
	if _, _, err := s.Request(ctx, p, Requester{Addr: "a", Player: true}); err != nil {
		t.Fatalf("a player of a private game: %v", err)
	}
	// Address "a" has one waiting; a second is fine, a third over Pending.
	if _, _, err := s.Request(ctx, finished(t, "a2", 4), Requester{Addr: "a"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Request(ctx, finished(t, "a3", 4), Requester{Addr: "a"}); ErrorCode(err) != RateLimited {
		t.Fatalf("a third waiting review of one address: %v, want %s", err, RateLimited)
	}
	// The account is held apart from the address: from another address,
	// account "acc" may have two; its third is refused.
	for i, addr := range []string{"b", "c"} {
		if _, _, err := s.Request(ctx, finished(t, fmt.Sprint("acc", i), 4), Requester{Account: "acc", Addr: addr}); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := s.Request(ctx, finished(t, "acc2", 4), Requester{Account: "acc", Addr: "d"}); ErrorCode(err) != RateLimited ||
		!strings.Contains(err.Error(), "this account") {
		t.Fatalf("a third waiting review of one account: %v", err)
	}
	// Asking again for a game queued already is no new request: no limit.
	if _, isNew, err := s.Request(ctx, finished(t, "a2", 4), Requester{Addr: "a"}); err != nil || isNew {
		t.Fatalf("asking again: new=%v %v", isNew, err)
	}
	// The queue holds 5 waiting at most: four wait, one more fits.
	if _, _, err := s.Request(ctx, finished(t, "e1", 4), Requester{Addr: "e"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Request(ctx, finished(t, "f1", 4), Requester{Addr: "f"}); ErrorCode(err) != Full {
		t.Fatalf("over the queue's bound: %v, want %s", err, Full)
	}
	// Per hour: done reviews free the pending count, not the hour's.
	if _, err := s.db.SQL.Exec(`INSERT INTO arbiter_review_result (game, data, failure) SELECT game, '{}', '' FROM arbiter_review`); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Request(ctx, finished(t, "a4", 4), Requester{Addr: "a"}); err != nil {
		t.Fatalf("a fourth once the others are done: %v", err)
	}
	if _, _, err := s.Request(ctx, finished(t, "a5", 4), Requester{Addr: "a"}); ErrorCode(err) != RateLimited ||
		!strings.Contains(err.Error(), "last hour") {
		t.Fatalf("over the hour's limit: %v", err)
	}
	now = now.Add(time.Hour + time.Second)
	if _, _, err := s.Request(ctx, finished(t, "a5", 4), Requester{Addr: "a"}); err != nil {
		t.Fatalf("an hour later: %v", err)
	}
	// An automatic request has no requester: only the queue bounds it.
	for i := range 3 {
		if _, _, err := s.Request(ctx, finished(t, fmt.Sprint("auto", i), 4), Requester{}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestReviewConfigChecked: every field out of range is refused.
func TestReviewConfigChecked(t *testing.T) {
	ok := Config{Queue: riverdb.Target{Address: "q.db"}}
	for _, c := range []struct {
		change func(*Config)
		want   string
	}{
		{func(c *Config) { c.Workers = -1 }, "--review-workers -1"},
		{func(c *Config) { c.Workers = MaxWorkers + 1 }, "--review-workers 257"},
		{func(c *Config) { c.Workers = 1 }, "a way to compute"},
		{func(c *Config) { c.Nodes = -5 }, "--review-nodes -5"},
		{func(c *Config) { c.Nodes = MaxNodes + 1 }, "--review-nodes"},
		{func(c *Config) { c.RescueAfter = time.Millisecond }, "--review-rescue-after 1ms"},
		{func(c *Config) { c.RescueAfter = -time.Second }, "--review-rescue-after -1s"},
		{func(c *Config) { c.RescueAfter = 1 << 62 }, "--review-rescue-after"},
		{func(c *Config) { c.Limits.Pending = -1 }, "review limits"},
		{func(c *Config) { c.Limits.Queue = maxLimit + 1 }, "review limits"},
		{func(c *Config) { c.Poll = -1 }, "poll interval"},
	} {
		cfg := ok
		c.change(&cfg)
		if err := cfg.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", cfg, err, c.want)
		}
	}
	if err := ok.Check(); err != nil {
		t.Fatal(err)
	}
	w := WorkConfig{Compute: replayCompute, Workers: 1}
	for _, c := range []struct {
		change func(*WorkConfig)
		want   string
	}{
		{func(c *WorkConfig) { c.Workers = 0 }, "--workers 0"},
		{func(c *WorkConfig) { c.Compute = nil }, "a way to compute"},
		{func(c *WorkConfig) { c.RescueAfter = time.Nanosecond }, "--rescue-after 1ns"},
	} {
		cfg := w
		c.change(&cfg)
		if err := cfg.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", cfg, err, c.want)
		}
	}
}

// TestReviewFailures: a computation's error and its panic each fail
// that review with the reason, and the worker goes on with the next.
func TestReviewFailures(t *testing.T) {
	q := riverdb.Target{Address: filepath.Join(t.TempDir(), "queue.db")}
	compute := func(ctx context.Context, in Input) (Result, error) {
		switch in.Moves[0] {
		case "panic":
			panic("the engine fell over " + strings.Repeat("!", 500))
		case "error":
			return Result{}, errors.New("no such rules")
		}
		return Result{Nodes: in.Nodes, Moves: []Move{{Move: in.Moves[0]}}}, nil
	}
	s := open(t, Config{Queue: q, Workers: 1, Compute: compute})
	ctx := context.Background()
	for _, id := range []string{"panic", "error", "fine"} {
		g := Game{ID: id, Over: true, Public: true, Input: Input{Rules: "pommel", Moves: []string{id}}}
		if _, _, err := s.Request(ctx, g, Requester{}); err != nil {
			t.Fatal(err)
		}
	}
	if r := waitState(t, s, "panic", Done, Failed); r.State != Failed || !strings.Contains(r.Error, "the engine fell over") || len(r.Error) > 200 {
		t.Errorf("a panic: %s %q", r.State, r.Error)
	}
	if r := waitState(t, s, "error", Done, Failed); r.State != Failed || r.Error != "no such rules" {
		t.Errorf("an error: %s %q", r.State, r.Error)
	}
	if r := waitState(t, s, "fine", Done, Failed); r.State != Done || r.Result.Moves[0].Move != "fine" {
		t.Errorf("the review after them: %s %q", r.State, r.Error)
	}
}

// TestReviewAnnotates: a review's scores and marks go into the record as
// comments after their moves, in the records' score form.
func TestReviewAnnotates(t *testing.T) {
	rec := &record.Record{Moves: []string{"a1-b2", "c3-d4", "e5-f6"}}
	Result{Moves: []Move{
		{Ply: 0, Move: "a1-b2", Score: 35, Best: "a1-b2"},
		{Ply: 1, Move: "c3-d4", Score: -120, Best: "c3-c4", Mark: Blunder, Exact: "win in 3 → draw"},
		{Ply: 7, Move: "x", Score: 1},
	}}.Annotate(rec)
	want := []record.Note{{Ply: 1, Text: "{+35}"}, {Ply: 2, Text: "{-120 best c3-c4 blunder win in 3 → draw}"}}
	if !reflect.DeepEqual(rec.Notes, want) {
		t.Fatalf("notes %+v, want %+v", rec.Notes, want)
	}
}

// TestReviewEngine: the review's computation from a job's input alone is
// the same twice, one move reviewed for each played, the counts its
// marks'.
func TestReviewEngine(t *testing.T) {
	g := finished(t, "e", 12)
	in := g.Input
	in.Nodes = 300
	a, err := Engine(nil)(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Engine(nil)(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("two reviews of one game differ:\n%+v\n%+v", a, b)
	}
	if len(a.Moves) != len(in.Moves) || len(a.Accuracy) != 2 || len(a.Counts) != 2 || a.Nodes != 300 {
		t.Fatalf("review %+v", a)
	}
	var marks [2]int
	for i, m := range a.Moves {
		if m.Ply != i || m.Move != in.Moves[i] || m.Best == "" || len(m.Line) == 0 {
			t.Errorf("move %d: %+v", i, m)
		}
		if m.Mark != "" {
			marks[m.Seat]++
		}
	}
	for s, c := range a.Counts {
		if c.Inaccuracy+c.Mistake+c.Blunder != marks[s] {
			t.Errorf("seat %d: counts %+v, marks %d", s, c, marks[s])
		}
	}
	for _, bad := range []Input{
		{Rules: "nosuch", Moves: []string{"a"}, Nodes: 10},
		{Rules: "pommel", Moves: []string{"zz-top"}, Nodes: 10},
		{Rules: "pommel", StartFEN: "not a fen", Moves: in.Moves, Nodes: 10},
	} {
		if _, err := Engine(nil)(context.Background(), bad); err == nil {
			t.Errorf("%+v: reviewed", bad)
		}
	}
}

// TestReviewJobGone: a review whose job left the queue with no result
// (River's cleaner, an operator) is queued again when asked for again.
func TestReviewJobGone(t *testing.T) {
	s := open(t, Config{Queue: riverdb.Target{Address: filepath.Join(t.TempDir(), "queue.db")}})
	ctx := context.Background()
	g := finished(t, "gone", 4)
	if _, _, err := s.Request(ctx, g, Requester{Addr: "a"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.db.SQL.Exec(`DELETE FROM river_job`); err != nil {
		t.Fatal(err)
	}
	r, isNew, err := s.Request(ctx, g, Requester{Addr: "b"})
	if err != nil || isNew || r.State != Queued || r.job == 0 {
		t.Fatalf("asked again: %+v new=%v %v", r, isNew, err)
	}
	var jobs int
	if err := s.db.SQL.QueryRow(`SELECT count(*) FROM river_job WHERE kind = 'review'`).Scan(&jobs); err != nil || jobs != 1 {
		t.Fatalf("%d jobs (%v), want 1", jobs, err)
	}
}

// TestReviewLowPriority: a review's computation runs at nice 10 where the
// system allows it (Linux), and the caller's thread keeps its own.
func TestReviewLowPriority(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("only Linux lowers a thread's priority")
	}
	before, err := syscall.Getpriority(syscall.PRIO_PROCESS, 0)
	if err != nil {
		t.Fatal(err)
	}
	var inside int
	lowPriority(func() {
		inside, err = syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
	})
	if err != nil {
		t.Fatal(err)
	}
	after, _ := syscall.Getpriority(syscall.PRIO_PROCESS, 0)
	// The kernel's getpriority answers 20 - nice.
	if 20-inside < 10 || after != before {
		t.Fatalf("nice inside %d, the process's before %d and after %d", 20-inside, 20-before, 20-after)
	}
}

// TestReviewClosed: a closed service refuses requests as shutting down.
func TestReviewClosed(t *testing.T) {
	s, err := Open(context.Background(), Config{Queue: riverdb.Target{Address: filepath.Join(t.TempDir(), "queue.db")}})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	s.Close() // a second Close does nothing
	if _, _, err := s.Request(context.Background(), finished(t, "late", 2), Requester{}); ErrorCode(err) != Closed {
		t.Fatalf("a request after Close: %v", err)
	}
}

// TestReviewOtherBuild: a worker of another arbiter build gives the job
// back (snoozed) rather than compute a review that may differ.
func TestReviewOtherBuild(t *testing.T) {
	q := riverdb.Target{Address: filepath.Join(t.TempDir(), "queue.db")}
	s := open(t, Config{Queue: q})
	ctx := context.Background()
	g := finished(t, "built", 4)
	if _, _, err := s.Request(ctx, g, Requester{}); err != nil {
		t.Fatal(err)
	}
	// The site's build, as a real binary names it.
	if _, err := s.db.SQL.Exec(`UPDATE river_job SET args = json_set(args, '$.build', 'abc123')`); err != nil {
		t.Fatal(err)
	}
	workCtx, stop := context.WithCancel(ctx)
	worked := make(chan error, 1)
	go func() {
		worked <- Work(workCtx, q, WorkConfig{Compute: replayCompute, Workers: 1, Poll: 20 * time.Millisecond, Build: "def456"})
	}()
	defer func() { stop(); <-worked }()
	deadline := time.Now().Add(time.Minute)
	for {
		var state string
		if err := s.db.SQL.QueryRow(`SELECT state FROM river_job WHERE kind = 'review'`).Scan(&state); err != nil {
			t.Fatal(err)
		}
		if state == "scheduled" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job of another build is %s, want scheduled (snoozed)", state)
		}
		time.Sleep(10 * time.Millisecond) // polling the condition
	}
	if r, err := s.Get(ctx, "built"); err != nil || r.State != Queued {
		t.Fatalf("the review: %+v %v", r, err)
	}
}
