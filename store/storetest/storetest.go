// Package storetest is the conformance suite every store.Store passes:
// the same tests, run against SQLite and PostgreSQL by their packages'
// tests.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/timecontrol"
)

// Opener opens a store on a new, empty database; the suite closes it.
type Opener func(t *testing.T) store.Store

// Reopener opens another store on the database s uses (as a second
// server would); the suite closes it.
type Reopener func(t *testing.T, s store.Store) store.Store

// Run runs the suite: every test on a store of its own from open.
func Run(t *testing.T, open Opener, again Reopener) {
	tests := []struct {
		name string
		run  func(*testing.T, Opener, Reopener)
	}{
		{"RoundTrip", testRoundTrip},
		{"CreateRefuses", testCreateRefuses},
		{"Duplicate", testDuplicate},
		{"NotFound", testNotFound},
		{"AddMove", testAddMove},
		{"AddMoveRefuses", testAddMoveRefuses},
		{"RaceTwo", func(t *testing.T, o Opener, a Reopener) { testRace(t, o, a, 2) }},
		{"RaceTen", func(t *testing.T, o Opener, a Reopener) { testRace(t, o, a, 10) }},
		{"Update", testUpdate},
		{"TakeBack", testTakeBack},
		{"TakeBackRefuses", testTakeBackRefuses},
		{"Waiting", testWaiting},
		{"UpdateRefuses", testUpdateRefuses},
		{"List", testList},
		{"ListDefaultLimit", testListDefaultLimit},
		{"Subscribe", testSubscribe},
		{"SubscribeOtherStore", testSubscribeOtherStore},
		{"Check", testCheck},
		{"Closed", testClosed},
		{"Cancelled", testCancelled},
	}
	tests = append(tests, accountTests...)
	tests = append(tests, puzzleTests...)
	tests = append(tests, communityTests...)
	tests = append(tests, tournamentTests...)
	tests = append(tests, notifyTests...)
	tests = append(tests, botTests...)
	tests = append(tests, liveTests...)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, open, again) })
	}
}

// base is a time with nanoseconds in a zone other than UTC: the store
// must give it back in UTC to the millisecond.
var base = time.Date(2025, 3, 14, 15, 9, 26, 535897932, time.FixedZone("CET", 3600))

// stored is t as a store gives it back.
func stored(t time.Time) time.Time { return t.Truncate(time.Millisecond).UTC() }

// newHeader is a two-seat game at its start, as a server creates it.
func newHeader(id string, created time.Time) store.Header {
	return store.Header{
		ID:      id,
		Game:    "pommel",
		Options: map[string]string{"maxplies": "200"},
		Seats: []store.Seat{
			{Player: "human", Name: "Ada", TokenHash: hash(id + "/0")},
			{Player: "ai:level=3"},
		},
		Version:   1,
		DrawOffer: -1,
		Created:   created,
		Updated:   created,
	}
}

func hash(s string) []byte {
	h := make([]byte, 32)
	copy(h, s)
	h[31] = 0xff
	return h
}

// normalised is h as a store gives it back: times in UTC to the
// millisecond.
func normalised(h store.Header) store.Header {
	h.Created, h.Updated = stored(h.Created), stored(h.Updated)
	if h.Clock != nil {
		c := *h.Clock
		c.TurnStart = stored(c.TurnStart)
		h.Clock = &c
	}
	return h
}

func mustCreate(t *testing.T, s store.Store, h store.Header) {
	t.Helper()
	if err := s.Create(context.Background(), h); err != nil {
		t.Fatalf("Create(%s): %v", h.ID, err)
	}
}

func mustGet(t *testing.T, s store.Store, id string) store.Game {
	t.Helper()
	g, err := s.Get(context.Background(), id)
	if err != nil {
		t.Fatalf("Get(%s): %v", id, err)
	}
	return g
}

// same fails unless got and want are equal, showing both.
func same(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}

// unchanged fails unless the game is still as before.
func unchanged(t *testing.T, s store.Store, before store.Game) {
	t.Helper()
	same(t, "the game after a refused write", mustGet(t, s, before.ID), before)
}

// wantErr fails unless err is target.
func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("%s: error %v, want %v", what, err, target)
	}
}

// afterMove is h once move ply was played at time at.
func afterMove(h store.Header, at time.Time) store.Header {
	h.Ply++
	h.Version++
	h.Updated = at
	return h
}

