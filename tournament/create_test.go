package tournament

import (
	"strings"
	"testing"
	"time"

	_ "github.com/arbiter-games/arbiter/games/all"
	"github.com/arbiter-games/arbiter/store"
)

// Every field of a request is checked: each bad value is refused Invalid
// with a message that names it.
func TestRequestChecks(t *testing.T) {
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	good := func() Request {
		return Request{Kind: Swiss, Game: "checkers-2011", Clock: &Clock{Initial: 180, Increment: 2}, Rounds: 4}
	}
	if _, err := good().check(now); err != nil {
		t.Fatalf("a good Swiss: %v", err)
	}
	arena := Request{Kind: Arena, Game: "punt-heks-match-3p", Clock: &Clock{Initial: 30}, Minutes: 3}
	if _, err := arena.check(now); err != nil {
		t.Fatalf("a three-player arena: %v", err)
	}
	tests := []struct {
		name string
		edit func(*Request)
		want string
	}{
		{"no kind", func(r *Request) { r.Kind = "" }, "kind"},
		{"bad kind", func(r *Request) { r.Kind = "knockout" }, "kind"},
		{"zero rounds", func(r *Request) { r.Rounds = 0 }, "rounds"},
		{"negative rounds", func(r *Request) { r.Rounds = -1 }, "rounds"},
		{"huge rounds", func(r *Request) { r.Rounds = 1 << 40 }, "rounds"},
		{"minutes in a Swiss", func(r *Request) { r.Minutes = 30 }, "minutes"},
		{"arena with no minutes", func(r *Request) { r.Kind, r.Rounds = Arena, 0 }, "minutes"},
		{"arena too long", func(r *Request) { r.Kind, r.Rounds, r.Minutes = Arena, 0, MaxMinutes+1 }, "minutes"},
		{"round-robin with rounds", func(r *Request) { r.Kind = RoundRobin }, "rounds"},
		{"unknown game", func(r *Request) { r.Game = "chess" }, "unknown game"},
		{"over-long game", func(r *Request) { r.Game = strings.Repeat("x", 1000) }, "unknown game"},
		{"bad option", func(r *Request) { r.Options = map[string]string{"nope": "1"} }, "nope"},
		{"Swiss of three", func(r *Request) { r.Game = "punt-heks-match-3p" }, "two-player"},
		{"no clock", func(r *Request) { r.Clock = nil }, "clock"},
		{"zero clock", func(r *Request) { r.Clock = &Clock{} }, "clock"},
		{"negative increment", func(r *Request) { r.Clock = &Clock{Initial: 60, Increment: -1} }, "clock"},
		{"huge base", func(r *Request) { r.Clock = &Clock{Initial: 1 << 40} }, "clock"},
		{"days and seconds", func(r *Request) { r.Clock = &Clock{Initial: 60, Days: 1} }, "clock"},
		{"too many days", func(r *Request) { r.Clock = &Clock{Days: 100} }, "days"},
		{"correspondence arena", func(r *Request) { r.Kind, r.Rounds, r.Minutes, r.Clock = Arena, 0, 30, &Clock{Days: 1} }, "real-time"},
		{"past start", func(r *Request) { r.Start = now.Add(-time.Second) }, "past"},
		{"far start", func(r *Request) { r.Start = now.Add(MaxAhead + time.Hour) }, "ahead"},
		{"negative rating", func(r *Request) { r.MinRating = -1 }, "rating"},
		{"huge rating", func(r *Request) { r.MaxRating = 1 << 30 }, "rating"},
		{"bounds crossed", func(r *Request) { r.MinRating, r.MaxRating = 1800, 1200 }, "over"},
		{"long name", func(r *Request) { r.Name = strings.Repeat("n", MaxName+1) }, "name"},
		{"control in name", func(r *Request) { r.Name = "a\nb" }, "name"},
		{"bad UTF-8 name", func(r *Request) { r.Name = "\xff" }, "name"},
	}
	for _, tt := range tests {
		r := good()
		tt.edit(&r)
		_, err := r.check(now)
		e, ok := err.(*Error)
		if !ok || e.Code != Invalid || !strings.Contains(e.Message, tt.want) {
			t.Errorf("%s: %v, want Invalid mentioning %q", tt.name, err, tt.want)
		}
	}
}

// placesOf ranks the seats of a result.
func TestPlacesOf(t *testing.T) {
	tests := []struct {
		winners, scores []int
		reason          string
		seats           int
		want            []int
	}{
		{[]int{0}, nil, "no pieces", 2, []int{1, 2}},
		{[]int{1}, nil, "resignation", 2, []int{2, 1}},
		{nil, nil, "agreement", 2, []int{1, 1}},
		{nil, nil, "aborted", 2, nil},
		{[]int{2}, []int{5, 9, 20}, "score", 3, []int{3, 2, 1}},
		{[]int{2}, []int{5, 5, 20}, "score", 3, []int{2, 2, 1}},
		{[]int{0, 1}, nil, "score", 3, []int{1, 1, 3}},
	}
	for _, tt := range tests {
		got := placesOf(&store.Result{Winners: tt.winners, Scores: tt.scores, Reason: tt.reason}, tt.seats)
		if !equalInts(got, tt.want) {
			t.Errorf("places of %v %v %s: %v, want %v", tt.winners, tt.scores, tt.reason, got, tt.want)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
