package acct

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/arbiter-games/arbiter/timecontrol"
)

// seekClock is a seek's time control as the seeks table's clock column
// keeps it, as JSON: Fischer in whole seconds ({"initial":180,
// "increment":2}) or correspondence in days a move ({"days":3}). Its
// fields are the stored format and must not change; seekClockText and
// control are the only conversions.
type seekClock struct {
	Initial   int `json:"initial,omitempty"`
	Increment int `json:"increment,omitempty"`
	Days      int `json:"days,omitempty"`
}

// seekClockText is the clock column for control tc: nil (SQL NULL) for
// none. A control the column cannot keep exactly (a fraction of a second
// or of a day) is refused, not rounded.
func seekClockText(tc *timecontrol.Control) (*string, error) {
	if tc == nil {
		return nil, nil
	}
	var stored seekClock
	if tc.Correspondence() {
		if tc.PerMove%timecontrol.Day != 0 || tc.Base != 0 || tc.Increment != 0 {
			return nil, fmt.Errorf("store: a seek's control %s is not whole days a move", tc)
		}
		stored.Days = int(tc.PerMove / timecontrol.Day)
	} else {
		if tc.Base%time.Second != 0 || tc.Increment%time.Second != 0 {
			return nil, fmt.Errorf("store: a seek's control %s is not in whole seconds", tc)
		}
		stored.Initial, stored.Increment = int(tc.Base/time.Second), int(tc.Increment/time.Second)
	}
	b, err := json.Marshal(stored)
	if err != nil {
		return nil, err
	}
	text := string(b)
	return &text, nil
}

// control is the time control the stored clock keeps.
func (s seekClock) control() timecontrol.Control {
	if s.Days > 0 {
		return timecontrol.Control{PerMove: time.Duration(s.Days) * timecontrol.Day}
	}
	return timecontrol.Control{Base: time.Duration(s.Initial) * time.Second, Increment: time.Duration(s.Increment) * time.Second}
}
