package notify

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/store"
)

// GameCommitted is the hall's Config.Committed: a move or a resignation
// stored by this process. It queues the event and returns at once.
func (s *Service) GameCommitted(_ context.Context, c hall.Committed) {
	s.queue("game", func(ctx context.Context) {
		if err := s.committed(ctx, c); err != nil {
			s.log.Warn("notifications of a game", "game", c.Game, "err", err)
		}
	})
}

// SeekPosted is the lobby's Config.Posted: a challenge tells its target.
func (s *Service) SeekPosted(_ context.Context, sk store.Seek) {
	if sk.Target == "" {
		return
	}
	s.queue("challenge", func(ctx context.Context) {
		if err := s.challenged(ctx, sk); err != nil {
			s.log.Warn("notifications of a challenge", "seek", sk.ID, "err", err)
		}
	})
}

// SeekStarted is the lobby's Config.Started: a correspondence seek's
// game started, which its other players hear (a real-time seek's seeker
// waits on the lobby's page, which takes them to the game).
func (s *Service) SeekStarted(_ context.Context, sk store.Seek, gameID, by string) {
	if !sk.Correspondence() {
		return
	}
	s.queue("accepted", func(ctx context.Context) {
		if err := s.accepted(ctx, sk, gameID, by); err != nil {
			s.log.Warn("notifications of a seek taken", "seek", sk.ID, "err", err)
		}
	})
}

// note is a notification to enqueue, by every channel the player wants.
type note struct {
	account, kind, subject string
	game                   string
	ply                    int
	title, body, url       string
	quiet                  bool // due after the quiet period, not at once
}

// committed turns a move or a resignation of a correspondence game into
// notes: the end of the game for the players who did not end it, or the
// turn of the player to move (due after the quiet period, and sent only
// if the game is still at that ply then). A live game sends nothing.
func (s *Service) committed(ctx context.Context, c hall.Committed) error {
	v, err := s.games.Get(ctx, c.Game)
	if err != nil {
		return err
	}
	if v.Clock == nil || v.Clock.Kind != "correspondence" {
		return nil
	}
	by := seatName(v, c.Seat)
	url := "/play/" + v.ID
	switch {
	case c.Over:
		for seat := range v.Seats {
			if seat == c.Seat || !personal(v, seat) {
				continue
			}
			title := fmt.Sprintf("%s ended your game of %s", by, v.Name)
			if c.Resigned {
				title = fmt.Sprintf("%s resigned your game of %s", by, v.Name)
			}
			if err := s.enqueue(ctx, note{account: v.Accounts[seat], kind: KindEnded, subject: v.ID, game: v.ID, ply: -1,
				title: title, body: v.Description, url: url}); err != nil {
				return err
			}
		}
	case !c.Resigned && v.Result == nil && v.Ply == c.Ply && v.ToMove != c.Seat && personal(v, v.ToMove):
		return s.enqueue(ctx, note{account: v.Accounts[v.ToMove], kind: KindTurn, subject: v.ID + "/" + strconv.Itoa(v.Ply),
			game: v.ID, ply: v.Ply, title: fmt.Sprintf("Your move against %s", by),
			body: fmt.Sprintf("%s moved in your game of %s (%s).", by, v.Name, v.Clock.Control), url: url, quiet: true})
	}
	return nil
}

// personal reports whether a person's account holds seat.
func personal(v hall.View, seat int) bool {
	return seat >= 0 && seat < len(v.Seats) && seat < len(v.Accounts) && v.Accounts[seat] != "" && v.Seats[seat].Player == "human"
}

// seatName is who holds seat, as the game shows them.
func seatName(v hall.View, seat int) string {
	if seat >= 0 && seat < len(v.Seats) && v.Seats[seat].Name != "" {
		return v.Seats[seat].Name
	}
	return "your opponent"
}

// gameName is a game id's name for people.
func gameName(id string) string {
	if d, ok := game.Lookup(id); ok {
		return d.Name
	}
	return id
}

