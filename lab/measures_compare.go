package lab

import "fmt"

// measureRows are the Ludii and Browne measures in a comparison, one row
// each ("-" where a run's game has none, as clarity without a static
// evaluation or a score lead in a game without scores).
func measureRows(row rowMaker) []compareRow {
	when := func(ok func(m *Measures) bool, text func(m *Measures) string) func(s *Summary) string {
		return func(s *Summary) string {
			// A summary written before the lab took these measures has none
			// (no game offers no move at all: a decision factor of 0).
			if !ok(&s.Measures) || s.Measures.DecisionFactor == 0 && s.Plies.Mean > 0 {
				return "-"
			}
			return text(&s.Measures)
		}
	}
	always := func(*Measures) bool { return true }
	evaluated := func(m *Measures) bool { return m.Evaluated }
	f2 := func(v func(m *Measures) float64) func(m *Measures) string {
		return func(m *Measures) string { return fmt.Sprintf("%.2f", v(m)) }
	}
	pct := func(v func(m *Measures) float64) func(m *Measures) string {
		return func(m *Measures) string { return fmt.Sprintf("%.1f%%", 100*v(m)) }
	}
	return []compareRow{
		row("outcome uniformity (÷n; Ludii ÷(n−1))", when(always, f2(func(m *Measures) float64 { return m.OutcomeUniformity }))),
		row("imbalance [95% interval]", when(always, func(m *Measures) string {
			return fmt.Sprintf("%.2f [%.2f, %.2f]", m.Imbalance.Value, m.Imbalance.Lo, m.Imbalance.Hi)
		})),
		row("decision factor", when(always, f2(func(m *Measures) float64 { return m.DecisionFactor }))),
		row("clarity: narrowness", when(evaluated, pct(func(m *Measures) float64 { return m.Narrowness }))),
		row("clarity: variance (pieces²)", when(evaluated, f2(func(m *Measures) float64 { return m.ClarityVariance }))),
		row("uncertainty", when(evaluated, f2(func(m *Measures) float64 { return m.Uncertainty }))),
		row("stability (pieces², mean over players; Ludii sums)", when(evaluated, f2(func(m *Measures) float64 { return m.Stability }))),
		row("board touched by moves (this lab's)", when(always, pct(func(m *Measures) float64 { return m.CoverageUsed }))),
		row("board occupied (Ludii's BoardCoverageUsed)", when(always, pct(func(m *Measures) float64 { return m.CoverageOccupied }))),
		row("move distance (cells)", when(always, f2(func(m *Measures) float64 { return m.Travel }))),
		row("state repetition", when(always, pct(func(m *Measures) float64 { return m.StateRepetition }))),
		row("positional repetition", when(always, pct(func(m *Measures) float64 { return m.PositionalRepetition }))),
		row("game-tree complexity (log10, pooled; Ludii per game)", when(always, func(m *Measures) string { return fmt.Sprintf("%.1f", m.GameTree) })),
		row("state space, upper bound (log10)", when(always, func(m *Measures) string { return fmt.Sprintf("%.1f", m.StateSpace) })),
		row("pieces on the board: mean", when(always, func(m *Measures) string { return fmt.Sprintf("%.1f", m.Pieces.Mean) })),
		row("score lead: mean", when(func(m *Measures) bool { return m.ScoreLead != nil },
			func(m *Measures) string { return fmt.Sprintf("%+.1f", m.ScoreLead.Mean) })),
		row("static evaluation: mean", when(func(m *Measures) bool { return m.StaticEval != nil },
			func(m *Measures) string { return fmt.Sprintf("%+.0f", m.StaticEval.Mean) })),
	}
}

// measureRow is one line of the report's table of measures.
type measureRow struct{ Name, Value, Definition string }

