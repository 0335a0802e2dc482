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
	"gonum.org/v1/plot/vg/vgsvg"
)

// The plots' size and colours.
const (
	plotWidth  = 16 * vg.Centimeter
	plotHeight = 8 * vg.Centimeter
)

var (
	barColour  = color.RGBA{R: 0x4c, G: 0x78, B: 0xa8, A: 0xff}
	lineColour = color.RGBA{R: 0xc4, G: 0x4e, B: 0x52, A: 0xff}
	// bandColour is lineColour, light: the quartiles behind the mean.
	bandColour  = color.RGBA{R: 0xf0, G: 0xcd, B: 0xce, A: 0xff}
	countColour = color.RGBA{R: 0x55, G: 0x55, B: 0x55, A: 0xff}
	countFill   = color.RGBA{R: 0xdd, G: 0xdd, B: 0xdd, A: 0xff}
	fairColour  = color.RGBA{R: 0x22, G: 0x22, B: 0x22, A: 0xff}
)

// svgHead is what precedes the <svg> element in gonum's output: an XML
// declaration that has no place inside an HTML page; svgNamespaces are
// the namespace declarations that an SVG inside HTML does without (the
// page then names no outside address at all).
var (
	svgHead       = regexp.MustCompile(`(?s)^.*?(<svg)`)
	svgNamespaces = regexp.MustCompile(`\s+xmlns(:xlink)?="[^"]*"`)
)

// svg renders a plot as an SVG element to put inline in a page, with its
// legend, if it has one, moved beside it.
func svg(p *plot.Plot) (template.HTML, error) {
	return beside(p).svg()
}

// beside is a chart of one plot, its legend (if it has entries) moved out
// of the data into a column to the right, where it covers no curve.
func beside(p *plot.Plot) chart {
	ch := chart{panels: []panel{{p, 1}}}
	legend := p.Legend
	if r := legend.Rectangle(draw.New(vgsvg.New(plotWidth, plotHeight))); r.Max.X > r.Min.X {
		legend.TextStyle.Font.Size = vg.Points(10) // as the report's own legends
		ch.legend = &legend
		p.Legend = plot.NewLegend()
	}
	return ch
}

// chart is a figure: plots stacked one above the other, each with its
// share of the height and their data areas aligned, and a legend in a
// column of its own to their right, where it covers no curve.
type chart struct {
	panels []panel
	legend *plot.Legend
}

// panel is one plot of a chart and its share of the chart's height.
type panel struct {
	plot  *plot.Plot
	share float64
}

// legendGap is the room between a chart's plots and its legend.
const legendGap = 4 * vg.Millimeter

// draw draws the chart on dc.
func (ch chart) draw(dc draw.Canvas) {
	panels, column := ch.layout(dc)
	if ch.legend != nil {
		ch.legend.Draw(column)
	}
	for i, p := range ch.panels {
		p.plot.Draw(panels[i])
	}
}

// layout places the chart on dc: a canvas for each panel, top first, and
// the legend's column at the right (when there is a legend), its
// entries' top level with the top of the first panel's data.
func (ch chart) layout(dc draw.Canvas) (panels []draw.Canvas, column draw.Canvas) {
	area := dc
	if ch.legend != nil {
		ch.legend.Left, ch.legend.Top = true, true
		ch.legend.Padding = max(ch.legend.Padding, vg.Millimeter) // entries apart, not touching
		r := ch.legend.Rectangle(dc)
		width := r.Max.X - r.Min.X + legendGap
		area = draw.Crop(dc, 0, -width, 0, 0)
		column = draw.Crop(dc, dc.Max.X-dc.Min.X-width+legendGap, 0, 0, 0)
	}
	total := 0.0
	for _, p := range ch.panels {
		total += p.share
	}
	panels = make([]draw.Canvas, len(ch.panels))
	top := area.Max.Y
	for i, p := range ch.panels {
		height := vg.Length(p.share/total) * (area.Max.Y - area.Min.Y)
		panels[i] = area
		panels[i].Min.Y, panels[i].Max.Y = top-height, top
		top -= height
	}
	// Align the data areas' left and right edges, whatever the width of
	// each plot's tick labels, so that a ply is at the same place in every
	// panel.
	var left, right vg.Length
	for i, p := range ch.panels {
		d := p.plot.DataCanvas(panels[i])
		left = max(left, d.Min.X-panels[i].Min.X)
		right = max(right, panels[i].Max.X-d.Max.X)
	}
	for i, p := range ch.panels {
		c := panels[i]
		d := p.plot.DataCanvas(c)
		panels[i] = draw.Crop(c, left-(d.Min.X-c.Min.X), -(right - (c.Max.X - d.Max.X)), 0, 0)
	}
	if ch.legend != nil && len(panels) > 0 {
		column.Max.Y = ch.panels[0].plot.DataCanvas(panels[0]).Max.Y
	}
	return panels, column
}

