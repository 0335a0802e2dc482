package analysis

import (
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// Best is a search's answer in the notation of the position's board, so
// that a transport only encodes it: the move, its score from the mover's
// point of view (hundredths of a piece) and that score written as
// ai.ScoreText writes it (a win in five plies "win5"), the depth
// completed, the nodes searched, the line expected and the time taken.
// Lines lists the best moves asked for, best first, the first being
// Move, Score and Line; a search of one line lists its own.
type Best struct {
	Move      string
	Score     int
	ScoreText string
	Depth     int
	Nodes     int64
	Line      []string
	Elapsed   time.Duration
	Lines     []Line
}

// Line is one of the best moves: its score as Best writes it and its
// line, the move first.
type Line struct {
	Move      string
	Score     int
	ScoreText string
	Line      []string
}

// bestOf writes a search's result in the notation of board b. Every
// line is a slice, never nil, so that a transport writes none as empty.
func bestOf(info ai.Info, b *board.Board) Best {
	v := Best{Move: info.Move.Text(b), Score: info.Score, ScoreText: ai.ScoreText(info.Score), Depth: info.Depth,
		Nodes: info.Nodes, Line: movesText(info.PV, b), Elapsed: info.Elapsed}
	lines := info.Lines
	if len(lines) == 0 {
		lines = []ai.Line{{Score: info.Score, PV: info.PV}}
	}
	for _, l := range lines {
		line := Line{Move: v.Move, Score: l.Score, ScoreText: ai.ScoreText(l.Score), Line: movesText(l.PV, b)}
		if len(l.PV) > 0 {
			line.Move = l.PV[0].Text(b)
		}
		v.Lines = append(v.Lines, line)
	}
	return v
}

// movesText writes moves in the notation of board b.
func movesText(moves []game.Move, b *board.Board) []string {
	out := make([]string, 0, len(moves))
	for _, m := range moves {
		out = append(out, m.Text(b))
	}
	return out
}
