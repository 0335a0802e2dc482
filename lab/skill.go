package lab

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"io"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot/plotter"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
)

// A skill trace asks whether skill pays: the same engine, given twice the
// thinking, plays itself given the base, step after step (one ply deeper
// for a depth limit, twice the nodes or the time otherwise). If the
// stronger side's score stays well above a fair share at every step, skill
// keeps paying; a score near the fair share means more thought buys little,
// and a game where it does so early is close to a coin toss for engines of
// that strength.

// SkillConfig is a skill trace: Run's one player, limits, games (per
// step), opening, seed and concurrency, at Steps steps.
type SkillConfig struct {
	Run   Config
	Steps int
}

// MaxSkillSteps bounds a trace: each step doubles the thinking, so ten
// steps already think a thousand times longer than the first.
const MaxSkillSteps = 10

// SkillStep is one step of a trace: its folder (a lab run of its own) and
// the stronger engine's score over its games.
type SkillStep struct {
	Step     int    `json:"step"`
	Dir      string `json:"dir"`
	Weaker   string `json:"weaker"`
	Stronger string `json:"stronger"`
	Games    int    `json:"games"`
	// Distinct are the step's distinct games, the n of its rates.
	Distinct int `json:"distinct"`
	// Strength is the stronger engine's limit ("depth 3").
	Strength string `json:"strength"`
	// Score is the stronger engine's score (a win 1, a draw 1/n, a shared
	// first place its share) and Edge its excess over a fair share 1/n,
	// with the interval's ends.
	Score    Rate    `json:"score"`
	Edge     float64 `json:"edge"`
	Lo       float64 `json:"lo"`
	Hi       float64 `json:"hi"`
	DrawRate Rate    `json:"drawRate"`
	// Builds are the builds that played the step, Signatures its seats'
	// engine signatures (as lab compare writes them) and Mixed the step's
	// warning when its games mix engines (see Summary.MixWarning).
	Builds     []string `json:"builds"`
	Signatures string   `json:"signatures"`
	Mixed      string   `json:"mixed,omitempty"`
}

// SkillTrace is what skill.json holds.
type SkillTrace struct {
	Game    string            `json:"game"`
	Options map[string]string `json:"options"`
	Player  string            `json:"player"`
	// Fair is a fair share of the points, 1/n for n players.
	Fair  float64     `json:"fair"`
	Steps []SkillStep `json:"steps"`
	// Changes are each step's differences from the step before (paired
	// game by game: the steps share seed, openings and games).
	Changes []SkillChange `json:"changes"`
	// Plateaus say, for each measure, from which strength on it stops
	// changing.
	Plateaus []string `json:"plateaus"`
	// Builds are the builds that played the steps, the first first.
	Builds []string `json:"builds"`
}

