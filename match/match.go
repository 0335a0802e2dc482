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
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/record"
	"github.com/arbiter-games/arbiter/timecontrol"
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
	Games   int      // 1 or more
	// Concurrency is how many games run at once (less than 1: one).
	Concurrency int
	Limits      ai.Limits
	// Clock, when On, is a Fischer time control for every seat of every
	// game: each engine is given its clock (and Limits too), and a seat
	// whose time runs out loses on time.
	Clock timecontrol.Control
	Seed  uint64
	// OpeningPlies random plies (0 or more) start every group of games;
	// the group replays the same opening with the seats rotated.
	OpeningPlies int
	// From is the position (FEN, in the game's notation) every game
	// starts from, "" for the game's start; it must be a position where
	// the game goes on.
	From string
	// Openings, when given, are the book the games start from: group g
	// (games g*n to g*n+n-1 for n seats, the seats rotated within it)
	// starts from opening g mod len(Openings), then OpeningPlies random
	// plies. Every opening is thus played once from every seat before
	// any is played again.
	Openings []Opening
	Date     string
}

// Stats is one player's outcome.
type Stats struct {
	Name                 string
	Games                int
	Wins, Draws, Losses  int     // a shared first place counts as a draw
	Points               float64 // a win 1, a loss 0, a shared result the player's share
	TotalPlies, Finished int
	// TimeLosses are the losses on time, counted in Losses too.
	TimeLosses int
	// LeastLeft is the least time the player's clock showed as one of its
	// moves arrived (0 when it played on no clock, or lost every game on
	// time before it moved).
	LeastLeft time.Duration
}

// Score is the player's points per game.
func (s Stats) Score() float64 {
	if s.Games == 0 {
		return 0
	}
	return s.Points / float64(s.Games)
}

// Elo returns the rating difference that the score implies against the
// field, and the ends of its 95% interval. The interval is Wilson's score
// interval, a draw counting as half a win, converted to Elo: unlike a
// margin around the estimate it stays meaningful at the extremes, where a
// perfect score gives diff and hi +Inf but a finite lo. With no games
// every value is NaN.
func (s Stats) Elo() (diff, lo, hi float64) {
	if s.Games == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	pLo, pHi := wilson(s.Score(), float64(s.Games), z95)
	return elo(s.Score()), elo(pLo), elo(pHi)
}

// z95 is the normal quantile of a two-sided 95% interval.
const z95 = 1.959964

// wilson returns Wilson's score interval for a share p of n trials.
func wilson(p, n, z float64) (lo, hi float64) {
	z2 := z * z
	centre := (p + z2/(2*n)) / (1 + z2/n)
	half := z * math.Sqrt(p*(1-p)/n+z2/(4*n*n)) / (1 + z2/n)
	lo, hi = max(centre-half, 0), min(centre+half, 1)
	// At a perfect score one end is exactly 0 or 1; rounding must not
	// turn an unbounded end into a large finite number.
	if p == 1 {
		hi = 1
	}
	if p == 0 {
		lo = 0
	}
	return lo, hi
}

// elo converts an expected score into a rating difference: ±Inf for a
// score of 1 or 0.
func elo(p float64) float64 {
	return -400 * math.Log10(1/p-1)
}

// EloText writes the Elo difference and its interval, "+191 [+120, +275]";
// "+inf" stands for a bound that the games do not limit, and "-" for no
// games.
func (s Stats) EloText() string {
	d, lo, hi := s.Elo()
	if math.IsNaN(d) {
		return "-"
	}
	return fmt.Sprintf("%s [%s, %s]", eloNumber(d), eloNumber(lo), eloNumber(hi))
}

// eloNumber writes a rating difference rounded to a whole number, signed,
// "0" for none (never "-0"), "+inf" or "-inf" when unbounded.
func eloNumber(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	r := math.Round(x)
	if r == 0 {
		return "0"
	}
	return fmt.Sprintf("%+.0f", r)
}

// Summary is the outcome of a match.
type Summary struct {
	Players []Stats
	Games   []*GameLog // in game order
}

