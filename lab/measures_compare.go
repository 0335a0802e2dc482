package lab

import "fmt"

// measureRows are the Ludii and Browne measures in a comparison, one row
// each ("-" where a run's game has none, as clarity without a static
// evaluation or a score lead in a game without scores).
func measureRows(row rowMaker) []compareRow {
	when := func(ok func(m *Measures) bool, text func(m *Measures) string) func(s *Summary) string {
		return func(s *Summary) string {
			if !ok(&s.Measures) {
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
		row("outcome uniformity", when(always, f2(func(m *Measures) float64 { return m.OutcomeUniformity }))),
		row("imbalance [95% interval]", when(always, func(m *Measures) string {
			return fmt.Sprintf("%.2f [%.2f, %.2f]", m.Imbalance.Value, m.Imbalance.Lo, m.Imbalance.Hi)
		})),
		row("decision factor", when(always, f2(func(m *Measures) float64 { return m.DecisionFactor }))),
		row("clarity: narrowness", when(evaluated, pct(func(m *Measures) float64 { return m.Narrowness }))),
		row("clarity: variance (pieces²)", when(evaluated, f2(func(m *Measures) float64 { return m.ClarityVariance }))),
		row("uncertainty", when(evaluated, f2(func(m *Measures) float64 { return m.Uncertainty }))),
		row("stability (pieces²)", when(evaluated, f2(func(m *Measures) float64 { return m.Stability }))),
		row("board used", when(always, pct(func(m *Measures) float64 { return m.CoverageUsed }))),
		row("board occupied", when(always, pct(func(m *Measures) float64 { return m.CoverageOccupied }))),
		row("move distance (cells)", when(always, f2(func(m *Measures) float64 { return m.Travel }))),
		row("state repetition", when(always, pct(func(m *Measures) float64 { return m.StateRepetition }))),
		row("positional repetition", when(always, pct(func(m *Measures) float64 { return m.PositionalRepetition }))),
		row("game-tree complexity (log10)", when(always, func(m *Measures) string { return fmt.Sprintf("%.1f", m.GameTree) })),
		row("state space, upper bound (log10)", when(always, func(m *Measures) string { return fmt.Sprintf("%.1f", m.StateSpace) })),
		row("pieces on the board: mean", when(always, func(m *Measures) string { return fmt.Sprintf("%.1f", m.Pieces.Mean) })),
		row("score lead: mean", when(func(m *Measures) bool { return m.ScoreLead != nil },
			func(m *Measures) string { return fmt.Sprintf("%+.1f", m.ScoreLead.Mean) })),
		row("static evaluation: mean", when(func(m *Measures) bool { return m.StaticEval != nil },
			func(m *Measures) string { return fmt.Sprintf("%+.0f", m.StaticEval.Mean) })),
	}
}
