// Package match plays engines against each other: seats rotated, openings
// varied by a few random plies that every seat order replays, games run
// concurrently, every game kept as a record, and the outcome summed up per
// player with an Elo difference and its 95% interval.
package match

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/record"
)

// Player is one contestant: a name for the table and the records, and a
// way to make a fresh engine for each game.
type Player struct {
	Name string
	New  func(seed uint64) (ai.Engine, error)
}

// Config describes a match.
type Config struct {
	Game    game.Game
	Players []Player // one per seat of the game
	Games   int
	// Concurrency is how many games run at once.
	Concurrency int
	Limits      ai.Limits
	Seed        uint64
	// OpeningPlies random plies start every group of games; the group
	// replays the same opening with the seats rotated.
	OpeningPlies int
	Date         string
}

// Stats is one player's outcome.
type Stats struct {
	Name                 string
	Games                int
	Wins, Draws, Losses  int     // a shared first place counts as a draw
	Points               float64 // a win 1, a loss 0, a shared result the player's share
	points2              float64 // sum of squared points, for the interval
	TotalPlies, Finished int
}

// Score is the player's points per game.
func (s Stats) Score() float64 {
	if s.Games == 0 {
		return 0
	}
	return s.Points / float64(s.Games)
}

// Elo returns the rating difference that the score implies against the
// field, and the half-width of its 95% interval.
func (s Stats) Elo() (diff, margin float64) {
	if s.Games == 0 {
		return 0, 0
	}
	n := float64(s.Games)
	p := s.Score()
	variance := s.points2/n - p*p
	se := math.Sqrt(max(variance, 0) / n)
	lo, hi := elo(p-1.96*se), elo(p+1.96*se)
	return elo(p), (hi - lo) / 2
}

// elo converts an expected score into a rating difference, clamped so that
// a perfect score gives a large finite number.
func elo(p float64) float64 {
	p = min(max(p, 0.001), 0.999)
	return -400 * math.Log10(1/p-1)
}

// Summary is the outcome of a match.
type Summary struct {
	Players []Stats
	Records []*record.Record // in game order
}