// Records are the games of the summary as records, in game order.
func (s Summary) Records() []*record.Record {
	return Records(s.Games)
}

// GameLog is one game of a match as data, for the record writer and the
// lab alike: who sat where, the opening, every search and the result.
type GameLog struct {
	Game  game.Game
	Round int      // 1 for the first game
	Date  string   // the match's Date tag
	From  string   // the FEN the game started from, "" for the start
	Seats []string // the player's name in each seat, in turn order
	// Players[k] is the seat player k of the Config sat in.
	Players []game.Player
	Opening []string // the random plies the game started with
	Moves   []Search // the engines' moves after the opening
	Result  game.Result
	Clock   timecontrol.Control // the match's time control, the zero Control for none
}

// Search is one engine move: the seat that made it, the move, and what
// the search reported.
type Search struct {
	Seat    game.Player
	Move    string
	Score   int // from the mover's point of view, as ai.Info gives it
	Depth   int
	Nodes   int64
	Elapsed time.Duration
	// Left is the time on the mover's clock as the move arrived, before
	// its increment (0 on no clock).
	Left time.Duration
}

// Plies is the length of the game, opening included.
func (l *GameLog) Plies() int { return len(l.Opening) + len(l.Moves) }

// Record writes the game as a record: the seats' names, the opening and
// the moves, each engine move followed by a comment with its score, depth
// and time as match records in the style of PDN do ("+35/7 0.10s").
func (l *GameLog) Record() *record.Record {
	rec := record.New(l.Game, l.From, l.Seats, l.Date)
	rec.Set("Event", "arbiter match")
	rec.Set("Round", fmt.Sprint(l.Round))
	if l.Clock.On() {
		rec.Set("TimeControl", l.Clock.Tag())
	}
	rec.Moves = slices.Clone(l.Opening)
	for _, m := range l.Moves {
		rec.Moves = append(rec.Moves, m.Move)
		rec.Notes = append(rec.Notes, record.Comment(len(rec.Moves), m.comment(l.Clock.On())))
	}
	rec.Finish(l.Result, l.Game)
	return rec
}

// Records writes the games that are over as records, in order, skipping
// the nil entries of games still being played.
func Records(logs []*GameLog) []*record.Record {
	var recs []*record.Record
	for _, l := range logs {
		if l != nil {
			recs = append(recs, l.Record())
		}
	}
	return recs
}

