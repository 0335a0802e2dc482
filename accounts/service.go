// Package accounts is the service of player accounts over the store:
// sign-up, login (throttled, and paid from each address's hash budget),
// sessions and their revocation, password changes, deletion, claims of
// anonymous games, passkey ceremonies, profiles, rating histories,
// leaderboards and exports. Package account holds the pure rules it
// applies (which names and passwords are accepted, how passwords are
// hashed, how failures are throttled, how session tokens are made);
// this package keeps their results in the store.
//
// It knows no HTTP: a transport passes in what it read of a request (the
// client's address, its cookies' values, the site's host) as strings,
// and maps the service's refusals (*Error, by Code) to its own answers.
package accounts

import (
	"log/slog"
	"time"

	"github.com/arbiter-games/arbiter/account"
	"github.com/arbiter-games/arbiter/store"
)

// SessionLife is how long a login lasts.
const SessionLife = 30 * 24 * time.Hour

// Config is what a Service runs with.
type Config struct {
	Store store.Store
	// Params, when not nil, replaces the Argon2id parameters of
	// account.DefaultParams (tests make them cheap; an operator keeps
	// the default).
	Params *account.Params
	// Limits bound each address's password hashes, sign-ups and failed
	// logins; zero fields take DefaultLimits'.
	Limits Limits
	// Now is the clock (nil: time.Now).
	Now func() time.Time
	// Logger receives the structured log; nil discards it.
	Logger *slog.Logger
}

// Service is the account service. Make one with New; it is safe for
// concurrent use.
type Service struct {
	store store.Store
	now   func() time.Time
	log   *slog.Logger
	// hasher has bounded slots, so that a login flood cannot take the
	// memory.
	hasher    *account.Hasher
	passwords *account.Passwords
	throttle  *account.Throttle
	hashes    *account.Budget
	signUps   *account.Budget
	// exports lets each account run one export at a time.
	exports *exportGate
}

// New makes a service over cfg.Store.
func New(cfg Config) (*Service, error) {
	p := account.DefaultParams()
	if cfg.Params != nil {
		p = *cfg.Params
	}
	l, err := cfg.Limits.WithDefaults()
	if err != nil {
		return nil, err
	}
	hasher, err := account.NewHasher(p, account.DefaultSlots())
	if err != nil {
		return nil, err
	}
	s := &Service{store: cfg.Store, now: cfg.Now, log: cfg.Logger, hasher: hasher, passwords: account.NewPasswords(),
		throttle: account.NewThrottle(l.Throttle),
		hashes:   account.NewBudget(account.BudgetConfig{Burst: l.HashBurst, Every: l.HashEvery, AtOnce: l.HashesAtOnce, MaxKeys: budgetKeys}),
		signUps:  account.NewBudget(account.BudgetConfig{Burst: l.SignUpBurst, Every: l.SignUpEvery, MaxKeys: budgetKeys}),
		exports:  newExportGate()}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	return s, nil
}

// Account is an account as the service's callers see it. Its password
// hash stays inside: the service signs device cookies with it.
type Account struct {
	ID   string
	Name string
	// Kind is what plays the account: a person, one of the site's AI
	// levels, or a bot (an engine, through the bot API).
	Kind    store.AccountKind
	Deleted bool
	Created time.Time
	// Standing is what moderators decided of the account, and its role.
	Standing store.Standing
	// password is the stored Argon2id hash, "" for an account nobody
	// logs in to with a password.
	password string
}

// IsLevel reports whether a is one of the site's AI levels.
func (a Account) IsLevel() bool { return a.Kind == store.AILevel }

// IsBot reports whether an engine plays a through the bot API.
func (a Account) IsBot() bool { return a.Kind == store.Bot }

func fromStore(a store.Account) Account {
	kind := a.Kind
	if kind == "" {
		kind = store.Person
	}
	return Account{ID: a.ID, Name: a.Name, Kind: kind, Deleted: a.Deleted, Created: a.Created, Standing: a.Standing, password: a.Password}
}

// Client is who sends a request, as the transport read it: its address
// (the key of its budgets and throttle) and the value of its device
// cookie ("" for none).
type Client struct {
	Addr   string
	Device string
}

// Session is a login just made: the token for the browser's cookie, and
// the account it logs in to.
type Session struct {
	Token   string
	Account Account
}