func testRoundTrip(t *testing.T, open Opener, _ Reopener) {
	s := open(t)
	full := newHeader("full", base)
	full.Options = map[string]string{"maxplies": "200", "hop": "long"}
	full.StartFEN = "W:W21,22:B1,2"
	full.Seats = append(full.Seats, store.Seat{Player: "human", Open: true})
	full.Clock = &store.Clock{
		Control:   timecontrol.Control{Base: 5 * time.Minute, Increment: 3 * time.Second},
		Left:      []time.Duration{5 * time.Minute, 4*time.Minute + 1500*time.Millisecond, time.Minute},
		TurnStart: base.Add(time.Second + 123456789),
	}
	full.DrawOffer = 2
	full.Updated = base.Add(time.Hour)
	bare := store.Header{ID: "bare", Game: "eximo", Version: 1, DrawOffer: -1}
	corr := newHeader("corr", base)
	corr.Clock = &store.Clock{Control: timecontrol.Control{PerMove: 72 * time.Hour}, Left: []time.Duration{72 * time.Hour, 72 * time.Hour}}
	for _, h := range []store.Header{full, bare, corr} {
		mustCreate(t, s, h)
		g := mustGet(t, s, h.ID)
		same(t, "Get after Create("+h.ID+")", g, store.Game{Header: normalised(h)})
	}
	if g := mustGet(t, s, "full"); g.Created.Location() != time.UTC || !g.Created.Equal(stored(base)) {
		t.Errorf("Created = %v, want %v in UTC", g.Created, stored(base))
	}
}

func testCreateRefuses(t *testing.T, open Opener, _ Reopener) {
	s := open(t)
	tests := []struct {
		name string
		edit func(*store.Header)
	}{
		{"no id", func(h *store.Header) { h.ID = "" }},
		{"no game", func(h *store.Header) { h.Game = "" }},
		{"ply 1", func(h *store.Header) { h.Ply = 1 }},
		{"version 0", func(h *store.Header) { h.Version = 0 }},
		{"version 2", func(h *store.Header) { h.Version = 2 }},
		{"draw offer by seat 2 of 2", func(h *store.Header) { h.DrawOffer = 2 }},
		{"draw offer -2", func(h *store.Header) { h.DrawOffer = -2 }},
		{"take-back request by seat 2 of 2", func(h *store.Header) { h.Waiting.Takeback = ptr(2) }},
		{"take-back request by seat -1", func(h *store.Header) { h.Waiting.Takeback = ptr(-1) }},
		{"premove by seat 2 of 2", func(h *store.Header) { h.Waiting.Premove = &store.Premove{Seat: 2, Ply: 1, Move: "a1-a2"} }},
		{"empty premove", func(h *store.Header) { h.Waiting.Premove = &store.Premove{Seat: 1, Ply: 1} }},
		{"premove for a ply played", func(h *store.Header) {
			h.Waiting.Premove = &store.Premove{Seat: 1, Ply: -1, Move: "a1-a2"}
		}},
		{"conditional moves of seat 2 of 2", func(h *store.Header) {
			h.Waiting.Line = &store.Line{Seat: 2, Moves: []string{"a1-a2", "g6-g4"}}
		}},
		{"conditional moves for another ply", func(h *store.Header) {
			h.Waiting.Line = &store.Line{Seat: 1, Ply: 1, Moves: []string{"a1-a2", "g6-g4"}}
		}},
		{"no conditional moves", func(h *store.Header) { h.Waiting.Line = &store.Line{Seat: 1, Moves: []string{}} }},
		{"an empty conditional move", func(h *store.Header) { h.Waiting.Line = &store.Line{Seat: 1, Moves: []string{"a1-a2", ""}} }},
	}
	for _, tt := range tests {
		h := newHeader("g", base)
		tt.edit(&h)
		if err := s.Create(context.Background(), h); err == nil {
			t.Errorf("Create with %s: no error", tt.name)
		}
	}
	list, err := s.List(context.Background(), store.Filter{})
	if err != nil || len(list) != 0 {
		t.Errorf("after refused creates List = %d games, %v; want none", len(list), err)
	}
}

