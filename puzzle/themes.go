package puzzle

import (
	"slices"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// The themes, as the puzzles name them. Each is read from the effects
// the rules report for the solver's moves (game.MoveEffects), never from
// a game's own code, so a game gets the themes its effects show:
//
//   - leap: a capture that takes two or more cells in one leg (Pommel's
//     linear leap; a jump elsewhere takes one cell a leg);
//   - multiJump: a capture whose path has two or more legs (a chain);
//   - captain: a move by, or the capture of, a promoted piece in Pommel
//     (the top piece of the moving stack, or a piece taken)
//     (a captain is game.King there; in Checkers 2011 a King is a king,
//     and that is theme king);
//   - king: the same for Checkers 2011's kings;
//   - promotion: a piece promoted (Effects.Promoted);
//   - sandwich: pieces removed by no leg (Capture.Leg 0: Checkers 2011);
//   - drop: new pieces (Effects.Drops: Eximo);
//   - takeover: a move that lands on a pile with another player's pieces
//     in it and so takes control of them (Punt), or a capture that puts
//     prisoners under the mover (Checkers 2011);
//   - tempo: the first move takes nothing, promotes nothing and drops
//     nothing: a quiet move;
//   - endgame: at most a quarter of the start's pieces are on the board;
//   - oneMove, short, long, veryLong: 1, 2, 3, or 4 and more solver moves.
const (
	Leap      = "leap"
	MultiJump = "multiJump"
	Captain   = "captain"
	King      = "king"
	Promotion = "promotion"
	Sandwich  = "sandwich"
	Drop      = "drop"
	Takeover  = "takeover"
	Tempo     = "tempo"
	Endgame   = "endgame"
	OneMove   = "oneMove"
	Short     = "short"
	Long      = "long"
	VeryLong  = "veryLong"
)

// Themes tags the puzzle of s with solution (alternating from s's mover)
// by what the solver's moves do, sorted; quiet reports a quiet first move.
func Themes(s game.State, solution []game.Move) (themes []string, quiet bool, err error) {
	set := map[string]bool{}
	c := s.Clone()
	id := s.Game().ID()
	for i, m := range solution {
		if i%2 == 0 {
			fx, err := game.MoveEffects(c, m)
			if err != nil {
				return nil, false, err
			}
			q := effectThemes(id, fx, set)
			if i == 0 {
				quiet = q
			}
		}
		c.Play(m)
	}
	if quiet {
		set[Tempo] = true
	}
	if pieces(s) <= pieces(s.Game().Start())/4 {
		set[Endgame] = true
	}
	switch n := (len(solution) + 1) / 2; {
	case n == 1:
		set[OneMove] = true
	case n == 2:
		set[Short] = true
	case n == 3:
		set[Long] = true
	default:
		set[VeryLong] = true
	}
	for t := range set {
		themes = append(themes, t)
	}
	slices.Sort(themes)
	return themes, quiet, nil
}

// effectThemes adds the themes of one solver move's effects to set and
// reports whether the move was quiet.
func effectThemes(id string, fx game.Effects, set map[string]bool) bool {
	legs := map[int]int{}
	promoted := false
	for _, c := range fx.Captured {
		if c.Leg == 0 {
			set[Sandwich] = true
		} else {
			legs[c.Leg]++
		}
		for _, p := range c.Taken {
			promoted = promoted || p.Rank == game.King
		}
	}
	for _, n := range legs {
		if n >= 2 {
			set[Leap] = true
		}
	}
	// Legs are counted on the path, not in Captured, which names a cell
	// once however often the chain jumps it (a Checkers 2011 stack).
	if len(legs) > 0 && len(fx.Path) > 2 {
		set[MultiJump] = true
	}
	// The moving stack's top piece is the one that moves (and commands
	// the rest); a king imprisoned under it moves with it but does not
	// play.
	if n := len(fx.Moving); n > 0 && fx.Moving[n-1].Rank == game.King {
		promoted = true
	}
	if promoted {
		if pommel(id) {
			set[Captain] = true
		} else if id == "checkers-2011" {
			set[King] = true
		}
	}
	if fx.Promoted != "" {
		set[Promotion] = true
	}
	if len(fx.Drops) > 0 {
		set[Drop] = true
	}
	if len(fx.Prisoners) > 0 || takesPile(fx) {
		set[Takeover] = true
	}
	return len(fx.Captured) == 0 && fx.Promoted == "" && len(fx.Drops) == 0 && !fx.Removed && !takesPile(fx)
}

// takesPile reports a move that lands on pieces of another player and
// leaves them on the board under the mover's, without capturing: what
// Punt calls landing on a pile, which the mover then controls.
func takesPile(fx game.Effects) bool {
	if len(fx.Captured) > 0 || len(fx.Landed) <= len(fx.Moving) {
		return false
	}
	for _, p := range fx.Landed[:len(fx.Landed)-len(fx.Moving)] {
		if p.Owner != fx.Player {
			return true
		}
	}
	return false
}

// pommel tells the Pommel ids, whose promoted piece is the captain.
func pommel(id string) bool { return id == "pommel" || id == "pommel-76" }

// pieces counts the pieces on s's board, stacks whole; a state that shows
// no stacks counts its occupied cells.
func pieces(s game.State) int {
	b := s.Game().Board()
	st, ok := s.(game.Stacker)
	n := 0
	var buf []game.Piece
	for c := range board.Cell(b.Len()) {
		if ok {
			buf = st.Stack(c, buf[:0])
			n += len(buf)
		} else if s.Owner(c) != game.NoPlayer {
			n++
		}
	}
	return n
}

// addTheme adds theme to the sorted themes, once.
func addTheme(themes []string, theme string) []string {
	if i, found := slices.BinarySearch(themes, theme); !found {
		themes = slices.Insert(themes, i, theme)
	}
	return themes
}
