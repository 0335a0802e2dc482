package lab

import (
	"bytes"
	"fmt"
	"html/template"
	"image/color"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The plots' size and colours.
const (
	plotWidth  = 16 * vg.Centimeter
	plotHeight = 8 * vg.Centimeter
)

var (
	barColour  = color.RGBA{R: 0x4c, G: 0x78, B: 0xa8, A: 0xff}
	lineColour = color.RGBA{R: 0xc4, G: 0x4e, B: 0x52, A: 0xff}
)

// svgHead is what precedes the <svg> element in gonum's output: an XML
// declaration that has no place inside an HTML page; svgNamespaces are
// the namespace declarations that an SVG inside HTML does without (the
// page then names no outside address at all).
var (
	svgHead       = regexp.MustCompile(`(?s)^.*?(<svg)`)
	svgNamespaces = regexp.MustCompile(`\s+xmlns(:xlink)?="[^"]*"`)
)

// svg renders a plot as an SVG element to put inline in a page.
func svg(p *plot.Plot) (template.HTML, error) {
	w, err := p.WriterTo(plotWidth, plotHeight, "svg")
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if _, err := w.WriteTo(&b); err != nil {
		return "", err
	}
	// The SVG is gonum's own drawing of our numbers: no outside text
	// reaches it but the labels, which gonum escapes.
	out := svgHead.ReplaceAll(b.Bytes(), []byte("$1"))
	out = svgNamespaces.ReplaceAll(out, nil)
	// gonum measured its labels in Liberation Serif; a reader without it
	// gets the nearest serif face rather than the browser's default.
	out = bytes.ReplaceAll(out, []byte("font-family:Liberation Serif;"), []byte("font-family:'Liberation Serif',serif;"))
	return template.HTML(out), nil // #nosec G203
}

// roundTicks labels an axis at round steps (1, 2 or 5 times a power of
// ten: 0, 50, 100, never 37.5), with unlabelled ticks between; whole
// keeps the steps at 1 or more, for axes that count (plies, games).
type roundTicks struct{ whole bool }

// Ticks puts three to eight labelled ticks between lo and hi.
func (rt roundTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: tickLabel(lo, 1)}}
	}
	step := roundStep((hi - lo) / 8)
	if rt.whole {
		step = max(step, 1)
	}
	minor := step / 2
	if rt.whole && minor != math.Trunc(minor) {
		minor = step
	}
	var ticks []plot.Tick
	for i := math.Ceil(lo / minor); i*minor <= hi+minor*1e-9; i++ {
		v := i * minor
		t := plot.Tick{Value: v}
		if k := math.Round(v / step); math.Abs(v-k*step) < minor*1e-6 {
			t.Label = tickLabel(k*step, step)
		}
		ticks = append(ticks, t)
	}
	return ticks
}

// roundStep is the smallest of 1, 2 and 5 times a power of ten that is at
// least x.
func roundStep(x float64) float64 {
	unit := math.Pow(10, math.Floor(math.Log10(x)))
	for _, f := range []float64{1, 2, 5} {
		if f*unit >= x*(1-1e-9) {
			return f * unit
		}
	}
	return 10 * unit
}

// tickLabel writes a tick's value with the decimals its step needs
// ("50", "0.2"), and 0 rather than -0.
func tickLabel(v, step float64) string {
	decimals := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	text := strconv.FormatFloat(v, 'f', decimals, 64)
	if strings.Trim(text, "-0.") == "" {
		return "0"
	}
	return text
}

// newPlot starts a plot with its title and axes' labels.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.X.Tick.Marker, p.Y.Tick.Marker = roundTicks{whole: true}, roundTicks{}
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Add(plotter.NewGrid())
	return p
}

// lengthPlot is the histogram of the games' lengths.
func lengthPlot(d Distribution) (*plot.Plot, error) {
	p := newPlot("Game length", "plies", "games")
	if len(d.Bins) == 0 {
		return p, nil
	}
	h := &plotter.Histogram{FillColor: barColour, LineStyle: plotter.DefaultLineStyle,
		Width: float64(d.Bins[0].To - d.Bins[0].From)}
	for _, b := range d.Bins {
		h.Bins = append(h.Bins, plotter.HistogramBin{Min: float64(b.From), Max: float64(b.To), Weight: float64(b.Count)})
	}
	p.Add(h)
	return p, nil
}

// curvePlot draws a curve's mean per ply bucket, at each bucket's middle.
func curvePlot(c Curve, title, y string) (*plot.Plot, error) {
	p := newPlot(title, "ply", y)
	if len(c.Buckets) == 0 {
		return p, nil
	}
	xys := make(plotter.XYs, len(c.Buckets))
	for i, b := range c.Buckets {
		xys[i] = plotter.XY{X: float64(b.From+b.To-1) / 2, Y: b.Mean}
	}
	line, points, err := plotter.NewLinePoints(xys)
	if err != nil {
		return nil, err
	}
	line.Color, points.Color = lineColour, lineColour
	p.Add(line, points)
	return p, nil
}