// Run plays the match. done, if not nil, is called (from one goroutine at
// a time) after each game with the games finished so far, in game order
// (nil where a game is still being played), so that they can be saved as
// they come.
func Run(ctx context.Context, cfg Config, done func(games []*GameLog)) (Summary, error) {
	if err := cfg.check(); err != nil {
		return Summary{}, err
	}
	if err := cfg.CheckOpenings(); err != nil {
		return Summary{}, err
	}
	n := cfg.Game.Players()
	sum := Summary{Players: make([]Stats, n), Games: make([]*GameLog, cfg.Games)}
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
				log, err := playOne(ctx, cfg, i)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				if err == nil {
					sum.Games[i] = log
					tally(sum.Players, log)
				}
				if done != nil {
					done(sum.Games)
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

// Play plays game i of the match alone (0 for the first), with the seats
// rotated and the opening chosen as Run does for that game: any share of a
// match's games, played in any order or on another machine, gives the
// same games as Run (the lab's shards rely on it).
func Play(ctx context.Context, cfg Config, i int) (*GameLog, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if i < 0 || i >= cfg.Games {
		return nil, fmt.Errorf("game %d of a match of %d: want 0 to %d", i, cfg.Games, cfg.Games-1)
	}
	return playOne(ctx, cfg, i)
}

// check refuses a configuration that cannot be played.
func (cfg Config) check() error {
	switch n := cfg.Game.Players(); {
	case len(cfg.Players) != n:
		return fmt.Errorf("%s seats %d players; the match has %d", cfg.Game.ID(), n, len(cfg.Players))
	case cfg.Games < 1:
		return fmt.Errorf("a match of %d games: want 1 or more", cfg.Games)
	case cfg.OpeningPlies < 0:
		return fmt.Errorf("an opening of %d plies: want 0 or more", cfg.OpeningPlies)
	}
	if err := checkClock(cfg.Clock); err != nil {
		return fmt.Errorf("clock %s: %w", cfg.Clock, err)
	}
	_, err := cfg.Start()
	return err
}

// CheckOpenings refuses a book with a line that gives no game to play.
// Run checks the whole book before its first game; Play checks only the
// line its game starts from, so that a share of a match played game by
// game does not replay a large book for every game.
func (cfg Config) CheckOpenings() error {
	for k := range cfg.Openings {
		if _, _, err := cfg.bookLine(k); err != nil {
			return err
		}
	}
	return nil
}

// bookLine is the position book line k starts a game from, the FEN its
// record gives and the line's moves, or why the line gives no game.
func (cfg Config) bookLine(k int) (game.State, string, error) {
	o := cfg.Openings[k]
	s, from, err := cfg.startOf(o)
	if err == nil && s.Result().Over() {
		err = fmt.Errorf("the game is over after it")
	}
	if err != nil {
		return nil, "", fmt.Errorf("opening %d (%s): %w", k+1, clip.Quote(o.Text()), err)
	}
	return s, from, nil
}

// Start is the position every game starts from: the game's start, or
// From, which must parse and leave a game to play.
func (cfg Config) Start() (game.State, error) {
	if cfg.From == "" {
		return cfg.Game.Start(), nil
	}
	s, err := cfg.Game.ParseFEN(cfg.From)
	if err != nil {
		return nil, err
	}
	if r := s.Result(); r.Over() {
		return nil, fmt.Errorf("the game is over in %s (%s): give a position with a move to play", clip.Quote(cfg.From), r.Describe(cfg.Game))
	}
	return s, nil
}

// playOne plays game i: opening i/n, seats rotated by i%n.
func playOne(ctx context.Context, cfg Config, i int) (*GameLog, error) {
	n := cfg.Game.Players()
	s, from, opening, err := openingFor(cfg, i/n)
	if err != nil {
		return nil, err
	}
	log := &GameLog{Game: cfg.Game, Round: i + 1, Date: cfg.Date, From: from, Seats: make([]string, n),
		Players: make([]game.Player, n), Opening: opening}
	seats := make([]ai.Engine, n)
	defer func() {
		for _, e := range seats {
			if c, ok := e.(io.Closer); ok {
				c.Close()
			}
		}
	}()
	for k, p := range cfg.Players {
		seat := (k + i) % n
		e, err := p.New(cfg.Seed + uint64(i)*7919 + uint64(k))
		if err != nil {
			return nil, fmt.Errorf("player %s: %w", p.Name, err)
		}
		seats[seat], log.Seats[seat], log.Players[k] = e, p.Name, game.Player(seat)
	}
	mover := s.ToMove()
	played, lefts, res, err := cfg.play(ctx, s, seats)
	if err != nil {
		return nil, err
	}
	for k, info := range played {
		m := Search{Seat: mover, Move: info.Move.Text(cfg.Game.Board()),
			Score: info.Score, Depth: info.Depth, Nodes: info.Nodes, Elapsed: info.Elapsed}
		if k < len(lefts) {
			m.Left = lefts[k]
		}
		log.Moves = append(log.Moves, m)
		mover = (mover + 1) % game.Player(n)
	}
	log.Result, log.Clock = res, cfg.Clock
	return log, nil
}

// play plays s to its end, on the match's clock if it has one, and
// returns the searches, the clock as each move arrived (none without a
// clock) and the result.
func (cfg Config) play(ctx context.Context, s game.State, seats []ai.Engine) ([]ai.Info, []time.Duration, game.Result, error) {
	if cfg.Clock.On() {
		return playClocked(ctx, s, seats, cfg.Limits, cfg.Clock)
	}
	played, err := ai.PlayGame(ctx, s, seats, cfg.Limits)
	return played, nil, s.Result(), err
}

// comment says what the engine thought of its move, as match records in
// the style of PDN do: score/depth and the time taken, "+35/7 0.10s"
// ("+35 0.10s" from an engine that reports no depth), and on a clock
// what the mover's clock showed as the move arrived, as PGN's %clk does:
// "+35/7 0.10s [%clk 0:00:00.950]".
func (m Search) comment(clocked bool) string {
	text := ai.ScoreText(m.Score)
	if m.Depth > 0 {
		text += fmt.Sprintf("/%d", m.Depth)
	}
	text = fmt.Sprintf("%s %.2fs", text, m.Elapsed.Seconds())
	if clocked {
		text += " [%clk " + clockText(m.Left) + "]"
	}
	return text
}

// openingFor plays the opening of group g: the book's line g mod its
// length, if there is a book, then the random plies; a game that would
// end inside its random plies gets fewer. It returns the position, the
// FEN the game's record starts from and the opening's moves.
func openingFor(cfg Config, g int) (game.State, string, []string, error) {
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(g)+1))
	for plies := cfg.OpeningPlies; ; plies-- {
		s, from, texts, err := bookStart(cfg, g)
		if err != nil {
			return nil, "", nil, err
		}
		for k := 0; k < plies && !s.Result().Over(); k++ {
			m, text := drawMove(rng, s.Moves(nil), cfg.Game.Board())
			texts = append(texts, text)
			s.Play(m)
		}
		if !s.Result().Over() || plies == 0 {
			return s, from, texts, nil
		}
	}
}

