package queue

import (
	"context"
	"math"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/lab"
	"github.com/arbiter-games/arbiter/match"
)

func TestParseTarget(t *testing.T) {
	long := "postgres://u@h/" + strings.Repeat("d", MaxURL)
	for _, c := range []struct {
		text     string
		postgres bool
		want     string // a part of the refusal, "" for none; for a PostgreSQL URL, the address if not the text
	}{
		{"postgres://arbiter@db.example:5432/lab", true, ""},
		{"postgresql://arbiter@db.example/lab?sslmode=disable", true, ""},
		{"POSTGRES://arbiter@db.example/lab", true, "postgres://arbiter@db.example/lab"},
		{"runs/queue.db", false, ""},
		{"/tmp/queue with spaces.db", false, ""},
		{"", false, "--queue is empty"},
		{"   ", false, "--queue is empty"},
		{"mysql://root@db/lab", false, `--queue "mysql://root@db/lab": want a postgres:// URL`},
		{"https://user:hunter2@example.org/", false, "want a postgres:// URL"},
		{"postgres://u@h:99999999/db", false, "not a PostgreSQL URL"},
		{"postgres://u:hunter2@h:99999999/db", false, "xxxxx"},
		{"queue\n.db", false, "has a control character"},
		{long, false, "longer than 2048 bytes"},
	} {
		got, err := ParseTarget(c.text)
		address := c.text
		if c.postgres && c.want != "" {
			address, c.want = c.want, ""
		}
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.text, err)
		case c.want == "" && (got.Postgres != c.postgres || got.Address != address):
			t.Errorf("%q: got %+v", c.text, got)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q: got %v, want %q", c.text, err, c.want)
		case err != nil && (strings.Contains(err.Error(), "hunter2") || len(err.Error()) > 200):
			t.Errorf("%q: the refusal shows the password or too much: %v", c.text, err)
		}
	}
}

func TestOpenRefuses(t *testing.T) {
	dir := t.TempDir()
	notDB := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(notDB, []byte(strings.Repeat("not a database\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		target Target
		create bool
		want   string
	}{
		{"a folder", Target{Address: dir}, true, "is a folder"},
		{"a missing file, for a worker", Target{Address: filepath.Join(dir, "typo.db")}, false, "no such file: start the run first"},
		{"a file that is no database", Target{Address: notDB}, true, "cannot open it as an SQLite database: file is not a database"},
		{"a missing folder", Target{Address: filepath.Join(dir, "no", "such", "q.db")}, true, "--queue"},
		{"no PostgreSQL there", Target{Postgres: true, Address: "postgres://nobody:secret@127.0.0.1:1/lab?connect_timeout=2"}, false,
			"cannot reach the queue's database"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*ConnectTimeout)
			defer cancel()
			start := time.Now()
			q, err := Open(ctx, c.target, c.create)
			if err == nil {
				q.Close()
				t.Fatal("opened")
			}
			if !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "secret") {
				t.Errorf("got %v, want %q (and no password)", err, c.want)
			}
			if time.Since(start) > 5*time.Second {
				t.Errorf("took %s to refuse", time.Since(start))
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "typo.db")); err == nil {
		t.Error("a worker made the file it was given by mistake")
	}
}

func TestWorkConfigCheck(t *testing.T) {
	ok := WorkConfig{Concurrency: 1, RescueAfter: time.Minute, Players: enginePlayer}
	if err := ok.Check(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		edit func(*WorkConfig)
		want string
	}{
		{func(c *WorkConfig) { c.Concurrency = 0 }, "--concurrency 0: want 1 to 1024"},
		{func(c *WorkConfig) { c.Concurrency = -3 }, "--concurrency -3"},
		{func(c *WorkConfig) { c.Concurrency = math.MaxInt }, "--concurrency 9223372036854775807"},
		{func(c *WorkConfig) { c.RescueAfter = 0 }, "--rescue-after 0s: want 1s to 168h0m0s"},
		{func(c *WorkConfig) { c.RescueAfter = -time.Second }, "--rescue-after -1s"},
		{func(c *WorkConfig) { c.RescueAfter = time.Millisecond }, "--rescue-after 1ms"},
		{func(c *WorkConfig) { c.RescueAfter = math.MaxInt64 }, "--rescue-after 2562047h"},
		{func(c *WorkConfig) { c.Poll = -time.Second }, "poll interval -1s"},
		{func(c *WorkConfig) { c.Players = nil }, "needs a way to make players"},
	} {
		wc := ok
		c.edit(&wc)
		if err := wc.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
		if err := (&Queue{}).Work(context.Background(), wc); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Work: got %v, want %q", err, c.want)
		}
	}
}

