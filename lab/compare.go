package lab

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"image/color"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/arbiter-games/arbiter/internal/clip"
)

// Compared is one run of a comparison: its label (the run's --label,
// else the folder as it was given), its folder and its summary.
type Compared struct {
	Label   string
	Dir     string
	Summary *Summary
	// games are the run's games, for the differences between runs (nil
	// when the folder holds none).
	games []GameData
}

// ReadSummaries reads the summary.json of each run folder. A run is
// labelled by its --label, else by its folder as given (cleaned, but
// whole: runs/survey/pommel and x/pommel are two labels, not one).
func ReadSummaries(dirs []string) ([]Compared, error) {
	var runs []Compared
	for _, dir := range dirs {
		data, err := os.ReadFile(filepath.Join(dir, SummaryFile))
		if err != nil {
			return nil, fmt.Errorf("%s: no %s (run 'arbiter lab' into it first): %w", dir, SummaryFile, err)
		}
		var s Summary
		if err := json.Unmarshal(data, &s); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, SummaryFile), err)
		}
		label := s.Label
		if label == "" {
			label = filepath.Clean(dir)
		}
		games, err := readGamesOnly(dir)
		if err != nil {
			return nil, err
		}
		runs = append(runs, Compared{Label: label, Dir: filepath.Clean(dir), Summary: &s, games: games})
	}
	return runs, nil
}

// compareRow is one line of a comparison: its name and each run's value.
type compareRow = []string

// compareRows are the lines of a comparison: every number a summary
// holds, one row each (rows for seats, reasons, engines and signals that
// only some runs have show "-" in the others).
func compareRows(runs []Compared) []compareRow {
	row := func(name string, value func(s *Summary) string) compareRow {
		r := compareRow{name}
		for _, c := range runs {
			r = append(r, value(c.Summary))
		}
		return r
	}
	rows := []compareRow{{"run"}, {"folder"}}
	for _, c := range runs {
		rows[0] = append(rows[0], c.Label)
		rows[1] = append(rows[1], c.Dir)
	}
	rows = append(rows,
		row("game", func(s *Summary) string { return s.Game }),
		row("options", func(s *Summary) string { return optionsText(s.Options) }),
		row("players", func(s *Summary) string { return strings.Join(s.Players, " ") }),
		row("limits", func(s *Summary) string { return limitsText(s.Run) }),
		row("opening plies", func(s *Summary) string { return fmt.Sprint(s.Run.Opening) }),
		row("from", func(s *Summary) string { return fromLabel(s.Run.From) }),
		row("seed", func(s *Summary) string { return fmt.Sprint(s.Run.Seed) }),
		row("builds", func(s *Summary) string { return buildsText(s.Run.Builds) }),
		row("engine signatures", signaturesText),
		row("games", func(s *Summary) string { return fmt.Sprint(s.Games) }),
		row("distinct games (n)", func(s *Summary) string {
			if s.Distinct == 0 && s.Games > 0 {
				return "-" // a summary written before the lab counted them
			}
			return fmt.Sprint(s.Distinct)
		}),
	)
	rows = append(rows, resultRows(runs, row)...)
	rows = append(rows, gameRows(runs, row)...)
	rows = append(rows, measureRows(row)...)
	rows = append(rows, arcRows(runs, row)...)
	return append(rows, differenceRows(runs)...)
}

// buildsText writes a run's builds, "unknown" for a run made before runs
// recorded them.
func buildsText(builds []string) string {
	if len(builds) == 0 {
		return UnknownBuild
	}
	return strings.Join(builds, ", ")
}

// signaturesText writes each seat name's engine signatures, "ab
// 95dd1432c669, random bee3bdf31683", and says "mixed" after a name that
// played with more than one.
func signaturesText(s *Summary) string {
	if len(s.Engines) == 0 {
		return "-" // a summary written before the lab recorded them
	}
	var parts []string
	mixed := s.mixedPlayers()
	for i, u := range s.Engines {
		if i > 0 && s.Engines[i-1].Player == u.Player {
			parts[len(parts)-1] += "+" + u.Signature
			continue
		}
		parts = append(parts, u.Player+" "+u.Signature)
	}
	text := strings.Join(parts, ", ")
	if len(mixed) > 0 {
		text += " (mixes engines: " + strings.Join(mixed, ", ") + ")"
	}
	return text
}

