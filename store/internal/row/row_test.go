package row

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/timecontrol"
)

func TestWhere(t *testing.T) {
	pg := func(n int) string { return "$" + strconv.Itoa(n) }
	tests := []struct {
		f     store.Filter
		where string
		args  []any
	}{
		{store.Filter{}, "", nil},
		{store.Filter{Ongoing: true, OpenSeats: true}, " WHERE result IS NULL AND open_seats > 0", nil},
		{store.Filter{IDs: []string{"a", "b"}, Ongoing: true}, " WHERE result IS NULL AND id IN ($1, $2)", []any{"a", "b"}},
	}
	for _, tt := range tests {
		where, args := Where(tt.f, pg)
		if where != tt.where || !reflect.DeepEqual(args, tt.args) {
			t.Errorf("Where(%+v) = %q, %v; want %q, %v", tt.f, where, args, tt.where, tt.args)
		}
	}
}

func TestLimit(t *testing.T) {
	for _, tt := range []struct{ in, want int }{{0, DefaultLimit}, {1, 1}, {5000, 5000}} {
		if got, err := Limit(store.Filter{Limit: tt.in}); err != nil || got != tt.want {
			t.Errorf("Limit(%d) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
	if _, err := Limit(store.Filter{Limit: -1}); err == nil || !strings.Contains(err.Error(), "negative") {
		t.Errorf("Limit(-1) = %v, want a complaint that it is negative", err)
	}
}

// TestSeatsKeepTokenHashes: the stored seats keep the hash that
// store.Seat's own JSON leaves out, and count the open seats.
func TestSeatsKeepTokenHashes(t *testing.T) {
	h := store.Header{ID: "g", Game: "pommel", Version: 1, DrawOffer: -1, Seats: []store.Seat{
		{Player: "human", TokenHash: []byte{1, 2, 3}},
		{Player: "human", Open: true},
	}}
	c, err := FromHeader(h)
	if err != nil {
		t.Fatal(err)
	}
	if c.OpenSeats != 1 {
		t.Errorf("OpenSeats = %d, want 1", c.OpenSeats)
	}
	back, err := c.Header()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, h) {
		t.Errorf("round trip:\n got %+v\nwant %+v", back, h)
	}
	public, _ := json.Marshal(back.Seats)
	if strings.Contains(string(public), "AQID") || !strings.Contains(c.Seats, "AQID") {
		t.Errorf("the hash (base64 AQID) must be in the stored seats %s and not in their public JSON %s", c.Seats, public)
	}
}

func TestTimes(t *testing.T) {
	zone := time.FixedZone("X", -5*3600)
	at := time.Date(2025, 1, 2, 3, 4, 5, 678901234, zone)
	if got := Time(Millis(at)); !got.Equal(at.Truncate(time.Millisecond)) || got.Location() != time.UTC {
		t.Errorf("Time(Millis(%v)) = %v, want it in UTC to the millisecond", at, got)
	}
	if got := Time(Millis(time.Time{})); !got.IsZero() {
		t.Errorf("the zero time came back as %v", got)
	}
}

// TestStoredClockColumn: a games row's clock column written before the
// clock held a timecontrol.Control reads back as its control and reading,
// and is written again byte for byte.
func TestStoredClockColumn(t *testing.T) {
	column := `{"base":300000000000,"increment":3000000000,"perMove":0,"left":[300000000000,241500000000],"turnStart":"2026-01-02T03:04:05.678Z"}`
	c := Columns{ID: "g", Game: "pommel", Options: "{}", Seats: "[]", Clock: &column, Version: 1, DrawOffer: -1}
	h, err := c.Header()
	if err != nil {
		t.Fatal(err)
	}
	want := store.Clock{
		Control:   timecontrol.Control{Base: 5 * time.Minute, Increment: 3 * time.Second},
		Left:      []time.Duration{5 * time.Minute, 4*time.Minute + 1500*time.Millisecond},
		TurnStart: time.Date(2026, 1, 2, 3, 4, 5, 678e6, time.UTC),
	}
	if h.Clock == nil || !reflect.DeepEqual(*h.Clock, want) {
		t.Fatalf("stored clock %s read as %+v, want %+v", column, h.Clock, want)
	}
	again, err := FromHeader(h)
	if err != nil {
		t.Fatal(err)
	}
	if again.Clock == nil || *again.Clock != column {
		t.Errorf("the clock column is written again as %v, want the stored\n %s", again.Clock, column)
	}
}
