package server

import (
	"fmt"

	"github.com/arbiter-games/arbiter/ai"
)

// checkAnalysisThreads refuses a Config.AnalysisThreads that cannot
// work: below 0, above ai.MaxThreads, or above the AI workers, which
// bound every search the server runs.
func checkAnalysisThreads(threads, workers int) error {
	switch {
	case threads < 0 || threads > ai.MaxThreads:
		return fmt.Errorf("analysis threads %d: want 1 to %d, or 0 for 1", threads, ai.MaxThreads)
	case threads > workers:
		return fmt.Errorf("analysis threads %d: at most the AI workers (%d)", threads, workers)
	}
	return nil
}

// analysisThreads is how many threads an analysis search of lines lines
// runs with: its own worker's, and one for each extra worker it could
// take (hall.ExtraWorkers), up to Config.AnalysisThreads. A search of
// several lines runs on one thread (SearchLines does), so takes none.
// release gives the extra workers back.
func (s *Server) analysisThreads(lines int) (threads int, release func()) {
	want := max(1, s.cfg.AnalysisThreads)
	if lines > 1 || want == 1 {
		return 1, func() {}
	}
	took, release := s.hall.ExtraWorkers(want - 1)
	return 1 + took, release
}
