package endgame

import (
	"fmt"

	"github.com/arbiter-games/arbiter/game"
)

// This file lets tools walk a table index by index: how many indexes a
// material has, the value at an index, and the position it stands for.
// 'arbiter probe --sample' draws openings books from tables with them.

// Indexes is the number of indexes of material m in the tables,
// positions and non-positions alike; 0 when the tables do not hold m.
func (t *Tables) Indexes(m Material) uint64 {
	st, ok := t.materials[m]
	if !ok {
		return 0
	}
	return st.l.size()
}

// At returns the value at index i of material m, and false when i is no
// position (a man where it would have been promoted) or, in drop tables,
// a position not held (its bounds differ). It reads m's files the first
// time, as a lookup does.
func (t *Tables) At(m Material, i uint64) (Value, bool, error) {
	st, err := t.loaded(m)
	if err != nil {
		return Value{}, false, err
	}
	if i >= st.l.size() {
		return Value{}, false, fmt.Errorf("%s has %d indexes, not %d", m, st.l.size(), i+1)
	}
	v, code := st.bounds[0].at(i)
	if code == wdlNone {
		return Value{}, false, nil
	}
	if t.man.Drops {
		if v1, _ := st.bounds[1].at(i); v1 != v {
			return Value{}, false, nil
		}
	}
	return v, true, nil
}

// Position returns the state that index i of material m stands for, or
// an error when i is no position.
func (t *Tables) Position(m Material, i uint64) (game.State, error) {
	st, ok := t.materials[m]
	if !ok {
		return nil, fmt.Errorf("the tables in %s do not hold %s", t.dir, m)
	}
	if i >= st.l.size() {
		return nil, fmt.Errorf("%s has %d indexes, not %d", m, st.l.size(), i+1)
	}
	pieces, toMove := st.l.position(i, nil)
	s := t.g.Start()
	if err := s.(game.Placer).Place(pieces, toMove); err != nil {
		return nil, fmt.Errorf("index %d of %s: %v", i, m, err)
	}
	return s, nil
}