func (s *Service) challenged(ctx context.Context, sk store.Seek) error {
	from, err := s.store.Account(ctx, sk.Account)
	if err != nil {
		return err
	}
	clock := "no clock"
	if sk.Clock != nil {
		clock = sk.Clock.String()
	}
	return s.enqueue(ctx, note{account: sk.Target, kind: KindChallenge, subject: "seek/" + sk.ID, ply: -1,
		title: fmt.Sprintf("%s challenges you to %s", from.Name, gameName(sk.Game)),
		body:  fmt.Sprintf("%s, %s. Accept or decline it on the home page.", gameName(sk.Game), clock), url: "/"})
}

func (s *Service) accepted(ctx context.Context, sk store.Seek, gameID, by string) error {
	taker, err := s.store.Account(ctx, by)
	if err != nil {
		return err
	}
	for _, id := range append([]string{sk.Account}, sk.Joined...) {
		if id == by {
			continue
		}
		if err := s.enqueue(ctx, note{account: id, kind: KindAccepted, subject: gameID, game: gameID, ply: -1,
			title: fmt.Sprintf("%s took your seek: %s", taker.Name, gameName(sk.Game)),
			body:  "The game started.", url: "/play/" + gameID}); err != nil {
			return err
		}
	}
	return nil
}

// enqueue puts n in the outbox for every channel the server sends by
// that its player wants (e-mail only to a verified address), and nudges
// the sender when it is due at once. A bot or a deleted account is
// told nothing.
func (s *Service) enqueue(ctx context.Context, n note) error {
	a, err := s.store.Account(ctx, n.account)
	if errors.Is(err, store.ErrNoAccount) || err == nil && (a.IsLevel() || a.IsBot() || a.Deleted) {
		return nil
	}
	if err != nil {
		return err
	}
	p, err := s.prefs(ctx, n.account)
	if err != nil {
		return err
	}
	now := s.now()
	due := now
	if n.quiet {
		due = now.Add(s.cfg.Quiet)
	}
	var items []store.OutboxItem
	for _, ch := range []string{ChannelPush, ChannelEmail} {
		if !p[n.kind][ch] {
			continue
		}
		if ch == ChannelEmail && !s.verified(ctx, n.account) {
			continue
		}
		items = append(items, store.OutboxItem{ID: newID(), Account: n.account, Kind: n.kind, Subject: n.subject, Channel: ch,
			Game: n.game, Ply: n.ply, Title: n.title, Body: n.body, URL: n.url, Due: due, Created: now})
	}
	if len(items) == 0 {
		return nil
	}
	added, err := s.store.Enqueue(ctx, items)
	if err == nil && added > 0 && !n.quiet {
		s.Nudge()
	}
	return err
}

// verified reports whether the site mails and account has a verified
// address (a failure to read it counts as none).
func (s *Service) verified(ctx context.Context, account string) bool {
	if s.mailer == nil {
		return false
	}
	e, err := s.store.Email(ctx, account)
	return err == nil && e.Verified
}

// stillWanted reports whether row o is still worth sending: its player
// still wants its kind by its channel, and a turn is still theirs (the
// game is at the row's ply and goes on).
func (s *Service) stillWanted(ctx context.Context, o store.OutboxItem) (bool, error) {
	if ok, err := s.wants(ctx, o.Account, o.Kind, o.Channel); err != nil || !ok {
		return false, err
	}
	if o.Kind != KindTurn {
		return true, nil
	}
	hs, err := s.store.List(ctx, store.Filter{IDs: []string{o.Game}, Limit: 1})
	if err != nil {
		return false, err
	}
	return len(hs) == 1 && hs[0].Result == nil && hs[0].Ply == o.Ply && slices.ContainsFunc(hs[0].Seats, func(st store.Seat) bool {
		return st.Account == o.Account
	}), nil
}
