package puzzles

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/puzzle"
)

// catalog is every puzzle the service serves: by game, and by id. The
// shipped sets start it; Add extends it with puzzles found in the site's
// games (reviews' Found). A catalog is never changed once the service
// holds it, so that readers need no lock: Add builds the next one.
type catalog struct {
	sets map[string]*set
	ids  map[string]*puzzle.Puzzle
	// added counts the puzzles Add put in.
	added int
}

func newCatalog(sets map[string]*set) *catalog {
	c := &catalog{sets: sets, ids: map[string]*puzzle.Puzzle{}}
	for _, st := range sets {
		for i := range st.puzzles {
			c.ids[st.puzzles[i].ID] = &st.puzzles[i]
		}
	}
	return c
}

// MaxAdded bounds the puzzles Add takes in all, so that the pool a site
// grows from its games stays within memory (a puzzle is about half a
// kilobyte).
const MaxAdded = 200_000

// Add puts puzzles found in the site's games into the pool, each checked
// as a shipped one is (its game's rules, its position, every move of its
// solution), beside the shipped set of its game. A puzzle whose id is
// there already (the same position: ids are made from positions) is
// skipped, as is one of a game with no shipped set; a malformed one is
// skipped too, and the first such is the error. It answers how many were
// added.
func (s *Service) Add(ps []puzzle.Puzzle) (int, error) {
	s.addMu.Lock()
	defer s.addMu.Unlock()
	old := s.cat.Load()
	next := &catalog{sets: make(map[string]*set, len(old.sets)), ids: make(map[string]*puzzle.Puzzle, len(old.ids)+len(ps)), added: old.added}
	for id, st := range old.sets {
		next.sets[id] = st
	}
	for id, p := range old.ids {
		next.ids[id] = p
	}
	var fresh []puzzle.Puzzle
	var malformed error
	for _, p := range ps {
		st, ok := old.sets[p.Game]
		if !ok || next.ids[p.ID] != nil || slices.ContainsFunc(fresh, func(f puzzle.Puzzle) bool { return f.ID == p.ID }) {
			continue
		}
		checked, err := parsePuzzleValue(st.game.ID, p)
		if err != nil {
			if malformed == nil {
				malformed = fmt.Errorf("puzzles: a found puzzle: %w", err)
			}
			continue
		}
		fresh = append(fresh, checked)
	}
	if old.added+len(fresh) > MaxAdded {
		return 0, fmt.Errorf("puzzles: %d puzzles added already; %d more is over the bound of %d", old.added, len(fresh), MaxAdded)
	}
	next.added += len(fresh)
	for _, p := range fresh {
		st := next.sets[p.Game]
		if st == old.sets[p.Game] {
			// The first added to this game: a copy of its set, so that
			// the old catalog's readers see the old one.
			cp := &set{game: st.game, puzzles: slices.Clone(st.puzzles), themes: make(map[string]int, len(st.themes))}
			for t, n := range st.themes {
				cp.themes[t] = n
			}
			next.sets[p.Game], st = cp, cp
		}
		st.puzzles = append(st.puzzles, p)
		for _, t := range p.Themes {
			st.themes[t]++
		}
	}
	// The ids point into the sets' final slices (appending moved them).
	for _, st := range next.sets {
		for i := range st.puzzles {
			next.ids[st.puzzles[i].ID] = &st.puzzles[i]
		}
	}
	s.cat.Store(next)
	return len(fresh), malformed
}

// DefaultFeedEvery is how often Run asks Config.Feed for new puzzles.
const DefaultFeedEvery = time.Minute

// Run adds what Config.Feed gives, at once and then every FeedEvery,
// until ctx ends; without a Feed it returns at once. A feed's error is
// logged, and asked again next time.
func (s *Service) Run(ctx context.Context) {
	if s.feed == nil {
		return
	}
	t := time.NewTicker(s.feedEvery)
	defer t.Stop()
	for {
		ps, err := s.feed(ctx)
		if err != nil && ctx.Err() == nil {
			s.log.Warn("puzzles: the feed of found puzzles", "err", err)
		}
		if n, err := s.Add(ps); err != nil {
			s.log.Warn("puzzles: a found puzzle refused", "err", err)
		} else if n > 0 {
			s.log.Info("puzzles: found puzzles added", "added", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
