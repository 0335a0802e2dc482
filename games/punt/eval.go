package punt

import (
	"math/bits"

	"github.com/arbiter-games/arbiter/board"

	"github.com/arbiter-games/arbiter/game"
)

// maxMoves is the most moves a pile needs to reach its end-row: eight
// lines of the hexhex board at one line a move.
const maxMoves = 8

// movesNeeded[h][d] is how many forward moves a pile of height h (3 for
// any higher) needs to cross d lines.
var movesNeeded = func() (m [4][maxMoves + 1]int8) {
	for h := 1; h < 4; h++ {
		for d := range m[h] {
			m[h][d] = int8((d + reach[h] - 1) / reach[h])
		}
	}
	return m
}()

// evalWeights are the evaluation's weights, in hundredths of a pawn.
type evalWeights struct {
	// scored is a pawn in a pile its controller has on their end-row.
	scored int
	// onWay[k] is a pawn in a pile that needs k more moves to get home.
	onWay [maxMoves + 1]int
	// threat is the share (in percent) of a scored pile lost when another
	// player can land on it; threatToMove when that player moves next.
	threat, threatToMove int
	threatAll            int
	endgame              int
}

var defaultWeights = evalWeights{
	scored:       100,
	onWay:        [maxMoves + 1]int{100, 80, 50, 30, 15, 8, 4, 2, 0},
	threat:       50,
	threatToMove: 70,
	threatAll:    1,
}

// Evaluate scores the position for each player, in hundredths of a pawn.
// It implements game.Evaluator.
func (s *State) Evaluate() [game.MaxPlayers]int {
	return s.evaluate(&weights)
}

func (s *State) evaluate(w *evalWeights) [game.MaxPlayers]int {
	var e [game.MaxPlayers]int
	t := s.g.t
	p := &s.pos
	n := t.players
	var (
		scored, moving, oneMove [maxPlayers]int
		val                     [maxCells]int32
	)
	for pl := 0; pl < n; pl++ {
		last := int(t.progress[pl][bits.TrailingZeros64(t.endRow[pl])])
		for m := p.ctrl[pl]; m != 0; m &= m - 1 {
			c := bits.TrailingZeros64(m)
			h := int(p.height[c])
			if t.endRow[pl]>>c&1 != 0 {
				scored[pl] += h
				val[c] = int32(w.scored * h)
				continue
			}
			moving[pl]++
			k := int(movesNeeded[min(h, 3)][last-int(t.progress[pl][c])])
			if k == 1 {
				oneMove[pl] = max(oneMove[pl], h)
			}
			e[pl] += h * w.onWay[k]
			val[c] = int32(h * w.onWay[k])
		}
		e[pl] += w.scored * scored[pl]
	}
	if w.endgame != 0 {
		// A player with no pile that can move ends the game on their
		// turn: the players before them get one last move each.
		for j := 1; j < n; j++ {
			if moving[(int(p.toMove)+j)%n] != 0 {
				continue
			}
			for i := 0; i < n; i++ {
				pl := (int(p.toMove) + i) % n
				e[pl] = w.scored * scored[pl]
				if i < j {
					e[pl] += w.scored * oneMove[pl]
				}
			}
			return e
		}
	}
	if w.threat != 0 || w.threatToMove != 0 {
		s.threats(w, &e, &val)
	}
	return e
}

// threats lowers the value of the piles that other players can land on:
// for each player, of the piles it can land on with one move, the one worth
// most to its controller loses threatToMove percent of its value when that
// player moves next, threat percent otherwise. Only scored piles are
// targets unless threatAll is set.
func (s *State) threats(w *evalWeights, e *[game.MaxPlayers]int, val *[maxCells]int32) {
	t := s.g.t
	p := &s.pos
	n := t.players
	var targets uint64
	for pl := 0; pl < n; pl++ {
		targets |= p.ctrl[pl] & t.endRow[pl]
	}
	if w.threatAll != 0 {
		targets = p.occ
	}
	if targets == 0 {
		return
	}
	for q := 0; q < n; q++ {
		pct := w.threat
		if game.Player(q) == p.toMove {
			pct = w.threatToMove
		}
		theirs := targets &^ p.ctrl[q]
		worst, at := int32(0), -1
		for m := p.ctrl[q] & t.mobile[q]; m != 0; m &= m - 1 {
			c := bits.TrailingZeros64(m)
			r := reach[min(p.height[c], 3)]
			for _, d := range t.dirs[q][:t.nDirs] {
				near := &t.near[c][d]
				for i := 0; i < r; i++ {
					x := near[i]
					if x == board.None {
						break
					}
					if p.occ>>x&1 != 0 {
						if theirs>>x&1 != 0 && val[x] > worst {
							worst, at = val[x], int(x)
						}
						break
					}
				}
			}
		}
		if at >= 0 {
			e[p.top[at]] -= pct * int(worst) / 100
		}
	}
}

var weights = defaultWeights