// drawMove draws one of moves at random, and gives its text. It draws
// from the moves in canonical order (CanonicalMoves), not in the order
// the game generated them, so that a seed gives the same openings in
// builds whose move generation orders the moves otherwise.
func drawMove(rng *rand.Rand, moves []game.Move, b *board.Board) (game.Move, string) {
	sorted, texts := CanonicalMoves(moves, b)
	k := rng.IntN(len(sorted))
	return sorted[k], texts[k]
}

// CanonicalMoves sorts moves by their text, giving the texts too: an
// order that does not depend on how the game generates them.
func CanonicalMoves(moves []game.Move, b *board.Board) ([]game.Move, []string) {
	idx := make([]int, len(moves))
	texts := make([]string, len(moves))
	for i, m := range moves {
		idx[i], texts[i] = i, m.Text(b)
	}
	slices.SortStableFunc(idx, func(x, y int) int { return strings.Compare(texts[x], texts[y]) })
	sortedMoves := make([]game.Move, len(moves))
	sortedTexts := make([]string, len(moves))
	for k, i := range idx {
		sortedMoves[k], sortedTexts[k] = moves[i], texts[i]
	}
	return sortedMoves, sortedTexts
}

// bookStart is where group g starts before its random plies: the book's
// line for it, or the match's start.
func bookStart(cfg Config, g int) (game.State, string, []string, error) {
	if len(cfg.Openings) == 0 {
		s, err := cfg.Start()
		return s, cfg.From, nil, err
	}
	k := g % len(cfg.Openings)
	s, from, err := cfg.bookLine(k)
	if err != nil {
		return nil, "", nil, err
	}
	return s, from, slices.Clone(cfg.Openings[k].Moves), nil
}

// tally adds one game's result to every player's stats.
func tally(stats []Stats, l *GameLog) {
	r, n, plies := l.Result, len(stats), l.Plies()
	for k := range stats {
		st := &stats[k]
		st.Games++
		st.TotalPlies += plies
		seat := l.Players[k]
		pts := Share(r, seat, n)
		switch {
		case pts == 1:
			st.Wins++
		case pts > 0:
			st.Draws++
		default:
			st.Losses++
			if r.Reason == game.TimeForfeit {
				st.TimeLosses++
			}
		}
		if r.Reason != game.PlyCap && r.Reason != game.Repetition {
			st.Finished++
		}
		st.Points += pts
		st.LeastLeft = leastLeft(st.LeastLeft, l.Moves, seat)
	}
}

