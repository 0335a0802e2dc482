package ai

import (
	"context"
	"time"

	"github.com/arbiter-games/arbiter/game"
)

// The rule by which an AI seat answers a draw offer, the same at the
// terminal and on the server: a short alpha-beta search (DrawJudgeDepth
// plies, at most DrawJudgeTime) scores the position, and the AI accepts
// when the offerer stands worse by DrawAcceptMargin or more (half a
// piece: a pawn's worth is 100), so that it takes a draw only where it
// risks losing, never one it could win.
const (
	DrawJudgeDepth   = 4
	DrawJudgeTime    = time.Second
	DrawAcceptMargin = 50
)

// drawJudge is the engine that judges: a small table, for a search this
// short.
const drawJudge = "ab:tt=16"

// AcceptsDraw reports whether an AI playing the side that is not offerer
// accepts offerer's draw in s (two players), by the rule above. s is
// only read.
func AcceptsDraw(ctx context.Context, s game.State, offerer game.Player) bool {
	judge, err := New(drawJudge, 1)
	if err != nil { // drawJudge is a valid spec
		panic(err)
	}
	info := judge.Search(ctx, s, Limits{Depth: DrawJudgeDepth, MoveTime: DrawJudgeTime}, nil)
	forOfferer := info.Score
	if s.ToMove() != offerer {
		forOfferer = -forOfferer
	}
	return forOfferer >= DrawAcceptMargin
}
