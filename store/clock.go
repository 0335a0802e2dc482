package store

import (
	"encoding/json"
	"time"

	"github.com/arbiter-games/arbiter/timecontrol"
)

// Clock is a stored game's clock: its time control and its reading, each
// seat's time left at TurnStart (the reading play.ClockState gives).
// It is stored as JSON in the fields it had before the control was a
// timecontrol.Control (see clockJSON), so that no stored game changes.
type Clock struct {
	Control timecontrol.Control
	// Left is each seat's time at TurnStart, in turn order.
	Left []time.Duration
	// TurnStart is when the seat to move began thinking; zero while the
	// clock waits for the first move.
	TurnStart time.Time
}

// clockJSON is a Clock as it is stored: the control's three times in
// nanoseconds, then the reading. Its fields and their order are the
// stored format and must not change.
type clockJSON struct {
	Base      time.Duration   `json:"base"`
	Increment time.Duration   `json:"increment"`
	PerMove   time.Duration   `json:"perMove"`
	Left      []time.Duration `json:"left"`
	TurnStart time.Time       `json:"turnStart"`
}

// MarshalJSON writes the clock in its stored form.
func (c Clock) MarshalJSON() ([]byte, error) {
	return json.Marshal(clockJSON{
		Base: c.Control.Base, Increment: c.Control.Increment, PerMove: c.Control.PerMove,
		Left: c.Left, TurnStart: c.TurnStart,
	})
}

// UnmarshalJSON reads the clock's stored form.
func (c *Clock) UnmarshalJSON(data []byte) error {
	var j clockJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*c = Clock{
		Control: timecontrol.Control{Base: j.Base, Increment: j.Increment, PerMove: j.PerMove},
		Left:    j.Left, TurnStart: j.TurnStart,
	}
	return nil
}
