package tournament

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"maps"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/timecontrol"
	"github.com/arbiter-games/arbiter/tournament/pairing"
)

// Clock is a tournament's time control: Initial and Increment seconds
// (real time) or Days a move (correspondence).
type Clock struct {
	Initial, Increment, Days int
}

// The bounds of a tournament's clock (a seek's).
const (
	maxInitial   = 3 * 60 * 60
	maxIncrement = 60
	maxDays      = 14
)

// control checks c and gives the control it is.
func (c Clock) control() (timecontrol.Control, error) {
	switch {
	case c.Days != 0 && (c.Initial != 0 || c.Increment != 0):
		return timecontrol.Control{}, refuse(Invalid, "clock: give initial and increment (real time) or days (correspondence), not both")
	case c.Days < 0 || c.Days > maxDays:
		return timecontrol.Control{}, refuse(Invalid, "clock: days %d; want 1 to %d", c.Days, maxDays)
	case c.Days > 0:
		return timecontrol.Control{PerMove: time.Duration(c.Days) * timecontrol.Day}, nil
	case c.Initial < 1 || c.Initial > maxInitial || c.Increment < 0 || c.Increment > maxIncrement:
		return timecontrol.Control{}, refuse(Invalid, "clock: initial %d s and increment %d s; want 1 to %d s and 0 to %d s",
			c.Initial, c.Increment, maxInitial, maxIncrement)
	}
	return timecontrol.Control{Base: time.Duration(c.Initial) * time.Second, Increment: time.Duration(c.Increment) * time.Second}, nil
}

// Request is a tournament to make.
type Request struct {
	Name    string
	Kind    string
	Game    string
	Options map[string]string
	// Clock is required: a tournament's games are timed.
	Clock *Clock
	Rated bool
	// Rounds: a Swiss's (1..MaxRounds); none for the others (a
	// round-robin plays everyone once).
	Rounds int
	// Minutes: an arena's duration; none for the others.
	Minutes int
	// Start is when it starts; zero: when its creator starts it.
	Start time.Time
	// Invite: only accounts the creator invites may join.
	Invite bool
	// MinRating and MaxRating bound the players' ratings (0: none).
	MinRating, MaxRating int
}

// check checks every field of r against now.
func (r Request) check(now time.Time) (timecontrol.Control, error) {
	if err := r.checkKind(); err != nil {
		return timecontrol.Control{}, err
	}
	if _, ok := game.Lookup(r.Game); !ok {
		return timecontrol.Control{}, refuse(Invalid, "unknown game %s; want one of %s", clip.Quote(r.Game), gameIDs())
	}
	rules, err := game.New(r.Game, maps.Clone(r.Options))
	if err != nil {
		return timecontrol.Control{}, refuse(Invalid, "%s", err)
	}
	if r.Kind != Arena && rules.Players() != 2 {
		return timecontrol.Control{}, refuse(Invalid, "a %s is of two-player games; %s has %d seats: make an arena", r.Kind, r.Game, rules.Players())
	}
	if r.Clock == nil {
		return timecontrol.Control{}, refuse(Invalid, "a tournament needs a clock: {\"initial\": SECONDS, \"increment\": SECONDS} or {\"days\": N}")
	}
	tc, err := r.Clock.control()
	if err != nil {
		return tc, err
	}
	if r.Kind == Arena && tc.Correspondence() {
		return tc, refuse(Invalid, "an arena lasts minutes: give it a real-time clock")
	}
	if err := r.checkBounds(now); err != nil {
		return tc, err
	}
	return tc, nil
}

func (r Request) checkKind() error {
	switch r.Kind {
	case Arena:
		if r.Rounds != 0 || r.Minutes < MinMinutes || r.Minutes > MaxMinutes {
			return refuse(Invalid, "an arena has minutes (%d to %d) and no rounds; got minutes %d, rounds %d", MinMinutes, MaxMinutes, r.Minutes, r.Rounds)
		}
	case Swiss:
		if r.Minutes != 0 || r.Rounds < 1 || r.Rounds > MaxRounds {
			return refuse(Invalid, "a Swiss has rounds (1 to %d) and no minutes; got rounds %d, minutes %d", MaxRounds, r.Rounds, r.Minutes)
		}
	case RoundRobin:
		if r.Minutes != 0 || r.Rounds != 0 {
			return refuse(Invalid, "a round-robin has as many rounds as players: give no rounds nor minutes")
		}
	default:
		return refuse(Invalid, "kind %s; want arena, swiss or roundrobin", clip.Quote(r.Kind))
	}
	return nil
}