func testDuplicate(t *testing.T, open Opener, _ Reopener) {
	s := open(t)
	first := newHeader("g", base)
	mustCreate(t, s, first)
	second := newHeader("g", base.Add(time.Hour))
	second.Game = "eximo"
	wantErr(t, "Create of a taken id", s.Create(context.Background(), second), store.ErrDuplicate)
	unchanged(t, s, store.Game{Header: normalised(first)})
}

func testNotFound(t *testing.T, open Opener, _ Reopener) {
	s := open(t)
	ctx := context.Background()
	_, err := s.Get(ctx, "nope")
	wantErr(t, "Get", err, store.ErrNotFound)
	next := afterMove(newHeader("nope", base), base)
	wantErr(t, "AddMove", s.AddMove(ctx, store.Move{Ply: 0, Text: "a3-b4", At: base}, next), store.ErrNotFound)
	next.Ply = 0
	wantErr(t, "Update", s.Update(ctx, next), store.ErrNotFound)
}

func testAddMove(t *testing.T, open Opener, _ Reopener) {
	s := open(t)
	h := newHeader("g", base)
	mustCreate(t, s, h)
	want := store.Game{Header: normalised(h)}
	moves := []string{"c3-d4", "f6-e5", "d4xf6"}
	for ply, text := range moves {
		at := base.Add(time.Duration(ply+1) * time.Minute)
		m := store.Move{Ply: ply, Text: text, At: at}
		h = afterMove(h, at)
		h.DrawOffer = ply % 2 // a header change that rides with the move
		if ply == len(moves)-1 {
			h.Result = &store.Result{Winners: []int{0}, Reason: "no pieces"}
		}
		if err := s.AddMove(context.Background(), m, h); err != nil {
			t.Fatalf("AddMove(%d, %s): %v", ply, text, err)
		}
		want.Header = normalised(h)
		want.Moves = append(want.Moves, store.Move{Ply: ply, Text: text, At: stored(at)})
		same(t, fmt.Sprintf("Get after move %d", ply), mustGet(t, s, "g"), want)
	}
}

func testAddMoveRefuses(t *testing.T, open Opener, _ Reopener) {
	s := open(t)
	ctx := context.Background()
	h := newHeader("g", base)
	mustCreate(t, s, h)
	next := afterMove(h, base)
	if err := s.AddMove(ctx, store.Move{Ply: 0, Text: "c3-d4", At: base}, next); err != nil {
		t.Fatal(err)
	}
	before := mustGet(t, s, "g") // ply 1, version 2
	conflicts := []struct {
		name string
		ply  int
		next store.Header
	}{
		{"a ply already played", 0, afterMove(h, base)},
		{"a ply not reached", 2, afterMove(afterMove(next, base), base)},
		{"a stale version", 1, func() store.Header { n := afterMove(next, base); n.Version = 2; return n }()},
		{"a version from the future", 1, func() store.Header { n := afterMove(next, base); n.Version = 9; return n }()},
	}
	for _, c := range conflicts {
		err := s.AddMove(ctx, store.Move{Ply: c.ply, Text: "f6-e5", At: base}, c.next)
		wantErr(t, "AddMove at "+c.name, err, store.ErrConflict)
		unchanged(t, s, before)
	}
	invalid := []struct {
		name string
		m    store.Move
		next store.Header
	}{
		{"a header whose ply is not one past the move's", store.Move{Ply: 1, Text: "f6-e5"}, next},
		{"an empty move", store.Move{Ply: 1}, afterMove(next, base)},
		{"a negative ply", store.Move{Ply: -1, Text: "f6-e5"}, func() store.Header { n := next; n.Ply = 0; return n }()},
	}
	for _, c := range invalid {
		err := s.AddMove(ctx, c.m, c.next)
		if err == nil || errors.Is(err, store.ErrConflict) {
			t.Errorf("AddMove with %s: error %v, want a complaint about the arguments", c.name, err)
		}
		unchanged(t, s, before)
	}
}