// measureTable are the report's rows of measures, those that apply to
// the run's game: the measures by the static evaluation only for a game
// that has one, the score lead only for a game that scores.
func measureTable(m *Measures) []measureRow {
	rows := []measureRow{
		{"outcome uniformity", fmt.Sprintf("%.2f", m.OutcomeUniformity), "1 less the mean over the seats of the variance " +
			"of a seat's outcome (Ludii's rank utility: 1 first, -1 last, 0 a draw): 1 when every game ends alike. " +
			"Ludii's OutcomeUniformity divides by n−1 games (the sample variance) where this divides by n: " +
			"Ludii's is 1 − (1 − this)·n/(n−1)."},
		{"seat imbalance [95% interval]", fmt.Sprintf("%.2f [%.2f, %.2f]", m.Imbalance.Value, m.Imbalance.Lo, m.Imbalance.Hi),
			"How far the seats' scores are from a fair share: 0 fair, 1 when one seat wins every game (interval by bootstrap)."},
		{"decision factor", fmt.Sprintf("%.2f", m.DecisionFactor), "Legal moves per position with more than one (Ludii)."},
	}
	if m.Evaluated {
		rows = append(rows,
			measureRow{"clarity: narrowness (static)", fmt.Sprintf("%.1f%%", 100*m.Narrowness), "Share of the legal moves " +
				"valued at least three quarters of the way from the mean to the best: low when a few moves stand out (Ludii, Browne)."},
			measureRow{"clarity: variance (static)", fmt.Sprintf("%.3f pieces²", m.ClarityVariance), "Variance of the legal " +
				"moves' values in a position: high when the moves differ clearly (Ludii, Browne)."},
			measureRow{"uncertainty (static)", fmt.Sprintf("%.2f", m.Uncertainty), "How level the positions are, 1 level, " +
				"0.54 at a lead of two pieces, falling towards 0: high while the outcome is in doubt (Browne)."},
			measureRow{"stability (static)", fmt.Sprintf("%.2f pieces²", m.Stability), "Variance of each player's " +
				"evaluation over a game, the mean over the players: low when the evaluations change little (Browne). " +
				"Ludii's Stability sums the players' variances (n times this with n players), on its own evaluation's " +
				"scale, over the positions before each move (this takes the last position too)."},
		)
	}
	return append(rows,
		measureRow{"board touched by moves", fmt.Sprintf("%.1f%%", 100*m.CoverageUsed), "Share of the cells some move of a game " +
			"started on, crossed, landed on, took from or dropped on (this lab's own; Ludii has no such measure)."},
		measureRow{"board occupied", fmt.Sprintf("%.1f%%", 100*m.CoverageOccupied), "Share of the cells that held a piece " +
			"at some point of a game (Ludii's BoardCoverageUsed, and here its BoardCoverageDefault too: these games' " +
			"pieces stand on cells only. Ludii's BoardCoverageFull also counts edges and vertices; the lab does not " +
			"measure it)."},
		measureRow{"move distance", fmt.Sprintf("%.2f cells", m.Travel), "Cells a move crosses, leg by leg."},
		measureRow{"state repetition", fmt.Sprintf("%.1f%%", 100*m.StateRepetition), "Share of a game's positions, " +
			"with the player to move, that repeat an earlier one (Ludii's SituationalRepetition)."},
		measureRow{"positional repetition", fmt.Sprintf("%.1f%%", 100*m.PositionalRepetition), "The same, by the board " +
			"alone (Ludii's PositionalRepetition)."},
		measureRow{"game-tree complexity", fmt.Sprintf("10^%.1f", m.GameTree), "b^d for the mean branching b over every " +
			"position of every game (pooled) and the mean length d in plies (Allis). Ludii's GameTreeComplexity takes each " +
			"game's own d·log10 b, then the mean over the games."},
		measureRow{"state space, upper bound", fmt.Sprintf("10^%.1f", m.StateSpace), "Every way to put at most the most " +
			"pieces seen on the board's cells, each piece any player's and any rank, times the player to move."},
	)
}