func (r Request) checkBounds(now time.Time) error {
	switch {
	case utf8.RuneCountInString(r.Name) > MaxName || !utf8.ValidString(r.Name) || strings.ContainsFunc(r.Name, isControl):
		return refuse(Invalid, "a name of at most %d characters, without control characters", MaxName)
	case r.MinRating < 0 || r.MinRating > MaxRating || r.MaxRating < 0 || r.MaxRating > MaxRating:
		return refuse(Invalid, "rating bounds %d and %d; want 0 (none) to %d", r.MinRating, r.MaxRating, MaxRating)
	case r.MaxRating != 0 && r.MinRating > r.MaxRating:
		return refuse(Invalid, "the least rating %d is over the most %d", r.MinRating, r.MaxRating)
	case !r.Start.IsZero() && !r.Start.After(now):
		return refuse(Invalid, "start %s is past; give a time to come, or none to start it by hand", r.Start.UTC().Format(time.RFC3339))
	case r.Start.After(now.Add(MaxAhead)):
		return refuse(Invalid, "start %s is over %d days ahead", r.Start.UTC().Format(time.RFC3339), int(MaxAhead/(24*time.Hour)))
	}
	return nil
}

func isControl(r rune) bool { return r < ' ' || r == 0x7f }

func gameIDs() string {
	var ids []string
	for _, d := range game.All() {
		ids = append(ids, d.ID)
	}
	return strings.Join(ids, ", ")
}

// newID is a tournament's random id: lowercase letters and digits.
func newID() string {
	b := make([]byte, 10)
	rand.Read(b)
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))
}

// Create makes account's tournament and gives its id.
func (s *Service) Create(ctx context.Context, account string, r Request) (string, error) {
	now := s.now()
	tc, err := r.check(now)
	if err != nil {
		return "", err
	}
	a, err := s.mayPlay(ctx, account, r.Rated)
	if err != nil {
		return "", err
	}
	name := strings.TrimSpace(r.Name)
	if name == "" {
		name = a.Name + "'s " + map[string]string{Arena: "arena", Swiss: "Swiss", RoundRobin: "round-robin"}[r.Kind]
	}
	opts := maps.Clone(r.Options)
	if opts == nil {
		opts = map[string]string{}
	}
	t := store.Tournament{ID: newID(), Creator: account, Name: name, Kind: r.Kind, Game: r.Game, Options: opts, Clock: &tc,
		Rated: r.Rated, Rounds: r.Rounds, Minutes: r.Minutes, Invite: r.Invite, MinRating: r.MinRating, MaxRating: r.MaxRating,
		Starts: r.Start, Created: now}
	err = s.store.CreateTournament(ctx, t, MaxOpenPerCreator)
	if errors.Is(err, store.ErrTooManyTournaments) {
		return "", refuse(TooMany, "you have %d tournaments not finished; wait for one to end", MaxOpenPerCreator)
	}
	return t.ID, err
}

// mayPlay is account, refused when a moderator banned it or (rated)
// marked it as playing with an engine.
func (s *Service) mayPlay(ctx context.Context, account string, rated bool) (store.Account, error) {
	a, err := s.store.Account(ctx, account)
	switch {
	case err != nil:
		return a, err
	case a.Standing.Banned:
		return a, refuse(Banned, "your account is banned: %s", a.Standing.BanReason)
	case rated && a.Standing.Engine:
		return a, refuse(Banned, "your account is marked as playing with an engine's help: it plays casual games only")
	}
	return a, nil
}

