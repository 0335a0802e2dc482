package review

import "math"

// Mark is what a review calls a move that lost expected score: "" for
// none, or one of the three below.
type Mark string

// The marks, as the API writes them.
const (
	Inaccuracy Mark = "inaccuracy"
	Mistake    Mark = "mistake"
	Blunder    Mark = "blunder"
)

// The thresholds of the marks: the least drop of the mover's expected
// score (0 to 1, by the game's curve) that earns each. They are the
// project's own, in shares of the point: the curve carries each game's
// scale (a man given away from an even Pommel position costs about 0.27
// of the point, a piece scored in Punt 0.12 to 0.14), so one set serves
// every id. A blunder turns an even game into one the mover loses about
// seven times in ten, a mistake is half that, an inaccuracy a quarter,
// about the smallest loss the search at the review's budget tells from
// its own noise. Lichess calls a blunder at 0.15 of its curve; these
// games' evaluations swing by a man at each exchange the search does not
// see to its end, so ours asks for more. A position already won or lost
// earns few marks: the curve is flat there, so a move that gives back
// only part of a large lead loses little of the point. docs/review.md
// has the marks these give per 100 moves.
const (
	InaccuracyDrop = 0.05
	MistakeDrop    = 0.10
	BlunderDrop    = 0.20
)

// MarkOf is the mark a drop of the mover's expected score earns.
func MarkOf(drop float64) Mark {
	switch {
	case drop >= BlunderDrop:
		return Blunder
	case drop >= MistakeDrop:
		return Mistake
	case drop >= InaccuracyDrop:
		return Inaccuracy
	}
	return ""
}

// accuracyScale is the drop that takes a move's accuracy to 1/e of 100
// (about 37): see MoveAccuracy.
const accuracyScale = 0.25

// MoveAccuracy is one move's accuracy, 0 to 100, from the drop of the
// mover's expected score: 100·exp(-drop/0.25). The best move scores 100;
// an inaccuracy at its threshold about 82, a mistake 67, a blunder 45;
// throwing away a whole won game (a drop of 1) about 2. An exponential
// rather than a line so that one blunder does not outweigh a game of
// good moves, and every further loss still costs something.
func MoveAccuracy(drop float64) float64 {
	return 100 * math.Exp(-max(0, drop)/accuracyScale)
}

// Accuracy is a seat's accuracy: the mean of MoveAccuracy over the
// seat's moves that had a choice (forced moves say nothing of the
// player), 100 for a seat that had none.
func Accuracy(moves []Move, seat int) float64 {
	sum, n := 0.0, 0
	for _, m := range moves {
		if int(m.Seat) != seat || m.Forced {
			continue
		}
		sum += MoveAccuracy(m.Drop)
		n++
	}
	if n == 0 {
		return 100
	}
	return sum / float64(n)
}

// Seats sums the reviewed moves up for each of players seats: accuracy,
// moves and marks.
func Seats(moves []Move, players int) []Seat {
	seats := make([]Seat, players)
	for _, m := range moves {
		st := &seats[m.Seat]
		st.Moves++
		if m.Forced {
			st.Forced++
		}
		switch m.Mark {
		case Inaccuracy:
			st.Inaccuracies++
		case Mistake:
			st.Mistakes++
		case Blunder:
			st.Blunders++
		}
	}
	for p := range seats {
		seats[p].Accuracy = Accuracy(moves, p)
	}
	return seats
}
