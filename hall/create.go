package hall

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/store"
)

// NewGame is a request for a game (POST /api/games).
type NewGame struct {
	Game    string
	Options map[string]string
	// Seats: "human", "open" (a person's seat joined from the lobby) or
	// an AI spec, one per seat in turn order.
	Seats []string
	Names []string
	// Clock is a real-time control, "5m+3s"; Days a correspondence one.
	Clock string
	Days  int
	// FEN, when given, is the position the game starts from instead of
	// the game's start (a lesson, a composed problem, a late position).
	FEN string
	// Rated games change their accounts' ratings: every seat must be an
	// account's (a person's, or an AI level's), each account at one seat,
	// a person's at one seat at least, with a clock.
	Rated bool
	// NoTakebacks turns take-backs off for the game.
	NoTakebacks bool
	// Accounts are the seats the transport gives to accounts it checked
	// (never the request's own).
	Accounts []SeatAccount
	// ID, when not empty, is the game's id, made by NewGameID: a caller
	// that records the id before the game exists (a tournament's
	// pairing) makes it again after a crash without making two. A game
	// of that id existing already is refused with Conflict.
	ID string
	// Halved are the seats that start with half the clock's base (an
	// arena's berserk), one flag a seat at most; a real-time clock only.
	Halved []bool
	// Client is the transport's key for whoever asks (an address, an
	// account), whose share of the AI memory the game's engines count in
	// ("" for none; never the request's own).
	Client string
}

// Invite is a person's seat and the secret that plays it.
type Invite struct {
	Seat  int
	Token string
	URL   string
}

// Created is a game just made: its id, the invites of its people's seats
// (the only time their tokens are told), and the game.
type Created struct {
	ID    string
	Seats []Invite
	URL   string
	Game  View
}

// maxSpecLength bounds a seat's spec, in bytes.
const maxSpecLength = 100

// Create checks the request, reserves its engines' memory, stores the
// game and starts it (the AI's first turn, the clock's wait).
func (h *Hall) Create(ctx context.Context, req NewGame) (Created, error) {
	if err := h.refuseWhileClosing(); err != nil {
		return Created{}, err
	}
	g, err := h.prepare(ctx, req)
	if err != nil {
		return Created{}, err
	}
	if !h.reserveEngines(nil, g.memory, req.Client) {
		if h.budget.overClientShare(g.memory, req.Client) {
			return Created{}, Errorf(OverBudget, "your games' engines hold their share of the server's AI memory; finish one, or try a lower level")
		}
		return Created{}, Errorf(OverBudget, "the engines of this game need %d MiB and the server's AI memory is taken; try a lower level or later", g.memory>>20)
	}
	g.client = req.Client
	created, err := h.open(ctx, g)
	if err != nil {
		h.releaseEngines(g.memory, req.Client)
		return Created{}, err
	}
	return created, nil
}

// prepared is a checked request: the header to store, the seats'
// tokens, the engines made and the memory they hold.
type prepared struct {
	header  store.Header
	tokens  []string
	engines []ai.Engine
	memory  int64
	client  string
}

// prepare checks a request and makes its header, tokens and engines.
func (h *Hall) prepare(ctx context.Context, req NewGame) (prepared, error) {
	rules, options, err := h.rules(req)
	if err != nil {
		return prepared{}, err
	}
	names, err := h.checkNames(ctx, req)
	if err != nil {
		return prepared{}, err
	}
	clock, err := newClock(req.Clock, req.Days)
	if err != nil {
		return prepared{}, err
	}
	startFEN, err := startPosition(rules, req.FEN)
	if err != nil {
		return prepared{}, err
	}
	var p prepared
	if p.engines, p.memory, err = h.makeEngines(rules, req.Seats); err != nil {
		return prepared{}, err
	}
	now := h.now()
	p.header = store.Header{Game: rules.ID(), Options: options, StartFEN: startFEN,
		Clock: storedClock(clock, rules.Players()), Ply: 0, Version: 1, DrawOffer: -1, Created: now, Updated: now}
	p.tokens = make([]string, len(req.Seats))
	for i, spec := range req.Seats {
		seat := store.Seat{Player: spec, Name: names[i]}
		switch spec {
		case "open":
			seat.Player, seat.Open = "human", true
		case "human":
			p.tokens[i], seat.TokenHash = newToken()
		}
		p.header.Seats = append(p.header.Seats, seat)
	}
	if err := seatAccounts(req, p.header.Seats); err != nil {
		return prepared{}, err
	}
	if err := halve(req, p.header.Clock); err != nil {
		return prepared{}, err
	}
	p.header.ID = req.ID
	p.header.Rated = req.Rated
	p.header.NoTakebacks = req.NoTakebacks
	return p, nil
}

// halve halves the starting time of the request's Halved seats.
func halve(req NewGame, c *store.Clock) error {
	if !slices.Contains(req.Halved, true) {
		return nil
	}
	switch {
	case len(req.Halved) > len(req.Seats):
		return Errorf(Invalid, "%d halved seats for %d seats", len(req.Halved), len(req.Seats))
	case c == nil || c.Control.Correspondence():
		return Errorf(Invalid, "only a real-time clock is halved")
	}
	for i, h := range req.Halved {
		if h {
			c.Left[i] = max(c.Control.Base/2, MinGameBase)
		}
	}
	return nil
}

