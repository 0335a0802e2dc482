package lab

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// svgText finds each text of an SVG file with its x.
var (
	svgText  = regexp.MustCompile(`(?s)<text x="([0-9.]+)"[^>]*>([^<]*)</text>`)
	svgPanel = regexp.MustCompile(`<path d="M0,0L([0-9.]+),0L`)
)

// TestComparePlotFilesLegendsBeside: every legend entry of the comparison's
// SVG files lies right of the plot's own area (whose background gonum
// draws from x=0), and the first player's plot has the dashed fair-share
// line at 50%, or 33% for three seats, said in its legend.
func TestComparePlotFilesLegendsBeside(t *testing.T) {
	for _, tt := range []struct {
		seats int
		fair  string
	}{{2, "fair share 50%"}, {3, "fair share 33%"}} {
		s := comparedSummary(t)
		for len(s.Seats) < tt.seats {
			s.Seats = append(s.Seats, SeatStats{Seat: "Red"})
		}
		runs := []Compared{{Label: "run one", Summary: s}, {Label: "run two", Summary: s}}
		files, err := ComparePlotFiles(runs)
		if err != nil {
			t.Fatal(err)
		}
		legends := map[string][]string{"first-player.svg": {tt.fair}, "branching.svg": {"run one", "run two"}}
		for name, entries := range legends {
			doc := string(files[name])
			if !strings.HasPrefix(doc, "<?xml") || !strings.Contains(doc, `xmlns="http://www.w3.org/2000/svg"`) {
				t.Errorf("%s is not an SVG file of its own", name)
			}
			m := svgPanel.FindStringSubmatch(doc)
			if m == nil {
				t.Fatalf("%s: no plot area found", name)
			}
			panel, _ := strconv.ParseFloat(m[1], 64)
			for _, entry := range entries {
				found := false
				for _, text := range svgText.FindAllStringSubmatch(doc, -1) {
					if text[2] != entry {
						continue
					}
					found = true
					if x, _ := strconv.ParseFloat(text[1], 64); x <= panel {
						t.Errorf("%s: legend %q at x=%v, inside the plot (right edge %v)", name, entry, x, panel)
					}
				}
				if !found {
					t.Errorf("%s (%d seats): no legend %q", name, tt.seats, entry)
				}
			}
		}
		if !strings.Contains(string(files["first-player.svg"]), "stroke-dasharray") {
			t.Errorf("first-player.svg has no dashed line")
		}
	}
}

// TestSkillPlotRoundTicksAndFairShare: the skill plot's score axis is in
// percent on round ticks, and the fair share's line has its legend beside
// the plot.
func TestSkillPlotRoundTicksAndFairShare(t *testing.T) {
	tr := &SkillTrace{Fair: 0.5, Steps: []SkillStep{{Step: 1, Score: NewRate(3, 4)}, {Step: 2, Score: NewRate(2, 4)}}}
	ch, err := tr.chart()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := ch.file()
	if err != nil {
		t.Fatal(err)
	}
	var labels []string
	for _, text := range svgText.FindAllStringSubmatch(string(doc), -1) {
		labels = append(labels, text[2])
	}
	all := strings.Join(labels, "|")
	for _, want := range []string{"|0|20|40|60|80|100|", "|1|2|", "fair share 50%"} {
		if !strings.Contains("|"+all+"|", want) {
			t.Errorf("the skill plot's texts %q lack %q", labels, want)
		}
	}
}
