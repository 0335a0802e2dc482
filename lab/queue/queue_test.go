package queue

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/all"
	"github.com/arbiter-games/arbiter/lab"
)

// enginePlayer makes a lab player of an engine spec, as the command line
// does (without cmd:, which a test has no use for).
func enginePlayer(spec string) (lab.Player, error) {
	if _, err := ai.New(spec, 0); err != nil {
		return lab.Player{}, err
	}
	return lab.Player{Spec: spec, New: func(seed uint64) (ai.Engine, error) { return ai.New(spec, seed) }}, nil
}

// quickRun is a run of quick deterministic games: Pommel, ab at depth 1
// against random, from two random plies.
func quickRun(t *testing.T, games int) lab.Config {
	t.Helper()
	g, err := game.New("pommel", nil)
	if err != nil {
		t.Fatal(err)
	}
	var players []lab.Player
	for _, spec := range []string{"ab", "random"} {
		p, err := enginePlayer(spec)
		if err != nil {
			t.Fatal(err)
		}
		players = append(players, p)
	}
	return lab.Config{Game: g, Players: players, Games: games, Limits: ai.Limits{Depth: 1}, Seed: 5,
		OpeningPlies: 2, Date: "2026.01.02"}
}

// oneProcess plays cfg as one process does and gives its folder.
func oneProcess(t *testing.T, cfg lab.Config) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "one")
	if _, err := lab.Run(context.Background(), cfg, dir, nil); err != nil {
		t.Fatal(err)
	}
	return dir
}

// moveTimes are the times in a record's move comments ("+35/2 0.01s"),
// which no two runs share.
var moveTimes = regexp.MustCompile(`[0-9]+\.[0-9]{2}s\}`)

// SameOutputs fails unless two run folders hold the same summary.json,
// byte for byte, and the same games.pdn but for the move times.
func SameOutputs(t testing.TB, want, got string) {
	t.Helper()
	read := func(dir, name string) string {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	if a, b := read(want, lab.SummaryFile), read(got, lab.SummaryFile); a != b {
		t.Errorf("summary.json differs:\none process:\n%s\nqueue:\n%s", a, b)
	}
	a := moveTimes.ReplaceAllString(read(want, lab.RecordFile), "s}")
	b := moveTimes.ReplaceAllString(read(got, lab.RecordFile), "s}")
	if a != b || !strings.Contains(a, "[Result") {
		t.Errorf("games.pdn differs (move times aside):\none process:\n%.2000s\nqueue:\n%.2000s", a, b)
	}
}

func openSQLiteQueue(t *testing.T, path string, create bool) *Queue {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	q, err := Open(ctx, Target{Address: path}, create)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(q.Close)
	return q
}

// startWorkers runs n workers, each on a connection of its own (as
// separate processes have), until the test ends.
func startWorkers(t *testing.T, path string, n int, players func(string) (lab.Player, error)) {
	startWorkersAs(t, path, n, WorkConfig{Concurrency: 2, RescueAfter: time.Minute, Players: players, Poll: 50 * time.Millisecond})
}

// startWorkersAs runs n workers of wc.
func startWorkersAs(t *testing.T, path string, n int, wc WorkConfig) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for range n {
		q := openSQLiteQueue(t, path, false)
		wg.Go(func() {
			if err := q.Work(ctx, wc); err != nil {
				t.Errorf("worker: %v", err)
			}
		})
	}
	t.Cleanup(func() { cancel(); wg.Wait() })
}

func TestQueuedRunEqualsOneProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: plays a run twice, on River")
	}
	cfg := quickRun(t, 6)
	want := oneProcess(t, cfg)
	path := filepath.Join(t.TempDir(), "queue.db")
	q := openSQLiteQueue(t, path, true)
	startWorkers(t, path, 2, enginePlayer)
	dir := filepath.Join(t.TempDir(), "queued")
	var calls []int
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := q.Run(ctx, cfg, dir, func(played, total int) { calls = append(calls, played, total) }, RunConfig{Poll: 50 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	SameOutputs(t, want, dir)
	if len(calls) < 4 || calls[0] != 0 || calls[len(calls)-2] != 6 || calls[len(calls)-1] != 6 {
		t.Errorf("progress calls %v: want 0 of 6 first and 6 of 6 last", calls)
	}

	// A new folder for the same run takes the games the queue holds: no
	// worker needed, the same outputs.
	again := filepath.Join(t.TempDir(), "again")
	q2 := openSQLiteQueue(t, path, false)
	if _, err := q2.Run(ctx, cfg, again, nil, RunConfig{Poll: 50 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	SameOutputs(t, want, again)
}

func TestRunStopsOnARefusal(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs River")
	}
	path := filepath.Join(t.TempDir(), "queue.db")
	q := openSQLiteQueue(t, path, true)
	startWorkers(t, path, 1, func(spec string) (lab.Player, error) {
		return lab.Player{}, errors.New("this worker has no engines")
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := q.Run(ctx, quickRun(t, 2), filepath.Join(t.TempDir(), "run"), nil, RunConfig{Poll: 50 * time.Millisecond})
	// Both games are refused; which refusal the run reads first is the
	// queue's order of work, not the run's.
	if err == nil || !regexp.MustCompile(`a worker refused game [12]: player ab: this worker has no engines`).MatchString(err.Error()) {
		t.Fatalf("got %v, want the worker's refusal", err)
	}
}

func TestRunStoppedKeepsItsGames(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs River")
	}
	path := filepath.Join(t.TempDir(), "queue.db")
	q := openSQLiteQueue(t, path, true)
	ctx, cancel := context.WithCancel(context.Background())
	dir := filepath.Join(t.TempDir(), "run")
	_, err := q.Run(ctx, quickRun(t, 3), dir, nil, RunConfig{Poll: 20 * time.Millisecond,
		Queued: func(string, int) { cancel() }}) // no worker: nothing comes
	if err == nil || !strings.Contains(err.Error(), "stopped with 3 of 3 games still to come") {
		t.Fatalf("got %v, want a stop that keeps the games", err)
	}
	// Started again, the coordinator queues nothing twice.
	ctx, cancel = context.WithCancel(context.Background())
	if _, err := q.Run(ctx, quickRun(t, 3), dir, nil, RunConfig{Poll: 20 * time.Millisecond,
		Queued: func(string, int) { cancel() }}); err == nil {
		t.Fatal("a run with no worker ended")
	}
	var jobs int
	if err := q.db.QueryRow(`SELECT count(*) FROM river_job`).Scan(&jobs); err != nil || jobs != 3 {
		t.Errorf("%d jobs queued (%v), want 3: one per game", jobs, err)
	}
}

func TestRunRefusesAShard(t *testing.T) {
	q := &Queue{}
	cfg := lab.Config{Shard: lab.Shard{Index: 0, Count: 2}}
	_, err := q.Run(context.Background(), cfg, t.TempDir(), nil, RunConfig{})
	if err == nil || !strings.Contains(err.Error(), "--queue and --shard 0/2: give one") {
		t.Fatalf("got %v", err)
	}
}

// manifestOf is the manifest a coordinator queues for cfg.
func manifestOf(t *testing.T, cfg lab.Config) []byte {
	t.Helper()
	man, _, _, err := lab.Prepare(context.Background(), cfg, filepath.Join(t.TempDir(), "run"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(man)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// insertJob puts one job on the queue as it is, however wrong.
func insertJob(t *testing.T, q *Queue, job gameJob) {
	t.Helper()
	cl, err := q.newClient(&river.Config{Logger: quietLogger()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cl.InsertMany(context.Background(), []river.InsertManyParams{{Args: job, InsertOpts: &river.InsertOpts{Queue: QueueName}}}); err != nil {
		t.Fatal(err)
	}
}

func TestWorkerRefusesABadJob(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs River")
	}
	good := manifestOf(t, quickRun(t, 2))
	edit := func(key string, value any) []byte {
		var m map[string]any
		if err := json.Unmarshal(good, &m); err != nil {
			t.Fatal(err)
		}
		m[key] = value
		data, _ := json.Marshal(m)
		return data
	}
	cases := []struct {
		name     string
		version  int
		index    int
		manifest []byte
		want     string
	}{
		{"a newer job version", JobVersion + 1, 1, good, "job version 2: this worker plays version 1"},
		{"an unknown game", JobVersion, 0, edit("game", "chess"), `unknown game "chess"`},
		{"a manifest of another shape", JobVersion, 0, edit("players", "ab"), "the run's manifest: json: cannot unmarshal"},
		{"a field this build does not know", JobVersion, 0, edit("openingbook", "x"), `unknown field "openingbook"`},
		{"a bad move time", JobVersion, 0, edit("movetime", "fast"), `movetime "fast"`},
		{"an unknown engine", JobVersion, 0, edit("players", []string{"deep-blue"}), "player deep-blue"},
		{"a game beyond the run", JobVersion, 7, good, "game 8: the run has games 1 to 2"},
		{"no players", JobVersion, 0, edit("players", []string{}), "0 players for pommel"},
		{"a shard", JobVersion, 0, edit("shard", "0/2"), "a queued run has every game"},
		// (Options a manifest lacks are their defaults: a run queued before
		// an option existed rebuilds; one this build does not know is refused.)
		{"an option this build does not know", JobVersion, 0, edit("options", map[string]string{"hop": "friendly", "colour": "red"}), `unknown option "colour"`},
		{"another build", JobVersion, 2, good, "the run was queued by arbiter \"0123abc\", this worker is fedcba9"},
	}
	path := filepath.Join(t.TempDir(), "queue.db")
	q := openSQLiteQueue(t, path, true)
	for _, c := range cases {
		job := gameJob{Version: c.version, Run: RunID(c.manifest), Index: c.index, Manifest: c.manifest}
		if c.name == "another build" {
			job.Build = "0123abc"
		}
		insertJob(t, q, job)
	}
	startWorkersAs(t, path, 1, WorkConfig{Concurrency: 2, RescueAfter: time.Minute, Players: enginePlayer,
		Poll: 50 * time.Millisecond, Build: "fedcba9"})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var why string
			for why == "" && ctx.Err() == nil {
				err := q.db.QueryRowContext(ctx, `SELECT reason FROM arbiter_lab_refusal WHERE run = ? AND idx = ?`,
					RunID(c.manifest), c.index).Scan(&why)
				if err != nil && !errors.Is(err, sql.ErrNoRows) {
					t.Fatal(err)
				}
				time.Sleep(20 * time.Millisecond)
			}
			if !strings.Contains(why, c.want) {
				t.Fatalf("refused with %q, want %q", why, c.want)
			}
		})
	}
	// River records a job's end a moment after the worker returns.
	cancelled := 0
	for cancelled < len(cases) && ctx.Err() == nil {
		if err := q.db.QueryRowContext(ctx, `SELECT count(*) FROM river_job WHERE state = 'cancelled'`).Scan(&cancelled); err != nil {
			t.Fatal(err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if cancelled != len(cases) {
		t.Errorf("%d jobs cancelled, want all %d: a refused job is not tried again", cancelled, len(cases))
	}
}

// lineWatch is a log that tells of each line containing a word.
type lineWatch struct {
	word string
	seen chan string
	mu   sync.Mutex
	all  strings.Builder
}

func (w *lineWatch) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.all.Write(p)
	w.mu.Unlock()
	if strings.Contains(string(p), w.word) {
		select {
		case w.seen <- string(p):
		default:
		}
	}
	return len(p), nil
}

func (w *lineWatch) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.all.String()
}

func TestStoppedWorkerGivesBackItsGame(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: plays a run twice, on River")
	}
	cfg := quickRun(t, 3)
	cfg.Limits = ai.Limits{Depth: 5} // games long enough to stop a worker in one
	want := oneProcess(t, cfg)
	path := filepath.Join(t.TempDir(), "queue.db")
	q := openSQLiteQueue(t, path, true)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	dir := filepath.Join(t.TempDir(), "queued")
	ran := make(chan error, 1)
	go func() {
		_, err := q.Run(ctx, cfg, dir, nil, RunConfig{Poll: 50 * time.Millisecond})
		ran <- err
	}()

	log := &lineWatch{word: "playing", seen: make(chan string, 1)}
	workCtx, stop := context.WithCancel(ctx)
	stopped := make(chan error, 1)
	wq := openSQLiteQueue(t, path, false)
	go func() {
		stopped <- wq.Work(workCtx, WorkConfig{Concurrency: 1, RescueAfter: time.Minute, Players: enginePlayer, Log: log, Poll: 50 * time.Millisecond})
	}()
	select {
	case <-log.seen:
	case <-ctx.Done():
		t.Fatal("the worker played no game")
	}
	stop()
	start := time.Now()
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 5*time.Second || !strings.Contains(log.String(), "given back") {
		t.Fatalf("the stopped worker took %s and said:\n%s", took, log.String())
	}
	startWorkers(t, path, 1, enginePlayer)
	if err := <-ran; err != nil {
		t.Fatal(err)
	}
	SameOutputs(t, want, dir)
	var attempts int
	if err := q.db.QueryRowContext(ctx, `SELECT max(attempt) FROM river_job`).Scan(&attempts); err != nil {
		t.Fatal(err)
	}
	if attempts != 1 {
		t.Errorf("a game was tried %d times: one given back is not an attempt spent", attempts)
	}
}

func TestRunRefusesABadGameFromTheQueue(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: sets up a queue")
	}
	cfg := quickRun(t, 2)
	run := RunID(manifestOf(t, cfg))
	for _, c := range []struct {
		name string
		data string
		want string
	}{
		{"an illegal move", `{"index":0,"seats":["ab","random"],"opening":[],"moves":[{"move":"a1-h8","score":0,"us":1}],"winners":[],"reason":"maxplies"}`,
			"game 1 from the queue: game 1:"},
		{"another game's index", `{"index":1,"seats":["ab","random"],"opening":[],"moves":[],"winners":[],"reason":"maxplies"}`,
			"game 1 of run " + run + " holds game 2"},
		{"no JSON", `{"index":`, "game 1 of run " + run + ": unexpected end of JSON input"},
	} {
		t.Run(c.name, func(t *testing.T) {
			q := openSQLiteQueue(t, filepath.Join(t.TempDir(), "queue.db"), true)
			if _, err := q.db.Exec(`INSERT INTO arbiter_lab_game (run, idx, data) VALUES (?, 0, ?)`, run, c.data); err != nil {
				t.Fatal(err)
			}
			_, err := q.Run(context.Background(), cfg, filepath.Join(t.TempDir(), "run"), nil, RunConfig{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
}

// flat is an evaluation that sees nothing: an engine that plays by it is
// another arbiter's engine of the same name.
type flat struct{}

func (flat) Judges(game.State) bool                   { return true }
func (flat) Evaluate(game.State) [game.MaxPlayers]int { return [game.MaxPlayers]int{} }

// TestQueueRefusesAnotherEngine: a game a worker of another engine played
// for a run begun here is refused by the coordinator, naming both signatures,
// unless the run mixes engines (--mix); its report then says so first.
func TestQueueRefusesAnotherEngine(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: runs River")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	path := filepath.Join(t.TempDir(), "queue.db")
	q := openSQLiteQueue(t, path, true)
	other := func(spec string) (lab.Player, error) {
		p, err := enginePlayer(spec)
		if spec == "ab" {
			p.New = func(seed uint64) (ai.Engine, error) { return ai.New(spec, seed, ai.WithEvaluation(flat{})) }
		}
		return p, err
	}
	startWorkersAs(t, path, 1, WorkConfig{Concurrency: 2, RescueAfter: time.Minute, Players: other, Poll: 50 * time.Millisecond,
		Build: "build-b"})
	cfg := quickRun(t, 2)
	cfg.Build = "build-a"
	own, err := lab.Signature(ctx, cfg.Game, cfg.Players[0].New)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := other("ab")
	theirs, err := lab.Signature(ctx, cfg.Game, p.New)
	if err != nil {
		t.Fatal(err)
	}
	// The run's first game is played here; the worker plays the second.
	dir := filepath.Join(t.TempDir(), "run")
	start := cfg
	start.Games = 1
	if _, err := lab.Run(ctx, start, dir, nil); err != nil {
		t.Fatal(err)
	}
	_, err = q.Run(ctx, cfg, dir, nil, RunConfig{Poll: 50 * time.Millisecond})
	if err == nil {
		t.Fatal("the coordinator took games of another engine")
	}
	for _, want := range []string{own, theirs, "build-a", "build-b", "--mix"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("refusal %q does not name %s", err, want)
		}
	}
	cfg.Mix = true
	s, err := q.Run(ctx, cfg, dir, nil, RunConfig{Poll: 50 * time.Millisecond})
	if err != nil {
		t.Fatalf("--mix: %v", err)
	}
	if line, _, _ := strings.Cut(lab.Text(s), "\n"); !strings.Contains(line, "this run mixes engines") || !strings.Contains(line, theirs) {
		t.Errorf("the first line %q does not say the run mixes engines", line)
	}
}