// testRace races n moves for one ply, half of them through a second store
// on the same database: exactly one is stored.
func testRace(t *testing.T, open Opener, again Reopener, n int) {
	s := open(t)
	stores := []store.Store{s, again(t, s)}
	h := newHeader("g", base)
	mustCreate(t, s, h)
	next := afterMove(h, base)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Go(func() {
			<-start
			m := store.Move{Ply: 0, Text: fmt.Sprintf("move-%d", i), At: base}
			errs[i] = stores[i%2].AddMove(context.Background(), m, next)
		})
	}
	close(start)
	wg.Wait()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil && winner >= 0:
			t.Fatalf("moves %d and %d were both stored for ply 0", winner, i)
		case err == nil:
			winner = i
		case !errors.Is(err, store.ErrConflict):
			t.Errorf("move %d: error %v, want %v", i, err, store.ErrConflict)
		}
	}
	if winner < 0 {
		t.Fatalf("no move was stored: %v", errs)
	}
	g := mustGet(t, s, "g")
	want := []store.Move{{Ply: 0, Text: fmt.Sprintf("move-%d", winner), At: stored(base)}}
	same(t, "the moves after the race", g.Moves, want)
	if g.Ply != 1 || g.Version != 2 {
		t.Errorf("after the race ply %d, version %d; want 1, 2", g.Ply, g.Version)
	}
}

func testUpdate(t *testing.T, open Opener, _ Reopener) {
	s := open(t)
	h := newHeader("g", base)
	h.Seats[1] = store.Seat{Player: "human", Open: true}
	mustCreate(t, s, h)
	h.Version = 2
	h.Seats[1] = store.Seat{Player: "human", Name: "Bob", TokenHash: hash("bob")}
	h.Updated = base.Add(time.Minute)
	h.Created = base.Add(time.Hour) // Update keeps the stored Created
	if err := s.Update(context.Background(), h); err != nil {
		t.Fatal(err)
	}
	want := normalised(h)
	want.Created = stored(base)
	same(t, "Get after Update", mustGet(t, s, "g"), store.Game{Header: want})
	h.Version = 3
	h.Result = &store.Result{Reason: "agreement"}
	if err := s.Update(context.Background(), h); err != nil {
		t.Fatal(err)
	}
	if g := mustGet(t, s, "g"); g.Version != 3 || !reflect.DeepEqual(g.Result, h.Result) {
		t.Errorf("after the second Update version %d, result %+v; want 3, %+v", g.Version, g.Result, h.Result)
	}
}

func testUpdateRefuses(t *testing.T, open Opener, _ Reopener) {
	s := open(t)
	ctx := context.Background()
	h := newHeader("g", base)
	mustCreate(t, s, h)
	next := afterMove(h, base)
	if err := s.AddMove(ctx, store.Move{Ply: 0, Text: "c3-d4", At: base}, next); err != nil {
		t.Fatal(err)
	}
	before := mustGet(t, s, "g") // ply 1, version 2
	resign := func(version int64, ply int) store.Header {
		n := next
		n.Version, n.Ply = version, ply
		n.Result = &store.Result{Winners: []int{1}, Reason: "resignation"}
		return n
	}
	for _, v := range []int64{2, 4} {
		wantErr(t, fmt.Sprintf("Update to version %d over version 2", v), s.Update(ctx, resign(v, 1)), store.ErrConflict)
		unchanged(t, s, before)
	}
	for _, c := range []struct {
		name string
		next store.Header
	}{
		{"another ply", resign(3, 2)},
		{"version 1", resign(1, 1)},
		{"no id", func() store.Header { n := resign(3, 1); n.ID = ""; return n }()},
	} {
		err := s.Update(ctx, c.next)
		if err == nil || errors.Is(err, store.ErrConflict) {
			t.Errorf("Update with %s: error %v, want a complaint about the arguments", c.name, err)
		}
		unchanged(t, s, before)
	}
}

