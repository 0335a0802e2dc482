package hall

import (
	"slices"
	"testing"
	"time"
)

// TestAbandonedLeaveTheLiveGames: an untimed game against the computer
// whose person has not moved for AbandonedAfter leaves the lobby's live
// games (the home page's Watch list), and comes back with a move; a game
// between people and a game with a clock stay, whatever the wait.
func TestAbandonedLeaveTheLiveGames(t *testing.T) {
	ft := &fakeNow{now: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	h := newTestHall(t, Config{Now: ft.Now, Workers: 1})
	againstAI := create(t, h, NewGame{Game: "pommel", Seats: []string{"human", "ai:level=1"}})
	people := create(t, h, NewGame{Game: "pommel", Seats: []string{"human", "human"}})
	timed := create(t, h, NewGame{Game: "pommel", Seats: []string{"human", "ai:level=1"}, Clock: "10m+5s"})
	live := func() []string {
		t.Helper()
		_, games, err := h.Lobby(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, g := range games {
			ids = append(ids, g.ID)
		}
		slices.Sort(ids)
		return ids
	}
	all := []string{againstAI.ID, people.ID, timed.ID}
	slices.Sort(all)
	if got := live(); !slices.Equal(got, all) {
		t.Fatalf("at the start the live games are %v, want %v", got, all)
	}
	ft.advance(AbandonedAfter - time.Second)
	if got := live(); !slices.Equal(got, all) {
		t.Errorf("just before AbandonedAfter the live games are %v, want %v", got, all)
	}
	ft.advance(2 * time.Second)
	kept := []string{people.ID, timed.ID}
	slices.Sort(kept)
	if got := live(); !slices.Equal(got, kept) {
		t.Errorf("after AbandonedAfter the live games are %v, want %v (the untimed game against the AI left)", got, kept)
	}
	playFirst(t, h, againstAI, 0)
	if got := live(); !slices.Contains(got, againstAI.ID) {
		t.Errorf("after a move the game against the AI is not live again: %v", got)
	}
}
