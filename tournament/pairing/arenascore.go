package pairing

import "time"

// The thresholds of lichess's arena, in plies (half-moves of a two-player
// game; a three-player game's moves are counted the same way, one ply a
// move by anyone).
const (
	// QuickDrawPlies: a draw in fewer plies scores nothing.
	QuickDrawPlies = 20
	// LongGamePlies: a draw of at least this many plies scores even right
	// after another draw.
	LongGamePlies = 60
	// BerserkMoves: a berserk win gives its extra point only when every
	// player made at least this many moves.
	BerserkMoves = 7
)

// ArenaGame is one finished arena game from one player's side.
type ArenaGame struct {
	Players int  // 2 or 3 (0 counts as 2)
	Place   int  // the player's place, 1 for the winner
	Shared  int  // how many players share that place: 1 alone; a two-player draw is Place 1, Shared 2
	Plies   int  // moves played in the game, by all players
	Berserk bool // the player went berserk (half the clock)
}

// ArenaSheet is an arena player's score: each game's points, in order,
// their total, and whether the next game counts double.
type ArenaSheet struct {
	Points []int
	Total  int
	OnFire bool
}

// placePoints are the points of each place, best first, for two- and
// three-player games (nil for others).
func placePoints(players int) []int {
	switch players {
	case 2:
		return []int{2, 0}
	case 3:
		return []int{2, 1, 0}
	}
	return nil
}

// ScoreArena scores an arena player's games, in the order they ended, by
// lichess's rules: a win 2, a draw 1, a loss 0; after two wins running a
// game counts double until one is not won (a draw is still doubled, and
// ends the streak); a berserk win one point more if the game was long
// enough; a draw in fewer than QuickDrawPlies nothing; a draw after a
// draw (only losses between) nothing unless it was long. In three-player
// games the places score 2, 1 and 0, a shared place the mean of the
// places shared rounded down; only sole first place is a win. streaks
// false turns the doubling off (lichess's "no streaks" arenas).
func ScoreArena(games []ArenaGame, streaks bool) (ArenaSheet, error) {
	var s ArenaSheet
	var past []ArenaGame
	for i, g := range games {
		if g.Players == 0 {
			g.Players = 2
		}
		if err := checkArenaGame(g); err != nil {
			return ArenaSheet{}, invalid("arena game %d: %v", i+1, err)
		}
		p := gamePoints(g, past, streaks)
		s.Points = append(s.Points, p)
		s.Total += p
		past = append(past, g)
	}
	s.OnFire = streaks && onFire(past)
	return s, nil
}

func checkArenaGame(g ArenaGame) error {
	switch {
	case placePoints(g.Players) == nil:
		return invalid("%d players", g.Players)
	case g.Place < 1 || g.Shared < 1 || g.Place+g.Shared-1 > g.Players:
		return invalid("place %d shared by %d of %d", g.Place, g.Shared, g.Players)
	case g.Plies < 0:
		return invalid("%d plies", g.Plies)
	}
	return nil
}

// gamePoints scores g after the games past.
func gamePoints(g ArenaGame, past []ArenaGame, streaks bool) int {
	fire := streaks && onFire(past)
	if isDraw(g) && (g.Plies < QuickDrawPlies || !fire && g.Plies < LongGamePlies && drawStreak(past)) {
		return 0
	}
	p := basePoints(g)
	if fire {
		p *= 2
	}
	if isWin(g) && g.Berserk && g.Plies >= BerserkMoves*g.Players {
		p++
	}
	return p
}

func isWin(g ArenaGame) bool { return g.Place == 1 && g.Shared == 1 }

// isDraw: a two-player game with no winner.
func isDraw(g ArenaGame) bool { return g.Players == 2 && g.Shared == 2 }

// basePoints are the place's points, shared places averaged down.
func basePoints(g ArenaGame) int {
	table := placePoints(g.Players)
	sum := 0
	for _, p := range table[g.Place-1 : g.Place-1+g.Shared] {
		sum += p
	}
	return sum / g.Shared
}

// onFire: the last two games were both won.
func onFire(past []ArenaGame) bool {
	n := len(past)
	return n >= 2 && isWin(past[n-1]) && isWin(past[n-2])
}

// drawStreak: the latest game that was not lost was a draw.
func drawStreak(past []ArenaGame) bool {
	for i := len(past) - 1; i >= 0; i-- {
		switch {
		case isDraw(past[i]):
			return true
		case isWin(past[i]):
			return false
		}
	}
	return false
}

// BerserkClock is the clock of a player who goes berserk in an arena
// game of limit plus increment a move: half the limit, and no increment
// (when the limit is under 40 increments only the increment goes, so that
// 1+2 becomes 1+0). ok is false where berserk is not offered: without a
// starting limit.
func BerserkClock(limit, increment time.Duration) (time.Duration, time.Duration, bool) {
	if limit <= 0 {
		return limit, increment, false
	}
	if limit < 40*increment {
		return limit, 0, true
	}
	return limit / 2, 0, true
}
