package site

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/analysis"
	_ "github.com/arbiter-games/arbiter/games/all"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/internal/riverdb"
	"github.com/arbiter-games/arbiter/notify"
	"github.com/arbiter-games/arbiter/puzzles"
	"github.com/arbiter-games/arbiter/reviews"
	"github.com/arbiter-games/arbiter/server"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/sqlite"
)

// TestSiteServes: a site put together over a fresh store starts and
// plays: a game created through its API is the hall's.
func TestSiteServes(t *testing.T) {
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() }) // last: after any site startSite started
	srv, hs := startSite(t, Config{Store: st, Hall: hall.Config{Workers: 1}})
	resp, err := http.Get(hs.URL + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /healthz: %d", resp.StatusCode)
	}
	created, err := srv.Hall().Create(context.Background(), hall.NewGame{Game: "pommel", Seats: []string{"human", "human"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Get(context.Background(), created.ID); err != nil {
		t.Fatalf("the hall's game %s is not in the site's store: %v", created.ID, err)
	}
}

// TestSiteRefusals: New refuses no store, and each service's refusal of
// its own configuration, such as analysis threads below 0, above
// ai.MaxThreads or above the analysis workers.
func TestSiteRefusals(t *testing.T) {
	if _, err := New(Config{}); err == nil || err.Error() != "site: no store" {
		t.Errorf("no store: %v", err)
	}
	tests := []struct {
		workers, threads int
		want             string
	}{
		{2, -1, "analysis threads -1: want 1 to 64, or 0 for 1"},
		{2, 65, "analysis threads 65: want 1 to 64, or 0 for 1"},
		{2, 1 << 40, "analysis threads 1099511627776: want 1 to 64, or 0 for 1"},
		{2, 3, "analysis threads 3: at most the analysis workers (2)"},
		{1, 2, "analysis threads 2: at most the analysis workers (1)"},
	}
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() }) // last: after any site startSite started
	for _, tc := range tests {
		_, err := New(Config{Store: st, Analysis: analysis.Config{Workers: tc.workers, Threads: tc.threads}})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%d threads of %d workers: error %v, want %q", tc.threads, tc.workers, err, tc.want)
		}
	}
}

// TestSiteAutoReview: with AutoReview, a rated game that ends is put on
// the review queue by itself; without reviews, AutoReview is refused.
func TestSiteAutoReview(t *testing.T) {
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() }) // last: after any site startSite started
	if _, err := New(Config{Store: st, AutoReview: true}); err == nil || !strings.Contains(err.Error(), "need the reviews service") {
		t.Fatalf("AutoReview without reviews: %v", err)
	}
	queue := filepath.Join(t.TempDir(), "queue.db")
	srv, hs := startSite(t, Config{Store: st, Hall: hall.Config{Workers: 1}, AutoReview: true,
		Reviews: &reviews.Config{Queue: riverdb.Target{Address: queue}}})
	if info, err := os.Stat(queue); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("the queue file: %v %v, want mode 0600", info, err)
	}
	ctx := context.Background()
	for _, a := range []store.Account{{ID: "u-ann", Name: "ann"}, {ID: "u-bob", Name: "bob"}} {
		a.Created = time.Now()
		if err := st.CreateAccount(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	created, err := srv.Hall().Create(ctx, hall.NewGame{Game: "pommel", Seats: []string{"human", "human"}, Rated: true, Days: 3,
		Accounts: []hall.SeatAccount{{Seat: 0, ID: "u-ann", Name: "ann"}, {Seat: 1, ID: "u-bob", Name: "bob"}}})
	if err != nil {
		t.Fatal(err)
	}
	v, err := srv.Hall().Get(ctx, created.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Hall().Move(ctx, created.ID, hall.Who{Account: "u-ann"}, v.Legal[0], 0); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Hall().Resign(ctx, created.ID, hall.Who{Account: "u-bob"}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		resp, err := http.Get(hs.URL + "/api/games/" + created.ID + "/review")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the rated game's review was not asked for: GET answers %d", resp.StatusCode)
		}
		time.Sleep(10 * time.Millisecond) // polling the condition
	}
}

// TestSiteFoundPuzzles: the puzzle of a reviewed game's position, found
// by the review's worker, joins the site's puzzles, linked to the game.
func TestSiteFoundPuzzles(t *testing.T) {
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() }) // last: after any site startSite started
	srv, hs := startSite(t, Config{Store: st, Hall: hall.Config{Workers: 1},
		Reviews: &reviews.Config{Queue: riverdb.Target{Address: filepath.Join(t.TempDir(), "queue.db")}, Workers: 1, Nodes: 500,
			Puzzles: true, Poll: 20 * time.Millisecond},
		Puzzles: puzzles.Config{FeedEvery: 20 * time.Millisecond}})
	ctx := context.Background()
	// Black to move: only g2xe4 wins (package puzzle's test); Black
	// plays e3xg3 instead, then White resigns.
	created, err := srv.Hall().Create(ctx, hall.NewGame{Game: "eximo", Seats: []string{"human", "human"}, FEN: "B:Wf3,h3,e8,f8:Bf1,g2,e3,c2"})
	if err != nil {
		t.Fatal(err)
	}
	token := map[int]string{}
	for _, inv := range created.Seats {
		token[inv.Seat] = inv.Token
	}
	black := created.Game.ToMove
	if _, err := srv.Hall().Move(ctx, created.ID, hall.Who{Token: token[black]}, "e3xg3", 0); err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Hall().Resign(ctx, created.ID, hall.Who{Token: token[1-black]}); err != nil {
		t.Fatal(err)
	}
	post(t, hs.URL+"/api/games/"+created.ID+"/review")
	var review struct {
		State   string
		Puzzles []string
	}
	waitFor(t, func() bool {
		getJSON(t, hs.URL+"/api/games/"+created.ID+"/review", &review)
		return review.State == "done"
	})
	if len(review.Puzzles) != 1 {
		t.Fatalf("the review found puzzles %v, want one", review.Puzzles)
	}
	var p struct {
		Solution   []string
		SourceGame string
	}
	waitFor(t, func() bool {
		return getJSON(t, hs.URL+"/api/puzzles/eximo?id="+review.Puzzles[0], &p) == http.StatusOK
	})
	if p.SourceGame != created.ID || len(p.Solution) == 0 || p.Solution[0] != "g2xe4" {
		t.Fatalf("the found puzzle: %+v, want g2xe4 first, from game %s", p, created.ID)
	}
}

