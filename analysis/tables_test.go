package analysis

import (
	"bytes"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/endgame/endgametest"
	"github.com/arbiter-games/arbiter/game"
)

// buildTables builds the tables of up to pieces pieces of a game into a
// folder of the test and opens them: 2 pieces of Pommel take some 50 ms.
func buildTables(t testing.TB, id string, pieces int) *endgame.Tables {
	t.Helper()
	_, tables := endgametest.Build(t, id, nil, pieces)
	return tables
}

func mustGame(t testing.TB, id string, options map[string]string) game.Game {
	t.Helper()
	g, err := game.New(id, options)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// kindWord is a value's kind as docs/server.md says the API writes it.
func kindWord(k endgame.Kind) string {
	return [...]string{endgame.Win: "win", endgame.Loss: "loss", endgame.Draw: "draw"}[k]
}

// lockedBuffer is a log the service writes from its searches while the
// test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestTablesOfEachGame: a service answers a position of the tables'
// game and rules as they say, and none of other rules, another game or
// more pieces; its engine options carry the tables for their game and
// rules only.
func TestTablesOfEachGame(t *testing.T) {
	tables := buildTables(t, "pommel", 2)
	s := newService(t, Config{Tables: []*endgame.Tables{tables}})
	pommel := mustGame(t, "pommel", nil)
	const fen = "W:WKa4:Bc6"
	st, err := pommel.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	want := endgametest.ProbeFEN(t, tables, pommel, fen)
	if a := s.Tables(st); a == nil || a.Value != kindWord(want.Kind) || a.Plies != want.Plies || !slices.Contains(game.MoveTexts(st), a.Move) {
		t.Errorf("%s: %+v, want %v with a legal move", fen, a, want)
	}
	for _, tc := range []struct {
		name, game, fen string
		options         map[string]string
	}{
		{"three pieces", "pommel", "W:WKa4:Bc6,d7", nil},
		{"other rules", "pommel", fen, map[string]string{"hop": "any"}},
		{"another board", "pommel-76", fen, nil},
	} {
		g := mustGame(t, tc.game, tc.options)
		other, err := g.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if a := s.Tables(other); a != nil {
			t.Errorf("%s: the tables say %+v", tc.name, *a)
		}
		if opts := s.EngineOptions(g); tc.name != "three pieces" && len(opts) != 0 {
			t.Errorf("%s: %d engine options, want none", tc.name, len(opts))
		}
	}
	if opts := s.EngineOptions(pommel); len(opts) != 1 {
		t.Errorf("Pommel: %d engine options, want the tables", len(opts))
	}
	if opts := newService(t, Config{}).EngineOptions(pommel); len(opts) != 0 {
		t.Errorf("no tables: %d engine options, want none", len(opts))
	}
}

// TestTablesRefused: two folders of the same game and rules are refused
// in one line, by New and by CheckTables alike; one folder each is not.
func TestTablesRefused(t *testing.T) {
	tables := buildTables(t, "pommel", 2)
	again, err := endgame.Open(tables.Dir(), mustGame(t, "pommel", nil))
	if err != nil {
		t.Fatal(err)
	}
	twice := []*endgame.Tables{tables, again}
	_, err = New(Config{Tables: twice})
	for name, err := range map[string]error{"New": err, "CheckTables": CheckTables(twice)} {
		if err == nil || !strings.Contains(err.Error(), "both of pommel (hop=friendly)") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s of two folders of Pommel: %v, want a one-line refusal", name, err)
		}
	}
	if err := CheckTables([]*endgame.Tables{tables}); err != nil {
		t.Errorf("one folder: %v", err)
	}
}

// TestTableFailuresLoggedAtMost: distinct failures are logged once each,
// up to a bound, so that no folder can fill the log.
func TestTableFailuresLoggedAtMost(t *testing.T) {
	tables := buildTables(t, "pommel", 2)
	var log lockedBuffer
	ts, err := newTableSet([]*endgame.Tables{tables}, slog.New(slog.NewTextHandler(&log, nil)))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 * maxLoggedTableFailures {
		ts.logOnce(tables, fmt.Errorf("failure %d", i%(maxLoggedTableFailures+10)))
	}
	if n := strings.Count(log.String(), "failure "); n != maxLoggedTableFailures {
		t.Errorf("%d lines logged, want %d", n, maxLoggedTableFailures)
	}
}

// TestTablesAnswerConcurrent: requests at once for positions of a
// material not read yet all get the tables' answer (run with -race).
func TestTablesAnswerConcurrent(t *testing.T) {
	tables := buildTables(t, "pommel", 2)
	g := mustGame(t, "pommel", nil)
	ts, err := newTableSet([]*endgame.Tables{tables}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	fens := []string{"W:WKa4:Bc6", "B:WKa4:Bc6", "W:Wb1:Bd7", "B:Wa1:Bf7"}
	answers := make([]*TablesAnswer, 4*len(fens))
	var wg sync.WaitGroup
	for i := range answers {
		s, err := g.ParseFEN(fens[i%len(fens)])
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() { answers[i] = ts.answer(s) })
	}
	wg.Wait()
	for i, a := range answers {
		want := endgametest.ProbeFEN(t, tables, g, fens[i%len(fens)])
		if a == nil || a.Value != kindWord(want.Kind) || a.Plies != want.Plies {
			t.Errorf("%s: %+v, want %v", fens[i%len(fens)], a, want)
		}
	}
}

// BenchmarkTablesAnswer measures what the tables add to an analysis: the
// probe of a position of two pieces and of each of its children.
func BenchmarkTablesAnswer(b *testing.B) {
	_, tables := endgametest.Build(b, "pommel", nil, 2)
	g, err := game.New("pommel", nil)
	if err != nil {
		b.Fatal(err)
	}
	ts, err := newTableSet([]*endgame.Tables{tables}, slog.New(slog.DiscardHandler))
	if err != nil {
		b.Fatal(err)
	}
	s, err := g.ParseFEN(tables.Manifest().Materials[1].LongestWinFEN)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if ts.answer(s) == nil {
			b.Fatal("no answer")
		}
	}
}