func testList(t *testing.T, open Opener, _ Reopener) {
	s := open(t)
	ctx := context.Background()
	// a..e created a minute apart (e newest); t1 and t2 at the same time.
	games := map[string]store.Header{}
	for i, id := range []string{"a", "b", "c", "d", "e", "t1", "t2"} {
		h := newHeader(id, base.Add(time.Duration(min(i, 5))*time.Minute))
		switch id {
		case "b", "d":
			h.Result = &store.Result{Reason: "agreement"}
		}
		switch id {
		case "c", "d", "t1":
			h.Seats[1] = store.Seat{Player: "human", Open: true}
		}
		mustCreate(t, s, h)
		games[id] = normalised(h)
	}
	tests := []struct {
		f    store.Filter
		want []string
	}{
		{store.Filter{}, []string{"t2", "t1", "e", "d", "c", "b", "a"}},
		{store.Filter{Ongoing: true}, []string{"t2", "t1", "e", "c", "a"}},
		{store.Filter{OpenSeats: true}, []string{"t1", "d", "c"}},
		{store.Filter{Ongoing: true, OpenSeats: true}, []string{"t1", "c"}},
		{store.Filter{IDs: []string{"a", "d", "zz"}}, []string{"d", "a"}},
		{store.Filter{IDs: []string{"a", "d"}, Ongoing: true}, []string{"a"}},
		{store.Filter{Limit: 2}, []string{"t2", "t1"}},
		{store.Filter{Ongoing: true, Limit: 4}, []string{"t2", "t1", "e", "c"}},
		{store.Filter{IDs: []string{"zz"}}, nil},
	}
	for _, tt := range tests {
		list, err := s.List(ctx, tt.f)
		if err != nil {
			t.Fatalf("List(%+v): %v", tt.f, err)
		}
		var want []store.Header
		for _, id := range tt.want {
			want = append(want, games[id])
		}
		same(t, fmt.Sprintf("List(%+v)", tt.f), list, want)
	}
	if _, err := s.List(ctx, store.Filter{Limit: -1}); err == nil {
		t.Error("List with limit -1: no error")
	}
}

