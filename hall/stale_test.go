package hall

import (
	"context"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/store"
)

// TestAStaleGameDecidesAgainOnWhatWasStored: another process changes a
// game behind this hall's back (the test holds the game's lock, so the
// store's event cannot refresh it first). The store refuses the stale
// play.Game's write; the hall reads the game again and decides on what
// was stored, and its play.Game never shows the refused change.
func TestAStaleGameDecidesAgainOnWhatWasStored(t *testing.T) {
	h := newTestHall(t, Config{})
	ctx := context.Background()
	g := create(t, h, humans("pommel"))
	legal := get(t, h, g.ID).Legal
	behindTheBack := func(change func(hd *store.Header) error) {
		t.Helper()
		stored, err := h.store.Get(ctx, g.ID)
		if err != nil {
			t.Fatal(err)
		}
		hd := stored.Header
		hd.Version++
		if err := change(&hd); err != nil {
			t.Fatal(err)
		}
	}
	decide := func(e *entry, f func() error) Code {
		t.Helper()
		return ErrorCode(asRefusal(h.decide(ctx, e, f)))
	}

	e := h.lock(g.ID)
	behindTheBack(func(hd *store.Header) error {
		hd.Ply = 1
		return h.store.AddMove(ctx, store.Move{Ply: 0, Text: legal[0], At: time.Now()}, *hd)
	})
	if err := decide(e, func() error { return h.playMove(e, 0, legal[1], 0) }); err != WrongPly {
		t.Errorf("another move for the ply stored elsewhere: %v, want wrong_ply", err)
	}
	if err := decide(e, func() error { return h.playMove(e, 0, legal[0], 0) }); err != "" {
		t.Errorf("the move stored elsewhere, resent: %v", err)
	}
	behindTheBack(func(hd *store.Header) error {
		hd.Result = &store.Result{Winners: []int{0}, Reason: "resignation"}
		return h.store.Update(ctx, *hd)
	})
	if err := decide(e, func() error { _, err := e.pg.OfferDraw(1); return err }); err != GameOver {
		t.Errorf("an offer in a game resigned elsewhere: %v, want game_over", err)
	}
	e.mu.Unlock()
	v := get(t, h, g.ID)
	if v.Ply != 1 || v.Moves[0] != legal[0] || v.DrawOffer != -1 || v.Result == nil || v.Result.Reason != "resignation" {
		t.Errorf("after the stale requests: %+v", v)
	}
}
