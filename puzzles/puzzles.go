// Package puzzles is the service of the puzzles: the shipped sets (one
// file per game id, embedded, every puzzle checked against its game's
// rules when the service starts), the choice of a caller's next puzzle,
// and the Glicko-2 puzzle ratings, both the players' and the puzzles'
// own, which a signed-in account's first attempt at a puzzle changes
// once, in one transaction of the store (docs/puzzles.md).
//
// It knows no HTTP: a transport passes in who asks (an account id, or
// the rating a signed-out browser keeps) and maps the service's
// refusals (*Error, by Code) to its own answers.
package puzzles

import (
	"context"
	"io/fs"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/account"
	"github.com/arbiter-games/arbiter/puzzle"
	"github.com/arbiter-games/arbiter/store"
)

// Store is what the service keeps in a store: store.Store has it.
type Store interface {
	PuzzleRatings(ctx context.Context, account string) ([]store.PuzzleRating, error)
	PuzzleStates(ctx context.Context, game string) ([]store.PuzzleState, error)
	AttemptedPuzzles(ctx context.Context, account, game string) ([]string, error)
	RecordPuzzleAttempt(ctx context.Context, a store.PuzzleAttempt, rate store.PuzzleRater) (store.PuzzleOutcome, error)
}

// DefaultAttemptsPerHour bounds an account's attempts, rated or not: far
// more than a person solves (one every six seconds), few enough that a
// script cannot sweep the sets.
const DefaultAttemptsPerHour = 600

// Config is what a Service runs with.
type Config struct {
	Store Store
	// Sets holds the puzzle sets, ID.jsonl (nil: Shipped()).
	Sets fs.FS
	// AttemptsPerHour bounds each account's attempts (0:
	// DefaultAttemptsPerHour).
	AttemptsPerHour int
	// Random gives a number in [0, n) for the choice's jitter (nil:
	// math/rand/v2's); tests make it fixed.
	Random func(n int) int
	// Now is the clock (nil: time.Now).
	Now func() time.Time
}

// Service is the puzzle service. Make one with New; it is safe for
// concurrent use.
type Service struct {
	store    Store
	sets     map[string]*set
	ids      map[string]*puzzle.Puzzle
	attempts *account.Budget
	random   func(n int) int
	now      func() time.Time
}

// budgetKeys bounds the accounts whose hourly attempts are remembered.
const budgetKeys = 100_000

// New loads and checks the sets and makes the service.
func New(cfg Config) (*Service, error) {
	fsys := cfg.Sets
	if fsys == nil {
		fsys = Shipped()
	}
	sets, err := loadSets(fsys)
	if err != nil {
		return nil, err
	}
	perHour := cfg.AttemptsPerHour
	if perHour <= 0 {
		perHour = DefaultAttemptsPerHour
	}
	s := &Service{store: cfg.Store, sets: sets, ids: map[string]*puzzle.Puzzle{}, random: cfg.Random, now: cfg.Now,
		attempts: account.NewBudget(account.BudgetConfig{Burst: perHour, Every: time.Hour / time.Duration(perHour), MaxKeys: budgetKeys})}
	for _, st := range sets {
		for i := range st.puzzles {
			s.ids[st.puzzles[i].ID] = &st.puzzles[i]
		}
	}
	if s.random == nil {
		s.random = rand.IntN
	}
	if s.now == nil {
		s.now = time.Now
	}
	return s, nil
}

// ThemeCount is how many puzzles of a set have a theme.
type ThemeCount struct {
	Theme string
	Count int
}

// Set is one game's set as a list shows it, with the caller's rating in
// it (nil for a signed-out caller, or an account with none yet).
type Set struct {
	Game   string
	Name   string
	Count  int
	Themes []ThemeCount
	Player *Player
}

// Player is a caller's puzzle rating in one game.
type Player struct {
	Rating
	Attempts    int
	Provisional bool
}

// Sets lists the sets by game id, with account's ratings ("" for a
// signed-out caller).
func (s *Service) Sets(ctx context.Context, accountID string) ([]Set, error) {
	mine := map[string]store.PuzzleRating{}
	if accountID != "" {
		list, err := s.store.PuzzleRatings(ctx, accountID)
		if err != nil {
			return nil, err
		}
		for _, r := range list {
			mine[r.Game] = r
		}
	}
	var out []Set
	for _, id := range s.gameIDs() {
		st := s.sets[id]
		x := Set{Game: id, Name: st.game.Name, Count: len(st.puzzles), Themes: themeCounts(st.themes)}
		if r, ok := mine[id]; ok {
			x.Player = playerOf(r)
		}
		out = append(out, x)
	}
	return out, nil
}

func (s *Service) gameIDs() []string {
	ids := make([]string, 0, len(s.sets))
	for id := range s.sets {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids
}

// themeCounts lists a set's themes, the most common first.
func themeCounts(m map[string]int) []ThemeCount {
	list := make([]ThemeCount, 0, len(m))
	for t, n := range m {
		list = append(list, ThemeCount{Theme: t, Count: n})
	}
	slices.SortFunc(list, func(a, b ThemeCount) int {
		if a.Count != b.Count {
			return b.Count - a.Count
		}
		if a.Theme < b.Theme {
			return -1
		}
		return 1
	})
	return list
}
