package account

import (
	"fmt"
	"testing"
	"time"
)

// TestBudget: a key gets its burst, then one unit per Every, at most
// AtOnce in flight; another key is not slowed; a cost over the burst is
// charged as the whole burst.
func TestBudget(t *testing.T) {
	b := NewBudget(BudgetConfig{Burst: 3, Every: 10 * time.Second, AtOnce: 1, MaxKeys: 100})
	release, _, ok := b.Admit("a", 1, t0)
	if !ok {
		t.Fatal("the first unit refused")
	}
	if _, wait, ok := b.Admit("a", 1, t0); ok || wait != busyWait {
		t.Errorf("a second unit in flight: ok %v, wait %v; want a refusal of %v", ok, wait, busyWait)
	}
	if r, _, ok := b.Admit("b", 1, t0); !ok {
		t.Error("another key refused while a's unit is in flight")
	} else {
		r()
	}
	release()
	release() // twice is harmless
	for i := range 2 {
		r, _, ok := b.Admit("a", 1, t0)
		if !ok {
			t.Fatalf("unit %d of the burst refused", i+2)
		}
		r()
	}
	if _, wait, ok := b.Admit("a", 1, t0); ok || wait != 10*time.Second {
		t.Errorf("past the burst: ok %v, wait %v; want a wait of 10s", ok, wait)
	}
	if r, _, ok := b.Admit("a", 1, t0.Add(10*time.Second)); !ok {
		t.Error("refused after a refill")
	} else {
		r()
	}
	if r, _, ok := b.Admit("c", 4, t0); !ok {
		t.Error("a cost over the burst refused from a full bucket")
	} else {
		r()
	}
	if _, wait, ok := b.Admit("c", 4, t0); ok || wait != 30*time.Second {
		t.Errorf("a cost over the burst again: ok %v, wait %v; want a wait of 30s, a whole burst", ok, wait)
	}
}

// TestBudgetBounded: past MaxKeys, the idle key seen least recently goes;
// a key with work in flight stays.
func TestBudgetBounded(t *testing.T) {
	b := NewBudget(BudgetConfig{Burst: 1, Every: time.Hour, MaxKeys: 3, AtOnce: 1})
	busy, _, _ := b.Admit("busy", 1, t0)
	for i := range 10 {
		r, _, ok := b.Admit(fmt.Sprint("k", i), 1, t0.Add(time.Duration(i+1)*time.Second))
		if !ok {
			t.Fatalf("key %d refused", i)
		}
		r()
	}
	if n := b.Len(); n != 3 {
		t.Errorf("%d keys remembered, want 3", n)
	}
	if _, _, ok := b.Admit("busy", 1, t0.Add(time.Minute)); ok {
		t.Error("the busy key was forgotten")
	}
	busy()
}