// tournament reads tournament id, refused NotFound when there is none.
func (s *Service) tournament(ctx context.Context, id string) (store.Tournament, error) {
	t, err := s.store.Tournament(ctx, id)
	if errors.Is(err, store.ErrNoTournament) {
		return t, refuse(NotFound, "no tournament %s", clip.Quote(id))
	}
	return t, err
}

// playerOf is account's row in t, and whether it has one.
func (s *Service) playerOf(ctx context.Context, t store.Tournament, account string) (store.TournamentPlayer, bool, error) {
	players, err := s.store.TournamentPlayers(ctx, t.ID)
	if err != nil {
		return store.TournamentPlayer{}, false, err
	}
	for _, p := range players {
		if p.Account == account {
			return p, true, nil
		}
	}
	return store.TournamentPlayer{Tournament: t.ID, Account: account}, false, nil
}

// maxPlayers is how many may join a tournament of kind.
func maxPlayers(kind string) int {
	switch kind {
	case Arena:
		return MaxArenaPlayers
	case Swiss:
		return MaxSwissPlayers
	}
	return MaxRoundRobinPlayers
}

// Join joins account to tournament id: while it waits for its start, or
// (an arena) while it runs; invited accounts only when it is by
// invitation; within its rating bounds. Joining again after a
// withdrawal comes back (before the start, or into an arena).
func (s *Service) Join(ctx context.Context, id, account string) error {
	t, err := s.tournament(ctx, id)
	if err != nil {
		return err
	}
	a, err := s.mayPlay(ctx, account, t.Rated)
	if err != nil {
		return err
	}
	switch {
	case t.State == store.TournamentFinished:
		return refuse(Conflict, "that tournament is over")
	case t.State == store.TournamentRunning && t.Kind != Arena:
		return refuse(Conflict, "that %s has started: players join before the first round", t.Kind)
	}
	p, _, err := s.playerOf(ctx, t, account)
	if err != nil {
		return err
	}
	if t.Invite && !p.Invited && account != t.Creator {
		return refuse(Forbidden, "that tournament is by invitation")
	}
	rating, err := s.rating(ctx, account, t.Game)
	if err != nil {
		return err
	}
	if t.MinRating != 0 && rating < float64(t.MinRating) || t.MaxRating != 0 && rating > float64(t.MaxRating) {
		return refuse(Forbidden, "your rating %.0f is outside the tournament's bounds (%d to %d)", rating, t.MinRating, t.MaxRating)
	}
	if p.Joined && !p.Withdrawn {
		return nil
	}
	if !p.Joined {
		p.Rating = rating
	}
	p.Name, p.Joined, p.Withdrawn, p.Paused, p.At = a.Name, true, false, false, s.now()
	return s.setPlayer(ctx, p, t.Kind)
}

func (s *Service) setPlayer(ctx context.Context, p store.TournamentPlayer, kind string) error {
	err := s.store.SetTournamentPlayer(ctx, p, maxPlayers(kind))
	switch {
	case errors.Is(err, store.ErrTournamentFull):
		return refuse(Conflict, "the tournament is full (%d players)", maxPlayers(kind))
	case errors.Is(err, store.ErrNoTournament):
		return refuse(Conflict, "that tournament is over")
	case err != nil:
		return err
	}
	s.Nudge()
	s.changed(p.Tournament)
	return nil
}

// rating is account's rating in game, 1500 when it has none.
func (s *Service) rating(ctx context.Context, account, game string) (float64, error) {
	ratings, err := s.store.Ratings(ctx, account)
	if err != nil {
		return 0, err
	}
	for _, r := range ratings {
		if r.Game == game && !math.IsNaN(r.Rating) {
			return r.Rating, nil
		}
	}
	return 1500, nil
}

// Withdraw takes account out of tournament id: paired no more; its games
// played so far count.
func (s *Service) Withdraw(ctx context.Context, id, account string) error {
	return s.change(ctx, id, account, func(_ store.Tournament, p *store.TournamentPlayer) error {
		p.Withdrawn = true
		return nil
	})
}

