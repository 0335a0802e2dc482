package learn

import (
	"fmt"

	"github.com/arbiter-games/arbiter/game"
)

// goalKind is what a step asks a move to do.
type goalKind int

const (
	goalPath      goalKind = iota // move the piece on from to to
	goalCapture                   // take exactly n pieces
	goalPromote                   // promote the moving piece
	goalOwnJumps                  // a jumping move (no capture) of n jumps
	goalLeave                     // leave the board on the far row, dropping n new men
	goalTakeKing                  // take a king (prisoner)
	goalLiberate                  // free one of the mover's pieces held prisoner
	goalEliminate                 // eliminate n stacks by a sandwich
	goalScore                     // raise the mover's score by n
	goalTakeOver                  // land on a pawn or pile another player controls
	goalWin                       // end the game as its only winner
)

// goal is a step's goal: its kind and the number or cells it needs.
type goal struct {
	kind     goalKind
	n        int
	from, to string
}

// played is a legal move with what it did: the position before and
// after, and its effects.
type played struct {
	before, after game.State
	move          game.Move
	fx            game.Effects
}

// play makes the move text on a copy of st.
func play(st game.State, text string) (played, error) {
	m, err := game.ParseMove(st, text)
	if err != nil {
		return played{}, err
	}
	fx, err := game.MoveEffects(st, m)
	if err != nil {
		return played{}, err
	}
	after := st.Clone()
	after.Play(m)
	return played{before: st, after: after, move: m, fx: fx}, nil
}

// check tells whether p reaches the goal and, when it does not, what it
// does instead, in words for the player.
func (g goal) check(p played) (bool, string) {
	fx := p.fx
	switch g.kind {
	case goalPath:
		return fx.Path[0] == g.from && fx.Path[len(fx.Path)-1] == g.to, "it does not take the piece on " + g.from + " to " + g.to
	case goalCapture:
		n := piecesTaken(fx)
		return n == g.n, fmt.Sprintf("it takes %s, and the goal is %d in one move", count(n, "piece"), g.n)
	case goalPromote:
		return fx.Promoted != "", "it promotes nothing: the move must end on your last row"
	case goalOwnJumps:
		jumps := len(fx.Path) - 1
		if fx.Capture {
			return false, "it is a capture, not a jumping move over your own men"
		}
		return jumps == g.n, fmt.Sprintf("it lands %s, and the goal is a jumping move that lands %s", times(jumps), times(g.n))
	case goalLeave:
		if !fx.Removed {
			return false, "it does not reach the far row"
		}
		return len(fx.Drops) == g.n, fmt.Sprintf("it drops %s, and the goal is %d", count(len(fx.Drops), "man"), g.n)
	case goalTakeKing:
		return takesKing(fx), "it takes no king"
	case goalLiberate:
		return liberates(fx), "it frees none of your pieces"
	case goalEliminate:
		n := eliminated(fx)
		return n == g.n, fmt.Sprintf("it eliminates %s, and the goal is %d", count(n, "stack"), g.n)
	case goalScore:
		n := scored(fx)
		if n == 0 {
			return false, fmt.Sprintf("it scores nothing, and the goal is to score %d", g.n)
		}
		return n == g.n, fmt.Sprintf("it changes your score by %d, and the goal is to score %d", n, g.n)
	case goalTakeOver:
		owner := p.before.Owner(p.move.To())
		return owner != game.NoPlayer && owner != fx.Player, "it lands on no pawn or pile of another player"
	case goalWin:
		r := p.after.Result()
		return r.Over() && r.Winners == game.PlayerSet(0).Add(fx.Player), "the game goes on after it"
	}
	return false, "the step's goal is unknown"
}

// piecesTaken counts the pieces a move took off their cells by jumping
// them (prisoners included), not those a sandwich removed afterwards.
func piecesTaken(fx game.Effects) int {
	n := 0
	for _, c := range fx.Captured {
		if c.Leg > 0 {
			n += len(c.Taken)
		}
	}
	return n
}

func takesKing(fx game.Effects) bool {
	for _, c := range fx.Captured {
		for _, p := range c.Taken {
			if c.Leg > 0 && p.Rank == game.King {
				return true
			}
		}
	}
	return false
}

// liberates reports whether a jumped stack is left commanded by the mover.
func liberates(fx game.Effects) bool {
	for _, c := range fx.Captured {
		if c.Leg > 0 && len(c.Left) > 0 && c.Left[len(c.Left)-1].Owner == fx.Player {
			return true
		}
	}
	return false
}

// eliminated counts the stacks removed after the move (a sandwich): the
// captured cells no leg of the path reaches.
func eliminated(fx game.Effects) int {
	n := 0
	for _, c := range fx.Captured {
		if c.Leg == 0 {
			n++
		}
	}
	return n
}

func scored(fx game.Effects) int {
	if int(fx.Player) >= len(fx.ScoreChange) {
		return 0
	}
	return fx.ScoreChange[fx.Player]
}

// count writes "1 piece", "2 pieces", "no piece".
func count(n int, noun string) string {
	switch {
	case n == 0:
		return "no " + noun
	case n == 1:
		return "1 " + noun
	case noun == "man":
		return fmt.Sprintf("%d men", n)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// times writes "once", "twice", "3 times".
func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}
