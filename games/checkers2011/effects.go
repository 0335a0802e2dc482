package checkers2011

// Custodial reports that Checkers 2011 removes stacks without jumping them:
// after every move, steps included, the mover's sandwiches are eliminated
// (game.Custodian).
func (g *Game) Custodial() bool { return true }
