package pairing

import (
	"errors"
	"math"
	"testing"
)

const W, B = White, Black

func TestPreferenceOf(t *testing.T) {
	for _, tc := range []struct {
		colours []Colour
		want    preference
	}{
		{nil, preference{}},
		{[]Colour{W}, preference{B, strong}},
		{[]Colour{B}, preference{W, strong}},
		{[]Colour{W, B}, preference{W, mild}},
		{[]Colour{B, W}, preference{B, mild}},
		{[]Colour{W, W}, preference{B, absolute}},
		{[]Colour{B, B}, preference{W, absolute}},
		{[]Colour{W, B, W}, preference{B, strong}},
		{[]Colour{B, W, W}, preference{B, absolute}}, // twice running
		{[]Colour{W, B, W, W}, preference{B, absolute}},
		{[]Colour{W, W, B, W}, preference{B, absolute}}, // difference +2
		{[]Colour{B, B, W, B}, preference{W, absolute}},
		{[]Colour{W, B, B, W}, preference{B, mild}},
	} {
		if got := preferenceOf(tc.colours); got != tc.want {
			t.Errorf("%v: got %+v, want %+v", tc.colours, got, tc.want)
		}
	}
}

func TestAllocate(t *testing.T) {
	e := func(number int, cs ...Colour) *entrant {
		return &entrant{number: number, colours: cs, pref: preferenceOf(cs)}
	}
	for _, tc := range []struct {
		name    string
		hi, lo  *entrant
		initial Colour
		want    Colour // hi's colour
	}{
		{"E.5 odd number gets the initial colour", e(1), e(2), W, W},
		{"E.5 even number gets the other", e(2), e(5), W, B},
		{"E.5 initial colour black", e(3), e(4), B, B},
		{"no history: the other's preference", e(1), e(2, W), W, W},
		{"E.1 both granted", e(1, W), e(2, B), W, B},
		{"E.2 strong beats mild", e(1, B, W), e(2, W), W, W},
		{"E.2 absolute beats strong", e(1, W), e(2, W, W), W, W},
		{"E.3 alternate to the last difference", e(1, W, B, W, B), e(2, B, W, W, B), W, W},
		{"E.4 higher rank's preference", e(1, W, B), e(2, W, B), B, W},
	} {
		if got := allocate(tc.hi, tc.lo, tc.initial); got != tc.want {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestAbsoluteColours: two players who must both have white never meet,
// even when they are the obvious pair; a pairing then uses the others.
func TestAbsoluteColours(t *testing.T) {
	ps := []Player{
		{ID: "a", Rating: 2000, History: []Game{{1, "x", B, 1, false}, {2, "y", B, 1, false}}},
		{ID: "b", Rating: 1900, History: []Game{{1, "y", B, 1, false}, {2, "x", B, 1, false}}},
		{ID: "x", Rating: 1800, History: []Game{{1, "a", W, 0, false}, {2, "b", W, 0, false}}},
		{ID: "y", Rating: 1700, History: []Game{{1, "b", W, 0, false}, {2, "a", W, 0, false}}},
	}
	_, err := Swiss(ps, 3, SwissOptions{})
	if !errors.Is(err, ErrNoPairing) {
		t.Fatalf("a-b (both must have white) and x-y (both black), the only pairs left: got %v", err)
	}
	ps = append(ps, Player{ID: "c", Rating: 1600, History: []Game{{1, "d", W, 1, false}, {2, "d2", B, 1, false}}},
		Player{ID: "d", Rating: 1500, History: []Game{{1, "c", B, 0, false}}},
		Player{ID: "d2", Rating: 1400, History: []Game{{2, "c", W, 0, false}}})
	ps[5].History = append(ps[5].History, Game{Round: 2, Bye: true, Points: 1})
	ps[6].History = append([]Game{{Round: 1, Bye: true, Points: 1}}, ps[6].History...)
	rd, err := Swiss(ps, 3, SwissOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rd.Pairs {
		if p.White == "a" && p.Black == "b" || p.White == "b" && p.Black == "a" {
			t.Fatalf("a and b both need white: %s", describe(rd))
		}
	}
}

func TestSwissRefusals(t *testing.T) {
	g := func(round int, opp string, c Colour, pts float64) Game {
		return Game{Round: round, Opponent: opp, Colour: c, Points: pts}
	}
	for _, tc := range []struct {
		name    string
		players []Player
	}{
		{"empty id", []Player{{ID: ""}}},
		{"duplicate", []Player{{ID: "a"}, {ID: "a"}}},
		{"NaN rating", []Player{{ID: "a", Rating: math.NaN()}}},
		{"infinite rating", []Player{{ID: "a", Rating: math.Inf(1)}}},
		{"unknown opponent", []Player{{ID: "a", History: []Game{g(1, "zz", W, 1)}}}},
		{"self", []Player{{ID: "a", History: []Game{g(1, "a", W, 1)}}}},
		{"future round", []Player{{ID: "a", History: []Game{g(2, "b", W, 1)}}, {ID: "b"}}},
		{"round zero", []Player{{ID: "a", History: []Game{g(0, "b", W, 1)}}, {ID: "b"}}},
		{"points", []Player{{ID: "a", History: []Game{g(1, "b", W, 2)}}, {ID: "b"}}},
		{"negative points", []Player{{ID: "a", History: []Game{g(1, "b", W, -1)}}, {ID: "b"}}},
		{"no colour", []Player{{ID: "a", History: []Game{g(1, "b", NoColour, 1)}}, {ID: "b"}}},
	} {
		if _, err := Swiss(tc.players, 2, SwissOptions{}); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v, want ErrInvalid", tc.name, err)
		}
	}
}

func TestSwissSmallRounds(t *testing.T) {
	rd, err := Swiss(nil, 1, SwissOptions{})
	if err != nil || len(rd.Pairs) != 0 || rd.Bye != "" {
		t.Fatalf("nobody: %+v %v", rd, err)
	}
	rd, err = Swiss([]Player{{ID: "solo"}}, 1, SwissOptions{})
	if err != nil || rd.Bye != "solo" {
		t.Fatalf("one player gets the bye: %+v %v", rd, err)
	}
	ps := []Player{{ID: "solo", History: []Game{{Round: 1, Bye: true, Points: 1}}}}
	if _, err := Swiss(ps, 2, SwissOptions{}); !errors.Is(err, ErrNoPairing) {
		t.Fatalf("a second bye: %v", err)
	}
	rd, err = Swiss([]Player{{ID: "a", Rating: 1}, {ID: "b", Rating: 2}, {ID: "c", Absent: true}}, 1, SwissOptions{InitialColour: Black})
	if err != nil || describe(rd) != "a-b " {
		t.Fatalf("b ranks first and gets the drawn colour, black: %q %v", describe(rd), err)
	}
}
