package server

import (
	"context"
	"encoding/json"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/internal/riverdb"
	"github.com/arbiter-games/arbiter/reviews"
)

// reviewServer is a test server whose reviews (on an SQLite queue of
// their own, one worker) wait for gate to close before they compute.
func reviewServer(t *testing.T, limits reviews.Limits, gate <-chan struct{}) *testServer {
	t.Helper()
	return reviewServerOn(t, riverdb.Target{Address: filepath.Join(t.TempDir(), "queue.db")}, limits, gate)
}

// reviewServerOn is reviewServer on the queue q.
func reviewServerOn(t *testing.T, q riverdb.Target, limits reviews.Limits, gate <-chan struct{}) *testServer {
	t.Helper()
	compute := func(ctx context.Context, in reviews.Input) (reviews.Result, error) {
		select {
		case <-gate:
		case <-ctx.Done():
			return reviews.Result{}, ctx.Err()
		}
		return reviews.Engine(nil)(ctx, in)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	revs, err := reviews.Open(ctx, reviews.Config{Queue: q, Workers: 1, Compute: compute, Nodes: 300, Limits: limits, Poll: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return newTestServer(t, siteConfig{Reviews: revs})
}

// finishedGame plays plies moves of a Pommel game between two people,
// then seat 0 resigns.
func (ts *testServer) finishedGame(plies int) string {
	ts.t.Helper()
	c := ts.twoHumans()
	for ply := range plies {
		v := ts.game(c.ID)
		if code, why := ts.move(c.ID, c.Seats[v.ToMove].Token, v.Legal[0], ply); code != http.StatusOK {
			ts.t.Fatalf("move %d: %d %s", ply, code, why)
		}
	}
	if code, body := ts.do("POST", "/api/games/"+c.ID+"/resign", c.Seats[0].Token, nil); code != http.StatusOK {
		ts.t.Fatalf("resign: %d %s", code, body)
	}
	return c.ID
}

// reviewOf reads a review through the API.
func (ts *testServer) reviewOf(id string) (int, reviewView, []byte) {
	ts.t.Helper()
	code, body := ts.do("GET", "/api/games/"+id+"/review", "", nil)
	var v reviewView
	if code == http.StatusOK {
		if err := json.Unmarshal(body, &v); err != nil {
			ts.t.Fatalf("%s: %v", body, err)
		}
	}
	return code, v, body
}

// TestReviewAPI: a review asked for through the API goes queued, running
// and done, as GET shows; asked again it is the same one (200 once
// done); its moves carry the contract's fields, null marks included; the
// record then carries it as comments. Unknown games, games nobody asked
// about and unfinished games are refused.
func TestReviewAPI(t *testing.T) {
	t.Parallel()
	reviewAPI(t, riverdb.Target{Address: filepath.Join(t.TempDir(), "queue.db")})
}

// TestReviewAPIOnPostgres is TestReviewAPI with the queue in PostgreSQL
// (skipped under -short unless ARBITER_TEST_STORE=postgres).
func TestReviewAPIOnPostgres(t *testing.T) {
	t.Parallel()
	reviewAPI(t, riverdb.Target{Postgres: true, Address: newDatabase(t)})
}

func reviewAPI(t *testing.T, q riverdb.Target) {
	gate := make(chan struct{})
	ts := reviewServerOn(t, q, reviews.Limits{}, gate)
	if code, _, body := ts.reviewOf("nosuchgame"); code != http.StatusNotFound || errorCode(body) != codeNotFound {
		t.Fatalf("GET of an unknown game: %d %s", code, body)
	}
	if code, body := ts.do("POST", "/api/games/nosuchgame/review", "", nil); code != http.StatusNotFound {
		t.Fatalf("POST of an unknown game: %d %s", code, body)
	}
	long := strings.Repeat("z", 300)
	if code, body := ts.do("POST", "/api/games/"+long+"/review", "", nil); code != http.StatusNotFound || strings.Contains(string(body), long[:81]) {
		t.Fatalf("POST of a long unknown id: %d %s", code, body)
	}
	if code, _, body := ts.reviewOf(long); code != http.StatusNotFound || strings.Contains(string(body), long[:81]) {
		t.Fatalf("GET of a long unknown id: %d %s", code, body)
	}
	going := ts.twoHumans()
	if code, body := ts.do("POST", "/api/games/"+going.ID+"/review", "", nil); code != http.StatusConflict || errorCode(body) != codeGameNotOver {
		t.Fatalf("POST of a game that goes on: %d %s", code, body)
	}
	if code, _, _ := ts.reviewOf(going.ID); code != http.StatusNotFound {
		t.Fatalf("GET of a game nobody asked about: %d", code)
	}

	first := ts.finishedGame(6)
	code, body := ts.do("POST", "/api/games/"+first+"/review", "", nil)
	if code != http.StatusAccepted {
		t.Fatalf("POST: %d %s", code, body)
	}
	var asked reviewView
	if err := json.Unmarshal(body, &asked); err != nil || (asked.State != "queued" && asked.State != "running") ||
		len(asked.Moves) != 0 || asked.Accuracy == nil {
		t.Fatalf("POST answered %s (%v)", body, err)
	}
	waitFor(t, 2*time.Minute, "running review", func() bool { _, v, _ := ts.reviewOf(first); return v.State == "running" })
	// The one worker is busy: a second game's review waits, queued.
	second := ts.finishedGame(3)
	if code, body := ts.do("POST", "/api/games/"+second+"/review", "", nil); code != http.StatusAccepted {
		t.Fatalf("POST of the second: %d %s", code, body)
	}
	if _, v, body := ts.reviewOf(second); v.State != "queued" {
		t.Fatalf("the second while the worker is busy: %s", body)
	}
	// Asked again while it runs: the same review, 202.
	if code, body := ts.do("POST", "/api/games/"+first+"/review", "", nil); code != http.StatusAccepted || !strings.Contains(string(body), `"running"`) {
		t.Fatalf("POST again while running: %d %s", code, body)
	}
	close(gate)
	waitFor(t, 2*time.Minute, "done reviews", func() bool {
		_, a, _ := ts.reviewOf(first)
		_, b, _ := ts.reviewOf(second)
		return a.State == "done" && b.State == "done"
	})
	if code, body := ts.do("POST", "/api/games/"+first+"/review", "", nil); code != http.StatusOK {
		t.Fatalf("POST once done: %d %s", code, body)
	}
	_, done, body := ts.reviewOf(first)
	if len(done.Moves) != 6 || len(done.Accuracy) != 2 || len(done.Counts) != 2 || done.Nodes != 300 {
		t.Fatalf("the review: %s", body)
	}
	var raw struct {
		Moves []map[string]json.RawMessage `json:"moves"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		t.Fatal(err)
	}
	for i, m := range raw.Moves {
		for _, k := range []string{"ply", "move", "score", "best", "line", "mark", "seat", "winChance", "after", "loss"} {
			if _, ok := m[k]; !ok {
				t.Errorf("move %d has no %q: %v", i, k, m)
			}
		}
		if mark := string(m["mark"]); mark != "null" && mark != `"inaccuracy"` && mark != `"mistake"` && mark != `"blunder"` {
			t.Errorf("move %d: mark %s", i, mark)
		}
		if done.Moves[i].Ply != i {
			t.Errorf("move %d has ply %d", i, done.Moves[i].Ply)
		}
	}
	code, rec := ts.do("GET", "/api/games/"+first+"/record", "", nil)
	if code != http.StatusOK {
		t.Fatalf("record: %d", code)
	}
	text := strings.ReplaceAll(string(rec), "\n", " ") // the movetext wraps at 80 columns
	for _, m := range done.Moves {
		if !strings.Contains(text, m.Move+" {"+m.ScoreText) {
			t.Errorf("the record has no comment %q after %s:\n%s", m.ScoreText, m.Move, rec)
		}
	}
}

// TestReviewLimits: one client address may have so many reviews waiting
// at once; the next is refused 429 with Retry-After, and nothing queued.
func TestReviewLimits(t *testing.T) {
	gate := make(chan struct{})
	defer close(gate)
	ts := reviewServer(t, reviews.Limits{Pending: 2}, gate)
	var ids []string
	for range 3 {
		ids = append(ids, ts.finishedGame(2))
	}
	for _, id := range ids[:2] {
		if code, body := ts.do("POST", "/api/games/"+id+"/review", "", nil); code != http.StatusAccepted {
			t.Fatalf("POST: %d %s", code, body)
		}
	}
	resp, err := ts.http.Client().Post(ts.http.URL+"/api/games/"+ids[2]+"/review", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("the third: %d, Retry-After %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if code, _, _ := ts.reviewOf(ids[2]); code != http.StatusNotFound {
		t.Fatalf("the refused review: GET %d, want 404", code)
	}
}

// TestReviewOff: a server without reviews says so.
func TestReviewOff(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	id := ts.finishedGame(2)
	if code, body := ts.do("POST", "/api/games/"+id+"/review", "", nil); code != http.StatusServiceUnavailable {
		t.Fatalf("POST: %d %s", code, body)
	}
	if code, _, _ := ts.reviewOf(id); code != http.StatusNotFound {
		t.Fatalf("GET: %d", code)
	}
}
