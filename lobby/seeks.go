package lobby

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"maps"
	"strings"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/timecontrol"
)

// SeekRequest is a seek to post: a game and its options, rated or not,
// with take-backs or not, its time control (nil for none), and the name
// of the one player it challenges ("" for anyone).
type SeekRequest struct {
	Game        string
	Options     map[string]string
	Rated       bool
	NoTakebacks bool
	Clock       *SeekControl
	To          string
}

// Taken is a seek accepted: still waiting for players (Game is ""), or
// full, its game started.
type Taken struct {
	ID     string
	Joined []string // the accounts that joined so far, by id
	Game   string
}

// checkSeek checks a seek's game, options and time control by the rules
// a game is created by, and gives its number of seats and its control
// (nil for none).
func checkSeek(req SeekRequest) (int, *timecontrol.Control, error) {
	if _, ok := game.Lookup(req.Game); !ok {
		return 0, nil, refuse(Invalid, "unknown game %s; want one of %s", clip.Quote(req.Game), gameIDs())
	}
	rules, err := game.New(req.Game, maps.Clone(req.Options))
	if err != nil {
		return 0, nil, refuse(Invalid, "%s", err)
	}
	switch {
	case req.Clock == nil && req.Rated:
		return 0, nil, refuse(Invalid, "a rated game needs a clock: {\"initial\": SECONDS, \"increment\": SECONDS} or {\"days\": N}")
	case req.Clock == nil:
		return rules.Players(), nil, nil
	}
	tc, err := req.Clock.control()
	if err != nil {
		return 0, nil, err
	}
	return rules.Players(), &tc, nil
}

// Post posts account's seek from a client address (the transport's key
// of it; "" for none) and gives its id. The seek is refused when the
// rules do not allow it, when it challenges no one who can play, or when
// the account or the address has as many open seeks as allowed.
func (l *Lobby) Post(ctx context.Context, account, address string, req SeekRequest) (string, error) {
	seats, clock, err := checkSeek(req)
	if err != nil {
		return "", err
	}
	a, err := l.mayPlay(ctx, account, req.Rated)
	if err != nil {
		return "", err
	}
	if a.IsBot() {
		return "", refuse(Forbidden, "a bot posts no seeks: people challenge it, and it accepts or declines through the bot API")
	}
	now := l.now()
	sk := store.Seek{ID: newSeekID(), Account: account, Game: req.Game, Options: req.Options, Rated: req.Rated,
		NoTakebacks: req.NoTakebacks, Clock: clock, Seats: seats, Address: address, Created: now, Expires: now.Add(SeekHold)}
	if sk.Options == nil {
		sk.Options = map[string]string{}
	}
	if sk.Correspondence() {
		sk.Expires = now.Add(CorrespondenceHold)
	}
	if req.To != "" {
		if sk.Target, err = l.challenged(ctx, account, req.To); err != nil {
			return "", err
		}
	}
	err = l.store.CreateSeek(ctx, sk, MaxSeeksPerAccount, MaxSeeksPerAddress)
	switch {
	case errors.Is(err, store.ErrTooManySeeks):
		return "", refuse(TooMany, "you have %d open seeks; withdraw one first", MaxSeeksPerAccount)
	case errors.Is(err, store.ErrTooManyAddressSeeks):
		return "", refuse(TooMany, "%d open seeks come from your address already; wait for one to be taken or to expire", MaxSeeksPerAddress)
	case err != nil:
		return "", err
	}
	l.Nudge()
	l.posted(ctx, sk)
	return sk.ID, nil
}

// challenged is the id of the player named to, whom account challenges.
func (l *Lobby) challenged(ctx context.Context, account, to string) (string, error) {
	target, err := l.store.AccountByName(ctx, to)
	switch {
	case errors.Is(err, store.ErrNoAccount) || err == nil && (target.Deleted || target.IsLevel()):
		return "", refuse(Invalid, "no player %s to challenge", clip.Quote(to))
	case err != nil:
		return "", err
	case target.ID == account:
		return "", refuse(Invalid, "you cannot challenge yourself")
	}
	if blocked, err := l.store.Blocking(ctx, account, target.ID); err != nil {
		return "", err
	} else if blocked {
		return "", refuse(Blocked, "you cannot challenge %s: a block stands between you", target.Name)
	}
	return target.ID, nil
}

// newSeekID is a seek's random id: lowercase letters and digits.
func newSeekID() string {
	b := make([]byte, 12)
	rand.Read(b)
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))
}

