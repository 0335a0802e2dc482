package sqlite

import (
	"context"
	"fmt"
	"testing"

	"github.com/arbiter-games/arbiter/store"
)

// TestWriterPreparesItsStatements: a move's statements, run unprepared
// the first time, are prepared between the writer's transactions and run
// prepared after; the moves are stored either way.
func TestWriterPreparesItsStatements(t *testing.T) {
	s := open(t, t.TempDir())
	h := game(t, s, "g")
	ctx := context.Background()
	for ply := range 3 {
		next := h
		next.Ply, next.Version = ply+1, h.Version+1
		if err := s.AddMove(ctx, store.Move{Ply: ply, Text: fmt.Sprint("m", ply)}, next); err != nil {
			t.Fatalf("ply %d: %v", ply, err)
		}
		h = next
	}
	s.stmts.mu.Lock()
	_, prepared := s.stmts.m[`INSERT INTO moves (game, ply, text, at) VALUES (?, ?, ?, ?)`]
	n, wanted := len(s.stmts.m), len(s.stmts.wanted)
	s.stmts.mu.Unlock()
	if !prepared || wanted != 0 {
		t.Errorf("after three moves: a move's insert prepared %v, %d statements prepared and %d wanted", prepared, n, wanted)
	}
	g, err := s.Get(ctx, "g")
	if err != nil || len(g.Moves) != 3 {
		t.Fatalf("stored: %d moves, %v", len(g.Moves), err)
	}
}

// TestStatementsBounded: past maxStmts texts, a new one is neither
// prepared nor wanted.
func TestStatementsBounded(t *testing.T) {
	s := open(t, t.TempDir())
	c := newStmts(s.w)
	defer c.close()
	for i := range maxStmts + 10 {
		c.get(fmt.Sprintf("SELECT %d", i))
	}
	if len(c.wanted) != maxStmts {
		t.Errorf("%d texts wanted, want at most %d", len(c.wanted), maxStmts)
	}
	c.prepareWanted(context.Background())
	if len(c.m) != maxStmts || len(c.wanted) != 0 {
		t.Errorf("%d prepared, %d wanted; want %d and 0", len(c.m), len(c.wanted), maxStmts)
	}
	if _, ok := c.get("SELECT 'one more'"); ok || len(c.wanted) != 0 {
		t.Errorf("a text past the bound is prepared or wanted")
	}
}
