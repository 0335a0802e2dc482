package ai

import (
	"math/bits"
	"unsafe"

	"github.com/arbiter-games/arbiter/game"
)

// Bounds of a tree's memory (the tree parameter of uct and mcts, in MiB).
const (
	defaultTreeMiB = 16 // as ab's default table, so that the defaults are fit for a server
	maxTreeMiB     = 16 << 10
)

// treeBudget counts the bytes a search tree holds, block by block as the
// allocator hands them out, so that the tree stops growing at its bound
// instead of with the time it is given.
type treeBudget struct {
	max, used int64
}

func newTreeBudget(mib int) treeBudget { return treeBudget{max: int64(mib) << 20} }

// full tells whether the tree must stop growing. It is asked before a node
// is added, so the tree may pass max by the one node added last.
func (b *treeBudget) full() bool { return b.used >= b.max }

func (b *treeBudget) add(n int64) { b.used += n }

// blockSize bounds from above the block the allocator gives for n bytes:
// Go's size classes are multiples of 16 up to 256 bytes, and above that
// never more than a quarter of a power of two apart; large blocks are
// whole pages of 8 KiB, which a quarter of a power of two above 32 KiB
// also is.
func blockSize(n int64) int64 {
	if n <= 0 {
		return 0
	}
	step := int64(16)
	if n > 256 {
		step = int64(1) << (bits.Len64(uint64(n-1)) - 2)
	}
	return (n + step - 1) / step * step
}

// movesBytes is the block of a list of n moves (no pointers in it).
func movesBytes(n int) int64 {
	return blockSize(int64(n) * int64(unsafe.Sizeof(game.Move{})))
}

// pointersBytes is the block of a slice of n pointers: the allocator puts
// a header of 8 bytes in front of a block over 512 bytes that holds
// pointers.
func pointersBytes(n int) int64 {
	size := int64(n) * int64(unsafe.Sizeof(uintptr(0)))
	if size > 512 {
		size += 8
	}
	return blockSize(size)
}
