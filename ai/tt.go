package ai

import (
	"sync/atomic"
	"unsafe"
)

// transpositions is ab's transposition table. Lazy SMP (smp.go) shares one table
// between the threads of a search, so each slot is two words that are
// read and written atomically: data, the entry packed, and check, the
// position's key xor data. A reader that meets a slot half written by
// another thread (one word of one entry, one of another) sees a check
// that does not match the key and takes the slot as empty; no lock is
// taken. With one thread the table answers exactly what a plain array
// of entries would.
//
// An atomic store costs a locked instruction on amd64, a few percent of
// a search of one thread; a table no other thread uses (shared false) is
// written with plain stores.
type transpositions struct {
	slots  []ttSlot
	shared bool
}

// ttSlot holds one entry; see transpositions. Its words are read with
// atomic.LoadUint64 (a plain load on amd64) and written atomically when
// the table is shared.
type ttSlot struct {
	check, data uint64
}

// ttEntry remembers a searched position: the index of its best move in
// the (deterministic) move list, so that moves need not be stored.
type ttEntry struct {
	key   uint64
	score int32
	depth int8
	bound uint8
	best  uint16
}

const (
	boundExact uint8 = iota + 1
	boundLower
	boundUpper
)

// newTranspositions makes a transposition table of 2^bits entries and touches each
// page of it, so that the operating system provides the memory now rather
// than in page faults scattered through the first search (a third of the
// time of the bench's short fixed searches of checkers-2011).
func newTranspositions(bits int) transpositions {
	tt := transpositions{slots: make([]ttSlot, 1<<bits)}
	const perPage = 4096 / int(unsafe.Sizeof(ttSlot{}))
	for i := 0; i < len(tt.slots); i += perPage {
		tt.slots[i].data = 0
	}
	return tt
}

// probe returns the entry stored for key, if its slot holds one whole.
// An empty slot reads as the zero entry of key 0, as a plain array's
// would.
func (t transpositions) probe(key uint64) (ttEntry, bool) {
	slot := &t.slots[key&uint64(len(t.slots)-1)]
	data := atomic.LoadUint64(&slot.data)
	if atomic.LoadUint64(&slot.check)^data != key {
		return ttEntry{}, false
	}
	return unpackEntry(key, data), true
}

// store writes en over whatever its slot held.
func (t transpositions) store(en ttEntry) {
	slot := &t.slots[en.key&uint64(len(t.slots)-1)]
	data := packEntry(en)
	if !t.shared {
		slot.data, slot.check = data, en.key^data
		return
	}
	atomic.StoreUint64(&slot.data, data)
	atomic.StoreUint64(&slot.check, en.key^data)
}

// packEntry puts an entry's fields but its key in one word: the score in
// the low 32 bits, then depth, bound and best move.
func packEntry(en ttEntry) uint64 {
	return uint64(uint32(en.score)) | uint64(uint8(en.depth))<<32 | uint64(en.bound)<<40 | uint64(en.best)<<48
}

func unpackEntry(key, data uint64) ttEntry {
	return ttEntry{key: key, score: int32(uint32(data)), depth: int8(uint8(data >> 32)),
		bound: uint8(data >> 40), best: uint16(data >> 48)}
}