// svg renders the chart as an SVG element to put inline in a page.
func (ch chart) svg() (template.HTML, error) {
	c := vgsvg.New(plotWidth, plotHeight)
	ch.draw(draw.New(c))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
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

// file renders the chart as an SVG file of its own, with its XML
// declaration and namespaces, as an image viewer or a web page's <img>
// wants it.
func (ch chart) file() ([]byte, error) {
	c := vgsvg.New(plotWidth, plotHeight)
	ch.draw(draw.New(c))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// roundTicks labels an axis at round steps (1, 2 or 5 times a power of
// ten: 0, 50, 100, never 37.5), with unlabelled ticks between; whole
// keeps the steps at 1 or more, for axes that count (plies, games). few
// asks for two or three labels rather than eight, for a short axis.
type roundTicks struct{ whole, few bool }

// Ticks puts round labelled ticks between lo and hi.
func (rt roundTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: tickLabel(lo, 1)}}
	}
	labels := 8.0
	if rt.few {
		labels = 2
	}
	step := roundStep((hi - lo) / labels)
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

// unlabelled are a ticker's ticks without their labels.
type unlabelled struct{ plot.Ticker }

// Ticks are t's ticks, unlabelled.
func (t unlabelled) Ticks(lo, hi float64) []plot.Tick {
	ticks := t.Ticker.Ticks(lo, hi)
	for i := range ticks {
		ticks[i].Label = ""
	}
	return ticks
}

