package lab

import (
	"strings"
	"testing"
)

// TestTextHasTheEngineTable: with two different engines the console
// shows each engine's results, as report.html does; self-play has no
// such table.
func TestTextHasTheEngineTable(t *testing.T) {
	base := &Summary{Game: "pommel", Games: 4, Distinct: 4, FirstPlayer: Advantage{Seat: "White"}}
	differ := *base
	differ.ByPlayer = []PlayerStats{
		{Name: "ab depth 2", Games: 4, Wins: 3, Shared: 1, Score: NewRate(3, 4)},
		{Name: "random", Games: 4, Losses: 3, Shared: 1, Score: NewRate(1, 4)},
	}
	tests := []struct {
		name  string
		s     *Summary
		lines []string
	}{
		{"engines differ", &differ, []string{
			"engine      games   wins shared losses  score [95% interval]",
			"ab depth 2      4      3      1      0  " + RateText(NewRate(3, 4)),
			"random          4      0      1      3  " + RateText(NewRate(1, 4)),
		}},
		{"self-play", base, nil},
	}
	for _, tt := range tests {
		text := Text(tt.s)
		for _, line := range tt.lines {
			if !strings.Contains(text, line+"\n") {
				t.Errorf("%s: the console text lacks the line %q:\n%s", tt.name, line, text)
			}
		}
		if tt.lines == nil && strings.Contains(text, "wins shared losses") {
			t.Errorf("%s: an engine table where every seat has the same engine:\n%s", tt.name, text)
		}
	}
}