// Accept takes seek id for account: a full seek starts its game at
// once, for everyone seated, in random order (the hall's StartSeek). A
// game that fails to start gives the seek back to the lobby.
func (l *Lobby) Accept(ctx context.Context, id, account string) (Taken, error) {
	if err := l.mayJoin(ctx, id, account); err != nil {
		return Taken{}, err
	}
	sk, full, err := l.store.TakeSeek(ctx, id, account, l.now())
	switch {
	case errors.Is(err, store.ErrOwnSeek):
		return Taken{}, refuse(OwnSeek, "that seek is your own; wait for someone else to accept it")
	case errors.Is(err, store.ErrNotForYou):
		return Taken{}, refuse(Forbidden, "that challenge is for another player")
	case errors.Is(err, store.ErrNoSeek):
		return Taken{}, refuse(NotFound, "no open seek %s: it was taken, withdrawn or expired", clip.Quote(id))
	case errors.Is(err, store.ErrConflict):
		return Taken{}, refuse(Conflict, "someone joined that seek at the same moment; try again")
	case err != nil:
		return Taken{}, err
	}
	l.Nudge()
	if !full {
		return Taken{ID: sk.ID, Joined: sk.Joined}, nil
	}
	created, err := l.startSeek(ctx, sk)
	if err != nil {
		if rerr := l.store.RestoreSeek(context.WithoutCancel(ctx), sk); rerr != nil {
			l.log.Warn("restoring a seek", "seek", sk.ID, "err", rerr)
		}
		return Taken{}, err
	}
	l.started(sk, created.ID)
	l.taken(ctx, sk, created.ID, account)
	return Taken{ID: sk.ID, Joined: sk.Joined, Game: created.ID}, nil
}

// startSeek starts the game of a full seek.
func (l *Lobby) startSeek(ctx context.Context, sk store.Seek) (hall.Created, error) {
	players := []hall.SeatAccount{}
	for _, id := range append([]string{sk.Account}, sk.Joined...) {
		a, err := l.store.Account(ctx, id)
		if err != nil {
			return hall.Created{}, err
		}
		players = append(players, hall.SeatAccount{ID: a.ID, Name: a.Name, Bot: a.IsBot()})
	}
	return l.hall.StartSeek(ctx, sk, players)
}

// Withdraw removes account's own open seek id.
func (l *Lobby) Withdraw(ctx context.Context, id, account string) error {
	err := l.store.DeleteSeek(ctx, id, account)
	if errors.Is(err, store.ErrNoSeek) {
		return refuse(NotFound, "you have no open seek %s", clip.Quote(id))
	}
	if err != nil {
		return err
	}
	l.Nudge()
	return nil
}

// Keep keeps account's real-time seeks open for SeekHold more: a
// transport calls it while the seeker is there (their lobby socket
// open). A failure is logged; the seeks then expire as they would.
func (l *Lobby) Keep(ctx context.Context, account string) {
	if account == "" {
		return
	}
	now := l.now()
	if err := l.store.ExtendSeeks(ctx, account, now, now.Add(SeekHold)); err != nil {
		l.log.Warn("keeping seeks", "err", err)
	}
}

// mayJoin refuses account a seek whose seeker, or one who joined it, is
// blocked either way with it. The seek is looked up in the lobby's last
// read, read again when it is not there (a seek just posted elsewhere).
// A bot joins only a challenge to it, within its limits (botMayAccept).
func (l *Lobby) mayJoin(ctx context.Context, id, account string) error {
	a, err := l.mayPlay(ctx, account, false)
	if err != nil {
		return err
	}
	if a.IsBot() {
		sk, err := l.botMayAccept(ctx, a, id)
		if err != nil {
			return err
		}
		return l.mayJoinSeek(ctx, sk, account)
	}
	l.mu.Lock()
	sk, ok := l.known[id]
	l.mu.Unlock()
	if !ok {
		seeks, err := l.list(ctx, store.SeekFilter{Limit: MaxSeekPage})
		if err != nil {
			return err
		}
		for _, x := range seeks {
			if x.ID == id {
				sk, ok = x, true
			}
		}
	}
	if !ok {
		return nil // TakeSeek answers that it is gone
	}
	return l.mayJoinSeek(ctx, sk, account)
}

// mayJoinSeek refuses account the seek sk when it is rated and the
// account may not play rated, or a block stands between the account and
// one of its players.
func (l *Lobby) mayJoinSeek(ctx context.Context, sk store.Seek, account string) error {
	if sk.Rated {
		if _, err := l.mayPlay(ctx, account, true); err != nil {
			return err
		}
	}
	for _, other := range append([]string{sk.Account}, sk.Joined...) {
		if other == account {
			continue
		}
		blocked, err := l.store.Blocking(ctx, account, other)
		if err != nil {
			return err
		}
		if blocked {
			return refuse(Blocked, "you cannot join that seek: a block stands between you and a player in it")
		}
	}
	return nil
}

// mayPlay refuses an account a moderator banned, or (for a rated game)
// marked as engine-assisted, with the reason they were given; it answers
// the account.
func (l *Lobby) mayPlay(ctx context.Context, account string, rated bool) (store.Account, error) {
	a, err := l.store.Account(ctx, account)
	if err != nil {
		return a, err
	}
	if a.Standing.Banned {
		return a, refuse(Banned, "your account is banned: %s", a.Standing.BanReason)
	}
	if rated && a.Standing.Engine {
		return a, refuse(Banned, "your account is marked as playing with an engine's help: it plays casual games only")
	}
	return a, nil
}
