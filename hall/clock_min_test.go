package hall

import (
	"strings"
	"testing"
)

// TestGameClocksGiveAPersonTime: a server game's clock gives each seat at
// least MinGameBase (a match of engines may play on milliseconds, the
// parser allows them); a bad or over-long control is refused quoting at
// most 80 characters of it.
func TestGameClocksGiveAPersonTime(t *testing.T) {
	h := newTestHall(t, Config{})
	for _, tc := range []struct {
		clock string
		ok    bool
	}{
		{"1ms+0s", false}, {"999ms+1s", false}, {"0.5+2", false}, {"1s+0s", true}, {"3m+2s", true}, {"180+2", true},
		{"-1s+0s", false}, {"fast", false}, {strings.Repeat("9", 5000) + "s+0s", false},
	} {
		_, err := h.Create(t.Context(), NewGame{Game: "pommel", Seats: []string{"human", "human"}, Clock: tc.clock})
		if (err == nil) != tc.ok {
			t.Errorf("clock %.20q: error %v, want ok %v", tc.clock, err, tc.ok)
		}
		if err != nil && (ErrorCode(err) != Invalid || len(err.Error()) > 300) {
			t.Errorf("clock %.20q: refusal %.120q, want a short invalid", tc.clock, err)
		}
	}
}
