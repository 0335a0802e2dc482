// Package notify brings players back: it tells them, by Web Push to
// their browsers and by e-mail to a verified address, that it is their
// turn in a correspondence game, that someone challenged them, that their
// seek was taken, or that the opponent ended a game; it keeps each
// player's choices of what reaches them how, their e-mail address and its
// verification, their browsers' push subscriptions, and it mails the
// links that reset a password.
//
// Every notification goes through a durable outbox in the store: a row
// per account, kind, subject and channel, inserted if absent, so that
// every server sharing the database may enqueue the same event and one
// row results; a server claims due rows by a conditional update, sends
// them, and marks them sent, retrying a failure with backoff a bounded
// number of times. A notification is sent once across servers (only a
// server that dies between sending and marking, for longer than a
// lease, lets another send it again).
//
// The events come from the hall (Config.Committed: moves and
// resignations) and the lobby (Config.Posted and Config.Started), whose
// hooks call GameCommitted, SeekPosted and SeekStarted; those only queue
// the event, which a goroutine of Start's turns into outbox rows. The
// package knows no HTTP server: a transport passes in what it read and
// maps the refusals (*Error, by Code). It is an HTTP client, of the
// browsers' push services, and an SMTP client.
package notify

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/arbiter-games/arbiter/account"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/store"
)

// The kinds of notification.
const (
	KindTurn      = "turn"      // your move in a correspondence game, after the quiet period
	KindChallenge = "challenge" // a seek that names you
	KindAccepted  = "accepted"  // your correspondence seek was taken: its game started
	KindEnded     = "ended"     // the opponent resigned, or their move ended the game
	// KindTournament is kept for "a tournament is about to start":
	// players may choose it, nothing sends it yet (no tournaments).
	KindTournament = "tournament"
)

// The mails that are no notification, sent whatever the choices: an
// address's verification and a password's reset.
const (
	kindVerify = store.TokenVerify
	kindReset  = store.TokenReset
)

// The channels a notification goes by. The page's is the browser's own
// (the open page shows it when its tab is hidden); the server sends the
// other two.
const (
	ChannelPage  = "page"
	ChannelPush  = "push"
	ChannelEmail = "email"
)

// Kinds are the kinds players choose, in the order pages list them;
// Channels the channels.
var (
	Kinds    = []string{KindTurn, KindChallenge, KindAccepted, KindEnded, KindTournament}
	Channels = []string{ChannelPage, ChannelPush, ChannelEmail}
)

// Default says whether a kind goes by a channel for a player who did not
// choose: everything by the page and push, e-mail for a turn, a
// challenge and a tournament (the ones that wait on the player), not for
// a seek taken or a game ended (the page and push say it).
func Default(kind, channel string) bool {
	if channel == ChannelEmail {
		return kind == KindTurn || kind == KindChallenge || kind == KindTournament
	}
	return true
}

// The service's defaults and bounds.
const (
	// DefaultQuiet is how long after a move its opponent is told it is
	// their turn, if it still is: a live game's reply comes sooner, and
	// sends nothing.
	DefaultQuiet = 2 * time.Minute
	// DefaultPoll is how often a server looks for due rows (besides
	// when it enqueued some itself).
	DefaultPoll = 5 * time.Second
	// DefaultAttempts bounds the sends of one row; DefaultBackoff is the
	// wait after the first failure, doubled after each.
	DefaultAttempts = 6
	DefaultBackoff  = 30 * time.Second
	// MaxSubscriptions bounds one account's push subscriptions (its
	// browsers and devices).
	MaxSubscriptions = 10
	// lease is how long a claimed row is a server's before another may
	// take it: longer than a send may take (sendTimeout).
	lease       = 2 * time.Minute
	sendTimeout = 30 * time.Second
	// claimBatch bounds the rows one round claims.
	claimBatch = 20
	// keep is how long sent, skipped and failed rows stay, for their
	// keys (an event enqueued again finds its row) and the operator.
	keep = 30 * 24 * time.Hour
	// events bounds the events waiting to be enqueued: past it, one is
	// dropped (and logged) rather than slow a move.
	events = 1024
)

