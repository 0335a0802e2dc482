package punt_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
)

// BenchmarkEvaluate: the evaluation of a middle-game position of each id.
func BenchmarkEvaluate(b *testing.B) {
	for _, id := range []string{"punt-match", "punt-heks-match", "punt-heks-match-3p"} {
		b.Run(id, func(b *testing.B) {
			s := gametest.NewGame(b, id).Start()
			for i := 0; i < 12; i++ {
				moves := s.Moves(nil)
				s.Play(moves[(i*7)%len(moves)])
			}
			ev := s.(game.Evaluator)
			b.ReportAllocs()
			for b.Loop() {
				ev.Evaluate()
			}
		})
	}
}
