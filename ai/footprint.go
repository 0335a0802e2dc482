package ai

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"unsafe"

	"github.com/arbiter-games/arbiter/internal/clip"
)

// Footprint returns the most memory, in bytes, that the engine New makes
// from spec holds, or the spec's error: for ab and the levels the
// engine's fixed arrays (killers, history) and its transposition table
// (16 bytes × 2^tt, each level's own size), and with threads=N the N-1
// helpers' own fixed arrays (they share the transposition table); for
// uct and mcts the tree's bound (tree=N MiB, counted in the allocator's
// blocks) and 64 KiB for the node added last, which may pass it. A tree
// is held during a search (uct) or from one search to the next (mcts).
//
// These are live bytes: the heap's spans hold more once a collection has
// freed nodes here and there among them. Not counted, since they depend
// on the game and not on the spec: the lists of moves along the path a
// search is on, ab's record of the positions played before the root
// (a few KiB in the games here), and the endgame tables of WithTables,
// which every engine given them shares and which are read from their
// files as a search first needs each material.
func Footprint(spec string) (int64, error) {
	cfg, err := parseConfig(spec)
	if err != nil {
		return 0, err
	}
	return cfg.footprint(), nil
}

func (cfg config) footprint() int64 {
	switch cfg.kind {
	case "uct":
		return sizeOf[uct]() + rngBytes() + int64(cfg.uct.treeMiB)<<20 + treeSlack
	case "mcts":
		return sizeOf[mcts]() + rngBytes() + int64(cfg.mcts.treeMiB)<<20 + treeSlack
	case "ab":
		return abBytes(cfg.ab.ttBits) + helperBytes(cfg.ab.threads)
	case "level":
		return sizeOf[level]() + rngBytes() + abBytes(levels[cfg.level].ttBits) + helperBytes(cfg.ab.threads)
	default:
		return sizeOf[random]() + rngBytes()
	}
}

// treeSlack bounds the node a tree adds last, past its bound: the node,
// its list of moves and its parent's slice of children, for a position of
// up to a thousand moves.
const treeSlack = 64 << 10

// abBytes is what an ab engine with a table of 2^ttBits entries holds.
func abBytes(ttBits int) int64 {
	return sizeOf[ab]() + blockSize(int64(unsafe.Sizeof(ttSlot{}))<<ttBits)
}

// rngBytes is an engine's random generator: a Rand and its PCG source.
func rngBytes() int64 { return sizeOf[rand.Rand]() + sizeOf[rand.PCG]() }

// sizeOf is the block of one T.
func sizeOf[T any]() int64 {
	var v T
	return blockSize(int64(unsafe.Sizeof(v)))
}

// CheckForServer refuses a spec that a server must not accept from an
// anonymous client, or one New would refuse. A server plays only
// random, uct, mcts, ab and ai:level=N (also level=N), and no engine
// that sizes its memory above what level 6, the strongest level, holds:
// ab's tt at most 20 (level 6's 2^20 entries, 16 MiB), and uct's and
// mcts's tree at most 16 (MiB, the same memory). The defaults are within
// these bounds. Time is the server's to bound, by the limits it searches
// with; cores too: threads=N above 1 is refused, since a search holds one
// AI worker (the server's analysis gives its own search more threads from
// workers it takes).
func CheckForServer(spec string) error {
	cfg, err := parseConfig(spec)
	if err != nil {
		return err
	}
	if err := cfg.checkServed(); err != nil {
		return specError(spec, err)
	}
	return nil
}

func (cfg config) checkServed() error {
	// A kind added to New is not served until it is added here, with its
	// bounds.
	if !slices.Contains([]string{"random", "uct", "mcts", "ab", "level"}, cfg.kind) {
		return fmt.Errorf("%s is not played on a server (random, uct, mcts, ab and ai:level=N are)", clip.Quote(cfg.kind))
	}
	topBits := levels[len(levels)-1].ttBits
	topMiB := int(unsafe.Sizeof(ttSlot{})) << topBits >> 20
	switch {
	case cfg.ab.threads > 1:
		return fmt.Errorf("threads=%d: a server's engines search with one thread", cfg.ab.threads)
	case cfg.kind == "ab" && cfg.ab.ttBits > topBits:
		return fmt.Errorf("tt=%d: at most %d on a server (level 6 uses %d)", cfg.ab.ttBits, topBits, topBits)
	case cfg.kind == "uct" && cfg.uct.treeMiB > topMiB:
		return fmt.Errorf("tree=%d: at most %d on a server (level 6's table is %d MiB)", cfg.uct.treeMiB, topMiB, topMiB)
	case cfg.kind == "mcts" && cfg.mcts.treeMiB > topMiB:
		return fmt.Errorf("tree=%d: at most %d on a server (level 6's table is %d MiB)", cfg.mcts.treeMiB, topMiB, topMiB)
	}
	return nil
}