func testListDefaultLimit(t *testing.T, open Opener, _ Reopener) {
	s := open(t)
	for i := range 101 {
		mustCreate(t, s, newHeader(fmt.Sprintf("g%03d", i), base.Add(time.Duration(i)*time.Second)))
	}
	list, err := s.List(context.Background(), store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 100 || list[0].ID != "g100" || list[99].ID != "g001" {
		t.Fatalf("List with no limit gave %d games; want the 100 newest, g100 to g001", len(list))
	}
	if list, _ := s.List(context.Background(), store.Filter{Limit: 101}); len(list) != 101 {
		t.Errorf("List with limit 101 gave %d games, want 101", len(list))
	}
}

// events reads n events from ch, failing after a few seconds.
func events(t *testing.T, ch <-chan store.Event, n int) []store.Event {
	t.Helper()
	var got []store.Event
	timeout := time.After(5 * time.Second)
	for len(got) < n {
		select {
		case e, ok := <-ch:
			if !ok {
				t.Fatalf("the events channel closed after %v", got)
			}
			got = append(got, e)
		case <-timeout:
			t.Fatalf("got events %v, waited in vain for %d", got, n)
		}
	}
	return got
}

// change creates game id and makes two changes (a move, a draw offer)
// through s: versions 1, 2, 3.
func change(t *testing.T, s store.Store, id string) []store.Event {
	t.Helper()
	ctx := context.Background()
	h := newHeader(id, base)
	mustCreate(t, s, h)
	h = afterMove(h, base)
	if err := s.AddMove(ctx, store.Move{Ply: 0, Text: "c3-d4", At: base}, h); err != nil {
		t.Fatal(err)
	}
	h.Version, h.DrawOffer = 3, 1
	if err := s.Update(ctx, h); err != nil {
		t.Fatal(err)
	}
	return []store.Event{{Game: id, Version: 1}, {Game: id, Version: 2}, {Game: id, Version: 3}}
}

func testSubscribe(t *testing.T, open Opener, _ Reopener) {
	s := open(t)
	ctx, cancel := context.WithCancel(context.Background())
	ch, err := s.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := change(t, s, "g")
	same(t, "events", events(t, ch, 3), want)
	// A refused write is no change: no event.
	err = s.Update(context.Background(), afterMove(newHeader("g", base), base))
	wantErr(t, "a stale Update", err, store.ErrConflict)
	want = change(t, s, "h")
	same(t, "events after a refused write", events(t, ch, 3), want)
	cancel()
	timeout := time.After(5 * time.Second)
	for {
		select {
		case _, ok := <-ch:
			if !ok {
				return
			}
		case <-timeout:
			t.Fatal("the events channel stayed open after its context ended")
		}
	}
}

func testSubscribeOtherStore(t *testing.T, open Opener, again Reopener) {
	a := open(t)
	b := again(t, a)
	chA, err := a.Subscribe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	chB, err := b.Subscribe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := change(t, b, "g")
	same(t, "events seen by the other store", events(t, chA, 3), want)
	same(t, "events seen by the writing store", events(t, chB, 3), want)
	want = change(t, a, "h")
	same(t, "events the other way", events(t, chB, 3), want)
}

func testCheck(t *testing.T, open Opener, _ Reopener) {
	s := open(t)
	for range 2 {
		if err := s.Check(context.Background()); err != nil {
			t.Fatalf("Check: %v", err)
		}
	}
}

func testClosed(t *testing.T, open Opener, _ Reopener) {
	s := open(t)
	ctx := context.Background()
	h := newHeader("g", base)
	mustCreate(t, s, h)
	ch, err := s.Subscribe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	// The create's own event may still be on its way when Subscribe
	// returns (PostgreSQL's notifications are asynchronous) and so be
	// delivered before the channel closes; nothing else may come.
	closed := time.After(5 * time.Second)
	for open := true; open; {
		select {
		case ev, ok := <-ch:
			if ok && ev != (store.Event{Game: "g", Version: 1}) {
				t.Errorf("event %+v after Close", ev)
			}
			open = ok
		case <-closed:
			t.Error("the events channel stayed open after Close")
			open = false
		}
	}
	_, getErr := s.Get(ctx, "g")
	_, listErr := s.List(ctx, store.Filter{})
	_, subErr := s.Subscribe(ctx)
	next := afterMove(h, base)
	calls := map[string]error{
		"Create":    s.Create(ctx, newHeader("h", base)),
		"Get":       getErr,
		"AddMove":   s.AddMove(ctx, store.Move{Ply: 0, Text: "c3-d4"}, next),
		"Update":    s.Update(ctx, afterMove(h, base)),
		"List":      listErr,
		"Subscribe": subErr,
		"Check":     s.Check(ctx),
		"Close":     s.Close(),
	}
	for name, err := range calls {
		wantErr(t, name+" after Close", err, store.ErrClosed)
	}
}

func testCancelled(t *testing.T, open Opener, _ Reopener) {
	s := open(t)
	h := newHeader("g", base)
	mustCreate(t, s, h)
	before := mustGet(t, s, "g")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, getErr := s.Get(ctx, "g")
	_, listErr := s.List(ctx, store.Filter{})
	calls := map[string]error{
		"Create":  s.Create(ctx, newHeader("h", base)),
		"Get":     getErr,
		"AddMove": s.AddMove(ctx, store.Move{Ply: 0, Text: "c3-d4"}, afterMove(h, base)),
		"List":    listErr,
		"Check":   s.Check(ctx),
	}
	for name, err := range calls {
		wantErr(t, name+" with a cancelled context", err, context.Canceled)
	}
	unchanged(t, s, before)
	if _, err := s.Get(context.Background(), "h"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the game created with a cancelled context: Get error %v, want %v", err, store.ErrNotFound)
	}
}

// BenchmarkAddMove measures AddMove, each from a goroutine of its own on
// a game of its own (as a server with many games writes), on the store s.
func BenchmarkAddMove(b *testing.B, s store.Store) {
	ctx := context.Background()
	var next atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		id := fmt.Sprintf("bench-%d", next.Add(1))
		h := newHeader(id, base)
		if err := s.Create(ctx, h); err != nil {
			b.Error(err)
			return
		}
		for ply := 0; pb.Next(); ply++ {
			h = afterMove(h, base)
			if err := s.AddMove(ctx, store.Move{Ply: ply, Text: "c3-d4", At: time.Now()}, h); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func ptr[T any](v T) *T { return &v }

// played stores moves on a new game id and gives the header after them.
func played(t *testing.T, s store.Store, id string, moves []string) store.Header {
	t.Helper()
	h := newHeader(id, base)
	mustCreate(t, s, h)
	for ply, text := range moves {
		at := base.Add(time.Duration(ply+1) * time.Minute)
		h = afterMove(h, at)
		if err := s.AddMove(context.Background(), store.Move{Ply: ply, Text: text, At: at}, h); err != nil {
			t.Fatalf("AddMove(%d, %s): %v", ply, text, err)
		}
	}
	return h
}

// testTakeBack takes moves back: they are gone, the header is the one
// given, and the plies taken back can be played again.
func testTakeBack(t *testing.T, open Opener, _ Reopener) {
	s := open(t)
	ctx := context.Background()
	h := played(t, s, "g", []string{"c3-d4", "f6-e5", "d4xf6"})
	before := mustGet(t, s, "g")
	h.Ply, h.Version, h.Updated = 1, h.Version+1, base.Add(time.Hour)
	h.Waiting = store.Waiting{}
	if err := s.TakeBack(ctx, h); err != nil {
		t.Fatalf("TakeBack to ply 1: %v", err)
	}
	want := store.Game{Header: normalised(h), Moves: before.Moves[:1]}
	same(t, "Get after the take-back", mustGet(t, s, "g"), want)
	at := base.Add(2 * time.Hour)
	h = afterMove(h, at)
	if err := s.AddMove(ctx, store.Move{Ply: 1, Text: "f6-g5", At: at}, h); err != nil {
		t.Fatalf("AddMove of ply 1 again: %v", err)
	}
	want.Header = normalised(h)
	want.Moves = append(want.Moves, store.Move{Ply: 1, Text: "f6-g5", At: stored(at)})
	same(t, "Get after playing ply 1 again", mustGet(t, s, "g"), want)
}

// testTakeBackRefuses: a take-back of no move, or written for another
// version, changes nothing.
func testTakeBackRefuses(t *testing.T, open Opener, _ Reopener) {
	s := open(t)
	ctx := context.Background()
	h := played(t, s, "g", []string{"c3-d4", "f6-e5"})
	before := mustGet(t, s, "g")
	tests := []struct {
		name   string
		edit   func(*store.Header)
		target error
	}{
		{"no move to take back", func(h *store.Header) { h.Version++ }, store.ErrConflict},
		{"a stale version", func(h *store.Header) { h.Ply-- }, store.ErrConflict},
		{"another game", func(h *store.Header) { h.ID, h.Ply, h.Version = "none", 0, h.Version+1 }, store.ErrNotFound},
	}
	for _, tt := range tests {
		next := h
		tt.edit(&next)
		wantErr(t, "TakeBack with "+tt.name, s.TakeBack(ctx, next), tt.target)
		unchanged(t, s, before)
	}
	bad := h
	bad.Ply, bad.Version = -1, h.Version+1
	if err := s.TakeBack(ctx, bad); err == nil {
		t.Error("TakeBack to ply -1: no error")
	}
	unchanged(t, s, before)
}

// testWaiting keeps a take-back request, a premove, a line of
// conditional moves and the take-backs option through moves and updates,
// and clears them.
func testWaiting(t *testing.T, open Opener, _ Reopener) {
	s := open(t)
	ctx := context.Background()
	h := newHeader("g", base)
	h.NoTakebacks = true
	mustCreate(t, s, h)
	same(t, "Get after Create", mustGet(t, s, "g"), store.Game{Header: normalised(h)})
	at := base.Add(time.Minute)
	h = afterMove(h, at)
	h.Waiting = store.Waiting{Takeback: ptr(0), Premove: &store.Premove{Seat: 0, Ply: 2, Move: "d4-e5"}}
	if err := s.AddMove(ctx, store.Move{Ply: 0, Text: "c3-d4", At: at}, h); err != nil {
		t.Fatal(err)
	}
	got := mustGet(t, s, "g")
	same(t, "the header after a move with a request and a premove", got.Header, normalised(h))
	at = at.Add(time.Minute)
	h = afterMove(h, at)
	line := &store.Line{Seat: 0, Ply: 2, Moves: []string{"d4-e5", "f6xd4", "b2-c3", "g7-f6"}}
	h.Waiting = store.Waiting{Line: line}
	if err := s.AddMove(ctx, store.Move{Ply: 1, Text: "f6-e5", At: at}, h); err != nil {
		t.Fatal(err)
	}
	same(t, "the header after a move with conditional moves", mustGet(t, s, "g").Header, normalised(h))
	h.Version++
	h.Waiting.Line = &store.Line{Seat: 1, Ply: 2, Moves: line.Moves[1:]}
	if err := s.Update(ctx, h); err != nil {
		t.Fatal(err)
	}
	same(t, "the header after an update of the conditional moves", mustGet(t, s, "g").Header, normalised(h))
	h.Version++
	h.Waiting = store.Waiting{}
	if err := s.Update(ctx, h); err != nil {
		t.Fatal(err)
	}
	if got := mustGet(t, s, "g"); !got.Waiting.IsZero() || !got.NoTakebacks {
		t.Errorf("after clearing, Waiting = %+v, NoTakebacks %v; want nothing waiting, take-backs still off", got.Waiting, got.NoTakebacks)
	}
}
