package lab

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Text writes the summary's main numbers as a few lines for a terminal,
// a run that mixes engines saying so first.
func Text(s *Summary) string {
	var b strings.Builder
	if w := s.MixWarning(); w != "" {
		fmt.Fprintln(&b, w)
	}
	fmt.Fprintf(&b, "%s (%s): %d games, n = %d distinct\n", s.Game, optionsText(s.Options), s.Games, s.Distinct)
	fmt.Fprintln(&b, s.EnginesText())
	if w := s.RepeatWarning(); w != "" {
		fmt.Fprintln(&b, w)
	}
	for _, st := range s.Seats {
		fmt.Fprintf(&b, "%-8s wins %s\n", st.Seat, RateText(st.Wins))
	}
	fp := s.FirstPlayer
	fmt.Fprintf(&b, "first player (%s) scores %s, edge %+.1f points [%+.1f, %+.1f]\n", fp.Seat, RateText(fp.Score),
		100*fp.Edge, 100*fp.Lo, 100*fp.Hi)
	fmt.Fprintf(&b, "draws %s", RateText(s.DrawRate))
	for _, why := range slices.Sorted(maps.Keys(s.DrawsBy)) {
		fmt.Fprintf(&b, "; %s %d", why, s.DrawsBy[why].Count)
	}
	fmt.Fprintln(&b)
	writeEngineTable(&b, s.ByPlayer)
	fmt.Fprintf(&b, "length %.1f plies (median %.0f, quartiles %.0f-%.0f, %d to %d)\n", s.Plies.Mean, s.Plies.Median,
		s.Plies.Q1, s.Plies.Q3, s.Plies.Min, s.Plies.Max)
	fmt.Fprintf(&b, "branching %.1f legal moves a position; %.0f%% of positions are real decisions\n",
		s.Branching.Mean, 100*s.DecisionShare)
	if s.Arc.Games > 0 {
		fmt.Fprintf(&b, "drama %.1f%%; comebacks %s; decided after %.0f%% of the game\n", 100*s.Arc.Drama,
			RateText(s.Arc.Comebacks), 100*s.Arc.DecidedAt.Mean)
	}
	m := s.Measures
	fmt.Fprintf(&b, "outcome uniformity %.2f; seat imbalance %.2f [%.2f, %.2f]; decision factor %.1f\n",
		m.OutcomeUniformity, m.Imbalance.Value, m.Imbalance.Lo, m.Imbalance.Hi, m.DecisionFactor)
	fmt.Fprintf(&b, "complexity: game tree 10^%.0f, state space at most 10^%.0f\n", m.GameTree, m.StateSpace)
	for _, kind := range slices.Sorted(maps.Keys(s.Signals)) {
		fmt.Fprintf(&b, "%s wins %s of %d\n", kind, RateText(s.Signals[kind]), s.Signals[kind].Of)
	}
	return b.String()
}

// RepeatWarning is a line that warns when some games repeat an earlier
// one move for move, "" when every game is distinct.
func (s *Summary) RepeatWarning() string {
	if s.Distinct >= s.Games {
		return ""
	}
	return fmt.Sprintf("warning: %d of the %d games repeat an earlier game move for move; every rate and interval counts "+
		"each distinct game once (n = %d; vary the games with --opening, --openings FILE, or engines that choose at random)",
		s.Games-s.Distinct, s.Games, s.Distinct)
}

// writeEngineTable writes each engine's results over every seat it sat
// in: with two different engines, the seats' table alone hides which
// engine won, since they swap seats from game to game.
func writeEngineTable(b *strings.Builder, players []PlayerStats) {
	if len(players) == 0 {
		return
	}
	width := len("engine")
	for _, p := range players {
		width = max(width, len(p.Name))
	}
	fmt.Fprintf(b, "%-*s %6s %6s %6s %6s  %s\n", width, "engine", "games", "wins", "shared", "losses", "score [95% interval]")
	for _, p := range players {
		fmt.Fprintf(b, "%-*s %6d %6d %6d %6d  %s\n", width, p.Name, p.Games, p.Wins, p.Shared, p.Losses, RateText(p.Score))
	}
}

// RateText writes a rate as "43.5% [40.1, 46.9]".
func RateText(r Rate) string {
	return fmt.Sprintf("%5.1f%% [%.1f, %.1f]", 100*r.Rate, 100*r.Lo, 100*r.Hi)
}
