package server

import (
	"bytes"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/analysis"
	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/endgame/endgametest"
	"github.com/arbiter-games/arbiter/game"
)

// buildTables builds the tables of up to pieces pieces of a game into a
// folder of the test and opens them: 2 pieces of Pommel take some 50 ms,
// 3 some 2 s.
func buildTables(t *testing.T, id string, options map[string]string, pieces int) *endgame.Tables {
	t.Helper()
	_, tables := endgametest.Build(t, id, options, pieces)
	return tables
}

// analysisWith is an analysis service with the tables, logging to log
// (nil: nowhere); the server closes it.
func analysisWith(t testing.TB, log *slog.Logger, tables ...*endgame.Tables) *analysis.Service {
	t.Helper()
	an, err := analysis.New(analysis.Config{Tables: tables, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	return an
}

// kindWord is a value's kind as docs/server.md says the API writes it.
func kindWord(k endgame.Kind) string {
	return [...]string{endgame.Win: "win", endgame.Loss: "loss", endgame.Draw: "draw"}[k]
}

// checkTablesAnswer checks the analysis of a position against the
// tables: the same value, and a move that keeps it (the child's value one
// ply nearer the end, seen from the other side; a draw for a draw).
func checkTablesAnswer(t *testing.T, tables *endgame.Tables, v analysisView) {
	t.Helper()
	g, err := endgame.GameOf(tables.Manifest().Game, tables.Manifest().Rules)
	if err != nil {
		t.Fatal(err)
	}
	want := endgametest.ProbeFEN(t, tables, g, v.FEN)
	if v.Tables == nil {
		t.Fatalf("%s: no tables in the answer, want %v", v.FEN, want)
	}
	if v.Tables.Value != kindWord(want.Kind) || v.Tables.Plies != want.Plies {
		t.Errorf("%s: the answer says %s %d, the tables %v", v.FEN, v.Tables.Value, v.Tables.Plies, want)
	}
	s, _ := g.ParseFEN(v.FEN)
	if err := game.PlayMoves(s, []string{v.Tables.Move}); err != nil {
		t.Fatalf("%s: the tables' move: %v", v.FEN, err)
	}
	child := endgame.Value{Kind: endgame.Loss} // the game won by the move
	if r := s.Result(); !r.Over() || r.Draw() {
		if child, err = tables.Probe(s); err != nil {
			t.Fatalf("after %s: %v", v.Tables.Move, err)
		}
	}
	wantChild := map[endgame.Kind]endgame.Value{endgame.Win: {Kind: endgame.Loss, Plies: want.Plies - 1},
		endgame.Loss: {Kind: endgame.Win, Plies: want.Plies - 1}, endgame.Draw: {Kind: endgame.Draw}}[want.Kind]
	if child != wantChild {
		t.Errorf("%s: the tables' move %s leads to %v, want %v", v.FEN, v.Tables.Move, child, wantChild)
	}
}

// TestAnalysisTables: with tables of up to two pieces of Pommel, the
// analysis of each material's longest win and loss says what the tables
// say, with a move that keeps the value; positions the tables do not
// hold (more pieces, other rules, another game, a game over) have none.
func TestAnalysisTables(t *testing.T) {
	tables := buildTables(t, "pommel", nil, 2)
	ts := newTestServer(t, siteConfig{Analysis: analysisWith(t, nil, tables)})
	for _, m := range tables.Manifest().Materials {
		for _, fen := range []string{m.LongestWinFEN, m.LongestLossFEN} {
			t.Run(m.Material+" "+fen, func(t *testing.T) {
				checkTablesAnswer(t, tables, ts.analysis("pommel", url.Values{"fen": {fen}}))
			})
		}
	}
	const kvm = "W:WKa4:Bc6"
	for _, tc := range []struct {
		name, game string
		q          url.Values
	}{
		{"the start", "pommel", nil},
		{"three pieces", "pommel", url.Values{"fen": {"W:WKa4:Bc6,d7"}}},
		{"other rules", "pommel", url.Values{"fen": {kvm}, "options": {"hop=any"}}},
		{"another board", "pommel-76", url.Values{"fen": {kvm}}},
		{"another game", "eximo", nil},
		{"a game over", "pommel", url.Values{"fen": {kvm}, "options": {"maxplies=1"}, "moves": {"a4-a5"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if v := ts.analysis(tc.game, tc.q); v.Tables != nil {
				t.Errorf("%s: tables say %+v of a position they do not hold", v.FEN, *v.Tables)
			}
		})
	}
}

// TestAnalysisTablesPlayOut follows the tables' moves from the longest
// win of two pieces, for both sides, through the API: the value counts
// down one ply a move, and the game ends won by the side that was to
// move, in exactly as many plies as the tables said, whose moves were
// replayed from the FEN each time.
func TestAnalysisTablesPlayOut(t *testing.T) {
	tables := buildTables(t, "pommel", nil, 2)
	ts := newTestServer(t, siteConfig{Analysis: analysisWith(t, nil, tables)})
	fen := tables.Manifest().Materials[1].LongestWinFEN
	first := ts.analysis("pommel", url.Values{"fen": {fen}})
	if first.Tables == nil || first.Tables.Value != "win" {
		t.Fatalf("%s: %+v, want a win", fen, first.Tables)
	}
	var moves []string
	v := first
	for v.Result == nil {
		checkTablesAnswer(t, tables, v)
		wantPlies := first.Tables.Plies - len(moves)
		if v.Tables.Plies != wantPlies {
			t.Fatalf("after %v: %s %d, want %d plies", moves, v.Tables.Value, v.Tables.Plies, wantPlies)
		}
		moves = append(moves, v.Tables.Move)
		v = ts.analysis("pommel", url.Values{"fen": {fen}, "moves": {strings.Join(moves, " ")}})
	}
	if len(moves) != first.Tables.Plies || len(v.Result.Winners) != 1 || v.Result.Winners[0] != first.ToMove {
		t.Errorf("after %v: %+v, want a win of seat %d in %d plies", moves, *v.Result, first.ToMove, first.Tables.Plies)
	}
	if v.Tables != nil {
		t.Errorf("a game over has tables: %+v", *v.Tables)
	}
}

// TestTablesOfAnotherGame: a folder of Pommel 76's tables serves Pommel
// 76 only; folders of two games serve each its own; two folders of the
// same game and rules are refused by the analysis service.
func TestTablesOfAnotherGame(t *testing.T) {
	p76 := buildTables(t, "pommel-76", nil, 2)
	pommel := buildTables(t, "pommel", nil, 2)
	g76, _ := game.New("pommel-76", nil)
	fen := p76.Manifest().Materials[1].LongestWinFEN
	if endgametest.ProbeFEN(t, p76, g76, fen).Kind != endgame.Win {
		t.Fatalf("%s is no win of Pommel 76", fen)
	}
	only76 := newTestServer(t, siteConfig{Analysis: analysisWith(t, nil, p76)})
	checkTablesAnswer(t, p76, only76.analysis("pommel-76", url.Values{"fen": {fen}}))
	if v := only76.analysis("pommel", url.Values{"fen": {"W:WKa4:Bc6"}}); v.Tables != nil {
		t.Errorf("Pommel 76's tables answer a Pommel position: %+v", *v.Tables)
	}
	both := newTestServer(t, siteConfig{Analysis: analysisWith(t, nil, pommel, p76)})
	checkTablesAnswer(t, p76, both.analysis("pommel-76", url.Values{"fen": {fen}}))
	checkTablesAnswer(t, pommel, both.analysis("pommel", url.Values{"fen": {"W:WKa4:Bc6"}}))
	again, err := endgame.Open(pommel.Dir(), mustGame(t, "pommel", nil))
	if err != nil {
		t.Fatal(err)
	}
	_, err = analysis.New(analysis.Config{Tables: []*endgame.Tables{pommel, p76, again}})
	if err == nil || !strings.Contains(err.Error(), "both of pommel (hop=friendly)") || strings.Contains(err.Error(), "\n") {
		t.Errorf("two folders of Pommel: %v, want a one-line refusal", err)
	}
}

func mustGame(t *testing.T, id string, options map[string]string) game.Game {
	t.Helper()
	g, err := game.New(id, options)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// lockedBuffer is a log the server writes from its handlers while the
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

// TestDamagedTables: a table file whose data no longer matches its
// checksum makes the analysis answer without tables, the position
// otherwise as usual, and the server logs it once however often it is
// asked; the other materials still answer.
func TestDamagedTables(t *testing.T) {
	tables := buildTables(t, "pommel", nil, 2)
	endgametest.Damage(t, tables.Dir(), "KvM.wdl")
	var log lockedBuffer
	ts := newTestServer(t, siteConfig{Analysis: analysisWith(t, slog.New(slog.NewTextHandler(&log, nil)), tables)})
	for _, fen := range []string{"W:WKa4:Bc6", "B:WKa4:Bc6", "W:WKa4:Bc6"} {
		v := ts.analysis("pommel", url.Values{"fen": {fen}})
		if v.Tables != nil || len(v.Legal) == 0 {
			t.Errorf("%s with a damaged table: tables %+v, %d legal moves; want no tables, the moves", fen, v.Tables, len(v.Legal))
		}
	}
	if n := strings.Count(log.String(), "damaged"); n != 1 {
		t.Errorf("the damaged table is logged %d times, want once:\n%s", n, log.String())
	}
	checkTablesAnswer(t, tables, ts.analysis("pommel", url.Values{"fen": {"W:WKa1:BKb3"}}))
}

// findDraw is the first position, in the order of the cells, of a
// White captain against a Black captain and soldier, White to move, that
// the tables of three pieces value as a draw; "" when there is none.
func findDraw(t *testing.T, tables *endgame.Tables, g game.Game) string {
	t.Helper()
	s := g.Start()
	pl := s.(game.Placer)
	cells := board.Cell(g.Board().Len())
	for wk := range cells {
		for bk := range cells {
			for bm := range cells {
				pieces := []game.Placed{{Cell: wk, Piece: game.Piece{Owner: 0, Rank: game.King}},
					{Cell: bk, Piece: game.Piece{Owner: 1, Rank: game.King}}, {Cell: bm, Piece: game.Piece{Owner: 1, Rank: game.Man}}}
				if pl.Place(pieces, 0) != nil || s.Result().Over() {
					continue
				}
				if v, err := tables.Probe(s); err == nil && v.Kind == endgame.Draw {
					return s.FEN()
				}
			}
		}
	}
	return ""
}

// TestAnalysisTablesDraw: with tables of three pieces, a drawn captain
// against captain and soldier is answered as a draw with a move that
// keeps it, and its longest win as the tables say.
func TestAnalysisTablesDraw(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the tables of three pieces, some 2 s")
	}
	tables := buildTables(t, "pommel", nil, 3)
	ts := newTestServer(t, siteConfig{Analysis: analysisWith(t, nil, tables)})
	fen := findDraw(t, tables, mustGame(t, "pommel", nil))
	if fen == "" {
		t.Fatal("the tables of three pieces hold no draw of KvKM")
	}
	v := ts.analysis("pommel", url.Values{"fen": {fen}})
	checkTablesAnswer(t, tables, v)
	if v.Tables.Value != "draw" || v.Tables.Plies != 0 {
		t.Errorf("%s: %+v, want a draw", fen, *v.Tables)
	}
	for _, m := range tables.Manifest().Materials {
		if m.Material == "KvKM" {
			checkTablesAnswer(t, tables, ts.analysis("pommel", url.Values{"fen": {m.LongestWinFEN}}))
		}
	}
}

// TestEnginesGetTables checks the hall hands the tables to the engines of
// games they fit, and to no others: the AI of a Pommel game with tables
// gets one option (ai.WithTables), of Pommel 76 none.
func TestEnginesGetTables(t *testing.T) {
	tables := buildTables(t, "pommel", nil, 2)
	var mu sync.Mutex
	given := map[string][]int{} // the options of each engine made, by spec
	engines := func(spec string, seed uint64, opts ...ai.Option) (ai.Engine, error) {
		mu.Lock()
		given[spec] = append(given[spec], len(opts))
		mu.Unlock()
		return ai.New(spec, seed, opts...)
	}
	ts := newTestServer(t, siteConfig{Analysis: analysisWith(t, nil, tables), Engines: engines})
	ts.create(map[string]any{"game": "pommel", "fen": "B:Wa1:Bf7", "seats": []string{"human", "ai:level=6"}})
	ts.create(map[string]any{"game": "pommel-76", "seats": []string{"human", "ai:level=5"}})
	mu.Lock()
	defer mu.Unlock()
	six, five := given["ai:level=6"], given["ai:level=5"]
	if len(six) == 0 || len(five) == 0 || slices.ContainsFunc(six, func(n int) bool { return n != 1 }) || slices.ContainsFunc(five, func(n int) bool { return n != 0 }) {
		t.Errorf("options given to each engine made: %v; want one for the Pommel game's, none for Pommel 76's", given)
	}
}