// Share is a seat's share of the point of a finished game of n players:
// 1 for a win alone, 1/w for a first place shared by w winners, 1/n for a
// game that nobody won (a draw of all), 0 for a loss. The match table
// and the sequential test score games by it alike.
func Share(r game.Result, seat game.Player, n int) float64 {
	places := r.Places(n)
	if places[seat] != 1 {
		return 0
	}
	first := 0
	for _, place := range places {
		if place == 1 {
			first++
		}
	}
	return 1 / float64(first)
}

// leastLeft is the least of least (0: none yet) and the clock readings of
// seat's moves.
func leastLeft(least time.Duration, moves []Search, seat game.Player) time.Duration {
	for _, m := range moves {
		if m.Seat == seat && m.Left > 0 && (least == 0 || m.Left < least) {
			least = m.Left
		}
	}
	return least
}

// Distinct are the games of the summary with every game that repeats an
// earlier one left out: the same start, the same players in the same
// seats and the same moves make the same game, and a game played again
// adds no evidence. Games still being played (nil) are skipped.
func (s Summary) Distinct() []*GameLog {
	seen := map[string]bool{}
	var out []*GameLog
	for _, l := range s.Games {
		if l == nil {
			continue
		}
		key := l.identity()
		if !seen[key] {
			seen[key] = true
			out = append(out, l)
		}
	}
	return out
}

// identity is what makes a game the game it is: its start, who sat where
// and every move.
func (l *GameLog) identity() string {
	var b strings.Builder
	b.WriteString(l.From)
	for _, part := range [][]string{l.Seats, l.Opening} {
		b.WriteString("|" + strings.Join(part, " "))
	}
	b.WriteString("|")
	for _, m := range l.Moves {
		b.WriteString(m.Move + " ")
	}
	return b.String()
}

// distinctStats are the players' stats over the distinct games alone.
func (s Summary) distinctStats() []Stats {
	stats := make([]Stats, len(s.Players))
	for k := range stats {
		stats[k].Name = s.Players[k].Name
	}
	for _, l := range s.Distinct() {
		tally(stats, l)
	}
	return stats
}

// RepeatWarning is a line that warns when some games repeat an earlier
// one, "" when none does.
func (s Summary) RepeatWarning() string {
	played, distinct := 0, len(s.Distinct())
	for _, l := range s.Games {
		if l != nil {
			played++
		}
	}
	if distinct >= played {
		return ""
	}
	return fmt.Sprintf("warning: %d of the %d games repeat an earlier game move for move; the score and Elo count "+
		"each distinct game once (n = %d; vary the games with --opening or --openings, or engines that choose at random)",
		played-distinct, played, distinct)
}

// Table writes the summary as a table, one line per player: the games,
// wins, draws and losses as played, and the score and (two players) each
// one's Elo difference against the other with its 95% interval (see Elo)
// over the distinct games (n), since a game repeated move for move is no
// new evidence. With more players a first place shared with another is
// not a draw, so that column is called "shared" (it counts draws too).
func (s Summary) Table() string {
	drawn := "draws"
	if len(s.Players) > 2 {
		drawn = "shared"
	}
	distinct := s.distinctStats()
	out := fmt.Sprintf("%-24s %6s %6s %6s %6s %6s %7s  %s\n", "player", "games", "wins", drawn, "losses", "n", "score", "Elo [95% interval]")
	for k, p := range s.Players {
		d := distinct[k]
		eloText := "-"
		if len(s.Players) == 2 {
			eloText = d.EloText()
		}
		out += fmt.Sprintf("%-24s %6d %6d %6d %6d %6d %6.1f%%  %s\n", p.Name, p.Games, p.Wins, p.Draws, p.Losses, d.Games, 100*d.Score(), eloText)
	}
	if len(s.Players) > 0 && s.Players[0].Games > 0 {
		out += fmt.Sprintf("average length %.1f plies\n", float64(s.Players[0].TotalPlies)/float64(s.Players[0].Games))
	}
	out += "score and Elo over n, the distinct games\n"
	names := make([]string, len(s.Players))
	for k, p := range s.Players {
		names[k] = p.Name
	}
	out += ClockReport(names, s.Games)
	if w := s.RepeatWarning(); w != "" {
		out += w + "\n"
	}
	return out
}
