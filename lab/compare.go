package lab

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Compared is one run of a comparison: a label (its folder's name) and
// its summary.
type Compared struct {
	Label   string
	Summary *Summary
}

// ReadSummaries reads the summary.json of each run folder, labelled by
// the folder's name.
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
		runs = append(runs, Compared{Label: filepath.Base(filepath.Clean(dir)), Summary: &s})
	}
	return runs, nil
}

// compareRows are the lines of a comparison: a name and each run's value.
func compareRows(runs []Compared) [][]string {
	row := func(name string, value func(s *Summary) string) []string {
		r := []string{name}
		for _, c := range runs {
			r = append(r, value(c.Summary))
		}
		return r
	}
	seats := 0
	for _, c := range runs {
		seats = max(seats, len(c.Summary.Seats))
	}
	rows := [][]string{
		row("run", func(*Summary) string { return "" }),
		row("game", func(s *Summary) string { return s.Game }),
		row("options", func(s *Summary) string { return optionsText(s.Options) }),
		row("players", func(s *Summary) string { return strings.Join(s.Players, " ") }),
		row("limits", func(s *Summary) string { return limitsText(s.Run) }),
		row("games", func(s *Summary) string { return fmt.Sprint(s.Games) }),
	}
	for k := range runs {
		rows[0][k+1] = runs[k].Label
	}
	for p := range seats {
		rows = append(rows, row(fmt.Sprintf("seat %d wins", p+1), func(s *Summary) string {
			if p >= len(s.Seats) {
				return "-"
			}
			return s.Seats[p].Seat + " " + RateText(s.Seats[p].Wins)
		}))
	}
	rows = append(rows,
		row("first player's score", func(s *Summary) string { return RateText(s.FirstPlayer.Score) }),
		row("first player's edge", func(s *Summary) string {
			return fmt.Sprintf("%+.1f [%+.1f, %+.1f]", 100*s.FirstPlayer.Edge, 100*s.FirstPlayer.Lo, 100*s.FirstPlayer.Hi)
		}),
		row("draws", func(s *Summary) string { return RateText(s.DrawRate) }),
		row("  by repetition", func(s *Summary) string { return RateText(drawsBy(s, "repetition")) }),
		row("  by ply cap", func(s *Summary) string { return RateText(drawsBy(s, "ply cap")) }),
		row("shared first places", func(s *Summary) string { return fmt.Sprint(s.Shared) }),
		row("plies: mean", func(s *Summary) string { return fmt.Sprintf("%.1f", s.Plies.Mean) }),
		row("plies: median [quartiles]", func(s *Summary) string {
			return fmt.Sprintf("%.0f [%.0f, %.0f]", s.Plies.Median, s.Plies.Q1, s.Plies.Q3)
		}),
		row("branching", func(s *Summary) string { return fmt.Sprintf("%.1f", s.Branching.Mean) }),
		row("real decisions", func(s *Summary) string { return fmt.Sprintf("%.1f%%", 100*s.DecisionShare) }),
	)
	for _, n := range perGameNames {
		rows = append(rows, row(n.key+" per game", func(s *Summary) string { return fmt.Sprintf("%.2f", s.PerGame[n.key]) }))
	}
	return rows
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
		img, err := svg(cp.plot)
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
	plot          *plot.Plot
}

// comparePlots draws the comparison's plots: the first player's score and
// the draws with their intervals, and the branching over the game.
func comparePlots(runs []Compared) ([]comparedPlot, error) {
	var labels []string
	var first, draws []Rate
	for _, c := range runs {
		labels = append(labels, c.Label)
		first = append(first, c.Summary.FirstPlayer.Score)
		draws = append(draws, c.Summary.DrawRate)
	}
	var out []comparedPlot
	for _, f := range []struct {
		file, title, caption string
		rates                []Rate
	}{
		{"first-player.svg", "First player's score", "The first seat's score in each run (a win 1, a draw or a shared win its share), with 95% intervals.", first},
		{"draws.svg", "Draws", "The share of drawn games in each run, with 95% intervals.", draws},
	} {
		p, err := ratesPlot(f.title, labels, f.rates)
		if err != nil {
			return nil, err
		}
		out = append(out, comparedPlot{f.file, f.caption, p})
	}
	p, err := branchingCompared(runs)
	if err != nil {
		return nil, err
	}
	return append(out, comparedPlot{"branching.svg", "Legal moves per position over the game, one line per run.", p}), nil
}

// ComparePlotFiles are the comparison's plots as SVG files of their own
// (for a paper or a web page), by file name: first-player.svg, draws.svg
// and branching.svg.
func ComparePlotFiles(runs []Compared) (map[string][]byte, error) {
	plots, err := comparePlots(runs)
	if err != nil {
		return nil, err
	}
	out := map[string][]byte{}
	for _, cp := range plots {
		w, err := cp.plot.WriterTo(plotWidth, plotHeight, "svg")
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		if _, err := w.WriteTo(&b); err != nil {
			return nil, err
		}
		out[cp.file] = b.Bytes()
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
