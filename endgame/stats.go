package endgame

import (
	"fmt"

	"github.com/arbiter-games/arbiter/game"
)

// statistics counts a material's wins, draws and losses and finds its
// longest win and loss, with a FEN of each.
func (b *builder) statistics(l *layout, vals []uint16) (MaterialStats, error) {
	st := MaterialStats{Material: l.m.String()}
	longestWin, longestLoss := -1, -1
	for i, v := range vals {
		switch val := decode(v); {
		case v == notAPosition:
			continue
		case val.Kind == Win:
			st.Wins++
			if val.Plies > st.LongestWin || longestWin < 0 {
				st.LongestWin, longestWin = val.Plies, i
			}
		case val.Kind == Loss:
			st.Losses++
			if val.Plies > st.LongestLoss || longestLoss < 0 {
				st.LongestLoss, longestLoss = val.Plies, i
			}
		default:
			st.Draws++
		}
	}
	st.Positions = st.Wins + st.Draws + st.Losses
	var err error
	if st.LongestWinFEN, err = b.fenOf(l, longestWin); err != nil {
		return st, err
	}
	st.LongestLossFEN, err = b.fenOf(l, longestLoss)
	return st, err
}

// fenOf writes the FEN of index i of l, or "" for i < 0.
func (b *builder) fenOf(l *layout, i int) (string, error) {
	if i < 0 {
		return "", nil
	}
	pieces, toMove := l.position(uint64(i), nil)
	s := b.g.Start()
	if err := s.(game.Placer).Place(pieces, toMove); err != nil {
		return "", err
	}
	f, ok := s.(interface{ FEN() string })
	if !ok {
		return "", fmt.Errorf("endgame: %s writes no FEN", b.g.ID())
	}
	return f.FEN(), nil
}