// Run plays the match. done, if not nil, is called (from one goroutine at
// a time) after each game with the games finished so far, in game order
// (nil where a game is still being played), so that they can be saved as
// they come.
func Run(ctx context.Context, cfg Config, done func(records []*record.Record)) (Summary, error) {
	n := cfg.Game.Players()
	if len(cfg.Players) != n {
		return Summary{}, fmt.Errorf("%s seats %d players; the match has %d", cfg.Game.ID(), n, len(cfg.Players))
	}
	sum := Summary{Players: make([]Stats, n), Records: make([]*record.Record, cfg.Games)}
	for i, p := range cfg.Players {
		sum.Players[i].Name = p.Name
	}
	jobs := make(chan int)
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	for w := 0; w < max(cfg.Concurrency, 1); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				rec, res, seatOf, err := playOne(ctx, cfg, i)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if err == nil {
					sum.Records[i] = rec
					tally(sum.Players, res, seatOf, len(rec.Moves))
				}
				if done != nil {
					done(sum.Records)
				}
				mu.Unlock()
			}
		}()
	}
	for i := 0; i < cfg.Games && ctx.Err() == nil; i++ {
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if stop {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	return sum, firstErr
}

// playOne plays game i: opening i/n, seats rotated by i%n. seatOf[k] is
// the seat player k had.
func playOne(ctx context.Context, cfg Config, i int) (*record.Record, game.Result, []game.Player, error) {
	n := cfg.Game.Players()
	s, opening := openingFor(cfg, i/n)
	seats := make([]ai.Engine, n)
	names := make([]string, n)
	seatOf := make([]game.Player, n)
	for k, p := range cfg.Players {
		seat := (k + i) % n
		e, err := p.New(cfg.Seed + uint64(i)*7919 + uint64(k))
		if err != nil {
			return nil, game.Result{}, nil, fmt.Errorf("player %s: %w", p.Name, err)
		}
		seats[seat], names[seat], seatOf[k] = e, p.Name, game.Player(seat)
	}
	rec := record.New(cfg.Game, "", names, cfg.Date)
	rec.Set("Event", "arbiter match")
	rec.Set("Round", fmt.Sprint(i+1))
	rec.Moves = opening
	defer func() {
		for _, e := range seats {
			if c, ok := e.(io.Closer); ok {
				c.Close()
			}
		}
	}()
	played, err := ai.PlayGame(ctx, s, seats, cfg.Limits)
	if err != nil {
		return nil, game.Result{}, nil, err
	}
	for _, info := range played {
		rec.Moves = append(rec.Moves, info.Move.Text(cfg.Game.Board()))
		rec.Notes = append(rec.Notes, record.Comment(len(rec.Moves), searchComment(info)))
	}
	res := s.Result()
	rec.Finish(res, cfg.Game)
	return rec, res, seatOf, nil
}

// searchComment says what the engine thought of its move, as match records
// in the style of PDN do: score/depth and the time taken, "+35/7 0.10s"
// ("+35 0.10s" from an engine that reports no depth).
func searchComment(info ai.Info) string {
	text := ai.ScoreText(info.Score)
	if info.Depth > 0 {
		text += fmt.Sprintf("/%d", info.Depth)
	}
	return fmt.Sprintf("%s %.2fs", text, info.Elapsed.Seconds())
}

// openingFor plays the random opening of group g; a game that would end
// inside its opening gets a shorter one.
func openingFor(cfg Config, g int) (game.State, []string) {
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(g)+1))
	for plies := cfg.OpeningPlies; ; plies-- {
		s := cfg.Game.Start()
		var texts []string
		for k := 0; k < plies && !s.Result().Over(); k++ {
			moves := s.Moves(nil)
			m := moves[rng.IntN(len(moves))]
			texts = append(texts, m.Text(cfg.Game.Board()))
			s.Play(m)
		}
		if !s.Result().Over() || plies == 0 {
			return s, texts
		}
	}
}

// tally adds one game's result to every player's stats.
func tally(stats []Stats, r game.Result, seatOf []game.Player, plies int) {
	n := len(stats)
	winners := r.Winners.Len()
	for k := range stats {
		st := &stats[k]
		st.Games++
		st.TotalPlies += plies
		seat := seatOf[k]
		var pts float64
		switch {
		case winners == 0:
			st.Draws++
			pts = 1 / float64(n)
		case r.Winners.Has(seat) && winners == 1:
			st.Wins++
			pts = 1
		case r.Winners.Has(seat):
			st.Draws++
			pts = 1 / float64(winners)
		default:
			st.Losses++
		}
		if r.Reason != game.PlyCap && r.Reason != game.Repetition {
			st.Finished++
		}
		st.Points += pts
		st.points2 += pts * pts
	}
}

// Table writes the summary as a table, one line per player; with two
// players, each one's Elo difference against the other with its 95%
// interval. With more players a first place shared with another is not a
// draw, so that column is called "shared" (it counts draws too).
func (s Summary) Table() string {
	drawn := "draws"
	if len(s.Players) > 2 {
		drawn = "shared"
	}
	out := fmt.Sprintf("%-24s %6s %6s %6s %6s %7s %12s\n", "player", "games", "wins", drawn, "losses", "score", "Elo (95%)")
	for _, p := range s.Players {
		eloText := "-"
		if len(s.Players) == 2 {
			d, m := p.Elo()
			eloText = fmt.Sprintf("%+.0f ± %.0f", d, m)
		}
		out += fmt.Sprintf("%-24s %6d %6d %6d %6d %6.1f%% %12s\n", p.Name, p.Games, p.Wins, p.Draws, p.Losses, 100*p.Score(), eloText)
	}
	if len(s.Players) > 0 && s.Players[0].Games > 0 {
		out += fmt.Sprintf("average length %.1f plies\n", float64(s.Players[0].TotalPlies)/float64(s.Players[0].Games))
	}
	return out
}
