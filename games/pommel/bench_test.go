package pommel_test

import (
	"testing"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/game/gametest"
	"github.com/arbiter-games/arbiter/games/pommel"
)

// benchPerft reports nodes per second of a perft with bulk counting at the
// leaves.
func benchPerft(b *testing.B, id, fen string, depth int) {
	g := gametest.NewGame(b, id)
	s := gametest.Position(b, g, fen)
	gametest.BenchPerft(b, s, depth)
}

func BenchmarkPerft5Pommel(b *testing.B)   { benchPerft(b, "pommel", "", 5) }
func BenchmarkPerft4Pommel76(b *testing.B) { benchPerft(b, "pommel-76", "", 4) }
func BenchmarkPerft4Captains(b *testing.B) {
	benchPerft(b, "pommel", "W:WKa1,Kg1,Kd4,b3:BKa6,Kg6,Kd7,c3,e3,f5", 5)
}

// BenchmarkPerft4Pommel76NoBulk plays every leaf, as the perft command does.
func BenchmarkPerft4Pommel76NoBulk(b *testing.B) {
	s := gametest.NewGame(b, "pommel-76").Start()
	for b.Loop() {
		game.Perft(s, 4)
	}
}

// benchPlayouts plays random games to the end through the concrete type
// and reports games per second.
func benchPlayouts(b *testing.B, id string) {
	g := gametest.NewGame(b, id).(*pommel.Game)
	gametest.BenchPlayouts(b, g.NewState, 256)
}

func BenchmarkPlayoutPommel(b *testing.B)   { benchPlayouts(b, "pommel") }
func BenchmarkPlayoutPommel76(b *testing.B) { benchPlayouts(b, "pommel-76") }

func BenchmarkMovesStart(b *testing.B) {
	s := gametest.NewGame(b, "pommel").Start()
	buf := make([]game.Move, 0, 256)
	for b.Loop() {
		buf = s.Moves(buf[:0])
	}
}

// benchGames plays random games as the arbiter bench command does.
func benchGames(b *testing.B, id string) { gametest.BenchGames(b, gametest.NewGame(b, id)) }

func BenchmarkGamesPommel(b *testing.B)   { benchGames(b, "pommel") }
func BenchmarkGamesPommel76(b *testing.B) { benchGames(b, "pommel-76") }
