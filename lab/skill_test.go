package lab

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/ai"
)

func TestScaled(t *testing.T) {
	for _, tt := range []struct {
		base ai.Limits
		k    int
		want ai.Limits
	}{
		{ai.Limits{Depth: 2}, 0, ai.Limits{Depth: 2}},
		{ai.Limits{Depth: 2}, 3, ai.Limits{Depth: 5}},
		{ai.Limits{Nodes: 1000}, 2, ai.Limits{Nodes: 4000}},
		{ai.Limits{MoveTime: 10 * time.Millisecond}, 1, ai.Limits{MoveTime: 20 * time.Millisecond}},
		{ai.Limits{Depth: 3, Nodes: 500}, 1, ai.Limits{Depth: 4, Nodes: 1000}},
	} {
		if got := scaled(tt.base, tt.k); got != tt.want {
			t.Errorf("scaled(%+v, %d) = %+v, want %+v", tt.base, tt.k, got, tt.want)
		}
	}
}

func TestSkillRefuses(t *testing.T) {
	base := func() SkillConfig {
		return SkillConfig{Run: Config{Game: newGame(t, "pommel"), Players: []Player{engine("ab")}, Games: 2,
			Limits: ai.Limits{Depth: 1}}, Steps: 2}
	}
	two := base()
	two.Run.Players = append(two.Run.Players, engine("random"))
	none, many, deep, unlimited := base(), base(), base(), base()
	none.Steps, many.Steps = 0, MaxSkillSteps+1
	deep.Run.Limits.Depth = ai.MaxDepth
	unlimited.Run.Limits = ai.Limits{}
	for _, tt := range []struct {
		name string
		sc   SkillConfig
		want string
	}{
		{"two engines", two, "give one player"}, {"no step", none, "want 1 to"}, {"too many steps", many, "want 1 to"},
		{"past the deepest search", deep, "deepest search"}, {"no limit", unlimited, "need a limit"},
	} {
		dir := t.TempDir()
		if _, err := Skill(context.Background(), tt.sc, dir, nil); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want an error with %q", tt.name, err, tt.want)
		}
	}
}

// TestSkillTrace plays two steps of a small trace and checks each step's
// engines searched within their own depths and the trace reads the
// stronger engine's score from each step's run.
func TestSkillTrace(t *testing.T) {
	dir := t.TempDir()
	sc := SkillConfig{Run: Config{Game: newGame(t, "pommel"), Players: []Player{engine("ab")}, Games: 4,
		Limits: ai.Limits{Depth: 1}, Seed: 5, OpeningPlies: 2, Date: "2026.01.02"}, Steps: 2}
	var seen []int
	tr, err := Skill(context.Background(), sc, dir, func(step, steps, played, total int) { seen = append(seen, step) })
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) == 0 || seen[0] != 1 || seen[len(seen)-1] != 2 {
		t.Errorf("progress told steps %v, want 1 then 2", seen)
	}
	if len(tr.Steps) != 2 || tr.Fair != 0.5 {
		t.Fatalf("trace %+v, want 2 steps and a fair share of 1/2", tr)
	}
	for k, st := range tr.Steps {
		weak, strong := k+1, k+2
		if st.Stronger != "ab depth "+itoa(strong) || st.Weaker != "ab depth "+itoa(weak) || st.Games != 4 {
			t.Errorf("step %d: %s vs %s over %d games", st.Step, st.Stronger, st.Weaker, st.Games)
		}
		a, err := analyseDir(filepath.Join(dir, st.Dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range a.Summary.ByPlayer {
			if p.Name == st.Stronger && p.Score != st.Score {
				t.Errorf("step %d: the trace says %+v, the step's run %+v", st.Step, st.Score, p.Score)
			}
		}
		if st.Edge != st.Score.Rate-0.5 {
			t.Errorf("step %d: edge %v for a score %v", st.Step, st.Edge, st.Score.Rate)
		}
		// Each engine searched as deep as its own limit and no deeper.
		deepest := map[string]int{}
		for _, g := range readGamesT(t, filepath.Join(dir, st.Dir)) {
			for i, m := range g.Moves {
				mover := g.Seats[(len(g.Opening)+i)%2]
				want := weak
				if mover == st.Stronger {
					want = strong
				}
				if m.Depth > want {
					t.Fatalf("step %d: %s searched depth %d, more than %d", st.Step, mover, m.Depth, want)
				}
				deepest[mover] = max(deepest[mover], m.Depth)
			}
		}
		if deepest[st.Stronger] != strong || deepest[st.Weaker] != weak {
			t.Errorf("step %d: deepest searches %v, want %d and %d", st.Step, deepest, strong, weak)
		}
	}
	var js map[string]any
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, "skill.json")), &js); err != nil {
		t.Fatal(err)
	}
	// The steps share seed and openings: step 2 is paired with step 1.
	if len(tr.Changes) != 1 || tr.Changes[0].Step != 2 || !tr.Changes[0].Draws.Paired || tr.Changes[0].Draws.N == 0 ||
		len(tr.Plateaus) != 3 || tr.Steps[0].Distinct == 0 || tr.Steps[0].Distinct > tr.Steps[0].Games {
		t.Errorf("changes %+v, plateaus %q, distinct %d", tr.Changes, tr.Plateaus, tr.Steps[0].Distinct)
	}
	page := string(readFile(t, filepath.Join(dir, "skill.html")))
	if !strings.Contains(page, "<svg") || strings.Contains(page, "http://") || strings.Contains(page, "https://") {
		t.Errorf("skill.html is not one page with an inline plot and no outside address")
	}
	// Running it again plays nothing more and says the same.
	again, err := Skill(context.Background(), sc, dir, nil)
	if err != nil || again.Steps[1].Score != tr.Steps[1].Score {
		t.Errorf("the trace continued differs: %v", err)
	}
}

