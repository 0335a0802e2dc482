package lab

import (
	"reflect"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/all"
)

// checkersShort is a Checkers 2011 game of six plies with maxplies=6: four
// quiet plies, then White's forced capture d4xf6 (the only legal move) and
// Black's capture f7xf5 (one of two), where the ply cap draws.
func checkersShort() (Manifest, GameData) {
	m := Manifest{Game: "checkers-2011", Options: map[string]string{"maxplies": "6"}, Players: []string{"ab"}}
	d := GameData{Index: 3, Seats: []string{"ab", "ab"}, Opening: []string{"d2-d3", "e7-e6", "d3-d4", "e6-e5"},
		Moves:  []Search{{Move: "d4xf6", Score: 50, Depth: 2, Nodes: 10}, {Move: "f7xf5", Score: 30, Depth: 2, Nodes: 12}},
		Reason: "ply cap", Winners: []int{}}
	return m, d
}

func TestAnalyseGameCountsAKnownGame(t *testing.T) {
	m, d := checkersShort()
	a, err := Analyse(m, []GameData{d})
	if err != nil {
		t.Fatal(err)
	}
	// Legal moves as 'arbiter moves' lists them after each prefix.
	legal := []int{22, 22, 27, 27, 1, 2}
	for i, ps := range a.Plies {
		if ps.Legal != legal[i] || ps.Ply != i+1 || ps.Game != 3 {
			t.Errorf("ply %d: %+v, want %d legal moves", i+1, ps, legal[i])
		}
		if ps.Searched != (i >= 4) || ps.Capture != (i >= 4) {
			t.Errorf("ply %d: searched %v capture %v", i+1, ps.Searched, ps.Capture)
		}
	}
	// White's +50 is +50 for White; Black's +30 is -30 for White: both
	// within half a piece of level, so no lead change.
	if a.Plies[4].Eval != 50 || a.Plies[5].Eval != -30 || a.Plies[5].Mover != 1 {
		t.Errorf("evaluations %d, %d, want 50, -30", a.Plies[4].Eval, a.Plies[5].Eval)
	}
	g := a.Games[0]
	want := GameStats{Index: 3, Seats: []string{"ab", "ab"}, Result: "1/2-1/2", Reason: "ply cap", Winners: []int{},
		Plies: 6, Decisions: 5, Branching: 101.0 / 6, Captures: 2, Taken: 2, LeadChanges: 0, Moves: []string{"d2-d3", "e7-e6", "d3-d4", "e6-e5", "d4xf6", "f7xf5"},
		// White captured first; one capture each is no "most", and the
		// pieces were level after ply 3: nobody ahead at half-time.
		Signals: Signals{"first capture": 0},
		Measures: GameMeasures{
			// The five positions with a choice offer 22, 22, 27, 27 and 2
			// moves: 100/5.
			DecisionFactor: 20,
			// Six one-cell steps and jumps of two cells: 4 + 2 + 2 of 6.
			Travel: 8.0 / 6,
			// Moves touch d2 d3 e7 e6 d4 e5 f6 f7 f5 (e5 and f6 taken):
			// 9 of 64 cells; the 32 start cells and d3 e6 d4 e5 f6 f5
			// held pieces: 38 of 64. No position repeats.
			CoverageUsed: 9.0 / 64, CoverageOccupied: 38.0 / 64, Evaluated: true,
		}}
	// The measures by the static evaluation are checked on their own
	// below; here they must be within their ranges.
	gm := g.Measures
	if gm.Narrowness <= 0 || gm.Narrowness > 1 || gm.Uncertainty <= 0 || gm.Uncertainty > 1 || gm.Stability < 0 ||
		gm.ClarityVariance < 0 {
		t.Errorf("measures by the evaluation out of range: %+v", gm)
	}
	g.Measures.Narrowness, g.Measures.ClarityVariance, g.Measures.Uncertainty, g.Measures.Stability = 0, 0, 0, 0
	if !reflect.DeepEqual(g, want) {
		t.Errorf("game stats\n%+v, want\n%+v", g, want)
	}
}

