package store

import (
	"context"
	"errors"
	"time"

	"github.com/arbiter-games/arbiter/timecontrol"
)

// The errors of the accounts' part of a store.
var (
	// ErrNameTaken: another account has that name, ignoring case.
	ErrNameTaken = errors.New("that name is taken")
	// ErrNoAccount: no account has that id or name.
	ErrNoAccount = errors.New("no such account")
	// ErrNoSession: the session is unknown, expired or ended.
	ErrNoSession = errors.New("no such session")
	// ErrNoSeek: the seek is gone (taken, withdrawn or expired).
	ErrNoSeek = errors.New("no such seek")
	// ErrOwnSeek: an account accepted its own seek, or one it joined.
	ErrOwnSeek = errors.New("that seek is your own")
	// ErrNotForYou: a challenge to another account.
	ErrNotForYou = errors.New("that challenge is for someone else")
	// ErrTooManySeeks: the account has as many open seeks as allowed.
	ErrTooManySeeks = errors.New("too many open seeks")
	// ErrTooManyAddressSeeks: the seek's address has as many open seeks
	// as allowed, whatever their accounts.
	ErrTooManyAddressSeeks = errors.New("too many open seeks from one address")
	// ErrNoPasskey: no passkey has that id (for that account).
	ErrNoPasskey = errors.New("no such passkey")
	// ErrTooManyPasskeys: the account has as many passkeys as allowed.
	ErrTooManyPasskeys = errors.New("too many passkeys")
	// ErrNoCeremony: the passkey ceremony is unknown, used or expired.
	ErrNoCeremony = errors.New("no such passkey ceremony")
)

// DeletedName is the name a deleted account shows, in its games too.
const DeletedName = "deleted"

// Account is a lasting name: a person's, an AI level's or a bot's (its
// Kind).
type Account struct {
	ID   string
	Name string
	// Password is the Argon2id hash (a PHC string); "" for accounts
	// nobody logs in to (the AI levels, deleted accounts).
	Password string
	// Kind is what plays the account; "" is a person.
	Kind    AccountKind
	Deleted bool
	Created time.Time
	// Standing is what moderators decided of it, and its role.
	Standing Standing
}

// AccountKind is what plays an account. The word "bot" names one kind
// only: an engine its author brings through the bot API. The site's own
// AI levels (ai-level-1 to 6) are another kind, AILevel.
type AccountKind string

// The kinds of account, as the accounts table's kind column keeps them.
const (
	// Person: someone who signs in to the pages (the zero Kind too).
	Person AccountKind = "person"
	// AILevel: one of the site's AI levels, played by the server itself;
	// nobody logs in to it, challenges it or sees it on a leaderboard.
	AILevel AccountKind = "level"
	// Bot: an account an engine plays through the bot API with an API
	// token; it turned itself into one before it played any game, and
	// never goes back.
	Bot AccountKind = "bot"
)

// IsLevel reports whether a is one of the site's AI levels.
func (a Account) IsLevel() bool { return a.Kind == AILevel }

// IsBot reports whether an engine plays a through the bot API.
func (a Account) IsBot() bool { return a.Kind == Bot }

// Session is a logged-in browser: the SHA-256 of its cookie's token.
type Session struct {
	Hash    []byte
	Account string
	Created time.Time
	Expires time.Time
}

// Rating is an account's Glicko-2 rating in one game id.
type Rating struct {
	Game       string
	Rating     float64
	RD         float64
	Volatility float64
	Games      int
	Updated    time.Time
}

// RatingChange is what one rated game did to one seat's rating.
type RatingChange struct {
	Account    string
	Name       string
	GameID     string
	Game       string
	Seat       int
	At         time.Time
	Before     float64
	Rating     float64
	RD         float64
	Volatility float64
}

// Ranked is one row of a leaderboard.
type Ranked struct {
	Name string
	// Bot: an engine plays the account (AccountKind Bot).
	Bot bool
	Rating
}

