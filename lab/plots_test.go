package lab

import (
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// TestRoundTicks: the labelled ticks of an axis are round numbers, with
// as few digits as their step needs.
func TestRoundTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64
		ticks  roundTicks
		want   []string
	}{
		{0, 100, roundTicks{}, []string{"0", "20", "40", "60", "80", "100"}},
		{0, 75, roundTicks{}, []string{"0", "10", "20", "30", "40", "50", "60", "70"}},
		{0, 15, roundTicks{}, []string{"0", "2", "4", "6", "8", "10", "12", "14"}},
		{-730, 410, roundTicks{}, []string{"-600", "-400", "-200", "0", "200", "400"}},
		{0, 1, roundTicks{}, []string{"0", "0.2", "0.4", "0.6", "0.8", "1"}},
		{0.3, 0.9, roundTicks{}, []string{"0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "0.9"}},
		{0, 1, roundTicks{whole: true}, []string{"0", "1"}},
		{0, 3, roundTicks{whole: true}, []string{"0", "1", "2", "3"}},
		{1, 171, roundTicks{whole: true}, []string{"50", "100", "150"}},
		{0, 2000, roundTicks{whole: true}, []string{"0", "500", "1000", "1500", "2000"}},
		{5, 5, roundTicks{}, []string{"5"}},
		{0, 30, roundTicks{whole: true, few: true}, []string{"0", "20"}},
		{0, 2000, roundTicks{whole: true, few: true}, []string{"0", "1000", "2000"}},
		{-0.05, 0.1, roundTicks{}, []string{"-0.04", "-0.02", "0", "0.02", "0.04", "0.06", "0.08", "0.1"}},
	}
	for _, tt := range tests {
		var got []string
		for _, tick := range tt.ticks.Ticks(tt.lo, tt.hi) {
			if tick.Value < tt.lo-1e-9 || tick.Value > tt.hi+1e-9 {
				t.Errorf("%v to %v: a tick at %v, outside the axis", tt.lo, tt.hi, tick.Value)
			}
			if tick.Label != "" {
				got = append(got, tick.Label)
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%v to %v (%+v): labels %q, want %q", tt.lo, tt.hi, tt.ticks, got, tt.want)
		}
	}
}

// syntheticRun is an analysis of made-up games of the given lengths (the
// first won by seat 0, the others drawn), each ply with legal moves equal
// to its number and an evaluation of ten times it.
func syntheticRun(t *testing.T, id string, lengths ...int) *Analysis {
	g := newGame(t, id)
	a := &Analysis{Game: g}
	for i, n := range lengths {
		gs := GameStats{Index: i, Reason: "no moves", Plies: n}
		if i == 0 {
			gs.Winners = []int{0}
			gs.Signals = Signals{"first capture": 0}
		}
		a.Games = append(a.Games, gs)
		for ply := 1; ply <= n; ply++ {
			a.Plies = append(a.Plies, PlyStats{Game: i, Ply: ply, Legal: ply, Searched: true, Eval: 10 * ply})
		}
	}
	a.Summary = summarize(g, Manifest{Game: id}, a.Games, a.Plies)
	return a
}

// TestGamesLeft: the count under a curve is the games that lasted at
// least so many plies.
func TestGamesLeft(t *testing.T) {
	_, line := syntheticRun(t, "pommel", 3, 5, 5).gamesLeftPlot()
	want := []float64{3, 3, 3, 2, 2}
	if line == nil || len(line.XYs) != len(want) {
		t.Fatalf("games left %v, want %v", line, want)
	}
	for i, xy := range line.XYs {
		if xy.X != float64(i+1) || xy.Y != want[i] {
			t.Errorf("ply %v: %v games left, want %v", xy.X, xy.Y, want[i])
		}
	}
	if _, line := syntheticRun(t, "pommel").gamesLeftPlot(); line != nil {
		t.Errorf("no game, yet a count of games left")
	}
}

// TestCurveBand: the band runs from each bucket's lower quartile to its
// upper one and back, around the mean.
func TestCurveBand(t *testing.T) {
	c := Curve{Buckets: []Bucket{{From: 1, To: 3, Mean: 2}, {From: 3, To: 5, Mean: 6}}}
	mean, band := curveLines(c, [][]float64{{4, 1, 2, 3}, {10, 2}})
	wantMean := plotter.XYs{{X: 1.5, Y: 2}, {X: 3.5, Y: 6}}
	wantBand := plotter.XYs{{X: 1.5, Y: 1.75}, {X: 3.5, Y: 4}, {X: 3.5, Y: 8}, {X: 1.5, Y: 3.25}}
	if !slices.Equal(mean, wantMean) || !slices.Equal(band, wantBand) {
		t.Errorf("mean %v band %v, want %v and %v", mean, band, wantMean, wantBand)
	}
}

// TestChartLayout: a curve's panels share their data's left and right
// edges, the curve gets two thirds of the height, and the legend's column
// lies right of every data area, so that it covers no curve.
func TestChartLayout(t *testing.T) {
	a := syntheticRun(t, "pommel", 30, 50, 52)
	charts := map[string]func() (chart, error){
		"curve": func() (chart, error) {
			return a.curveChart(a.Summary.Branching, func(ps PlyStats) (float64, bool) { return float64(ps.Legal), true }, "b", "legal moves")
		},
		"rates": func() (chart, error) {
			return ratesChart("r", []string{"a", "b"}, []Rate{NewRate(1, 3), NewRate(2, 3)}, 50)
		},
	}
	for name, make := range charts {
		ch, err := make()
		if err != nil {
			t.Fatal(err)
		}
		dc := draw.New(vgsvg.New(plotWidth, plotHeight))
		panels, column := ch.layout(dc)
		var data []draw.Canvas
		for i, p := range ch.panels {
			data = append(data, p.plot.DataCanvas(panels[i]))
			if d := data[i]; d.Max.X >= column.Min.X || column.Min.X >= dc.Max.X {
				t.Errorf("%s: panel %d's data reach x=%v, the legend starts at %v", name, i, d.Max.X, column.Min.X)
			}
		}
		if len(panels) < 2 {
			continue
		}
		top, bottom := panels[0].Max.Y-panels[0].Min.Y, panels[1].Max.Y-panels[1].Min.Y
		if data[0].Min.X != data[1].Min.X || data[0].Max.X != data[1].Max.X || math.Abs(float64(top-2*bottom)) > 1e-6 ||
			panels[1].Max.Y > panels[0].Min.Y {
			t.Errorf("%s: panels %v and %v, data %v and %v: want aligned, 2:1, the count below", name,
				panels[0].Rectangle, panels[1].Rectangle, data[0].Rectangle, data[1].Rectangle)
		}
	}
}

// TestCaptionsMatchTheImages: a figure with a fair-share line says so and
// gives its share; one with a band and a count of games left explains
// both; and a game of three gets a fair share of 33%.
func TestCaptionsMatchTheImages(t *testing.T) {
	for _, tt := range []struct {
		id   string
		fair string
	}{{"pommel", "fair share 50%"}, {"punt-heks-match-3p", "fair share 33%"}} {
		a := syntheticRun(t, tt.id, 10, 12)
		figs, err := a.plots()
		if err != nil {
			t.Fatal(err)
		}
		fairs := 0
		for _, f := range figs {
			img := string(f.SVG)
			checks := []struct{ shows, says string }{
				{tt.fair, "dashed line is a fair share, " + strings.TrimPrefix(tt.fair, "fair share ")},
				{">quartiles<", "lower to the upper quartile"},
				{">games left<", "counts the games still going"},
			}
			for _, c := range checks {
				if strings.Contains(img, c.shows) != strings.Contains(f.Caption, c.says) {
					t.Errorf("%s: the image has %q: %v; the caption says %q: %v (%s)", tt.id, c.shows,
						strings.Contains(img, c.shows), c.says, strings.Contains(f.Caption, c.says), f.Caption)
				}
			}
			if strings.Contains(img, tt.fair) {
				fairs++
			}
		}
		if fairs != 2 {
			t.Errorf("%s: %d figures with the line %q, want 2 (results, who wins)", tt.id, fairs, tt.fair)
		}
	}
}

// TestPlotsOfNoGames: a run with no game yet (a merge of empty shards)
// still draws every figure, empty.
func TestPlotsOfNoGames(t *testing.T) {
	figs, err := syntheticRun(t, "pommel").plots()
	if err != nil || len(figs) != 5 {
		t.Fatalf("%d figures, %v; want 5 (pieces, but no static evaluation and no signal without games)", len(figs), err)
	}
	for _, f := range figs {
		if !strings.Contains(string(f.SVG), "<svg") {
			t.Errorf("figure %q is no SVG", f.Caption)
		}
	}
}

// TestBesideMovesTheLegendOut: a plot's own legend (a comparison's lines)
// is drawn beside it, not over its data; a plot without one gets no
// column.
func TestBesideMovesTheLegendOut(t *testing.T) {
	p := newPlot("t", "x", "y")
	line, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
	if err != nil {
		t.Fatal(err)
	}
	p.Add(line)
	p.Legend.Add("run a", line)
	ch := beside(p)
	if ch.legend == nil {
		t.Fatal("the plot's legend was not moved beside it")
	}
	dc := draw.New(vgsvg.New(plotWidth, plotHeight))
	panels, column := ch.layout(dc)
	if d := p.DataCanvas(panels[0]); d.Max.X >= column.Min.X {
		t.Errorf("the data reach x=%v, the legend starts at %v", d.Max.X, column.Min.X)
	}
	if r := p.Legend.Rectangle(dc); r.Max.X > r.Min.X {
		t.Errorf("the legend is still inside the plot too")
	}
	if beside(newPlot("t", "x", "y")).legend != nil {
		t.Errorf("a plot with no legend got a legend column")
	}
}
