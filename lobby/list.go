package lobby

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/rating"
	"github.com/arbiter-games/arbiter/store"
)

// Query is what a list of seeks keeps, as a client wrote it: a game id,
// a kind (store.RealTime or store.Correspondence), a cursor to list the
// seeks after, and a limit; "" for each is every game, both kinds, the
// first page, SeekPage.
type Query struct {
	Game, Kind, Before, Limit string
	// Viewer is the account that asks ("" for none): the seeks of the
	// accounts it blocks, or that block it, are left out.
	Viewer string
}

// SeekView is a seek as the lobby lists it.
type SeekView struct {
	ID          string
	Game        string
	Options     map[string]string
	Rated       bool
	NoTakebacks bool
	Clock       *SeekControl
	By          string
	Rating      float64
	Provisional bool
	To          *string
	// ToBot: the challenged account is a bot (store.AccountKind Bot).
	ToBot   bool
	Seats   int
	Joined  []string
	Created time.Time
	// Accounts are the ids of the seeker and of those who joined, which
	// a viewer's blocks are matched against; transports do not show them.
	Accounts []string
	// Kind is realtime or correspondence; Cursor, given as a Query's
	// Before, lists the seeks after this one.
	Kind   string
	Cursor string
}

// List gives the open seeks q keeps, newest first, with their seekers'
// names and ratings; a malformed q is refused (BadQuery).
func (l *Lobby) List(ctx context.Context, q Query) ([]SeekView, error) {
	f, err := q.filter()
	if err != nil {
		return nil, err
	}
	seeks, err := l.list(ctx, f)
	if err != nil {
		return nil, err
	}
	views, err := l.views(ctx, seeks)
	if err != nil {
		return nil, err
	}
	hidden, err := l.hidden(ctx, q.Viewer)
	if err != nil {
		return nil, err
	}
	return shownTo(views, hidden), nil
}

// Open lists the seeks as a subscriber (viewer, "" for none) is shown
// them: the first page of each kind, every game.
func (l *Lobby) Open(ctx context.Context, viewer string) ([]SeekView, error) {
	return l.List(ctx, Query{Viewer: viewer})
}

// filter is the store's filter of q.
func (q Query) filter() (store.SeekFilter, error) {
	f := store.SeekFilter{Game: q.Game, Kind: q.Kind, Limit: SeekPage}
	if f.Game != "" {
		if _, ok := game.Lookup(f.Game); !ok {
			return f, refuse(BadQuery, "unknown game %s; want one of %s", clip.Quote(f.Game), gameIDs())
		}
	}
	if f.Kind != "" && f.Kind != store.RealTime && f.Kind != store.Correspondence {
		return f, refuse(BadQuery, "kind %s: want %s or %s", clip.Quote(f.Kind), store.RealTime, store.Correspondence)
	}
	if q.Before != "" {
		c, ok := parseCursor(q.Before)
		if !ok {
			return f, refuse(BadQuery, "before %s: want a seek's cursor, as the list gives it", clip.Quote(q.Before))
		}
		f.Before = c
	}
	if q.Limit != "" {
		n, err := strconv.Atoi(q.Limit)
		if err != nil || n < 1 || n > MaxSeekPage {
			return f, refuse(BadQuery, "limit %s: want 1 to %d", clip.Quote(q.Limit), MaxSeekPage)
		}
		f.Limit = n
	}
	return f, nil
}

// cursor is where the list goes on after sk: its time in milliseconds
// and its id ("1764633600000.abc...").
func cursor(sk store.Seek) string {
	return strconv.FormatInt(sk.Created.UnixMilli(), 10) + "." + sk.ID
}

