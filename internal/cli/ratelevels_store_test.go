package cli

import (
	"context"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/rating"
	"github.com/arbiter-games/arbiter/store/sqlite"
)

// TestStoreLevels: the measured ratings go into the levels' accounts,
// replacing what they had, and other games' ratings stay.
func TestStoreLevels(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	st, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Now()
	if err := storeLevels(ctx, st, "eximo", map[string]rating.LevelRating{"1": {Rating: 900, RD: 80, Volatility: 0.06, Games: 40}}, now); err != nil {
		t.Fatal(err)
	}
	levels := map[string]rating.LevelRating{"1": {Rating: 700, RD: 60, Volatility: 0.06, Games: 60}, "6": {Rating: 2300, RD: 70, Volatility: 0.06, Games: 60}}
	if err := storeLevels(ctx, st, "pommel", levels, now); err != nil {
		t.Fatal(err)
	}
	if err := storeLevels(ctx, st, "pommel", levels, now); err != nil {
		t.Fatalf("storing again: %v", err)
	}
	got, err := st.Ratings(ctx, "ai-level-1")
	if err != nil || len(got) != 2 || got[0].Game != "eximo" || got[0].Rating != 900 || got[1].Rating != 700 || got[1].Games != 60 {
		t.Fatalf("ai-level-1's ratings: %+v, %v", got, err)
	}
	if err := storeLevels(ctx, st, "pommel", map[string]rating.LevelRating{"7": {}}, now); err == nil {
		t.Fatal("a level 7 was stored")
	}
	var target storeTarget
	for _, bad := range []storeTarget{{data: "x", db: "postgres://h/d"}, {db: "mysql://h/d"}} {
		if err := bad.check(); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
	if target.wanted() {
		t.Fatal("no flag given, yet a store is wanted")
	}
}
