package pommel

import (
	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// Moves appends the legal moves of the player to move: every capture if
// there is one (capture is compulsory, any capture may be chosen), else
// every non-capturing move.
func (s *State) Moves(buf []game.Move) []game.Move {
	p, t := &s.pos, s.g.t
	me := p.toMove
	n0 := len(buf)
	for c := 0; c < t.n; c++ {
		if v := p.cells[c]; v != empty && v.owner() == me {
			buf = s.captures(board.Cell(c), buf)
		}
	}
	if len(buf) > n0 {
		return buf
	}
	for c := 0; c < t.n; c++ {
		v := p.cells[c]
		switch {
		case v == empty || v.owner() != me:
		case v.isCaptain():
			buf = s.captainSlides(board.Cell(c), buf)
		default:
			buf = s.soldierSteps(board.Cell(c), buf)
		}
	}
	return buf
}

func (s *State) isEnemy(v piece) bool { return v != empty && v.owner() != s.pos.toMove }

// enemyLine returns the length of the run of enemy pieces at the start of
// ray.
func (s *State) enemyLine(ray []board.Cell) int {
	k := 0
	for k < len(ray) && s.isEnemy(s.pos.cells[ray[k]]) {
		k++
	}
	return k
}

// captures appends every capture of the piece on c. The piece leaves its
// cell for the whole move, so its chain may cross it again.
func (s *State) captures(c board.Cell, buf []game.Move) []game.Move {
	cells, b := &s.pos.cells, s.g.t.b
	v := cells[c]
	cells[c] = empty
	m := game.Start(c, true)
	for d := 0; d < 6; d++ {
		ray := b.Ray(c, d)
		i := 0
		if v.isCaptain() {
			for i < len(ray) && cells[ray[i]] == empty {
				i++
			}
		}
		k := s.enemyLine(ray[i:])
		if k == 0 || i+k >= len(ray) || cells[ray[i+k]] != empty {
			continue
		}
		landing := ray[i+k]
		m.Land(landing)
		if k == 1 { // a jump: the chain goes on
			taken := cells[ray[i]]
			cells[ray[i]] = empty
			buf = s.chain(landing, v.isCaptain(), &m, buf)
			cells[ray[i]] = taken
		} else { // a leap over a line of 2+: the move ends
			buf = append(buf, m)
		}
		m.Unland()
	}
	cells[c] = v
	return buf
}

// chain continues a jump chain from cur: the piece must jump again while it
// can, and only jumps count (a leap never continues a chain). The move is
// complete when no jump is left.
func (s *State) chain(cur board.Cell, captain bool, m *game.Move, buf []game.Move) []game.Move {
	cells, b := &s.pos.cells, s.g.t.b
	jumped := false
	for d := 0; d < 6; d++ {
		ray := b.Ray(cur, d)
		i := 0
		if captain {
			for i < len(ray) && cells[ray[i]] == empty {
				i++
			}
		}
		if i+1 >= len(ray) || !s.isEnemy(cells[ray[i]]) || cells[ray[i+1]] != empty {
			continue
		}
		jumped = true
		taken := cells[ray[i]]
		cells[ray[i]] = empty
		m.Land(ray[i+1])
		buf = s.chain(ray[i+1], captain, m, buf)
		m.Unland()
		cells[ray[i]] = taken
	}
	if !jumped {
		buf = append(buf, *m)
	}
	return buf
}

// soldierSteps appends the non-capturing moves of the soldier on c: in each
// forward direction, to the first empty cell, passing over friendly pieces
// (or any pieces with hop=any).
func (s *State) soldierSteps(c board.Cell, buf []game.Move) []game.Move {
	cells, t := &s.pos.cells, s.g.t
	me := s.pos.toMove
	for _, d := range t.forward[me] {
		for _, x := range t.b.Ray(c, d) {
			v := cells[x]
			if v == empty {
				buf = append(buf, game.Step(c, x))
				break
			}
			if v.owner() != me && !s.g.hopAny {
				break
			}
		}
	}
	return buf
}

// captainSlides appends the non-capturing moves of the captain on c: across
// empty cells in any direction, stopping only where, after the move, a line
// reaches an enemy piece across empty cells.
func (s *State) captainSlides(c board.Cell, buf []game.Move) []game.Move {
	cells, b := &s.pos.cells, s.g.t.b
	v := cells[c]
	cells[c] = empty
	for d := 0; d < 6; d++ {
		for _, x := range b.Ray(c, d) {
			if cells[x] != empty {
				break
			}
			if s.seesEnemy(x) {
				buf = append(buf, game.Step(c, x))
			}
		}
	}
	cells[c] = v
	return buf
}

// seesEnemy reports whether one of the six lines from c reaches an enemy
// piece across empty cells only.
func (s *State) seesEnemy(c board.Cell) bool {
	cells, b := &s.pos.cells, s.g.t.b
	for d := 0; d < 6; d++ {
		for _, x := range b.Ray(c, d) {
			if v := cells[x]; v != empty {
				if v.owner() != s.pos.toMove {
					return true
				}
				break
			}
		}
	}
	return false
}
