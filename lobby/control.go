package lobby

import (
	"time"

	"github.com/arbiter-games/arbiter/timecontrol"
)

// SeekControl is a seek's time control as a player posts it and the
// lobby lists it: Fischer in whole seconds (Initial, Increment) or
// correspondence in whole days a move (Days). It is only that form: the
// lobby and the store hold the control as a timecontrol.Control, which
// control checks and reads and shownControl writes back.
type SeekControl struct {
	Initial   int
	Increment int
	Days      int
}

// control checks t against the bounds of a seek's control and gives the
// control it is.
func (t SeekControl) control() (timecontrol.Control, error) {
	switch {
	case t.Days != 0 && (t.Initial != 0 || t.Increment != 0):
		return timecontrol.Control{}, refuse(Invalid, "clock: give initial and increment (real time) or days (correspondence), not both")
	case t.Days < 0 || t.Days > maxDays:
		return timecontrol.Control{}, refuse(Invalid, "clock: days %d; want 1 to %d", t.Days, maxDays)
	case t.Days > 0:
		return timecontrol.Control{PerMove: time.Duration(t.Days) * timecontrol.Day}, nil
	case t.Initial < 1 || t.Initial > maxFischerSeconds || t.Increment < 0 || t.Increment > maxIncrementSeconds:
		return timecontrol.Control{}, refuse(Invalid, "clock: initial %d s and increment %d s; want 1 to %d s and 0 to %d s",
			t.Initial, t.Increment, maxFischerSeconds, maxIncrementSeconds)
	}
	return timecontrol.Control{Base: time.Duration(t.Initial) * time.Second, Increment: time.Duration(t.Increment) * time.Second}, nil
}

// shownControl is a seek's control as the lobby shows it; nil for none. A
// seek's control is whole seconds or whole days (control made it).
func shownControl(tc *timecontrol.Control) *SeekControl {
	switch {
	case tc == nil:
		return nil
	case tc.Correspondence():
		return &SeekControl{Days: int(tc.PerMove / timecontrol.Day)}
	}
	return &SeekControl{Initial: int(tc.Base / time.Second), Increment: int(tc.Increment / time.Second)}
}
