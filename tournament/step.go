package tournament

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/timecontrol"
	"github.com/arbiter-games/arbiter/tournament/pairing"
)

// Step is one pass over the tournaments: it starts those whose time
// came, writes the results of the games that ended, makes the games a
// crash left unmade, pairs the next round of every Swiss and round-robin
// whose round is over and every free player of every arena, and ends the
// tournaments that are done. Every decision is the store's transaction,
// so any number of servers may step the same tournaments at once. Run
// calls it; tests call it to move on without waiting for a tick.
func (s *Service) Step(ctx context.Context) error {
	var errs []error
	due, err := s.store.ListTournaments(ctx, store.TournamentFilter{State: store.TournamentCreated, Limit: maxRunning})
	if err != nil {
		return err
	}
	now := s.now()
	for _, t := range due {
		if t.Starts.IsZero() || t.Starts.After(now) {
			continue
		}
		if err := s.start(ctx, t); err != nil {
			var refusal *Error
			if !errors.As(err, &refusal) {
				errs = append(errs, err)
				continue
			}
			// Too few players at its time: it starts and ends at once.
			if err := s.store.StartTournament(ctx, t.ID, now); err == nil {
				errs = append(errs, s.store.FinishTournament(ctx, t.ID, now))
			}
		}
	}
	running, err := s.store.ListTournaments(ctx, store.TournamentFilter{State: store.TournamentRunning, Limit: maxRunning})
	if err != nil {
		return err
	}
	for _, t := range running {
		if err := s.advance(ctx, t); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// state is a tournament as one pass reads it.
type state struct {
	t       store.Tournament
	players []store.TournamentPlayer
	games   []store.TournamentGame
	seats   int // a game's seats
}

func (s *Service) read(ctx context.Context, t store.Tournament) (*state, error) {
	st := &state{t: t}
	var err error
	if st.players, err = s.store.TournamentPlayers(ctx, t.ID); err != nil {
		return nil, err
	}
	if st.games, err = s.store.TournamentGames(ctx, t.ID); err != nil {
		return nil, err
	}
	rules, err := game.New(t.Game, t.Options)
	if err != nil {
		return nil, err
	}
	st.seats = rules.Players()
	return st, nil
}

// advance moves one running tournament on.
func (s *Service) advance(ctx context.Context, t store.Tournament) error {
	st, err := s.read(ctx, t)
	if err != nil {
		return err
	}
	if err := s.results(ctx, st); err != nil {
		return err
	}
	if t.Kind == Arena {
		if !s.now().Before(arenaEnd(t)) {
			return s.finishArena(ctx, st)
		}
		return s.pairArena(ctx, st)
	}
	for _, g := range st.games {
		if g.Round == t.Round && !g.Ended {
			return nil
		}
	}
	total := t.Rounds
	if t.Kind == RoundRobin {
		total = len(roundRobinPlayers(st))
		if total%2 == 0 {
			total--
		}
	}
	if t.Round >= total {
		return s.finish(ctx, t)
	}
	return s.pairRound(ctx, st)
}

// arenaEnd is when an arena stops pairing; a game ending after it does
// not count.
func arenaEnd(t store.Tournament) time.Time {
	return t.Started.Add(time.Duration(t.Minutes) * time.Minute)
}

// finishArena ends an arena whose time is up: the games still in play
// count for nothing (their result, once they end, would come after the
// arena's end), so they are written as such, and the table and the
// pages show them ended rather than going on forever; the games
// themselves play on, outside the tournament.
func (s *Service) finishArena(ctx context.Context, st *state) error {
	end := arenaEnd(st.t)
	for _, g := range st.games {
		if g.Ended {
			continue
		}
		g.Ended, g.Places, g.Finished = true, []int{}, end
		if _, err := s.store.EndTournamentGame(ctx, g, nil); err != nil {
			return err
		}
	}
	return s.finish(ctx, st.t)
}

func (s *Service) finish(ctx context.Context, t store.Tournament) error {
	err := s.store.FinishTournament(ctx, t.ID, s.now())
	if errors.Is(err, store.ErrConflict) {
		return nil // finished by another server
	}
	if err == nil {
		s.log.Info("tournament finished", "tournament", t.ID)
		s.changed(t.ID)
	}
	return err
}

// results writes the result of every game of st that ended, and makes
// every game of st the store does not have (paired, then cut short
// before it was made).
func (s *Service) results(ctx context.Context, st *state) error {
	var ids []string
	for _, g := range st.games {
		if !g.Ended && g.Game != "" {
			ids = append(ids, g.Game)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	headers, err := s.store.List(ctx, store.Filter{IDs: ids, Limit: len(ids)})
	if err != nil {
		return err
	}
	byID := map[string]store.Header{}
	for _, h := range headers {
		byID[h.ID] = h
	}
	for i := range st.games {
		g := &st.games[i]
		if g.Ended || g.Game == "" {
			continue
		}
		h, ok := byID[g.Game]
		switch {
		case !ok:
			if err := s.makeGame(ctx, st, *g); err != nil {
				return err
			}
		case h.Result != nil:
			if err := s.endGame(ctx, st, g, h); err != nil {
				return err
			}
		}
	}
	return nil
}

// endGame writes g's result from its game's header, with the scores after
// it.
func (s *Service) endGame(ctx context.Context, st *state, g *store.TournamentGame, h store.Header) error {
	g.Ended, g.Plies, g.Finished = true, h.Ply, h.Updated
	g.Places = placesOf(h.Result, len(g.Seats))
	if st.t.Kind == Arena && h.Updated.After(arenaEnd(st.t)) {
		g.Places = nil // ended after the arena: counts for nothing
	}
	if g.Places == nil {
		g.Places = []int{}
	}
	scores := map[string]float64{}
	for _, sd := range standings(st) {
		if slices.Contains(g.Seats, sd.Account) {
			scores[sd.Account] = sd.Score
		}
	}
	ended, err := s.store.EndTournamentGame(ctx, *g, scores)
	if ended {
		s.changed(st.t.ID)
	}
	return err
}

// placesOf is each seat's place in a result: the winners first, then by
// score where the game scores (Punt), the rest sharing the next place; a
// draw places everyone first. An aborted game places nobody (nil).
func placesOf(r *store.Result, seats int) []int {
	if r.Reason == game.Aborted.String() {
		return nil
	}
	won := func(i int) bool { return slices.Contains(r.Winners, i) }
	score := func(i int) int {
		if i < len(r.Scores) {
			return r.Scores[i]
		}
		return 0
	}
	better := func(a, b int) bool {
		if won(a) != won(b) {
			return won(a)
		}
		return !won(a) && score(a) > score(b)
	}
	places := make([]int, seats)
	for i := range places {
		places[i] = 1
		for j := range seats {
			if better(j, i) {
				places[i]++
			}
		}
	}
	return places
}

// makeGame makes g's game through the hall, under the id the pairing
// stored; made already (by another server) is no failure.
func (s *Service) makeGame(ctx context.Context, st *state, g store.TournamentGame) error {
	req := hall.NewGame{ID: g.Game, Game: st.t.Game, Options: st.t.Options, Rated: st.t.Rated, Halved: g.Berserk}
	for seat, a := range g.Seats {
		req.Seats = append(req.Seats, "human")
		req.Accounts = append(req.Accounts, hall.SeatAccount{Seat: seat, ID: a, Name: nameOf(st, a)})
	}
	if c := st.t.Clock; c != nil && c.Correspondence() {
		req.Days = int(c.PerMove / timecontrol.Day)
	} else if c != nil {
		req.Clock = c.String()
	}
	_, err := s.hall.Create(ctx, req)
	if hall.ErrorCode(err) == hall.Conflict {
		return nil
	}
	if err == nil {
		s.log.Info("tournament game made", "tournament", st.t.ID, "round", g.Round, "game", g.Game)
	}
	return err
}

func nameOf(st *state, account string) string {
	for _, p := range st.players {
		if p.Account == account {
			return p.Name
		}
	}
	return account
}

// pair stores round's games, then makes them; a round another server
// paired first is left to it.
func (s *Service) pair(ctx context.Context, st *state, round int, games []store.TournamentGame, free bool) error {
	err := s.store.PairTournament(ctx, st.t.ID, round, games, free)
	if errors.Is(err, store.ErrConflict) {
		return nil
	}
	if err != nil {
		return err
	}
	s.log.Info("tournament paired", "tournament", st.t.ID, "round", round, "games", len(games))
	var errs []error
	for _, g := range games {
		if g.Game != "" {
			errs = append(errs, s.makeGame(ctx, st, g))
		}
	}
	// Read once the games are made: a page sent to its game finds it.
	s.changed(st.t.ID)
	return errors.Join(errs...)
}

// pairRound pairs a Swiss's or round-robin's next round.
func (s *Service) pairRound(ctx context.Context, st *state) error {
	round := st.t.Round + 1
	var r pairing.Round
	var err error
	if st.t.Kind == Swiss {
		r, err = pairing.Swiss(swissPlayers(st), round, pairing.SwissOptions{})
		if errors.Is(err, pairing.ErrNoPairing) {
			s.log.Info("tournament: no legal pairing; it ends", "tournament", st.t.ID, "round", round)
			return s.finish(ctx, st.t)
		}
	} else {
		var all []pairing.Round
		if all, err = pairing.RoundRobin(roundRobinPlayers(st)); err == nil {
			r = all[round-1]
		}
	}
	if err != nil {
		return err
	}
	now := s.now()
	var games []store.TournamentGame
	for i, p := range r.Pairs {
		g := store.TournamentGame{Round: round, Board: i + 1, Game: hall.NewGameID(), Seats: []string{p.White, p.Black}, Created: now}
		if f := forfeit(st, g.Seats); f != nil {
			g.Game, g.Ended, g.Places, g.Finished = "", true, f, now
		}
		games = append(games, g)
	}
	if r.Bye != "" {
		games = append(games, store.TournamentGame{Round: round, Board: len(r.Pairs) + 1, Seats: []string{r.Bye},
			Ended: true, Places: []int{1}, Created: now, Finished: now})
	}
	return s.pair(ctx, st, round, games, false)
}

// forfeit is the places of a round-robin game one of whose players
// withdrew (the other wins; both withdrawn, nobody scores), nil when both
// play.
func forfeit(st *state, seats []string) []int {
	gone := func(a string) bool {
		for _, p := range st.players {
			if p.Account == a {
				return p.Withdrawn
			}
		}
		return true
	}
	switch a, b := gone(seats[0]), gone(seats[1]); {
	case a && b:
		return []int{}
	case a:
		return []int{2, 1}
	case b:
		return []int{1, 2}
	}
	return nil
}

// roundRobinPlayers are a round-robin's players in pairing-number order
// (rating, then account): those seated in round 1, or before it every
// active player.
func roundRobinPlayers(st *state) []string {
	in := map[string]bool{}
	for _, g := range st.games {
		if g.Round == 1 {
			for _, a := range g.Seats {
				in[a] = true
			}
		}
	}
	var ps []store.TournamentPlayer
	for _, p := range st.players {
		if len(in) > 0 && in[p.Account] || len(in) == 0 && p.Joined && !p.Withdrawn {
			ps = append(ps, p)
		}
	}
	slices.SortFunc(ps, byRating)
	ids := make([]string, len(ps))
	for i, p := range ps {
		ids[i] = p.Account
	}
	return ids
}

func byRating(a, b store.TournamentPlayer) int {
	if a.Rating != b.Rating {
		if a.Rating > b.Rating {
			return -1
		}
		return 1
	}
	if a.Account < b.Account {
		return -1
	}
	if a.Account > b.Account {
		return 1
	}
	return 0
}

// pairArena seats an arena's free players at once.
func (s *Service) pairArena(ctx context.Context, st *state) error {
	busy := map[string]bool{}
	for _, g := range st.games {
		if !g.Ended {
			for _, a := range g.Seats {
				busy[a] = true
			}
		}
	}
	scores := map[string]int{}
	for _, sd := range standings(st) {
		scores[sd.Account] = int(sd.Score)
	}
	var free []pairing.ArenaPlayer
	berserk := map[string]bool{}
	for _, p := range active(st.players) {
		if p.Paused || busy[p.Account] {
			continue
		}
		berserk[p.Account] = p.Berserk
		free = append(free, arenaPlayer(st, p, scores[p.Account]))
	}
	if len(free) < st.seats {
		return nil
	}
	tables, err := pairing.Arena(free, pairing.ArenaOptions{Seats: st.seats, Alone: len(busy) == 0})
	if err != nil || len(tables) == 0 {
		return err
	}
	round, now := st.t.Round+1, s.now()
	var games []store.TournamentGame
	for i, seats := range tables {
		g := store.TournamentGame{Round: round, Board: i + 1, Game: hall.NewGameID(), Seats: seats, Created: now}
		for _, a := range seats {
			g.Berserk = append(g.Berserk, berserk[a])
		}
		if !slices.Contains(g.Berserk, true) {
			g.Berserk = nil
		}
		games = append(games, g)
	}
	return s.pair(ctx, st, round, games, true)
}

// arenaPlayer is p as the arena's pairing sees it: its score, the
// opponents of its last game and how often it had the first seat.
func arenaPlayer(st *state, p store.TournamentPlayer, score int) pairing.ArenaPlayer {
	ap := pairing.ArenaPlayer{ID: p.Account, Score: score, Rating: p.Rating}
	for _, g := range st.games {
		seat := slices.Index(g.Seats, p.Account)
		if seat < 0 {
			continue
		}
		ap.Games++
		if seat == 0 {
			ap.Starts++
		}
		ap.Last = slices.DeleteFunc(slices.Clone(g.Seats), func(a string) bool { return a == p.Account })
	}
	return ap
}