// rules checks the game, its options and its seats, and caps the plies of
// a game with no person in it (unless the operator allows such games).
func (h *Hall) rules(req NewGame) (game.Game, map[string]string, error) {
	if req.Game == "" {
		return nil, nil, Errorf(Invalid, "no game given; want one of %s", gameIDs())
	}
	if _, ok := game.Lookup(req.Game); !ok {
		return nil, nil, Errorf(Invalid, "unknown game %s; want one of %s", quote(req.Game), gameIDs())
	}
	options := map[string]string{}
	for k, v := range req.Options {
		options[k] = v
	}
	rules, err := game.New(req.Game, options)
	if err != nil {
		return nil, nil, Errorf(Invalid, "%s", err)
	}
	if len(req.Seats) != rules.Players() {
		return nil, nil, Errorf(Invalid, "%s has %d seats, %d given; give one per seat: human, open or an AI spec such as ai:level=3", req.Game, rules.Players(), len(req.Seats))
	}
	if h.cfg.AllowAIGames || hasPersonSpec(req.Seats) {
		return rules, options, nil
	}
	if plies, err := strconv.Atoi(rules.Options().Get("maxplies")); err == nil && plies <= h.cfg.AIGamePlies {
		return rules, options, nil
	}
	options["maxplies"] = strconv.Itoa(h.cfg.AIGamePlies)
	if rules, err = game.New(req.Game, options); err != nil {
		return nil, nil, Errorf(Invalid, "%s", err)
	}
	return rules, options, nil
}

func hasPersonSpec(seats []string) bool {
	for _, s := range seats {
		if s == "human" || s == "open" {
			return true
		}
	}
	return false
}

// checkNames checks the seats' names, one per seat at most. A seat the
// transport gives to an account takes the account's name, whatever the
// request says; every other name is an anonymous one, which may not pass
// for an account (checkAnonymousName).
func (h *Hall) checkNames(ctx context.Context, req NewGame) ([]string, error) {
	if len(req.Names) > len(req.Seats) {
		return nil, Errorf(Invalid, "%d names for %d seats", len(req.Names), len(req.Seats))
	}
	out := make([]string, len(req.Seats))
	for p, name := range req.Names {
		what := fmt.Sprintf("name of seat %d", p)
		var err error
		if slices.ContainsFunc(req.Accounts, func(a SeatAccount) bool { return a.Seat == p }) {
			out[p], err = checkName(what, name)
		} else {
			out[p], err = h.checkAnonymousName(ctx, what, name)
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// makeEngines checks each AI seat's spec as a server takes it and makes
// its engine; memory is what they may hold.
func (h *Hall) makeEngines(g game.Game, seats []string) ([]ai.Engine, int64, error) {
	engines := make([]ai.Engine, len(seats))
	var memory int64
	for p, spec := range seats {
		if spec == "human" || spec == "open" {
			continue
		}
		if len(spec) > maxSpecLength {
			return nil, 0, Errorf(Invalid, "seat %d: a spec of %d bytes; at most %d", p, len(spec), maxSpecLength)
		}
		if err := ai.CheckForServer(spec); err != nil {
			return nil, 0, Errorf(Invalid, "seat %d: %s; want human, open, ai:level=1..6 or an engine of docs/server.md", p, err)
		}
		size, err := ai.Footprint(spec)
		if err == nil {
			engines[p], err = h.cfg.Engines(spec, seedFor(p), h.cfg.EngineOptions(g)...)
		}
		if err != nil {
			return nil, 0, Errorf(Invalid, "seat %d: %s; want human, open, ai:level=1..6 or an engine of docs/server.md", p, err)
		}
		memory += size
	}
	return engines, memory, nil
}

func gameIDs() string {
	var ids []string
	for _, d := range game.All() {
		ids = append(ids, d.ID)
	}
	return strings.Join(ids, ", ")
}

// startPosition checks a create request's FEN and returns it as the game
// writes it ("" for the game's start); it must be a position where the
// game goes on. The FEN stored is the one the game writes, so that the
// record and a replay read the same text.
func startPosition(rules game.Game, fen string) (string, error) {
	if fen == "" {
		return "", nil
	}
	st, err := rules.ParseFEN(fen)
	if err != nil {
		return "", Errorf(Invalid, "%s; send a position of %s, or no fen to start from the game's start", err, rules.ID())
	}
	if r := st.Result(); r.Over() {
		return "", Errorf(Invalid, "fen %s: the game is over in that position (%s); send a position where it goes on", quote(fen), r.Describe(rules))
	}
	return st.FEN(), nil
}

// open stores the prepared game under a fresh id and starts it; its
// engines and their reserved memory pass to the game's entry.
func (h *Hall) open(ctx context.Context, p prepared) (Created, error) {
	hd := p.header
	var err error
	chosen := hd.ID != ""
	for attempt := 0; ; attempt++ {
		if !chosen {
			hd.ID = newGameID()
		}
		err = h.store.Create(ctx, hd)
		if !errors.Is(err, store.ErrDuplicate) || attempt == 3 {
			break
		}
		if chosen {
			return Created{}, Errorf(Conflict, "a game %s exists already", quote(hd.ID))
		}
	}
	if err != nil {
		return Created{}, fmt.Errorf("creating a game: %w", err)
	}
	invites := []Invite{}
	for seat, token := range p.tokens {
		if token != "" {
			invites = append(invites, Invite{Seat: seat, Token: token, URL: InviteURL(hd.ID, seat, token)})
		}
	}
	e := h.lock(hd.ID)
	defer e.mu.Unlock()
	e.g, e.engines = store.Game{Header: hd}, p.engines
	if err := h.rebuild(e); err != nil {
		e.engines = nil
		return Created{}, err
	}
	e.reserved, e.client = p.memory, p.client
	if p.memory > 0 {
		h.hold(e)
	}
	h.stats.created.Add(1)
	h.log.Info("game created", "game", hd.ID, "rules", hd.Game, "seats", len(hd.Seats))
	h.afterChange(e)
	return Created{ID: hd.ID, Seats: invites, URL: SpectatorURL(hd.ID), Game: h.view(e)}, nil
}