// Seek is an open offer to play, waiting in the lobby.
type Seek struct {
	ID      string
	Account string
	Game    string
	Options map[string]string
	Rated   bool
	// NoTakebacks turns take-backs off in the game the seek starts.
	NoTakebacks bool
	// Clock is the time control of the game the seek starts, nil for
	// none. A seek's control is stored in whole seconds (Fischer) or
	// whole days a move (correspondence).
	Clock *timecontrol.Control
	// Target is the challenged account's id; "" for anyone.
	Target string
	// Seats is how many play; Joined, the accounts that accepted so far.
	Seats  int
	Joined []string
	// Address is the poster's client address key, which bounds the open
	// seeks of one address across every server sharing the database; ""
	// for none (a seek stored before addresses were).
	Address string
	Created time.Time
	Expires time.Time
}

// Correspondence is true for a seek whose control gives days a move;
// every other seek is real time.
func (s Seek) Correspondence() bool { return s.Clock != nil && s.Clock.Correspondence() }

// The kinds of seek a SeekFilter keeps.
const (
	RealTime       = "realtime"
	Correspondence = "correspondence"
)

// SeekFilter selects the seeks Seeks lists, newest first (by Created,
// then by ID).
type SeekFilter struct {
	Game string // a game id, or "" for every game
	Kind string // RealTime, Correspondence, or "" for both
	// Target, when not "", keeps the challenges to that account only.
	Target string
	// Before, when its ID is not empty, keeps the seeks listed after it:
	// created before it, or at the same time with a smaller id (paging).
	Before SeekCursor
	Limit  int // 0: 100; negative is an error
}

// SeekCursor is where a page of seeks ends: its last seek's Created and
// ID.
type SeekCursor struct {
	Created time.Time
	ID      string
}

// Passkey is a WebAuthn credential that logs its account in.
type Passkey struct {
	ID      string // the credential's id, base64url
	Account string
	Name    string
	// Credential is the credential as the WebAuthn library keeps it
	// (JSON): the store does not read it.
	Credential []byte
	Created    time.Time
	Used       time.Time
}

// GameFilter selects an account's games.
type GameFilter struct {
	Game    string // a game id, or "" for every game
	Ongoing bool
	// Before, when not zero, keeps games created before it (paging).
	Before time.Time
	Limit  int // 0: 100
}