// post POSTs an empty JSON object to url.
func post(t *testing.T, url string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		t.Fatalf("POST %s: %d", url, resp.StatusCode)
	}
}

// getJSON GETs url into v (when 200) and answers the status.
func getJSON(t *testing.T, url string, v any) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
			t.Fatal(err)
		}
	}
	return resp.StatusCode
}

// waitFor polls cond, generously: a busy machine is slow, not wrong.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(3 * time.Minute); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the condition never held")
		}
	}
}

// startSite makes and starts the site of cfg and serves it over HTTP,
// both closed when the test ends.
func startSite(t *testing.T, cfg Config) (*server.Server, *httptest.Server) {
	t.Helper()
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	return srv, hs
}

// TestSiteNotifies: with a notification service, the hall's moves reach
// it (a correspondence move enqueues the opponent's turn); its own
// refusal of its configuration is the site's.
func TestSiteNotifies(t *testing.T) {
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	mailer, err := notify.NewSMTP(notify.SMTPConfig{Host: "localhost", Port: 25, From: "a@example.org"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(Config{Store: st, Notify: &notify.Config{Mailer: mailer}}); err == nil || !strings.Contains(err.Error(), "public URL") {
		t.Errorf("mail without a public URL: %v", err)
	}
	srv, _ := startSite(t, Config{Store: st, Hall: hall.Config{Workers: 1}, Notify: &notify.Config{}})
	for _, name := range []string{"ada", "bob"} {
		if err := st.CreateAccount(context.Background(), store.Account{ID: "id-" + name, Name: name, Created: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	g, err := srv.Hall().Create(context.Background(), hall.NewGame{Game: "pommel", Seats: []string{"human", "human"}, Days: 3,
		Accounts: []hall.SeatAccount{{Seat: 0, ID: "id-ada", Name: "ada"}, {Seat: 1, ID: "id-bob", Name: "bob"}}})
	if err != nil {
		t.Fatal(err)
	}
	v, err := srv.Hall().Get(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Hall().Move(context.Background(), g.ID, hall.Who{Account: "id-ada"}, v.Legal[0], 0); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		rows, err := st.OutboxOf(context.Background(), "id-bob")
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) == 1 && rows[0].Kind == notify.KindTurn && rows[0].Game == g.ID {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("bob's outbox %+v: want his turn", rows)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