// differenceRows are each run's differences from the first, B − A, with
// their intervals: how the runs are paired, then one row a measure.
func differenceRows(runs []Compared) []compareRow {
	if len(runs) < 2 {
		return nil
	}
	pairing := compareRow{"B − A: pairing", "(A: the first run)"}
	texts := map[string][]string{}
	var order []string
	for k, c := range runs[1:] {
		ms, diffs, why := differences(runs[0].Summary, c.Summary, runs[0].games, c.games)
		if why == "" {
			pairing = append(pairing, "paired game by game")
		} else {
			pairing = append(pairing, "unpaired: "+why)
		}
		for i, m := range ms {
			if _, ok := texts[m.name]; !ok {
				order = append(order, m.name)
				texts[m.name] = make([]string, len(runs)-1)
			}
			texts[m.name][k] = diffs[i].text(m)
		}
	}
	rows := []compareRow{pairing}
	for _, name := range order {
		r := compareRow{"B − A: " + name, "-"}
		for _, t := range texts[name] {
			if t == "" {
				t = "-"
			}
			r = append(r, t)
		}
		rows = append(rows, r)
	}
	return rows
}

// rowMaker makes a row from each run's value.
type rowMaker func(name string, value func(s *Summary) string) compareRow

// resultRows are the results: the seats', the first player's, the
// draws' and the endings', the engines'.
func resultRows(runs []Compared, row rowMaker) []compareRow {
	var rows []compareRow
	seats := 0
	for _, c := range runs {
		seats = max(seats, len(c.Summary.Seats))
	}
	for p := range seats {
		rows = append(rows, row(fmt.Sprintf("seat %d wins", p+1), func(s *Summary) string {
			if p >= len(s.Seats) {
				return "-"
			}
			return fmt.Sprintf("%s %d: %s", s.Seats[p].Seat, s.Wins[s.Seats[p].Seat], RateText(s.Seats[p].Wins))
		}))
	}
	rows = append(rows,
		row("first player's score", func(s *Summary) string { return RateText(s.FirstPlayer.Score) }),
		row("first player's edge", func(s *Summary) string {
			return fmt.Sprintf("%+.1f [%+.1f, %+.1f]", 100*s.FirstPlayer.Edge, 100*s.FirstPlayer.Lo, 100*s.FirstPlayer.Hi)
		}),
		row("draws", func(s *Summary) string { return fmt.Sprintf("%d: %s", s.Draws, RateText(s.DrawRate)) }),
	)
	reasons := keysOf(runs, func(s *Summary) []string { return slices.Collect(maps.Keys(s.DrawsBy)) }, "repetition", "ply cap")
	for _, why := range reasons {
		rows = append(rows, row("  by "+why, func(s *Summary) string { return RateText(drawsBy(s, why)) }))
	}
	rows = append(rows, row("shared first places", func(s *Summary) string { return fmt.Sprint(s.Shared) }))
	for _, why := range keysOf(runs, func(s *Summary) []string { return slices.Collect(maps.Keys(s.Endings)) }) {
		rows = append(rows, row("games ended by "+why, func(s *Summary) string { return fmt.Sprint(s.Endings[why]) }))
	}
	engines := keysOf(runs, func(s *Summary) []string {
		var names []string
		for _, p := range s.ByPlayer {
			names = append(names, p.Name)
		}
		return names
	})
	for _, name := range engines {
		rows = append(rows, row(name+"'s score", func(s *Summary) string {
			for _, p := range s.ByPlayer {
				if p.Name == name {
					return fmt.Sprintf("+%d =%d -%d: %s", p.Wins, p.Shared, p.Losses, RateText(p.Score))
				}
			}
			return "-"
		}))
	}
	return rows
}

