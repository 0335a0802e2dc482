package lab

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// comparedSummary is a summary with something in every field: two
// engines, a win each way, a draw, arcs and signals.
func comparedSummary(t *testing.T) *Summary {
	games := []GameStats{
		{Index: 0, Moves: []string{"a"}, Seats: []string{"p", "q"}, Winners: []int{0}, Reason: "no moves", Plies: 10,
			Decided: true, Arc: Arc{Drama: 0.25, Comeback: true, DecidedAt: 0.5}, Signals: Signals{"first capture": 0}},
		{Index: 1, Moves: []string{"b"}, Seats: []string{"q", "p"}, Winners: []int{1}, Reason: "no pieces", Plies: 20,
			Decided: true, Arc: Arc{DecidedAt: 0.75}, Signals: Signals{"first capture": 0}},
		{Index: 2, Moves: []string{"c"}, Seats: []string{"p", "q"}, Winners: []int{}, Reason: "repetition", Plies: 30},
	}
	plies := []PlyStats{{Game: 0, Ply: 1, Legal: 7, Searched: true, Eval: 30}}
	s := summarize(newGame(t, "pommel"), Manifest{Game: "pommel", Options: map[string]string{"hop": "any"}, Players: []string{"p", "q"}, Depth: 2}, games, plies)
	s.Engines = []EngineUse{{Player: "p", Signature: "95dd1432c669", Games: 3, First: 1, Builds: []string{"abc"}}}
	return s
}

// TestCompareHasEveryMetric: each field of summary.json (and of its arc)
// has its row in the comparison. A field added to the summary fails here
// until it is given a row.
func TestCompareHasEveryMetric(t *testing.T) {
	rowFor := map[string]string{
		"game": "game", "options": "options", "players": "players", "label": "run", "run": "limits",
		"games": "games", "distinct": "distinct games (n)", "draws": "draws", "wins": "seat 1 wins",
		"shared": "shared first places", "seats": "seat 2 wins", "firstPlayer": "first player's edge",
		"byPlayer": "q's score", "drawRate": "draws", "endings": "games ended by no pieces",
		"drawsBy": "  by repetition", "plies": "plies: median [quartiles]", "branching": "branching (pooled; Ludii per game)",
		"decisions": "decisions per game", "decisionShare": "real decisions", "perGame": "captures per game",
		"eval": "evaluation: mean", "signals": "first capture: its player wins", "arc": "games with one winner",
		"arc.games": "games with one winner", "arc.drama": "drama (how often behind; Ludii: by how much)", "arc.comebacks": "comebacks",
		"arc.decidedAt": "decided at: median [quartiles]", "measures": "outcome uniformity (÷n; Ludii ÷(n−1))",
		"engines": "engine signatures",
	}
	s := comparedSummary(t)
	s.Label = "mine"
	var fields map[string]json.RawMessage
	data, _ := json.Marshal(s)
	if err := json.Unmarshal(data, &fields); err != nil {
		t.Fatal(err)
	}
	var arc map[string]json.RawMessage
	if err := json.Unmarshal(fields["arc"], &arc); err != nil {
		t.Fatal(err)
	}
	keys := slices.Collect(func(yield func(string) bool) {
		for k := range fields {
			yield(k)
		}
		for k := range arc {
			yield("arc." + k)
		}
	})
	rows := compareRows([]Compared{{Label: "mine", Dir: "runs/a", Summary: s}})
	values := map[string]string{}
	for _, r := range rows {
		values[r[0]] = r[1]
	}
	for _, k := range keys {
		name, ok := rowFor[k]
		if !ok {
			t.Errorf("summary.json's %q has no row in lab compare: add one (and here)", k)
			continue
		}
		if v, ok := values[name]; !ok || v == "" {
			t.Errorf("summary.json's %q: no row %q, or an empty one, in\n%s", k, name, CompareTable([]Compared{{Label: "mine", Dir: "runs/a", Summary: s}}))
		}
	}
	// Drama is the mean of the two decided games' 25% and 0%.
	for name, want := range map[string]string{"drama (how often behind; Ludii: by how much)": "12.5%", "comebacks": RateText(NewRate(1, 2)),
		"decided at: median [quartiles]": "62% [56%, 69%]", "first capture: its player wins": RateText(NewRate(1, 2)) + " of 2",
		"distinct games (n)": "3", "run": "mine", "folder": "runs/a"} {
		if values[name] != want {
			t.Errorf("row %q is %q, want %q", name, values[name], want)
		}
	}
}

// TestCompareLabels: a run is headed by its label, else by its whole
// folder as given, so that two folders with the same last name differ.
func TestCompareLabels(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	s := comparedSummary(t)
	labelled := *s
	labelled.Label = "deeper"
	for dir, sum := range map[string]*Summary{"runs/survey/pommel": s, "x/pommel": s, "y/pommel/": &labelled} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := writeJSON(filepath.Join(dir, SummaryFile), sum); err != nil {
			t.Fatal(err)
		}
	}
	runs, err := ReadSummaries([]string{"runs/survey/pommel", "x/pommel/", "./y/pommel"})
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, c := range runs {
		labels = append(labels, c.Label)
	}
	if want := []string{"runs/survey/pommel", "x/pommel", "deeper"}; !slices.Equal(labels, want) {
		t.Errorf("labels %q, want %q", labels, want)
	}
	if head := strings.SplitN(CompareTable(runs), "\n", 2)[0]; !strings.Contains(head, "runs/survey/pommel") ||
		!strings.Contains(head, "x/pommel") || !strings.Contains(head, "deeper") {
		t.Errorf("the table's head %q does not name each run", head)
	}
}
