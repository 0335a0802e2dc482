package hall

import "testing"

// A game made under a chosen id is made once: the second try is a
// Conflict, and the game stays the first's. Halved seats start with half
// the base.
func TestChosenIDAndHalved(t *testing.T) {
	h := newTestHall(t, Config{})
	id := NewGameID()
	req := NewGame{ID: id, Game: "checkers-2011", Seats: []string{"human", "human"}, Clock: "30s+0s", Halved: []bool{false, true}}
	c := create(t, h, req)
	if c.ID != id {
		t.Fatalf("made %s, want the chosen %s", c.ID, id)
	}
	if _, err := h.Create(t.Context(), req); ErrorCode(err) != Conflict {
		t.Fatalf("making %s again: %v, want a Conflict", id, err)
	}
	v := get(t, h, id)
	if v.Clock == nil || v.Clock.LeftMs[0] != 30_000 || v.Clock.LeftMs[1] != 15_000 {
		t.Fatalf("the clock of a halved second seat: %+v", v.Clock)
	}
	for _, bad := range []NewGame{
		{Game: "checkers-2011", Seats: []string{"human", "human"}, Halved: []bool{true}},
		{Game: "checkers-2011", Seats: []string{"human", "human"}, Days: 2, Halved: []bool{true}},
		{Game: "checkers-2011", Seats: []string{"human", "human"}, Clock: "30s", Halved: []bool{true, true, true}},
	} {
		if _, err := h.Create(t.Context(), bad); ErrorCode(err) != Invalid {
			t.Errorf("halved %v with clock %q days %d: %v, want Invalid", bad.Halved, bad.Clock, bad.Days, err)
		}
	}
}