// Pause keeps account out of an arena's pairings (paused) or brings it
// back.
func (s *Service) Pause(ctx context.Context, id, account string, paused bool) error {
	return s.change(ctx, id, account, func(t store.Tournament, p *store.TournamentPlayer) error {
		if t.Kind != Arena {
			return refuse(Conflict, "only an arena's players pause; withdraw instead")
		}
		p.Paused = paused
		return nil
	})
}

// Berserk sets whether account plays its next arena games berserk: on
// half its clock's base, for one more point a win (docs/tournaments.md).
func (s *Service) Berserk(ctx context.Context, id, account string, on bool) error {
	return s.change(ctx, id, account, func(t store.Tournament, p *store.TournamentPlayer) error {
		if t.Kind != Arena {
			return refuse(Conflict, "only an arena's players go berserk")
		}
		if _, _, ok := pairing.BerserkClock(t.Clock.Base, t.Clock.Increment); !ok || t.Clock.Base < 40*t.Clock.Increment {
			return refuse(Conflict, "this arena's clock offers no berserk: its base must be at least 40 increments")
		}
		p.Berserk = on
		return nil
	})
}

// change applies do to account's joined row in tournament id.
func (s *Service) change(ctx context.Context, id, account string, do func(store.Tournament, *store.TournamentPlayer) error) error {
	t, err := s.tournament(ctx, id)
	if err != nil {
		return err
	}
	if t.State == store.TournamentFinished {
		return refuse(Conflict, "that tournament is over")
	}
	p, ok, err := s.playerOf(ctx, t, account)
	if err != nil {
		return err
	}
	if !ok || !p.Joined || p.Withdrawn {
		return refuse(Conflict, "you are not playing in that tournament")
	}
	if err := do(t, &p); err != nil {
		return err
	}
	p.At = s.now()
	return s.setPlayer(ctx, p, t.Kind)
}

// Invite lets the account named name join creator's tournament id.
func (s *Service) Invite(ctx context.Context, id, creator, name string) error {
	t, err := s.tournament(ctx, id)
	if err != nil {
		return err
	}
	if t.Creator != creator {
		return refuse(Forbidden, "only the tournament's creator invites")
	}
	a, err := s.store.AccountByName(ctx, name)
	if errors.Is(err, store.ErrNoAccount) || err == nil && (a.Deleted || a.IsLevel()) {
		return refuse(Invalid, "no player %s to invite", clip.Quote(name))
	}
	if err != nil {
		return err
	}
	p, _, err := s.playerOf(ctx, t, a.ID)
	if err != nil {
		return err
	}
	p.Name, p.Invited, p.At = a.Name, true, s.now()
	return s.setPlayer(ctx, p, t.Kind)
}

// Start starts creator's tournament id now: its first round is paired on
// the next pass.
func (s *Service) Start(ctx context.Context, id, creator string) error {
	t, err := s.tournament(ctx, id)
	if err != nil {
		return err
	}
	if t.Creator != creator {
		return refuse(Forbidden, "only the tournament's creator starts it")
	}
	if err := s.start(ctx, t); err != nil {
		return err
	}
	s.Nudge()
	s.changed(id)
	return nil
}

// OfGame is the id of the tournament that paired game, "" for none.
func (s *Service) OfGame(ctx context.Context, game string) (string, error) {
	return s.store.TournamentOfGame(ctx, game)
}

// start starts t if enough players joined.
func (s *Service) start(ctx context.Context, t store.Tournament) error {
	players, err := s.store.TournamentPlayers(ctx, t.ID)
	if err != nil {
		return err
	}
	if n := len(active(players)); n < 2 {
		return refuse(Conflict, "%d players joined; a tournament needs 2 at least", n)
	}
	err = s.store.StartTournament(ctx, t.ID, s.now())
	if errors.Is(err, store.ErrConflict) {
		return refuse(Conflict, "that tournament has started already")
	}
	return err
}

// active are the players joined and not withdrawn.
func active(players []store.TournamentPlayer) []store.TournamentPlayer {
	var out []store.TournamentPlayer
	for _, p := range players {
		if p.Joined && !p.Withdrawn {
			out = append(out, p)
		}
	}
	return out
}