// tickLabel writes a tick's value with no more decimals than its step
// needs ("50", "0.2", "1"), and 0 rather than -0.
func tickLabel(v, step float64) string {
	decimals := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	text := strconv.FormatFloat(v, 'f', decimals, 64)
	if strings.Contains(text, ".") {
		text = strings.TrimRight(strings.TrimRight(text, "0"), ".")
	}
	if text == "-0" {
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

// curveChart draws a quantity over the game, in the ply buckets of the
// curve c: its mean in each bucket with a band from the lower to the upper
// quartile of the values there, and below it how many games are still
// going at each ply, so that a reader sees how few long games the late
// plies rest on. value reads the quantity from a ply, ok false when the
// ply has none (an opening ply has no evaluation).
func (a *Analysis) curveChart(c Curve, value func(PlyStats) (float64, bool), title, y string) (chart, error) {
	top := newPlot(title, "", y)
	left, count := a.gamesLeftPlot()
	legend := plot.NewLegend()
	legend.TextStyle.Font.Size = vg.Points(10)
	if len(c.Buckets) > 0 {
		mean, band := curveLines(c, a.bucketValues(c, value))
		line, points, err := plotter.NewLinePoints(mean)
		if err != nil {
			return chart{}, err
		}
		line.Color, points.Color = lineColour, lineColour
		poly, err := plotter.NewPolygon(band)
		if err != nil {
			return chart{}, err
		}
		poly.Color, poly.LineStyle.Width = bandColour, 0
		top.Add(poly, line, points)
		legend.Add("mean", line, points)
		legend.Add("quartiles", poly)
	}
	if count != nil {
		legend.Add("games left", count)
	}
	longest := 0
	for _, g := range a.Games {
		longest = max(longest, g.Plies)
	}
	for _, p := range []*plot.Plot{top, left} {
		p.X.Min, p.X.Max = 0, float64(max(longest, 1))
	}
	top.X.Tick.Marker = unlabelled{top.X.Tick.Marker} // the panel below labels the plies
	top.Y.Min = min(top.Y.Min, 0)                     // a level evaluation, or no legal move, is on the axis
	return chart{panels: []panel{{top, 2}, {left, 1}}, legend: &legend}, nil
}

// curveLines are the curve's mean at each bucket's middle, and the band
// from the lower quartile of each bucket to the upper and back.
func curveLines(c Curve, values [][]float64) (mean, band plotter.XYs) {
	var lower, upper plotter.XYs
	for i, b := range c.Buckets {
		x := float64(b.From+b.To-1) / 2
		mean = append(mean, plotter.XY{X: x, Y: b.Mean})
		v := slices.Sorted(slices.Values(values[i]))
		if len(v) == 0 {
			continue
		}
		lower = append(lower, plotter.XY{X: x, Y: quantile(v, 0.25)})
		upper = append(upper, plotter.XY{X: x, Y: quantile(v, 0.75)})
	}
	slices.Reverse(upper)
	return mean, append(lower, upper...)
}

// bucketValues gathers the values of the plies in each of c's buckets.
func (a *Analysis) bucketValues(c Curve, value func(PlyStats) (float64, bool)) [][]float64 {
	out := make([][]float64, len(c.Buckets))
	for _, ps := range a.Plies {
		v, ok := value(ps)
		if !ok {
			continue
		}
		i, found := slices.BinarySearchFunc(c.Buckets, ps.Ply, func(b Bucket, ply int) int {
			switch {
			case b.To <= ply:
				return -1
			case b.From > ply:
				return 1
			}
			return 0
		})
		if found {
			out[i] = append(out[i], v)
		}
	}
	return out
}

// gamesLeftPlot is how many games are still going at each ply: the games
// that lasted that long; count is its line, nil when there is no game.
func (a *Analysis) gamesLeftPlot() (p *plot.Plot, count *plotter.Line) {
	p = newPlot("", "ply", "games left")
	p.Y.Tick.Marker = roundTicks{whole: true, few: true}
	longest := 0
	for _, g := range a.Games {
		longest = max(longest, g.Plies)
	}
	ended := make([]int, longest+2)
	for _, g := range a.Games {
		ended[g.Plies+1]++
	}
	left := len(a.Games)
	var xys plotter.XYs
	for ply := 1; ply <= longest; ply++ {
		left -= ended[ply]
		xys = append(xys, plotter.XY{X: float64(ply), Y: float64(left)})
	}
	if len(xys) == 0 {
		return p, nil
	}
	line, err := plotter.NewLine(xys)
	if err != nil { // xys are finite numbers: no error can come
		return p, nil
	}
	line.Color, line.FillColor = countColour, countFill
	p.Add(line)
	p.Y.Min = 0
	return p, line
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
	if namesCrowd(p, names) { // long names side by side would overlap: slant them
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YCenter
	}
	p.X.Min, p.X.Max = -0.5, float64(len(names))-0.5
	p.Y.Min, p.Y.Max = 0, rateAxisTop(rates)
	return p, nil
}

// namesCrowd reports whether the names, written level side by side, would
// need more than the room a rates plot has beside its axis and legend.
func namesCrowd(p *plot.Plot, names []string) bool {
	var width vg.Length
	for _, n := range names {
		width += p.X.Tick.Label.Width(n) + 3*vg.Millimeter
	}
	return len(names) > 5 || width > plotWidth/2
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

// fairShareLine is the dashed line at a fair share (percent) across a
// rates plot, with its legend; the axis reaches it.
func fairShareLine(p *plot.Plot, percent float64) (*plot.Legend, error) {
	line, err := plotter.NewLine(plotter.XYs{{X: p.X.Min, Y: percent}, {X: p.X.Max, Y: percent}})
	if err != nil {
		return nil, err
	}
	line.Color, line.Dashes = fairColour, []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(line)
	p.Y.Max = max(p.Y.Max, min(100, 5*math.Ceil((percent+5)/5)))
	legend := plot.NewLegend()
	legend.TextStyle.Font.Size = vg.Points(10)
	legend.Add(fmt.Sprintf("fair share %.0f%%", percent), line)
	return &legend, nil
}

// ratesChart is a rates plot with a fair share's line.
func ratesChart(title string, names []string, rates []Rate, fair float64) (chart, error) {
	p, err := ratesPlot(title, names, rates)
	if err != nil {
		return chart{}, err
	}
	legend, err := fairShareLine(p, fair)
	if err != nil {
		return chart{}, err
	}
	return chart{panels: []panel{{p, 1}}, legend: legend}, nil
}

// plotMaker is one figure of the report: its caption and how to draw it.
type plotMaker struct {
	caption string
	make    func() (chart, error)
}

// plots are the report's figures, each an inline SVG with a caption that
// says what the image shows.
func (a *Analysis) plots() ([]figure, error) {
	var figs []figure
	for _, m := range a.plotMakers() {
		ch, err := m.make()
		if err != nil {
			return nil, err
		}
		img, err := ch.svg()
		if err != nil {
			return nil, err
		}
		figs = append(figs, figure{SVG: img, Caption: m.caption})
	}
	return figs, nil
}

// plotMakers are the report's figures in order.
func (a *Analysis) plotMakers() []plotMaker {
	s := a.Summary
	var names []string
	var rates []Rate
	for _, st := range s.Seats {
		names = append(names, st.Seat+" wins")
		rates = append(rates, st.Wins)
	}
	names = append(names, "draws", s.FirstPlayer.Seat+"'s score")
	rates = append(rates, s.DrawRate, s.FirstPlayer.Score)
	n := max(a.Game.Players(), 1)
	fair := 100 / float64(n)
	evalSide := "the first seat's side"
	if n > 2 {
		evalSide = "the mover's side"
	}
	bandNote := "the pink band holds the middle half of them, from the lower to the upper quartile. "
	countNote := "The grey panel below counts the games still going at each ply: the late plies rest on the few long games."
	makers := []plotMaker{
		{fmt.Sprintf("Each seat's outright wins, the draws and the first seat's score (a win 1, a draw or a shared win its share), "+
			"each a dot with its 95%% interval. The dashed line is a fair share, %.0f%%: the first seat's score sits on it "+
			"in a balanced game, and so does each seat's wins when no game is drawn or shared.", fair),
			func() (chart, error) { return ratesChart("Results by seat", names, rates, fair) }},
		{"How many games lasted how many plies: each bar counts the games whose length falls in its range.",
			func() (chart, error) {
				p, err := lengthPlot(s.Plies)
				return chart{panels: []panel{{p, 1}}}, err
			}},
		{"Legal moves per position: the red line is the mean over the positions of each range of plies; " + bandNote + countNote,
			func() (chart, error) {
				return a.curveChart(s.Branching, func(ps PlyStats) (float64, bool) { return float64(ps.Legal), true },
					"Branching over the game", "legal moves")
			}},
		{fmt.Sprintf("The engines' evaluation from %s, in hundredths of a piece (capped at ±%d): the red line is the mean "+
			"over the searches of each range of plies; %s%s", evalSide, EvalCap, bandNote, countNote),
			func() (chart, error) {
				return a.curveChart(s.Eval, func(ps PlyStats) (float64, bool) { return float64(ps.Eval), ps.Searched },
					"Evaluation over the game", "evaluation (1/100 piece)")
			}},
	}
	makers = append(makers, a.measureCharts(bandNote+countNote)...)
	if len(s.Signals) > 0 {
		kinds := slices.Sorted(maps.Keys(s.Signals))
		var signalRates []Rate
		for _, k := range kinds {
			signalRates = append(signalRates, s.Signals[k])
		}
		makers = append(makers, plotMaker{fmt.Sprintf("How often the player each event names wins, out of the games "+
			"with one winner where it names somebody, each a dot with its 95%% interval; the dashed line is a fair "+
			"share, %.0f%%: an event above it goes with winning.", fair),
			func() (chart, error) { return ratesChart("Who wins: the player with the…", kinds, signalRates, fair) }})
	}
	return makers
}

// figure is one plot of the report.
type figure struct {
	SVG     template.HTML
	Caption string
}

// measureCharts are the curves of the measures over the game: the pieces
// on the board, the score lead in a game that scores, the static
// evaluation's lead in a game that has one; notes explain the band and
// the count below.
func (a *Analysis) measureCharts(notes string) []plotMaker {
	m := a.Summary.Measures
	side, staticSide := "the first seat's score less the second's", "from the first seat's side"
	if a.Game.Players() > 2 {
		side, staticSide = "the leader's score less the runner-up's", "as the leader's margin over the runner-up"
	}
	makers := []plotMaker{{"Every player's pieces on the board after each move: the red line is the mean over the " +
		"positions of each range of plies; " + notes,
		func() (chart, error) {
			return a.curveChart(m.Pieces, func(ps PlyStats) (float64, bool) { return float64(ps.Pieces), true },
				"Pieces on the board", "pieces")
		}}}
	if m.ScoreLead != nil {
		makers = append(makers, plotMaker{"The score lead after each move, " + side + ": the red line is the mean " +
			"over the positions of each range of plies; " + notes,
			func() (chart, error) {
				return a.curveChart(*m.ScoreLead, func(ps PlyStats) (float64, bool) { return float64(ps.ScoreLead), true },
					"Score lead over the game", "points")
			}})
	}
	if m.StaticEval != nil {
		makers = append(makers, plotMaker{fmt.Sprintf("The game's static evaluation of the position after each move "+
			"(no search), %s, in hundredths of a piece (capped at ±%d): the red line is the mean over the "+
			"positions of each range of plies; %s", staticSide, EvalCap, notes),
			func() (chart, error) {
				return a.curveChart(*m.StaticEval, func(ps PlyStats) (float64, bool) { return float64(ps.Static), true },
					"Static evaluation over the game", "evaluation (1/100 piece)")
			}})
	}
	return makers
}
