package puzzles

import (
	"context"
	"math"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/puzzle"
	"github.com/arbiter-games/arbiter/store"
)

// The choice's constants.
const (
	// Jitter is how far, either way, the target of a choice moves at
	// random from the caller's rating, so that two asks in a row do not
	// give the same puzzle.
	Jitter = 75
	// StreakSteps is how many streak steps climb from the lowest-rated
	// puzzle to the highest: streak n takes its puzzle from the n-th of
	// that many bands of the set sorted by rating.
	StreakSteps = 30
	// MaxStreak bounds the streak a client may name.
	MaxStreak = 10_000
	// siteSource starts a puzzle's Source when it came from a game of
	// this site: "site game ID".
	siteSource = "site game "
)

// Puzzle is a puzzle as a caller gets it: the fields of RULINGS section
// 10, with the puzzle's rating as players moved it, and where it came
// from.
type Puzzle struct {
	ID       string
	Game     string
	FEN      string
	Solution []string
	Themes   []string
	// Rating is the puzzle's current rating, RD its deviation; Start
	// the generator's rating it began at.
	Rating float64
	RD     float64
	Start  int
	// Plays counts rated attempts, Solved those that solved it.
	Plays, Solved int
	Source        string
	// SourceGame is the id of the site's game the position came from,
	// "" for self-play.
	SourceGame string
	Ply        int
	Table      string
}

// Query says which puzzle a caller asks for.
type Query struct {
	Game string
	// ID, when not "", is the puzzle asked for (a link); the other
	// fields are then ignored.
	ID string
	// Theme, when not "", keeps the puzzles that have it.
	Theme string
	// Account is the signed-in caller's id, "" for a signed-out one.
	Account string
	// Rating is a signed-out caller's rating, for choosing (nil: a new
	// player's).
	Rating *float64
	// Streak, when not nil, chooses for streak mode: the puzzle for a
	// streak of that many solved so far.
	Streak *int
}

// Next chooses the caller's puzzle, and gives their rating in its game
// (nil for a signed-out caller).
func (s *Service) Next(ctx context.Context, q Query) (Puzzle, *Player, error) {
	st, ok := s.sets[q.Game]
	if !ok {
		return Puzzle{}, nil, refuse(NotFound, "no puzzles for game %s; games: %s", quoted(q.Game), strings.Join(s.gameIDs(), ", "))
	}
	if err := s.checkQuery(st, q); err != nil {
		return Puzzle{}, nil, err
	}
	var pl *Player
	if q.Account != "" {
		var err error
		if pl, err = s.playerIn(ctx, q.Account, q.Game); err != nil {
			return Puzzle{}, nil, err
		}
	}
	states, err := s.states(ctx, q.Game)
	if err != nil {
		return Puzzle{}, nil, err
	}
	if q.ID != "" {
		p, err := s.puzzle(q.ID)
		if err != nil || p.Game != q.Game {
			return Puzzle{}, nil, refuse(NotFound, "no puzzle %s in game %s", quoted(q.ID), q.Game)
		}
		return view(p, stateOr(states, p)), pl, nil
	}
	cands := candidates(st, q.Theme, states)
	var p *puzzle.Puzzle
	if q.Streak != nil {
		p = s.streakPick(cands, *q.Streak)
	} else if p, err = s.ratedPick(ctx, q, pl, cands); err != nil {
		return Puzzle{}, nil, err
	}
	return view(p, stateOr(states, p)), pl, nil
}

// checkQuery refuses a theme the set does not have, a rating no player
// has and a streak out of bounds.
func (s *Service) checkQuery(st *set, q Query) error {
	if q.Theme != "" && st.themes[q.Theme] == 0 {
		return refuse(Invalid, "no puzzle of %s has the theme %s; its themes: %s", q.Game, quoted(q.Theme), themeList(st))
	}
	if q.Rating != nil {
		r := *q.Rating
		if math.IsNaN(r) || r < 0 || r > maxRating {
			return refuse(Invalid, "rating %g: want a number from 0 to %d", r, maxRating)
		}
	}
	if q.Streak != nil && (*q.Streak < 0 || *q.Streak > MaxStreak) {
		return refuse(Invalid, "streak %d: want 0 to %d", *q.Streak, MaxStreak)
	}
	return nil
}

func themeList(st *set) string {
	var names []string
	for _, t := range themeCounts(st.themes) {
		names = append(names, t.Theme)
	}
	return strings.Join(names, ", ")
}

// candidate is a puzzle with its current rating.
type candidate struct {
	p      *puzzle.Puzzle
	rating float64
}