func analyseDir(dir string) (*Analysis, error) {
	m, _, err := readManifest(dir)
	if err != nil {
		return nil, err
	}
	games, err := readGames(dir)
	if err != nil {
		return nil, err
	}
	return Analyse(m, games)
}

func readGamesT(t *testing.T, dir string) []GameData {
	t.Helper()
	games, err := readGames(dir)
	if err != nil {
		t.Fatal(err)
	}
	return games
}

// TestSkillPlateau: the plateau line names the first step after which
// every difference's interval holds 0, or says the measure still changes.
func TestSkillPlateau(t *testing.T) {
	moves := Difference{Diff: 0.2, Lo: 0.1, Hi: 0.3, N: 50, Paired: true}
	flat := Difference{Diff: 0.01, Lo: -0.05, Hi: 0.07, N: 50, Paired: true}
	steps := []SkillStep{{Step: 1, Strength: "depth 2"}, {Step: 2, Strength: "depth 3"}, {Step: 3, Strength: "depth 4"}, {Step: 4, Strength: "depth 5"}}
	tests := []struct {
		name    string
		steps   int
		changes []Difference // steps 2, 3, ...
		want    string
	}{
		{"flat from step 2", 4, []Difference{moves, flat, flat}, "draws stop changing from depth 3 (step 2) on: every later difference is within its interval"},
		{"flat throughout", 3, []Difference{flat, flat}, "draws stop changing from depth 2 (step 1) on"},
		{"changes at the end", 3, []Difference{flat, moves}, "draws still change at the last step (depth 4 against depth 3: +20.0 [+10.0, +30.0] points, paired, n = 50)"},
		{"a flat step between", 4, []Difference{flat, moves, flat}, "draws stop changing from depth 4 (step 3) on"},
		{"one step", 1, nil, "draws: one step, no change to measure"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := &SkillTrace{Steps: steps[:tt.steps]}
			for k, d := range tt.changes {
				tr.Changes = append(tr.Changes, SkillChange{Step: k + 2, Draws: d})
			}
			got := tr.plateau("draws", measure{unit: "points", scale: 100}, func(c SkillChange) Difference { return c.Draws })
			if !strings.HasPrefix(got, tt.want) {
				t.Errorf("plateau %q, want %q", got, tt.want)
			}
			// One measure, not many: "stops", "changes".
			one := tr.plateau("the mean length", measure{unit: "plies", scale: 1}, func(c SkillChange) Difference { return c.Draws })
			if !strings.Contains(one, "the mean length stops changing") && !strings.Contains(one, "the mean length still changes") &&
				!strings.Contains(one, "one step") {
				t.Errorf("plateau %q: the verb does not agree", one)
			}
		})
	}
}