// rateBars are rates with their intervals, for error bars.
type rateBars struct {
	plotter.XYs
	plotter.YErrors
}

// ratesPlot draws rates (in percent) with their 95% intervals, one per
// named column.
func ratesPlot(title string, names []string, rates []Rate) (*plot.Plot, error) {
	p := newPlot(title, "", "% of games (95% interval)")
	bars := rateBars{}
	for i, r := range rates {
		bars.XYs = append(bars.XYs, plotter.XY{X: float64(i), Y: 100 * r.Rate})
		bars.YErrors = append(bars.YErrors, struct{ Low, High float64 }{100 * (r.Rate - r.Lo), 100 * (r.Hi - r.Rate)})
	}
	errs, err := plotter.NewYErrorBars(bars)
	if err != nil {
		return nil, err
	}
	points, err := plotter.NewScatter(bars.XYs)
	if err != nil {
		return nil, err
	}
	points.Color = barColour
	points.Radius = vg.Points(4)
	errs.Color = barColour
	errs.CapWidth = vg.Points(10)
	p.Add(errs, points)
	p.NominalX(names...)
	if len(names) > 5 { // long names side by side would overlap: slant them
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
	}
	p.X.Min, p.X.Max = -0.5, float64(len(names))-0.5
	p.Y.Min, p.Y.Max = 0, rateAxisTop(rates)
	return p, nil
}

// rateAxisTop is the top of a rates plot's axis: 100% unless every
// interval ends below 40%, when the axis ends at the next 5% above the
// highest end, so that small rates (a draw rate of 2%) can be read; a
// score near a fair share of one half keeps the whole axis.
func rateAxisTop(rates []Rate) float64 {
	top := 0.0
	for _, r := range rates {
		top = max(top, 100*r.Hi)
	}
	if top >= 40 {
		return 100
	}
	return 5 * math.Ceil((top+0.5)/5)
}

// plots are the report's figures, each an inline SVG with a caption.
func (a *Analysis) plots() ([]figure, error) {
	s := a.Summary
	var names []string
	var rates []Rate
	for _, st := range s.Seats {
		names = append(names, st.Seat+" wins")
		rates = append(rates, st.Wins)
	}
	names = append(names, "draws", s.FirstPlayer.Seat+"'s score")
	rates = append(rates, s.DrawRate, s.FirstPlayer.Score)
	evalSide := "the first seat's side"
	if a.Game.Players() > 2 {
		evalSide = "the mover's side"
	}
	makers := []struct {
		caption string
		make    func() (*plot.Plot, error)
	}{
		{"Each seat's outright wins, the draws and the first seat's score (a win 1, a draw or a shared win its share), with 95% intervals.",
			func() (*plot.Plot, error) { return ratesPlot("Results by seat", names, rates) }},
		{"How many games lasted how many plies.", func() (*plot.Plot, error) { return lengthPlot(s.Plies) }},
		{"Legal moves per position, the mean over the games still going at each ply.",
			func() (*plot.Plot, error) { return curvePlot(s.Branching, "Branching over the game", "legal moves") }},
		{fmt.Sprintf("The engines' evaluation from %s, the mean at each ply (capped at ±%d); the late plies rest on the few long games.", evalSide, EvalCap),
			func() (*plot.Plot, error) { return curvePlot(s.Eval, "Evaluation over the game", "score") }},
	}
	if len(s.Signals) > 0 {
		kinds := slices.Sorted(maps.Keys(s.Signals))
		var signalRates []Rate
		for _, k := range kinds {
			signalRates = append(signalRates, s.Signals[k])
		}
		makers = append(makers, struct {
			caption string
			make    func() (*plot.Plot, error)
		}{fmt.Sprintf("How often the player each event names wins, out of the games with one winner where it names somebody, with 95%% intervals; a fair share is %.0f%%.", 100/float64(len(s.Seats))),
			func() (*plot.Plot, error) { return ratesPlot("Who wins: the player with the…", kinds, signalRates) }})
	}
	var figs []figure
	for _, m := range makers {
		p, err := m.make()
		if err != nil {
			return nil, err
		}
		img, err := svg(p)
		if err != nil {
			return nil, err
		}
		figs = append(figs, figure{SVG: img, Caption: m.caption})
	}
	return figs, nil
}

// figure is one plot of the report.
type figure struct {
	SVG     template.HTML
	Caption string
}