func TestRunIDNamesWhatDecidesTheGames(t *testing.T) {
	base := `{"game":"pommel","options":{"maxplies":"200"},"players":["ab"],"movetime":"0s","depth":2,"seed":1,"games":10,"date":"2026.01.02","label":"a"}`
	same := []string{
		`{"game":"pommel","options":{"maxplies":"200"},"players":["ab"],"movetime":"0s","depth":2,"seed":1,"games":20,"date":"2027.05.05"}`,
		`{"label":"b","seed":1,"depth":2,"movetime":"0s","players":["ab"],"options":{"maxplies":"200"},"game":"pommel"}`,
	}
	other := []string{
		`{"game":"pommel","options":{"maxplies":"200"},"players":["ab"],"movetime":"0s","depth":2,"seed":2}`,
		`{"game":"pommel","options":{"maxplies":"100"},"players":["ab"],"movetime":"0s","depth":2,"seed":1}`,
		`{"game":"pommel","options":{"maxplies":"200"},"players":["ab"],"movetime":"0s","depth":2,"seed":1,"openings":["a1"]}`,
		`not json`,
	}
	id := RunID([]byte(base))
	for _, m := range same {
		if got := RunID([]byte(m)); got != id {
			t.Errorf("%s: run %s, want %s (the same games)", m, got, id)
		}
	}
	for _, m := range other {
		if got := RunID([]byte(m)); got == id {
			t.Errorf("%s: run %s, the same as another run's", m, got)
		}
	}
}

func TestQueuedManifestRebuildsTheRun(t *testing.T) {
	cfg := quickRun(t, 3)
	cfg.From = ""
	data := manifestOf(t, cfg)
	back, err := lab.ConfigFromManifest(data, enginePlayer)
	if err != nil {
		t.Fatal(err)
	}
	if back.Game.ID() != "pommel" || back.Games != 3 || back.Seed != cfg.Seed || back.Limits != cfg.Limits ||
		back.OpeningPlies != cfg.OpeningPlies || len(back.Players) != 2 || back.Players[1].Spec != "random" {
		t.Errorf("rebuilt %+v, want %+v", back, cfg)
	}
}

// TestQueuedManifestKeepsTheBook: a run with an openings book travels
// with its book, so that a worker plays the book's lines.
func TestQueuedManifestKeepsTheBook(t *testing.T) {
	cfg := quickRun(t, 4)
	book, err := match.ParseOpenings(cfg.Game.Start(), "a1-a3 # one\n\n"+cfg.Game.Start().FEN()+"\n")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Openings = book
	back, err := lab.ConfigFromManifest(manifestOf(t, cfg), enginePlayer)
	if err != nil {
		t.Fatal(err)
	}
	if match.BookHash(back.Openings) != match.BookHash(book) || len(back.Openings) != 2 {
		t.Errorf("rebuilt book %v, want %v", back.Openings, book)
	}
}

// TestOpenGivesUpOnASilentServer: a server that takes the connection and
// never answers (a firewall, a hung database) is an error within the
// URL's connect_timeout (at most ConnectTimeout), not a hang.
func TestOpenGivesUpOnASilentServer(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: waits a second for a silent server")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, never answered
		}
	}()
	start := time.Now()
	_, err = Open(context.Background(), Target{Postgres: true, Address: "postgres://u@" + l.Addr().String() + "/lab?connect_timeout=1"}, false)
	if err == nil || !strings.Contains(err.Error(), "cannot reach the queue's database") {
		t.Fatalf("got %v", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("gave up after %s, want about a second", took)
	}
}