// Games is what the service reads of the games in play: the hall.
type Games interface {
	Get(ctx context.Context, id string) (hall.View, error)
}

// Config is what a Service runs with.
type Config struct {
	Store store.Store
	// Games reads the games the events are about. Needed.
	Games Games
	// Mailer sends the mails; nil: this site sends none (no address is
	// asked for, no password is reset by mail).
	Mailer Mailer
	// PublicURL is the site's address as its players reach it,
	// https://HOST[/PATH], for the links mailed; needed with a Mailer. It
	// is also the contact push services are given (Contact's default).
	PublicURL string
	// Contact is how push services reach the operator: an https URL or
	// an e-mail address (RFC 8292's "sub"); "" is PublicURL.
	Contact string
	// Quiet is the quiet period of a turn (0: DefaultQuiet).
	Quiet time.Duration
	// Poll is how often the outbox is read for due rows (0:
	// DefaultPoll).
	Poll time.Duration
	// Attempts and Backoff bound the retries of a failed send (0:
	// DefaultAttempts, DefaultBackoff).
	Attempts int
	Backoff  time.Duration
	// Push is the HTTP client of the push services; nil is one that
	// dials only public addresses (a subscription cannot make the server
	// call into its own network), or loopback ones too with
	// AllowLoopback.
	Push *http.Client
	// AllowLoopback lets a subscription's endpoint be on a loopback
	// address, over http or https: for tests, whose push service is on
	// this machine. Never for a site.
	AllowLoopback bool
	// Limits bound the requests of resets and verifications.
	Limits Limits
	// Now is the clock (nil: time.Now); Logger receives the log (nil
	// discards it).
	Now    func() time.Time
	Logger *slog.Logger
}

// Limits bound what one client address and one account may have mailed;
// zero fields take DefaultLimits'.
type Limits struct {
	// ResetBurst and ResetEvery bound the password resets one client
	// address may ask for (answered 429: that says nothing of the
	// accounts); ResetsPerHour the reset mails one account is sent
	// (past it, a request is answered as any other, and mails nothing).
	ResetBurst    int
	ResetEvery    time.Duration
	ResetsPerHour int
	// VerifiesPerHour bounds the verification mails one account asks
	// for (setting an address).
	VerifiesPerHour int
}

// DefaultLimits: 5 resets an address, then one every 5 minutes; 3 reset
// mails and 5 verification mails an account an hour.
var DefaultLimits = Limits{ResetBurst: 5, ResetEvery: 5 * time.Minute, ResetsPerHour: 3, VerifiesPerHour: 5}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	if l.ResetBurst > 0 {
		d.ResetBurst = l.ResetBurst
	}
	if l.ResetEvery > 0 {
		d.ResetEvery = l.ResetEvery
	}
	if l.ResetsPerHour > 0 {
		d.ResetsPerHour = l.ResetsPerHour
	}
	if l.VerifiesPerHour > 0 {
		d.VerifiesPerHour = l.VerifiesPerHour
	}
	return d
}

// Service is the notification service. Make one with New, Start it, and
// Close it; it is safe for concurrent use.
type Service struct {
	cfg    Config
	store  store.Store
	games  Games
	mailer Mailer
	site   string // PublicURL without its trailing slash
	log    *slog.Logger
	now    func() time.Time
	limits Limits
	push   *http.Client
	// vapid is the site's Web Push key pair; unsub signs the unsubscribe
	// links. Both are the store's, shared by every server.
	vapid  vapidKeys
	unsub  []byte
	resets *account.Budget

	events chan func(ctx context.Context)
	poke   chan struct{}
	mu     sync.Mutex
	stop   context.CancelFunc
	wg     sync.WaitGroup
	closed bool
}

