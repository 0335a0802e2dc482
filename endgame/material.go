package endgame

import (
	"fmt"
	"strings"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
)

// Material is how many men and kings each of the two sides has:
// Material[p][game.Man] and Material[p][game.King].
type Material [2][2]uint8

// Total is the number of pieces on the board.
func (m Material) Total() int { return int(m[0][0] + m[0][1] + m[1][0] + m[1][1]) }

// Men is the number of men (soldiers) of both sides.
func (m Material) Men() int { return int(m[0][game.Man] + m[1][game.Man]) }

// Side is the number of pieces of p.
func (m Material) Side(p game.Player) int { return int(m[p][0] + m[p][1]) }

// String names m as the table files do: the first side's kings (K) and
// men (M), "v", the second side's; "KMvK" is a king and a man against a
// king.
func (m Material) String() string {
	var b strings.Builder
	for p := range 2 {
		if p == 1 {
			b.WriteByte('v')
		}
		b.WriteString(strings.Repeat("K", int(m[p][game.King])))
		b.WriteString(strings.Repeat("M", int(m[p][game.Man])))
	}
	return b.String()
}

// ParseMaterial reads a name String writes.
func ParseMaterial(s string) (Material, error) {
	var m Material
	sides := strings.Split(s, "v")
	if len(s) > 64 {
		return m, fmt.Errorf("material %s: more pieces than any table holds", clip.Quote(s))
	}
	if len(sides) != 2 {
		return m, fmt.Errorf("material %s: want the two sides' pieces around a v, such as KMvK", clip.Quote(s))
	}
	for p, side := range sides {
		seenMan := false
		for _, r := range side {
			switch {
			case r == 'K' && !seenMan:
				m[p][game.King]++
			case r == 'M':
				seenMan = true
				m[p][game.Man]++
			default:
				return m, fmt.Errorf("material %s: want kings (K) then men (M) on each side", clip.Quote(s))
			}
		}
		if side == "" {
			return m, fmt.Errorf("material %s: each side needs a piece", clip.Quote(s))
		}
	}
	return m, nil
}

// materialOf counts the pieces of a placement.
func materialOf(pieces []game.Placed) Material {
	var m Material
	for _, pc := range pieces {
		m[pc.Piece.Owner][pc.Piece.Rank]++
	}
	return m
}

// Materials lists every material of 2 to k pieces with a piece on each
// side, in the order a build solves them: fewer pieces first, then fewer
// men. A capture leads to fewer pieces and a promotion to fewer men, so
// every position a move leads to out of its material is in one listed
// before.
func Materials(k int) []Material {
	var out []Material
	for total := 2; total <= k; total++ {
		for men := 0; men <= total; men++ {
			out = append(out, materialsOf(total, men)...)
		}
	}
	return out
}

// materialsOf lists the materials of total pieces of which men are men,
// with a piece on each side.
func materialsOf(total, men int) []Material {
	var out []Material
	for w := 1; w < total; w++ {
		for wm := 0; wm <= w; wm++ {
			bm := men - wm
			if bm < 0 || bm > total-w {
				continue
			}
			var m Material
			m[0][game.Man], m[0][game.King] = uint8(wm), uint8(w-wm)
			m[1][game.Man], m[1][game.King] = uint8(bm), uint8(total-w-bm)
			out = append(out, m)
		}
	}
	return out
}