func TestAnalyseRefusesAGameThatDoesNotAddUp(t *testing.T) {
	m, d := checkersShort()
	bad := d
	bad.Reason = "no moves"
	bad.Winners = []int{0}
	illegal := d
	illegal.Moves = []Search{{Move: "d4-d5"}, {Move: "f7xf5"}}
	for _, tt := range []struct {
		d    GameData
		want string
	}{{bad, "the moves end in"}, {illegal, "ply 5"}} {
		if _, err := Analyse(m, []GameData{tt.d}); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Analyse: %v, want an error with %q", err, tt.want)
		}
	}
}

func TestCountReadsEffects(t *testing.T) {
	w, b := game.Piece{Owner: 0}, game.Piece{Owner: 1}
	wk := game.Piece{Owner: 0, Rank: game.King}
	tests := []struct {
		name string
		e    game.Effects
		want PlyStats
	}{
		{"quiet step", game.Effects{Path: []string{"a1", "a2"}, Moving: []game.Piece{w}, Landed: []game.Piece{w}}, PlyStats{}},
		{"chain of two jumps, promoted", game.Effects{Capture: true, Path: []string{"a1", "c3", "e5"}, Moving: []game.Piece{w},
			Landed: []game.Piece{wk}, Promoted: "e5",
			Captured: []game.Capture{{Cell: "b2", Leg: 1, Taken: []game.Piece{b}}, {Cell: "d4", Leg: 2, Taken: []game.Piece{b}}}},
			PlyStats{Capture: true, Chain: true, Promoted: true, Taken: 2, Cells: 2}},
		{"leap over a line of two, one leg", game.Effects{Capture: true, Path: []string{"a1", "a4"}, Moving: []game.Piece{w},
			Landed:   []game.Piece{w},
			Captured: []game.Capture{{Cell: "a2", Leg: 1, Taken: []game.Piece{b}}, {Cell: "a3", Leg: 1, Taken: []game.Piece{b, b}}}},
			PlyStats{Capture: true, Leaps: 1, Taken: 3, Cells: 2}},
		{"step that sandwiches", game.Effects{Path: []string{"a1", "a2"}, Moving: []game.Piece{w}, Landed: []game.Piece{w},
			Captured: []game.Capture{{Cell: "c2", Leg: 0, Taken: []game.Piece{b}}}},
			PlyStats{Sandwiches: 1, Taken: 1, Cells: 1}},
		{"drops after a capture that removes the mover", game.Effects{Capture: true, Path: []string{"a1", "c3"},
			Moving: []game.Piece{w}, Removed: true, Captured: []game.Capture{{Cell: "b2", Leg: 1, Taken: []game.Piece{b}}},
			Drops: []game.Drop{{Cell: "a1", Piece: w}, {Cell: "b1", Piece: w}}},
			PlyStats{Capture: true, Drops: 2, Taken: 1, Cells: 1}},
		{"pile onto another's pile, scoring", game.Effects{Player: 0, Path: []string{"a1", "a2"}, Moving: []game.Piece{w},
			Landed: []game.Piece{w, b, w}, ScoreChange: []int{3, 0}},
			PlyStats{Takeover: true, ScoreChanged: true, Scored: true}},
		{"taking a scored pile lowers another's score", game.Effects{Player: 1, Path: []string{"a1", "a2"}, Moving: []game.Piece{b},
			Landed: []game.Piece{w, b}, ScoreChange: []int{-1, 0}},
			PlyStats{Takeover: true, ScoreChanged: true}},
		{"pile onto one's own pile", game.Effects{Player: 0, Path: []string{"a1", "a2"}, Moving: []game.Piece{w},
			Landed: []game.Piece{w, w}, ScoreChange: []int{0, 0}}, PlyStats{}},
		{"prisoners are no takeover", game.Effects{Player: 0, Capture: true, Path: []string{"a1", "c3"}, Moving: []game.Piece{w},
			Prisoners: []game.Piece{b}, Landed: []game.Piece{b, w},
			Captured: []game.Capture{{Cell: "b2", Leg: 1, Taken: []game.Piece{b}}}},
			PlyStats{Capture: true, Taken: 1, Cells: 1}},
	}
	for _, tt := range tests {
		var got PlyStats
		got.count(tt.e)
		if got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestLeadChanges(t *testing.T) {
	searched := func(mover, score int, players int) PlyStats {
		return PlyStats{Searched: true, Mover: mover, Score: score, Eval: evalFor(score, mover, players)}
	}
	tests := []struct {
		name    string
		plies   []PlyStats
		players int
		want    int
	}{
		{"none", nil, 2, 0},
		{"White ahead throughout", []PlyStats{searched(0, 120, 2), searched(1, -110, 2), searched(0, 140, 2)}, 2, 0},
		// +120 for White, then Black's +150 (-150 for White), then
		// White's -5 (level), then +60: two changes, the level one none.
		{"swing and back, level evaluations ignored", []PlyStats{searched(0, 120, 2), searched(1, 0, 2), searched(1, 150, 2),
			searched(0, -5, 2), searched(0, 60, 2)}, 2, 2},
		// The dead zone: a flip of 0.4 of a piece each way is no lead
		// change, one of 0.6 is (LeadDeadZone is half a piece).
		{"a flip of 0.4 piece is none", []PlyStats{searched(0, 40, 2), searched(1, 40, 2), searched(0, 40, 2)}, 2, 0},
		{"a flip of 0.6 piece is one each way", []PlyStats{searched(0, 60, 2), searched(1, 60, 2), searched(0, 60, 2)}, 2, 2},
		{"exactly half a piece is still level", []PlyStats{searched(0, 50, 2), searched(1, 50, 2)}, 2, 0},
		{"opening plies have no search", []PlyStats{{Mover: 0, Eval: -500}, searched(0, 120, 2)}, 2, 0},
		// Seat 0 ahead (+100), seat 1 not ahead (-5), seat 2 ahead (+300):
		// one change; seat 0's +40 is within the dead zone; seat 1's +60
		// is a second.
		{"three players: who last thought itself ahead", []PlyStats{searched(0, 100, 3), searched(1, -5, 3),
			searched(2, 300, 3), searched(0, 40, 3), searched(1, 60, 3)}, 3, 2},
	}
	for _, tt := range tests {
		if got := leadChanges(tt.plies, tt.players); got != tt.want {
			t.Errorf("%s: %d lead changes, want %d", tt.name, got, tt.want)
		}
	}
}

func TestEvalFor(t *testing.T) {
	for _, tt := range []struct{ score, mover, players, want int }{
		{35, 0, 2, 35}, {35, 1, 2, -35}, {35, 1, 3, 35}, {999_990, 0, 2, EvalCap}, {999_990, 1, 2, -EvalCap},
	} {
		if got := evalFor(tt.score, tt.mover, tt.players); got != tt.want {
			t.Errorf("evalFor(%d, %d, %d) = %d, want %d", tt.score, tt.mover, tt.players, got, tt.want)
		}
	}
}

func TestArcOf(t *testing.T) {
	own := func(ply, mover, score int) PlyStats {
		return PlyStats{Ply: ply, Mover: mover, Score: score, Searched: true}
	}
	opening := PlyStats{Ply: 1, Mover: 0}
	tests := []struct {
		name    string
		plies   []PlyStats
		winners []int
		want    Arc
		ok      bool
	}{
		{"a draw has no arc", []PlyStats{own(1, 0, 10)}, nil, Arc{}, false},
		{"a shared first place has none", []PlyStats{own(1, 0, 10)}, []int{0, 1}, Arc{}, false},
		{"a winner that never searched has none", []PlyStats{opening, own(2, 1, -50)}, []int{0}, Arc{}, false},
		// White's searches (plies 3, 5, 7): +10, -80, +250; the lead of
		// two pieces lasts from White's search at ply 7 on: decided after
		// 6 of 8 plies. One search of three saw White behind.
		{"decided late, a little drama", []PlyStats{opening, own(2, 1, 5), own(3, 0, 10), own(4, 1, 20), own(5, 0, -80),
			own(6, 1, -100), own(7, 0, 250), own(8, 1, -400)}, []int{0}, Arc{Drama: 1.0 / 3, DecidedAt: 6.0 / 8}, true},
		// The dead zone: -40 (0.4 of a piece down) is level, not behind;
		// -60 is behind: one search of two.
		{"behind by 0.4 piece is level, by 0.6 behind", []PlyStats{own(1, 0, -40), own(2, 1, 0), own(3, 0, -60)}, []int{0},
			Arc{Drama: 0.5, DecidedAt: 1}, true},
		{"a comeback from far behind", []PlyStats{own(1, 1, -300), own(2, 0, 100), own(3, 1, 500)}, []int{1},
			Arc{Drama: 0.5, Comeback: true, DecidedAt: 2.0 / 3}, true},
		{"a lead that never lasted: decided at the end", []PlyStats{own(1, 0, 300), own(2, 1, 0), own(3, 0, 50)}, []int{0},
			Arc{Drama: 0, DecidedAt: 1}, true},
		{"three players: only the winner's searches count", []PlyStats{own(1, 0, -500), own(2, 1, 300), own(3, 2, -900),
			own(4, 0, 0), own(5, 1, 400)}, []int{1}, Arc{Drama: 0, DecidedAt: 1.0 / 5}, true},
	}
	for _, tt := range tests {
		got, ok := arcOf(tt.plies, tt.winners)
		if ok != tt.ok || got != tt.want {
			t.Errorf("%s: %+v %v, want %+v %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}

func TestSignalsOf(t *testing.T) {
	plies := []PlyStats{
		{Mover: 0}, {Mover: 1, Capture: true}, {Mover: 0, Capture: true, Takeover: true},
		{Mover: 1, Capture: true, Promoted: true}, {Mover: 0, Scored: true, ScoreChanged: true},
		{Mover: 1, ScoreChanged: true}, // a score lowered is no scoring
	}
	leaders := []int{-1, -1, 1, 0, 0, -1}
	got := signalsOf(plies, leaders)
	// Half-time is after ply 3 of 6: Black led then.
	want := Signals{"first capture": 1, "most captures": 1, "first takeover": 0, "most takeovers": 0,
		"first promotion": 1, "most promotions": 1, "first score": 0, "most scores": 0, "ahead at half-time": 1}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("signals %v, want %v", got, want)
	}
	tie := signalsOf([]PlyStats{{Mover: 0, Capture: true}, {Mover: 1, Capture: true}}, []int{-1, -1})
	if want := (Signals{"first capture": 0}); !reflect.DeepEqual(tie, want) {
		t.Errorf("a tie names nobody as capturing most: %v, want %v", tie, want)
	}
}

func TestSignalRatesAndArcStats(t *testing.T) {
	games := []GameStats{
		{Winners: []int{0}, Signals: Signals{"first capture": 0}, Decided: true, Arc: Arc{Drama: 0.5, Comeback: true, DecidedAt: 0.5}},
		{Winners: []int{1}, Signals: Signals{"first capture": 0}, Decided: true, Arc: Arc{Drama: 0.1, DecidedAt: 1}},
		{Winners: []int{}, Signals: Signals{"first capture": 1}}, // a draw counts for neither
		{Winners: []int{0, 1}, Signals: Signals{"first capture": 1}},
	}
	r := signalRates(games)["first capture"]
	if r.Count != 1 || r.Of != 2 {
		t.Errorf("first capture won %d of %d, want 1 of 2", r.Count, r.Of)
	}
	a := arcStats(games)
	if a.Games != 2 || a.Drama != 0.3 || a.Comebacks.Count != 1 || a.DecidedAt.Mean != 0.75 || a.DecidedAt.Median != 0.75 {
		t.Errorf("arc stats %+v", a)
	}
}