// Accounts keeps accounts, their sessions, ratings and games, and the
// lobby's seeks.
type Accounts interface {
	// CreateAccount stores a new account; ErrNameTaken if another has
	// the name, ignoring case.
	CreateAccount(ctx context.Context, a Account) error
	// Account reads an account by id, AccountByName by name (ignoring
	// case); ErrNoAccount if there is none.
	Account(ctx context.Context, id string) (Account, error)
	AccountByName(ctx context.Context, name string) (Account, error)
	// SetPassword changes an account's password hash and ends every
	// session of the account but keep's (nil: every one).
	SetPassword(ctx context.Context, id, hash string, keep []byte) error
	// DeleteAccount ends the account's sessions, seeks and passkeys,
	// removes its puzzle ratings and attempts, its e-mail address, tokens,
	// push subscriptions, notification choices and outbox rows, forgets
	// its password, and
	// shows DeletedName in its place, in its games too (their version
	// moves on). Its ratings leave the leaderboards; its
	// games and their results stay.
	DeleteAccount(ctx context.Context, id string, now time.Time) error
	// EnsureLevel creates the account a of an AI level (its Kind made
	// AILevel) if no account has its name, and gives it each rating of
	// seed for a game it has no rating in; an account of the name that is
	// not an AI level's is an error.
	EnsureLevel(ctx context.Context, a Account, seed []Rating) error

	// CreateSession stores a session; SessionAccount finds the account
	// of an unexpired one (ErrNoSession otherwise).
	CreateSession(ctx context.Context, s Session) error
	SessionAccount(ctx context.Context, hash []byte, now time.Time) (Account, error)
	// DeleteSession ends one session; DeleteSessions every session of
	// account but keep's (nil: every one).
	DeleteSession(ctx context.Context, hash []byte) error
	DeleteSessions(ctx context.Context, account string, keep []byte) error

	// Ratings gives an account's ratings, by game id.
	Ratings(ctx context.Context, account string) ([]Rating, error)
	// SetRating writes an account's rating in r.Game (the AI levels'
	// measured ratings).
	SetRating(ctx context.Context, account string, r Rating) error
	// RatingHistory gives an account's rating changes in a game id,
	// oldest first, at most limit (the newest ones).
	RatingHistory(ctx context.Context, account, game string, limit int) ([]RatingChange, error)
	// GameRatings gives the rating changes a game made, by seat.
	GameRatings(ctx context.Context, gameID string) ([]RatingChange, error)
	// Leaderboard gives the best ratings in a game id of the accounts
	// that played a rated game since since, the AI levels, deleted and
	// closed accounts and accounts marked as playing with an engine's
	// help (Standing.Engine) left out; bots are ranked as people are.
	Leaderboard(ctx context.Context, game string, since time.Time, limit int) ([]Ranked, error)
	// PlayerGames gives the games an account holds a seat in, newest
	// first.
	PlayerGames(ctx context.Context, account string, f GameFilter) ([]Header, error)

	// CreateSeek stores a seek, unless its account has perAccount open
	// seeks already (ErrTooManySeeks) or its address, when not "",
	// perAddress (ErrTooManyAddressSeeks): counted in the transaction of
	// the insert.
	CreateSeek(ctx context.Context, s Seek, perAccount, perAddress int) error
	// Seeks lists the seeks not expired at now that f keeps, newest
	// first.
	Seeks(ctx context.Context, now time.Time, f SeekFilter) ([]Seek, error)
	// TakeSeek adds account to a seek's players: when that fills it, the
	// seek is removed and full is true. ErrOwnSeek for the seek's own
	// account or one that joined; ErrNotForYou for another's challenge;
	// ErrNoSeek when it is gone.
	TakeSeek(ctx context.Context, id, account string, now time.Time) (s Seek, full bool, err error)
	// RestoreSeek puts back a seek taken whose game could not start.
	RestoreSeek(ctx context.Context, s Seek) error
	// DeleteSeek withdraws account's seek (ErrNoSeek if it has none of
	// that id).
	DeleteSeek(ctx context.Context, id, account string) error
	// AddPasskey stores a passkey unless its account has max already
	// (ErrTooManyPasskeys).
	AddPasskey(ctx context.Context, p Passkey, max int) error
	// Passkeys lists an account's passkeys, oldest first; Passkey finds
	// one by id (ErrNoPasskey).
	Passkeys(ctx context.Context, account string) ([]Passkey, error)
	Passkey(ctx context.Context, id string) (Passkey, error)
	// UsePasskey records a login by the passkey: its credential after it
	// (the signature count) and the time.
	UsePasskey(ctx context.Context, id string, credential []byte, at time.Time) error
	// DeletePasskey removes one of account's passkeys (ErrNoPasskey).
	DeletePasskey(ctx context.Context, account, id string) error
	// PutCeremony keeps a passkey ceremony's data until expires;
	// TakeCeremony gives it once, and removes it (ErrNoCeremony when
	// unknown, taken or expired at now).
	PutCeremony(ctx context.Context, id, account string, data []byte, expires time.Time) error
	TakeCeremony(ctx context.Context, id string, now time.Time) (account string, data []byte, err error)

	// ExtendSeeks keeps account's seeks open at now that expire before
	// until open until then (the seeker is still there).
	ExtendSeeks(ctx context.Context, account string, now, until time.Time) error
}