// candidates are the set's puzzles with the theme ("" for any), sorted
// by current rating, then id.
func candidates(st *set, theme string, states map[string]store.PuzzleState) []candidate {
	var list []candidate
	for i := range st.puzzles {
		p := &st.puzzles[i]
		if theme == "" || slices.Contains(p.Themes, theme) {
			list = append(list, candidate{p, stateOr(states, p).Rating})
		}
	}
	slices.SortFunc(list, func(a, b candidate) int {
		if a.rating != b.rating {
			if a.rating < b.rating {
				return -1
			}
			return 1
		}
		return strings.Compare(a.p.ID, b.p.ID)
	})
	return list
}

// streakPick takes the puzzle of streak n: a random one of the n-th band
// of the sorted candidates, the last band once n is past the top.
func (s *Service) streakPick(cands []candidate, n int) *puzzle.Puzzle {
	band := max(1, len(cands)/StreakSteps)
	i := min(n*band+s.random(band), len(cands)-1)
	return cands[i].p
}

// ratedPick takes the puzzle nearest the caller's rating moved by the
// jitter, among those the account has not attempted; once it has
// attempted every one, among all (its later attempts are unrated).
func (s *Service) ratedPick(ctx context.Context, q Query, pl *Player, cands []candidate) (*puzzle.Puzzle, error) {
	target := NewPlayer().Rating
	switch {
	case pl != nil:
		target = pl.Rating.Rating
	case q.Account == "" && q.Rating != nil:
		target = *q.Rating
	}
	target += float64(s.random(2*Jitter+1) - Jitter)
	fresh := cands
	if q.Account != "" {
		done, err := s.store.AttemptedPuzzles(ctx, q.Account, q.Game)
		if err != nil {
			return nil, err
		}
		fresh = slices.DeleteFunc(slices.Clone(cands), func(c candidate) bool { _, seen := slices.BinarySearch(done, c.p.ID); return seen })
		if len(fresh) == 0 {
			fresh = cands
		}
	}
	best := fresh[0]
	for _, c := range fresh[1:] {
		if math.Abs(c.rating-target) < math.Abs(best.rating-target) {
			best = c
		}
	}
	return best.p, nil
}

// puzzle finds a puzzle by id.
func (s *Service) puzzle(id string) (*puzzle.Puzzle, error) {
	if p, ok := s.ids[id]; ok {
		return p, nil
	}
	return nil, refuse(NotFound, "no puzzle has the id %s", quoted(id))
}

// states reads a game's stored puzzle ratings, by puzzle id.
func (s *Service) states(ctx context.Context, gameID string) (map[string]store.PuzzleState, error) {
	list, err := s.store.PuzzleStates(ctx, gameID)
	if err != nil {
		return nil, err
	}
	m := make(map[string]store.PuzzleState, len(list))
	for _, x := range list {
		m[x.ID] = x
	}
	return m, nil
}

// stateOf is one puzzle's rating as it stands.
func (s *Service) stateOf(ctx context.Context, gameID, id string) (store.PuzzleState, error) {
	states, err := s.states(ctx, gameID)
	if err != nil {
		return store.PuzzleState{}, err
	}
	return stateOr(states, s.ids[id]), nil
}

// stateOr is p's stored state, or its start: the generator's rating at
// PuzzleStartRD, unplayed.
func stateOr(states map[string]store.PuzzleState, p *puzzle.Puzzle) store.PuzzleState {
	if x, ok := states[p.ID]; ok {
		return x
	}
	return store.PuzzleState{ID: p.ID, Game: p.Game, Rating: float64(p.Rating), RD: PuzzleStartRD, Volatility: NewPlayer().Volatility}
}

// playerIn is the account's puzzle rating in a game, nil for none yet.
func (s *Service) playerIn(ctx context.Context, accountID, gameID string) (*Player, error) {
	list, err := s.store.PuzzleRatings(ctx, accountID)
	if err != nil {
		return nil, err
	}
	for _, r := range list {
		if r.Game == gameID {
			return playerOf(r), nil
		}
	}
	return nil, nil
}

func view(p *puzzle.Puzzle, st store.PuzzleState) Puzzle {
	v := Puzzle{ID: p.ID, Game: p.Game, FEN: p.FEN, Solution: slices.Clone(p.Solution), Themes: slices.Clone(p.Themes),
		Rating: st.Rating, RD: st.RD, Start: p.Rating, Plays: st.Plays, Solved: st.Solved, Source: p.Source, Ply: p.Ply, Table: p.Table}
	if id, ok := strings.CutPrefix(p.Source, siteSource); ok {
		v.SourceGame = id
	}
	if v.Themes == nil {
		v.Themes = []string{}
	}
	return v
}

// quoted is a client's text as a refusal shows it: at most 80
// characters, quoted.
func quoted(s string) string { return clip.Quote(s) }