// parseCursor reads a cursor: digits, a dot, and an id of lowercase
// letters and digits, no longer than a real one could be.
func parseCursor(text string) (store.SeekCursor, bool) {
	ms, id, ok := strings.Cut(text, ".")
	if !ok || len(ms) == 0 || len(ms) > 15 || len(id) == 0 || len(id) > 40 {
		return store.SeekCursor{}, false
	}
	for _, c := range ms {
		if c < '0' || c > '9' {
			return store.SeekCursor{}, false
		}
	}
	for _, c := range id {
		if (c < 'a' || c > 'z') && (c < '0' || c > '9') {
			return store.SeekCursor{}, false
		}
	}
	n, err := strconv.ParseInt(ms, 10, 64)
	if err != nil {
		return store.SeekCursor{}, false
	}
	return store.SeekCursor{Created: time.UnixMilli(n), ID: id}, true
}

// list reads the open seeks f keeps, newest first: with no kind, f.Limit
// of each kind, so that a lobby full of correspondence seeks still shows
// the newest real-time ones.
func (l *Lobby) list(ctx context.Context, f store.SeekFilter) ([]store.Seek, error) {
	if f.Kind != "" {
		return l.store.Seeks(ctx, l.now(), f)
	}
	var all []store.Seek
	for _, kind := range []string{store.RealTime, store.Correspondence} {
		f.Kind = kind
		seeks, err := l.store.Seeks(ctx, l.now(), f)
		if err != nil {
			return nil, err
		}
		all = append(all, seeks...)
	}
	slices.SortStableFunc(all, func(a, b store.Seek) int {
		if c := b.Created.Compare(a.Created); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
	return all, nil
}

// views gives seeks with their seekers' names and ratings.
func (l *Lobby) views(ctx context.Context, seeks []store.Seek) ([]SeekView, error) {
	names := map[string]store.Account{}
	accountOf := func(id string) store.Account {
		if a, ok := names[id]; ok {
			return a
		}
		a, err := l.store.Account(ctx, id)
		if err != nil {
			return store.Account{ID: id, Name: "?"}
		}
		names[id] = a
		return a
	}
	nameOf := func(id string) string { return accountOf(id).Name }
	// One read of each seeker's ratings, however many seeks they have.
	ratings := map[string][]store.Rating{}
	ratingIn := func(account, game string) (store.Rating, bool) {
		list, ok := ratings[account]
		if !ok {
			list, _ = l.store.Ratings(ctx, account)
			ratings[account] = list
		}
		for _, x := range list {
			if x.Game == game {
				return x, true
			}
		}
		return store.Rating{}, false
	}
	list := []SeekView{}
	for _, sk := range seeks {
		v := SeekView{ID: sk.ID, Game: sk.Game, Options: sk.Options, Rated: sk.Rated, NoTakebacks: sk.NoTakebacks,
			Clock: shownControl(sk.Clock), By: nameOf(sk.Account),
			Seats: sk.Seats, Joined: []string{}, Created: sk.Created, Rating: 1500, Provisional: true,
			Kind: store.RealTime, Cursor: cursor(sk), Accounts: append([]string{sk.Account}, sk.Joined...)}
		if sk.Correspondence() {
			v.Kind = store.Correspondence
		}
		if sk.Target != "" {
			target := accountOf(sk.Target)
			v.To, v.ToBot = &target.Name, target.IsBot()
		}
		for _, id := range sk.Joined {
			v.Joined = append(v.Joined, nameOf(id))
		}
		if x, ok := ratingIn(sk.Account, sk.Game); ok {
			v.Rating, v.Provisional = shownRating(x)
		}
		list = append(list, v)
	}
	return list, nil
}

// shownRating is a rating as a list shows it, to one decimal (as the
// profiles do), and whether it is still provisional.
func shownRating(r store.Rating) (float64, bool) {
	g := rating.Glicko{Rating: r.Rating, RD: r.RD, Volatility: r.Volatility}
	return float64(int64(r.Rating*10+0.5)) / 10, g.Provisional()
}

// gameIDs lists the games' ids, for a message naming what is allowed.
func gameIDs() string {
	var ids []string
	for _, d := range game.All() {
		ids = append(ids, d.ID)
	}
	return strings.Join(ids, ", ")
}