// gameRows are the game's shape: length, branching, decisions, the
// evaluation and what the moves did.
func gameRows(runs []Compared, row rowMaker) []compareRow {
	rows := []compareRow{
		row("plies: mean", func(s *Summary) string { return fmt.Sprintf("%.1f", s.Plies.Mean) }),
		row("plies: median [quartiles]", func(s *Summary) string {
			return fmt.Sprintf("%.0f [%.0f, %.0f]", s.Plies.Median, s.Plies.Q1, s.Plies.Q3)
		}),
		row("plies: shortest to longest", func(s *Summary) string { return fmt.Sprintf("%d to %d", s.Plies.Min, s.Plies.Max) }),
		row("branching (pooled; Ludii per game)", func(s *Summary) string { return fmt.Sprintf("%.1f", s.Branching.Mean) }),
		row("decisions per game", func(s *Summary) string {
			return fmt.Sprintf("%.1f (median %.0f)", s.Decisions.Mean, s.Decisions.Median)
		}),
		row("real decisions", func(s *Summary) string { return fmt.Sprintf("%.1f%%", 100*s.DecisionShare) }),
		row("evaluation: mean", func(s *Summary) string { return fmt.Sprintf("%+.0f", s.Eval.Mean) }),
	}
	known := map[string]bool{}
	var keys []string
	for _, n := range perGameNames {
		known[n.key] = true
		keys = append(keys, n.key)
	}
	for _, k := range keysOf(runs, func(s *Summary) []string { return slices.Collect(maps.Keys(s.PerGame)) }) {
		if !known[k] {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		rows = append(rows, row(k+" per game", func(s *Summary) string {
			if v, ok := s.PerGame[k]; ok {
				return fmt.Sprintf("%.2f", v)
			}
			return "-"
		}))
	}
	return rows
}

// arcRows are the engines' view of the games with one winner, and the
// signals.
func arcRows(runs []Compared, row rowMaker) []compareRow {
	rows := []compareRow{
		row("games with one winner", func(s *Summary) string { return fmt.Sprint(s.Arc.Games) }),
		row("drama (how often behind; Ludii: by how much)", func(s *Summary) string { return fmt.Sprintf("%.1f%%", 100*s.Arc.Drama) }),
		row("comebacks", func(s *Summary) string { return RateText(s.Arc.Comebacks) }),
		row("decided at: mean", func(s *Summary) string { return fmt.Sprintf("%.0f%%", 100*s.Arc.DecidedAt.Mean) }),
		row("decided at: median [quartiles]", func(s *Summary) string {
			d := s.Arc.DecidedAt
			return fmt.Sprintf("%.0f%% [%.0f%%, %.0f%%]", 100*d.Median, 100*d.Q1, 100*d.Q3)
		}),
	}
	for _, kind := range keysOf(runs, func(s *Summary) []string { return slices.Collect(maps.Keys(s.Signals)) }) {
		rows = append(rows, row(kind+": its player wins", func(s *Summary) string {
			r, ok := s.Signals[kind]
			if !ok {
				return "-"
			}
			return fmt.Sprintf("%s of %d", RateText(r), r.Of)
		}))
	}
	return rows
}

// keysOf is the sorted union of always and the keys each run has.
func keysOf(runs []Compared, keys func(s *Summary) []string, always ...string) []string {
	set := map[string]bool{}
	for _, k := range always {
		set[k] = true
	}
	for _, c := range runs {
		for _, k := range keys(c.Summary) {
			set[k] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// fromLabel is a run's start position for the table: "start", or its
// FEN (cut, so that the table stays readable).
func fromLabel(fen string) string {
	if fen == "" {
		return "start"
	}
	return clip.Bare(fen)
}

// drawsBy is the rate of draws for one reason, 0 of the games when none.
func drawsBy(s *Summary, why string) Rate {
	if r, ok := s.DrawsBy[why]; ok {
		return r
	}
	return NewRate(0, s.Games)
}

// CompareTable writes the runs side by side, one column each.
func CompareTable(runs []Compared) string {
	var b bytes.Buffer
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, r := range compareRows(runs) {
		fmt.Fprintln(w, strings.Join(r, "\t"))
	}
	w.Flush()
	return b.String()
}

var comparePage = template.Must(template.New("compare").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>arbiter lab: comparison</title>
<style>
body { font-family: sans-serif; max-width: 70rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border-bottom: 1px solid #ccc; padding: .25rem .75rem; text-align: right; font-variant-numeric: tabular-nums; }
th:first-child, td:first-child { text-align: left; }
figure { margin: 1.5rem 0; } figure svg { max-width: 100%; height: auto; }
figcaption { color: #555; font-size: .9rem; }
</style></head><body>
<h1>Comparison</h1>
<table>{{range $i, $r := .Rows}}<tr>{{range $r}}{{if eq $i 0}}<th>{{.}}</th>{{else}}<td>{{.}}</td>{{end}}{{end}}</tr>
{{end}}</table>
{{range .Figures}}<figure>{{.SVG}}<figcaption>{{.Caption}}</figcaption></figure>
{{end}}</body></html>
`))

// CompareHTML writes the comparison as one self-contained page: the
// table and plots of the first player's score and the draws with their
// intervals, and of the branching over the game, run beside run.
func CompareHTML(runs []Compared) ([]byte, error) {
	plots, err := comparePlots(runs)
	if err != nil {
		return nil, err
	}
	var figs []figure
	for _, cp := range plots {
		img, err := cp.chart.svg()
		if err != nil {
			return nil, err
		}
		figs = append(figs, figure{SVG: img, Caption: cp.caption})
	}
	var b bytes.Buffer
	err = comparePage.Execute(&b, struct {
		Rows    [][]string
		Figures []figure
	}{compareRows(runs), figs})
	return b.Bytes(), err
}

// comparedPlot is one plot of a comparison, with the file name it gets
// on its own and its caption.
type comparedPlot struct {
	file, caption string
	chart         chart
}

// comparePlots draws the comparison's plots: the first player's score
// (with the fair share's dashed line, when the runs have as many seats)
// and the draws with their intervals, and the branching over the game.
// Every legend sits beside its plot, where it covers no point or curve.
func comparePlots(runs []Compared) ([]comparedPlot, error) {
	var labels []string
	var first, draws []Rate
	for _, c := range runs {
		labels = append(labels, c.Label)
		first = append(first, c.Summary.FirstPlayer.Score)
		draws = append(draws, c.Summary.DrawRate)
	}
	firstCaption := "The first seat's score in each run (a win 1, a draw or a shared win its share), with 95% intervals."
	var firstChart chart
	var err error
	if seats := sameSeats(runs); seats > 0 {
		fair := 100 / float64(seats)
		firstCaption += fmt.Sprintf(" The dashed line is a fair share, %.0f%%: a balanced game's first seat scores on it.", fair)
		firstChart, err = ratesChart("First player's score", labels, first, fair)
	} else {
		var p *plot.Plot
		p, err = ratesPlot("First player's score", labels, first)
		firstChart = beside(p)
	}
	if err != nil {
		return nil, err
	}
	out := []comparedPlot{{"first-player.svg", firstCaption, firstChart}}
	p, err := ratesPlot("Draws", labels, draws)
	if err != nil {
		return nil, err
	}
	out = append(out, comparedPlot{"draws.svg", "The share of drawn games in each run, with 95% intervals.", beside(p)})
	if p, err = branchingCompared(runs); err != nil {
		return nil, err
	}
	return append(out, comparedPlot{"branching.svg", "Legal moves per position over the game, one line per run.", beside(p)}), nil
}

// sameSeats is the runs' number of seats when they all have the same, 0
// when they differ (no one fair share then).
func sameSeats(runs []Compared) int {
	seats := 0
	for k, c := range runs {
		n := len(c.Summary.Seats)
		if k > 0 && n != seats || n == 0 {
			return 0
		}
		seats = n
	}
	return seats
}

// ComparePlotFiles are the comparison's plots as SVG files of their own
// (for a paper or a web page), by file name: first-player.svg, draws.svg
// and branching.svg, drawn as the page draws them.
func ComparePlotFiles(runs []Compared) (map[string][]byte, error) {
	plots, err := comparePlots(runs)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, cp := range plots {
		data, err := cp.chart.file()
		if err != nil {
			return nil, err
		}
		out[cp.file] = data
	}
	return out, nil
}

// runColours tell the runs' lines apart.
var runColours = []color.Color{barColour, lineColour, color.RGBA{R: 0x55, G: 0xa8, B: 0x68, A: 0xff},
	color.RGBA{R: 0x81, G: 0x72, B: 0xb2, A: 0xff}, color.RGBA{R: 0xcc, G: 0xb9, B: 0x74, A: 0xff},
	color.RGBA{R: 0x64, G: 0xb5, B: 0xcd, A: 0xff}}

// branchingCompared draws every run's branching curve on one plot.
func branchingCompared(runs []Compared) (*plot.Plot, error) {
	p := newPlot("Branching over the game", "ply", "legal moves")
	for k, c := range runs {
		var xys plotter.XYs
		for _, b := range c.Summary.Branching.Buckets {
			xys = append(xys, plotter.XY{X: float64(b.From+b.To-1) / 2, Y: b.Mean})
		}
		if len(xys) == 0 {
			continue
		}
		line, err := plotter.NewLine(xys)
		if err != nil {
			return nil, err
		}
		line.Color = runColours[k%len(runColours)]
		if k >= len(runColours) {
			line.Dashes = []vg.Length{vg.Points(4), vg.Points(2)} // more runs than colours
		}
		line.Width = vg.Points(1.5)
		p.Add(line)
		p.Legend.Add(c.Label, line)
	}
	p.Legend.Top = true
	return p, nil
}
