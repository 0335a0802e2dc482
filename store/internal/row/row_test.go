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

// TestSavedColumnsStay: a game's columns as saved before the wire left
// the hall's and the store's types (the store's own JSON: seats with
// their hashes, a clock in nanoseconds, a result with scores) still read
// back, and are written again byte for byte.
func TestSavedColumnsStay(t *testing.T) {
	clock := `{"base":300000000000,"increment":3000000000,"perMove":0,"left":[298500000000,301000000000],"turnStart":"2026-03-14T15:09:26.535Z"}`
	result := `{"winners":[],"reason":"repetition","scores":[3,3,2]}`
	saved := Columns{ID: "g", Game: "punt-heks-match-3p", Options: `{"end":"allstuck"}`,
		Seats: `[{"player":"human","name":"carol","tokenHash":"AQID","open":false,"account":"u1"},` +
			`{"player":"human","open":true},{"player":"ai:level=2","open":false}]`,
		Clock: &clock, Result: &result, Ply: 4, Version: 5, DrawOffer: -1, OpenSeats: 1,
		Created: 1773500966535, Updated: 1773500966535, Rated: 1}
	h, err := saved.Header()
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 14, 15, 9, 26, 535000000, time.UTC)
	want := store.Header{ID: "g", Game: "punt-heks-match-3p", Options: map[string]string{"end": "allstuck"},
		Seats: []store.Seat{{Player: "human", Name: "carol", TokenHash: []byte{1, 2, 3}, Account: "u1"},
			{Player: "human", Open: true}, {Player: "ai:level=2"}},
		Clock: &store.Clock{Control: timecontrol.Control{Base: 5 * time.Minute, Increment: 3 * time.Second},
			Left: []time.Duration{298500 * time.Millisecond, 301 * time.Second}, TurnStart: at},
		Rated: true, Ply: 4, Version: 5, Result: &store.Result{Winners: []int{}, Reason: "repetition", Scores: []int{3, 3, 2}},
		DrawOffer: -1, Created: at, Updated: at}
	if !reflect.DeepEqual(h, want) {
		t.Fatalf("read back\n got %+v\nwant %+v", h, want)
	}
	again, err := FromHeader(h)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, saved) {
		t.Errorf("written again\n got %+v\nwant %+v", again, saved)
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