// MixWarning is the line the trace's outputs start with when a step mixes
// engines, "" when none does.
func (tr *SkillTrace) MixWarning() string {
	var parts []string
	for _, st := range tr.Steps {
		if st.Mixed != "" {
			parts = append(parts, fmt.Sprintf("step %d: %s", st.Step, strings.TrimPrefix(st.Mixed, "warning: this run mixes engines (made with --mix): ")))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "warning: this trace mixes engines (made with --mix): " + strings.Join(parts, "; ")
}

// EnginesText writes the trace's builds and its steps' engine
// signatures as one line.
func (tr *SkillTrace) EnginesText() string {
	var sigs []string
	for _, st := range tr.Steps {
		sigs = append(sigs, fmt.Sprintf("step %d %s", st.Step, st.Signatures))
	}
	return fmt.Sprintf("%s %s; engine signatures: %s", pluralWord(max(len(tr.Builds), 1), "build"), buildsText(tr.Builds), strings.Join(sigs, "; "))
}

// SkillChange is how step Step's games differ from step Step-1's.
type SkillChange struct {
	Step        int        `json:"step"`
	Draws       Difference `json:"draws"`
	FirstPlayer Difference `json:"firstPlayer"`
	Plies       Difference `json:"plies"`
}

// scaled are the limits of step k: the base with k doublings of thought.
func scaled(base ai.Limits, k int) ai.Limits {
	lim := base
	if lim.Depth > 0 {
		lim.Depth += k
	}
	lim.Nodes <<= k
	lim.MoveTime <<= k
	return lim
}

// check refuses a trace that cannot be played.
func (sc SkillConfig) check() error {
	switch {
	case len(sc.Run.Players) != 1:
		return fmt.Errorf("a skill trace plays one engine against itself: give one player, not %d", len(sc.Run.Players))
	case sc.Steps < 1 || sc.Steps > MaxSkillSteps:
		return fmt.Errorf("%d steps: want 1 to %d (each step doubles the thinking)", sc.Steps, MaxSkillSteps)
	case sc.Run.Limits.Depth > 0 && sc.Run.Limits.Depth+sc.Steps > ai.MaxDepth:
		return fmt.Errorf("depth %d and %d steps go past the deepest search, %d", sc.Run.Limits.Depth, sc.Steps, ai.MaxDepth)
	}
	return sc.Run.check()
}

// step is the lab run of step k (from 1): the stronger engine in the first
// seat and the weaker in every other, rotated from game to game.
func (sc SkillConfig) step(k int) Config {
	base := sc.Run.Players[0]
	weak, strong := scaled(sc.Run.Limits, k-1), scaled(sc.Run.Limits, k)
	cfg := sc.Run
	cfg.Limits = weak
	cfg.Players = []Player{limited(base, strong)}
	for range cfg.Game.Players() - 1 {
		cfg.Players = append(cfg.Players, limited(base, weak))
	}
	return cfg
}

// limited is p searching within lim whatever limits its games give.
func limited(p Player, lim ai.Limits) Player {
	return Player{Spec: p.Spec + " " + limitsText(Manifest{MoveTime: lim.MoveTime.String(), Depth: lim.Depth, Nodes: lim.Nodes}),
		New: func(seed uint64) (ai.Engine, error) {
			e, err := p.New(seed)
			if err != nil {
				return nil, err
			}
			return limitedEngine{e, lim}, nil
		}}
}

// limitedEngine searches within its own limits.
type limitedEngine struct {
	ai.Engine
	lim ai.Limits
}

func (e limitedEngine) Search(ctx context.Context, s game.State, _ ai.Limits, report func(ai.Info)) ai.Info {
	return e.Engine.Search(ctx, s, e.lim, report)
}

// Close closes the engine inside when it holds something (an outside
// program).
func (e limitedEngine) Close() error {
	if c, ok := e.Engine.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// SkillProgress is told the step being played and that step's progress.
type SkillProgress func(step, steps, played, total int)

// Skill plays the trace's steps into dir/step-K (each a resumable lab run)
// and writes dir/skill.json and dir/skill.html.
func Skill(ctx context.Context, sc SkillConfig, dir string, progress SkillProgress) (*SkillTrace, error) {
	if err := sc.check(); err != nil {
		return nil, err
	}
	g := sc.Run.Game
	tr := &SkillTrace{Game: g.ID(), Options: sc.Run.manifest().Options, Player: sc.Run.Players[0].Spec,
		Fair: 1 / float64(g.Players())}
	var games [][]GameData
	for k := 1; k <= sc.Steps; k++ {
		cfg := sc.step(k)
		sub := filepath.Join(dir, fmt.Sprintf("step-%d", k))
		var p Progress
		if progress != nil {
			p = func(played, total int) { progress(k, sc.Steps, played, total) }
		}
		sum, err := Run(ctx, cfg, sub, p)
		if err != nil {
			return nil, fmt.Errorf("step %d: %w", k, err)
		}
		tr.Steps = append(tr.Steps, skillStep(k, sub, cfg, sum))
		tr.Builds = joinBuilds(tr.Builds, sum.Run.Builds)
		played, err := readGamesOnly(sub)
		if err != nil {
			return nil, err
		}
		games = append(games, played)
	}
	tr.changes(games, int(firstMover(g, sc.Run.From)))
	if err := writeJSON(filepath.Join(dir, "skill.json"), tr); err != nil {
		return nil, err
	}
	page, err := tr.Report()
	if err != nil {
		return nil, err
	}
	return tr, os.WriteFile(filepath.Join(dir, "skill.html"), page, 0o644)
}

// skillStep reads the stronger engine's score from a step's summary.
func skillStep(k int, dir string, cfg Config, sum *Summary) SkillStep {
	st := SkillStep{Step: k, Dir: filepath.Base(dir), Stronger: cfg.Players[0].Spec, Weaker: cfg.Players[1].Spec,
		Games: sum.Games, Distinct: sum.Distinct, DrawRate: sum.DrawRate, Strength: strengthOf(cfg, k),
		Builds: sum.Run.Builds, Signatures: signaturesText(sum), Mixed: sum.MixWarning()}
	for _, p := range sum.ByPlayer {
		if p.Name == st.Stronger {
			st.Score = p.Score
		}
	}
	fair := 1 / float64(cfg.Game.Players())
	st.Edge, st.Lo, st.Hi = st.Score.Rate-fair, st.Score.Lo-fair, st.Score.Hi-fair
	return st
}

// strengthOf is the stronger engine's limit at step k, as limitsText
// writes it.
func strengthOf(cfg Config, k int) string {
	lim := scaled(cfg.Limits, 1) // cfg.Limits are the step's weaker ones
	return limitsText(Manifest{MoveTime: lim.MoveTime.String(), Depth: lim.Depth, Nodes: lim.Nodes})
}

// changes fills the differences of each step from the one before, from
// the steps' games (first moving first in each), and the plateau lines.
func (tr *SkillTrace) changes(games [][]GameData, first int) {
	ms := measures(nil, nil) // the first player's score, draws, length
	tr.Changes = nil
	for k := 1; k < len(games); k++ {
		diff := func(m measure) Difference {
			a, b := runGames{games[k-1], first}, runGames{games[k], first}
			if why := pairable(Manifest{Games: len(games[k-1])}, Manifest{Games: len(games[k])}); why != "" {
				return unpairedDifference(a, b, m)
			}
			return pairedDifference(a, b, m)
		}
		tr.Changes = append(tr.Changes, SkillChange{Step: k + 1, FirstPlayer: diff(ms[0]), Draws: diff(ms[1]), Plies: diff(ms[2])})
	}
	tr.Plateaus = nil
	for _, p := range []struct {
		name string
		m    measure
		of   func(c SkillChange) Difference
	}{
		{"draws", ms[1], func(c SkillChange) Difference { return c.Draws }},
		{"the first player's score", ms[0], func(c SkillChange) Difference { return c.FirstPlayer }},
		{"the mean length", ms[2], func(c SkillChange) Difference { return c.Plies }},
	} {
		tr.Plateaus = append(tr.Plateaus, tr.plateau(p.name, p.m, p.of))
	}
}

// plateau says from which step's strength on a measure stops changing:
// the first step after which every step's difference from the one before
// holds 0 within its interval.
func (tr *SkillTrace) plateau(name string, m measure, of func(c SkillChange) Difference) string {
	stop, change := "stops", "changes" // "the mean length stops changing"
	if strings.HasSuffix(name, "s") {
		stop, change = "stop", "change" // "draws stop changing"
	}
	if len(tr.Changes) == 0 {
		return fmt.Sprintf("%s: one step, no change to measure (give --steps 2 or more)", name)
	}
	from := len(tr.Steps)
	for k := len(tr.Changes) - 1; k >= 0 && of(tr.Changes[k]).steady(); k-- {
		from = tr.Changes[k].Step - 1
	}
	last := tr.Changes[len(tr.Changes)-1]
	if from == len(tr.Steps) {
		return fmt.Sprintf("%s still %s at the last step (%s against %s: %s)", name, change, tr.Steps[last.Step-1].Strength,
			tr.Steps[last.Step-2].Strength, of(last).text(m))
	}
	return fmt.Sprintf("%s %s changing from %s (step %d) on: every later difference is within its interval", name, stop,
		tr.Steps[from-1].Strength, from)
}

// chart draws the stronger engine's score at each step, in percent with
// its 95% interval, on round ticks, with the fair share's dashed line and
// its legend beside the plot.
func (tr *SkillTrace) chart() (chart, error) {
	p := newPlot("Skill trace: the stronger engine's score", "step (each doubles the thinking)", "score, % (95% interval)")
	var pts plotter.XYs
	var errs plotter.YErrors
	for _, st := range tr.Steps {
		pts = append(pts, plotter.XY{X: float64(st.Step), Y: 100 * st.Score.Rate})
		errs = append(errs, struct{ Low, High float64 }{100 * (st.Score.Rate - st.Score.Lo), 100 * (st.Score.Hi - st.Score.Rate)})
	}
	p.X.Min, p.X.Max = 0.5, float64(len(tr.Steps))+0.5
	p.Y.Min, p.Y.Max = 0, 100
	if len(pts) > 0 {
		bars, err := plotter.NewYErrorBars(rateBars{pts, errs})
		if err != nil {
			return chart{}, err
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return chart{}, err
		}
		line.Color, points.Color, bars.Color = lineColour, lineColour, lineColour
		p.Add(line, points, bars)
	}
	legend, err := fairShareLine(p, 100*tr.Fair)
	if err != nil {
		return chart{}, err
	}
	return chart{panels: []panel{{p, 1}}, legend: legend}, nil
}

// skillPage is skill.html, as self-contained as report.html.
var skillPage = template.Must(template.New("skill").Funcs(template.FuncMap{"rate": RateText,
	"pct":    func(x float64) string { return fmt.Sprintf("%+.1f", 100*x) },
	"minus":  func(k int) int { return k - 1 },
	"points": func(d Difference) string { return d.text(measure{unit: "points", scale: 100}) },
	"plies":  func(d Difference) string { return d.text(measure{unit: "plies", scale: 1}) }}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>arbiter lab: skill trace of {{.T.Player}} in {{.T.Game}}</title>
<style>body { font-family: sans-serif; max-width: 62rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
table { border-collapse: collapse; } th, td { border-bottom: 1px solid #ccc; padding: .25rem .75rem; text-align: left; }
td.n { text-align: right; font-variant-numeric: tabular-nums; } figure svg { max-width: 100%; height: auto; }
p.warn { background: #fff3cd; border-left: .3rem solid #b8860b; padding: .5rem .75rem; }</style></head><body>
{{with .T.MixWarning}}<p class="warn"><strong>{{.}}</strong></p>
{{end}}<h1>Does skill pay in {{.T.Game}}?</h1>
<p>{{.T.EnginesText}}.</p>
<p>{{.T.Player}} against itself with twice the thinking (one ply deeper, or twice the nodes or time), step by step;
the stronger engine's score, a win 1 and a draw a fair share.</p>
<table><tr><th>step</th><th>stronger</th><th>weaker</th><th>games (n distinct)</th><th>stronger's score [95%]</th><th>edge (points)</th><th>draws</th></tr>
{{range .T.Steps}}<tr><td><a href="{{.Dir}}/report.html">{{.Step}}</a></td><td>{{.Stronger}}</td><td>{{.Weaker}}</td><td class="n">{{.Games}} ({{.Distinct}})</td>
<td class="n">{{rate .Score}}</td><td class="n">{{pct .Edge}} [{{pct .Lo}}, {{pct .Hi}}]</td><td class="n">{{rate .DrawRate}}</td></tr>
{{end}}</table>
<h2>Where the game stops changing</h2>
<p>Each step's difference from the step before (paired game by game, 95% bootstrap interval; see docs/lab/README.md).</p>
<table><tr><th>step</th><th>draws</th><th>first player's score</th><th>mean length</th></tr>
{{range .T.Changes}}<tr><td>{{.Step}} − {{minus .Step}}</td><td class="n">{{points .Draws}}</td><td class="n">{{points .FirstPlayer}}</td><td class="n">{{plies .Plies}}</td></tr>
{{end}}</table>
<ul>{{range .T.Plateaus}}<li>{{.}}</li>{{end}}</ul>
<figure>{{.SVG}}</figure></body></html>
`))

// Report writes skill.html.
func (tr *SkillTrace) Report() ([]byte, error) {
	ch, err := tr.chart()
	if err != nil {
		return nil, err
	}
	fig, err := ch.svg()
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	err = skillPage.Execute(&b, struct {
		T   *SkillTrace
		SVG template.HTML
	}{tr, fig})
	return b.Bytes(), err
}