// New makes a service over cfg.Store, reading (or, on the first start of
// a database, making) the site's keys.
func New(ctx context.Context, cfg Config) (*Service, error) {
	if cfg.Store == nil || cfg.Games == nil {
		return nil, errors.New("notify: a store and the games are needed")
	}
	if cfg.Quiet < 0 || cfg.Poll < 0 || cfg.Attempts < 0 || cfg.Backoff < 0 {
		return nil, errors.New("notify: a negative quiet period, poll, attempts or backoff")
	}
	site, err := publicURL(cfg.PublicURL, cfg.Mailer != nil)
	if err != nil {
		return nil, err
	}
	s := &Service{cfg: cfg, store: cfg.Store, games: cfg.Games, mailer: cfg.Mailer, site: site, log: cfg.Logger, now: cfg.Now,
		limits: cfg.Limits.withDefaults(), push: cfg.Push, events: make(chan func(context.Context), events), poke: make(chan struct{}, 1),
		stop: func() {}}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.cfg.Quiet == 0 {
		s.cfg.Quiet = DefaultQuiet
	}
	if s.cfg.Poll == 0 {
		s.cfg.Poll = DefaultPoll
	}
	if s.cfg.Attempts == 0 {
		s.cfg.Attempts = DefaultAttempts
	}
	if s.cfg.Backoff == 0 {
		s.cfg.Backoff = DefaultBackoff
	}
	if s.push == nil {
		s.push = pushClient(cfg.AllowLoopback)
	}
	s.resets = account.NewBudget(account.BudgetConfig{Burst: s.limits.ResetBurst, Every: s.limits.ResetEvery, MaxKeys: 1 << 16})
	if s.vapid, err = loadVAPID(ctx, cfg.Store); err != nil {
		return nil, err
	}
	if s.unsub, err = loadKey(ctx, cfg.Store, "unsubscribe"); err != nil {
		return nil, err
	}
	return s, nil
}

// publicURL checks the site's public URL and gives it without its
// trailing slash; mailed links need one, over https.
func publicURL(raw string, needed bool) (string, error) {
	if raw == "" {
		if needed {
			return "", errors.New("notify: e-mail needs the site's public URL (https://HOST) for its links")
		}
		return "", nil
	}
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("notify: public URL %s: want https://HOST or https://HOST/PATH", clip.Quote(raw))
	}
	return strings.TrimSuffix(u.String(), "/"), nil
}

// Mail reports whether the site sends e-mail.
func (s *Service) Mail() bool { return s.mailer != nil }

// Start runs the service's goroutines until Close: the one that turns
// events into outbox rows, and the sender.
func (s *Service) Start(context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("notify: closed")
	}
	ctx, stop := context.WithCancel(context.Background())
	s.stop = stop
	s.wg.Add(2)
	go func() {
		defer s.wg.Done()
		s.handleEvents(ctx)
	}()
	go func() {
		defer s.wg.Done()
		s.run(ctx)
	}()
	return nil
}

// Close stops the goroutines, once the rows being sent are marked; events
// not yet enqueued are dropped.
func (s *Service) Close() {
	s.mu.Lock()
	s.closed = true
	stop := s.stop
	s.mu.Unlock()
	stop()
	s.wg.Wait()
}

// Nudge asks the sender to look for due rows now.
func (s *Service) Nudge() {
	select {
	case s.poke <- struct{}{}:
	default:
	}
}

// queue hands work to the events' goroutine, or drops it (logged) when
// too much waits: a hook never blocks a move or a request.
func (s *Service) queue(what string, work func(ctx context.Context)) {
	select {
	case s.events <- work:
	default:
		s.log.Warn("notification dropped: too many waiting", "event", what)
	}
}

// handleEvents does the queued work until ctx ends.
func (s *Service) handleEvents(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case work := <-s.events:
			wctx, cancel := context.WithTimeout(ctx, sendTimeout)
			work(wctx)
			cancel()
		}
	}
}

// newID is a fresh row or subscription id: 20 random letters and digits.
func newID() string {
	b := make([]byte, 12)
	rand.Read(b)
	return strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))
}
