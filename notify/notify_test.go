package notify

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/account"
	_ "github.com/arbiter-games/arbiter/games/all"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/notify/notifytest"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/sqlite"
	"github.com/arbiter-games/arbiter/timecontrol"
)

// clock is the tests' time, moved by hand: no test waits for the quiet
// period or a backoff to pass.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// site is the public URL of the tests' site.
const site = "https://arbiter.test"

// fixture is a hall and a notification service over one SQLite store,
// mailing to a real SMTP server and pushing to a push service of the
// test's, on a clock of the test's.
type fixture struct {
	t     *testing.T
	st    store.Store
	hall  *hall.Hall
	svc   *Service
	clock *clock
	mb    *notifytest.Mailbox
	ps    *notifytest.PushService
}

func newFixture(t *testing.T, edit ...func(*Config)) *fixture {
	t.Helper()
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fixture{t: t, st: st, clock: &clock{now: time.Now().UTC().Truncate(time.Second)}, mb: notifytest.NewMailbox(t), ps: notifytest.NewPushService(t)}
	var svc *Service
	h, err := hall.New(hall.Config{Store: st, Now: f.clock.Now, Committed: func(ctx context.Context, c hall.Committed) { svc.GameCommitted(ctx, c) }})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	cfg, err := ParseSMTP(f.mb.URL(), "arbiter <games@arbiter.test>")
	if err != nil {
		t.Fatal(err)
	}
	mailer, err := NewSMTP(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := Config{Store: st, Games: h, Mailer: mailer, PublicURL: site, Now: f.clock.Now, AllowLoopback: true,
		Poll: time.Hour} // the tests send with SendDue, or by a nudge
	for _, e := range edit {
		e(&c)
	}
	if svc, err = New(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	// No nudge wakes the sender (a nil channel never sends, and Nudge
	// skips it): the tests send with SendDue, at the times they choose.
	svc.poke = nil
	if err := svc.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	f.hall, f.svc = h, svc
	return f
}

// nextMail sends what is due until a mail comes (the events are
// enqueued on the service's goroutine), and gives it.
func (f *fixture) nextMail() notifytest.Mail {
	f.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := f.svc.SendDue(context.Background()); err != nil {
			f.t.Fatal(err)
		}
		select {
		case m := <-f.mb.Mails:
			return m
		case <-time.After(10 * time.Millisecond):
		}
	}
	f.t.Fatal("no mail came")
	return notifytest.Mail{}
}

// of are the rows of kind among rows.
func of(rows []store.OutboxItem, kind string) []store.OutboxItem {
	var out []store.OutboxItem
	for _, o := range rows {
		if o.Kind == kind {
			out = append(out, o)
		}
	}
	return out
}

// kindRows waits until account has n rows of kind, and gives them.
func (f *fixture) kindRows(account, kind string, n int) []store.OutboxItem {
	f.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		rows, err := f.st.OutboxOf(context.Background(), account)
		if err != nil {
			f.t.Fatal(err)
		}
		if got := of(rows, kind); len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("%s has %d outbox rows of %s, want %d", account, len(of(rows, kind)), kind, n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// account stores an account named name (its id "id-"+name).
func (f *fixture) account(name string) string {
	f.t.Helper()
	a := store.Account{ID: "id-" + name, Name: name, Password: "x", Created: f.clock.Now()}
	if err := f.st.CreateAccount(context.Background(), a); err != nil {
		f.t.Fatal(err)
	}
	return a.ID
}

// verify sets account's address and follows the link mailed to it.
func (f *fixture) verify(account, address string) {
	f.t.Helper()
	if err := f.svc.SetEmail(context.Background(), account, address); err != nil {
		f.t.Fatal(err)
	}
	m := f.nextMail()
	if m.To != address {
		f.t.Fatalf("the verification went to %s, want %s", m.To, address)
	}
	link := notifytest.LinkAfter(f.t, m.Body, site+"/verify-email?token=")
	u, _ := url.Parse(link)
	if got, err := f.svc.VerifyEmail(context.Background(), u.Query().Get("token")); err != nil || got != address {
		f.t.Fatalf("VerifyEmail = %q, %v", got, err)
	}
}

// correspondence starts a game of 3 days a move between two accounts,
// white first.
func (f *fixture) correspondence(white, black string) hall.Created {
	f.t.Helper()
	c, err := f.hall.Create(context.Background(), hall.NewGame{Game: "pommel", Seats: []string{"human", "human"}, Days: 3,
		Accounts: []hall.SeatAccount{{Seat: 0, ID: white, Name: strings.TrimPrefix(white, "id-")}, {Seat: 1, ID: black, Name: strings.TrimPrefix(black, "id-")}}})
	if err != nil {
		f.t.Fatal(err)
	}
	return c
}

// move plays the first legal move for account.
func (f *fixture) move(id, account string) hall.View {
	f.t.Helper()
	v, err := f.hall.Get(context.Background(), id)
	if err != nil {
		f.t.Fatal(err)
	}
	after, err := f.hall.Move(context.Background(), id, hall.Who{Account: account}, v.Legal[0], v.Ply)
	if err != nil {
		f.t.Fatal(err)
	}
	return after
}

// rows waits until account has n outbox rows (the events are enqueued
// on the service's goroutine) and gives them.
func (f *fixture) rows(account string, n int) []store.OutboxItem {
	f.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		rows, err := f.st.OutboxOf(context.Background(), account)
		if err != nil {
			f.t.Fatal(err)
		}
		if len(rows) >= n {
			return rows
		}
		if time.Now().After(deadline) {
			f.t.Fatalf("%s has %d outbox rows, want %d", account, len(rows), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// sendDue sends what is due and wants n rows claimed.
func (f *fixture) sendDue(n int) {
	f.t.Helper()
	got, err := f.svc.SendDue(context.Background())
	if err != nil || got != n {
		f.t.Fatalf("SendDue = %d, %v; want %d rows", got, err, n)
	}
}

// states are the states of account's rows, by channel.
func (f *fixture) states(account string) map[string]string {
	f.t.Helper()
	rows, err := f.st.OutboxOf(context.Background(), account)
	if err != nil {
		f.t.Fatal(err)
	}
	out := map[string]string{}
	for _, o := range rows {
		if o.Kind != kindVerify {
			out[o.Kind+"/"+o.Channel] = o.State
		}
	}
	return out
}

// TestTurnAfterTheQuietPeriod: a move in a correspondence game tells
// the opponent it is their move, by push (decrypted here, its VAPID
// signature checked) and by mail (its one-click unsubscribe headers
// read), once the quiet period has passed with the turn still theirs;
// nothing before it.
func TestTurnAfterTheQuietPeriod(t *testing.T) {
	f := newFixture(t)
	ada, bob := f.account("ada"), f.account("bob")
	f.verify(bob, "bob@example.org")
	if _, err := f.svc.Subscribe(context.Background(), bob, subscription(f.ps, "/push/bob")); err != nil {
		t.Fatal(err)
	}
	g := f.correspondence(ada, bob)
	f.move(g.ID, ada)
	rows := f.kindRows(bob, KindTurn, 2)
	for _, o := range rows {
		if o.Kind != KindTurn || o.Subject != g.ID+"/1" || !o.Due.Equal(f.clock.Now().Add(DefaultQuiet)) {
			t.Errorf("row %+v: want a turn at ply 1, due after the quiet period", o)
		}
	}
	f.sendDue(0)
	f.clock.advance(DefaultQuiet - time.Second)
	f.sendDue(0)
	f.ps.None(t, "before the quiet period")
	f.mb.None(t, "before the quiet period")
	f.clock.advance(time.Second)
	f.sendDue(2)

	settings, err := f.svc.Settings(context.Background(), bob)
	if err != nil {
		t.Fatal(err)
	}
	msg := f.ps.Open(t, f.ps.Next(t), settings.VAPIDKey)
	if msg.URL != "/play/"+g.ID || !strings.Contains(msg.Title, "ada") || !strings.Contains(msg.Body, "Pommel") {
		t.Errorf("push %+v: want the game's page, ada's name and the game's", msg)
	}
	m := f.mb.Next(t)
	unsub := m.Header.Get("List-Unsubscribe")
	if m.To != "bob@example.org" || !strings.HasPrefix(unsub, "<"+site+"/unsubscribe?token=") ||
		m.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
		t.Errorf("mail to %s, List-Unsubscribe %q, -Post %q", m.To, unsub, m.Header.Get("List-Unsubscribe-Post"))
	}
	if !strings.Contains(m.Body, site+"/play/"+g.ID) || !strings.Contains(m.Body, strings.Trim(unsub, "<>")) {
		t.Errorf("the mail's body lacks the game's link or the unsubscribe link:\n%s", m.Body)
	}
	if st := f.states(bob); st["turn/push"] != store.OutboxSent || st["turn/email"] != store.OutboxSent {
		t.Errorf("states %v, want both sent", st)
	}
	// The one-click unsubscribe turns off this kind's mails, and only
	// these.
	u, _ := url.Parse(strings.Trim(unsub, "<>"))
	if got, err := f.svc.Unsubscribe(context.Background(), u.Query().Get("token")); err != nil || got.Kind != KindTurn {
		t.Fatalf("Unsubscribe = %+v, %v", got, err)
	}
	if s, _ := f.svc.Settings(context.Background(), bob); s.Prefs[KindTurn][ChannelEmail] || !s.Prefs[KindChallenge][ChannelEmail] || !s.Prefs[KindTurn][ChannelPush] {
		t.Errorf("prefs after unsubscribing %v", s.Prefs)
	}
	f.ps.None(t, "after the one push")
	f.mb.None(t, "after the one mail")
}

// TestLiveGameSendsNothing: an opponent who answers within the quiet
// period is told nothing; the first player, whose turn it then is and
// still is after the quiet period, is told.
func TestLiveGameSendsNothing(t *testing.T) {
	f := newFixture(t)
	ada, bob := f.account("ada"), f.account("bob")
	for _, a := range []string{ada, bob} {
		if _, err := f.svc.Subscribe(context.Background(), a, subscription(f.ps, "/push/"+a)); err != nil {
			t.Fatal(err)
		}
	}
	g := f.correspondence(ada, bob)
	f.move(g.ID, ada)
	f.rows(bob, 1)
	f.clock.advance(time.Minute)
	f.move(g.ID, bob)
	f.rows(ada, 1)
	f.clock.advance(DefaultQuiet)
	f.sendDue(2) // bob's turn at ply 1 has passed: skipped; ada's at ply 2 is still hers
	if st := f.states(bob); st["turn/push"] != store.OutboxSkipped {
		t.Errorf("bob's row %v, want skipped (he moved within the quiet period)", st)
	}
	if msg := f.ps.Open(t, f.ps.Next(t), f.svc.vapid.public); msg.URL != "/play/"+g.ID {
		t.Errorf("ada's push %+v", msg)
	}
	f.ps.None(t, "bob answered at once")
}

// TestRealTimeGameSendsNothing: a game with a real-time clock (or none)
// makes no row at all.
func TestRealTimeGameSendsNothing(t *testing.T) {
	f := newFixture(t)
	ada, bob := f.account("ada"), f.account("bob")
	c, err := f.hall.Create(context.Background(), hall.NewGame{Game: "pommel", Seats: []string{"human", "human"}, Clock: "5m+3s",
		Accounts: []hall.SeatAccount{{Seat: 0, ID: ada, Name: "ada"}, {Seat: 1, ID: bob, Name: "bob"}}})
	if err != nil {
		t.Fatal(err)
	}
	f.move(c.ID, ada)
	// The event's work is done in order: a challenge queued after it
	// shows that it was handled.
	f.svc.SeekPosted(context.Background(), store.Seek{ID: "s1", Account: ada, Game: "pommel", Target: bob})
	rows := f.rows(bob, 1)
	if len(rows) != 1 || rows[0].Kind != KindChallenge {
		t.Errorf("bob's rows %+v: want the challenge alone", rows)
	}
}

// TestGameEndedByTheOpponent: a resignation tells the other player, not
// the one who resigned.
func TestGameEndedByTheOpponent(t *testing.T) {
	f := newFixture(t)
	ada, bob := f.account("ada"), f.account("bob")
	for _, a := range []string{ada, bob} {
		if _, err := f.svc.Subscribe(context.Background(), a, subscription(f.ps, "/push/"+a)); err != nil {
			t.Fatal(err)
		}
	}
	g := f.correspondence(ada, bob)
	f.move(g.ID, ada)
	f.kindRows(bob, KindTurn, 1) // enqueued before the resignation (else the game is over when it is read)
	if _, err := f.hall.Resign(context.Background(), g.ID, hall.Who{Account: bob}); err != nil {
		t.Fatal(err)
	}
	rows := f.rows(ada, 1)
	if rows[0].Kind != KindEnded || !strings.Contains(rows[0].Title, "bob resigned") {
		t.Fatalf("ada's rows %+v", rows)
	}
	f.sendDue(1) // bob's turn row is not due yet
	if msg := f.ps.Open(t, f.ps.Next(t), f.svc.vapid.public); !strings.Contains(msg.Title, "resigned") {
		t.Errorf("push %+v", msg)
	}
	f.clock.advance(DefaultQuiet)
	f.sendDue(1)
	if st := f.states(bob); st["turn/push"] != store.OutboxSkipped || len(st) != 1 {
		t.Errorf("bob's rows %v: his turn skipped (the game ended), no end of his own", st)
	}
}

// TestChallengeAndSeekTaken: a challenge tells its target at once; a
// correspondence seek taken tells its seeker, not the taker; a real-time
// one tells no one.
func TestChallengeAndSeekTaken(t *testing.T) {
	f := newFixture(t)
	ada, bob := f.account("ada"), f.account("bob")
	f.verify(bob, "bob@example.org")
	days := timecontrol.Control{PerMove: 3 * timecontrol.Day}
	f.svc.SeekPosted(context.Background(), store.Seek{ID: "s1", Account: ada, Game: "pommel", Target: bob, Clock: &days})
	f.svc.SeekPosted(context.Background(), store.Seek{ID: "s2", Account: ada, Game: "pommel"}) // open to anyone: no one is told
	f.svc.SeekStarted(context.Background(), store.Seek{ID: "s3", Account: ada, Game: "pommel", Joined: []string{bob}}, "g-live", bob)
	f.svc.SeekStarted(context.Background(), store.Seek{ID: "s1", Account: ada, Game: "pommel", Target: bob, Clock: &days, Joined: []string{bob}}, "g1", bob)
	rows := f.rows(ada, 1)
	if rows[0].Kind != KindAccepted || rows[0].URL != "/play/g1" || rows[0].Channel != ChannelPush {
		t.Errorf("ada's rows %+v: want the seek taken, by push only (no address, no mail by default)", rows)
	}
	f.sendDue(1 + 2) // ada's push (no subscription: sent to none), bob's challenge by push and mail
	m := f.mb.Next(t)
	if st := f.states(ada); st["accepted/push"] != store.OutboxSent {
		t.Errorf("ada's rows %v", st)
	}
	if !strings.Contains(m.Header.Get("Subject"), "ada challenges you to Pommel") || !strings.Contains(m.Body, "3 days") {
		t.Errorf("the challenge's mail %q:\n%s", m.Header.Get("Subject"), m.Body)
	}
	if st := f.states(bob); len(st) != 2 {
		t.Errorf("bob's rows %v: the challenge, by push and mail; nothing of a seek he took", st)
	}
}

// TestRetriesWithBackoff: a push service that fails is tried again after
// the backoff, doubled each time, then given up after the attempts; a
// subscription it says is gone is removed.
func TestRetriesWithBackoff(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.Attempts = 3 })
	ada, bob := f.account("ada"), f.account("bob")
	if _, err := f.svc.Subscribe(context.Background(), bob, subscription(f.ps, "/push/bob")); err != nil {
		t.Fatal(err)
	}
	f.ps.AnswerNext(http.StatusServiceUnavailable, http.StatusTooManyRequests)
	f.svc.SeekPosted(context.Background(), store.Seek{ID: "s1", Account: ada, Game: "pommel", Target: bob})
	f.rows(bob, 1)
	f.sendDue(1)
	rows := f.rows(bob, 1)
	if rows[0].State != store.OutboxPending || !rows[0].Due.Equal(f.clock.Now().Add(DefaultBackoff)) || !strings.Contains(rows[0].Error, "503") {
		t.Fatalf("after a 503: %+v; want pending, due after the backoff", rows[0])
	}
	f.clock.advance(DefaultBackoff - time.Second)
	f.sendDue(0)
	f.clock.advance(time.Second)
	f.sendDue(1)
	if rows := f.rows(bob, 1); !rows[0].Due.Equal(f.clock.Now().Add(2 * DefaultBackoff)) {
		t.Fatalf("after a 429: due %v, want the backoff doubled", rows[0].Due)
	}
	f.clock.advance(2 * DefaultBackoff)
	f.sendDue(1)
	f.ps.Next(t)
	if st := f.states(bob); st["challenge/push"] != store.OutboxSent {
		t.Errorf("after the third try: %v", st)
	}
	// Failing every time: given up after the attempts.
	f.ps.AnswerNext(500, 500, 500)
	f.svc.SeekPosted(context.Background(), store.Seek{ID: "s2", Account: ada, Game: "pommel", Target: bob})
	f.rows(bob, 2)
	for range 3 {
		f.sendDue(1)
		f.clock.advance(time.Hour)
	}
	f.sendDue(0)
	if rows := f.rows(bob, 2); rows[1].State != store.OutboxFailed || rows[1].Attempts != 3 {
		t.Errorf("after three 500s: %+v", rows[1])
	}
	// 410: the subscription is gone, and the row is done.
	f.ps.AnswerNext(http.StatusGone)
	f.svc.SeekPosted(context.Background(), store.Seek{ID: "s3", Account: ada, Game: "pommel", Target: bob})
	f.rows(bob, 3)
	f.sendDue(1)
	if subs, _ := f.st.PushSubscriptions(context.Background(), bob); len(subs) != 0 {
		t.Errorf("after a 410 the subscription stays: %+v", subs)
	}
	if rows := f.rows(bob, 3); rows[2].State != store.OutboxSent {
		t.Errorf("after a 410: %+v", rows[2])
	}
}

// TestSubscribeRefuses: malformed subscriptions, and one too many.
func TestSubscribeRefuses(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.AllowLoopback = false })
	bob := f.account("bob")
	good := NewSubscription{Endpoint: "https://push.example.org/abc", P256dh: subscription(f.ps, "").P256dh, Auth: subscription(f.ps, "").Auth}
	with := func(edit func(*NewSubscription)) NewSubscription {
		s := good
		edit(&s)
		return s
	}
	for _, c := range []struct {
		what string
		sub  NewSubscription
		want string
	}{
		{"no endpoint", with(func(s *NewSubscription) { s.Endpoint = "" }), "needs its endpoint"},
		{"http", with(func(s *NewSubscription) { s.Endpoint = "http://push.example.org/abc" }), "must be https"},
		{"loopback", with(func(s *NewSubscription) { s.Endpoint = f.ps.URL + "/x" }), "names an address"},
		{"an address", with(func(s *NewSubscription) { s.Endpoint = "https://10.0.0.1/x" }), "names an address"},
		{"an IPv6 address", with(func(s *NewSubscription) { s.Endpoint = "https://[::1]/x" }), "names an address"},
		{"no dot", with(func(s *NewSubscription) { s.Endpoint = "https://intranet/x" }), "not a public one"},
		{"localhost", with(func(s *NewSubscription) { s.Endpoint = "https://push.localhost/x" }), "not a public one"},
		{"credentials", with(func(s *NewSubscription) { s.Endpoint = "https://u:p@push.example.org/x" }), "not a push service's URL"},
		{"relative", with(func(s *NewSubscription) { s.Endpoint = "/push" }), "not a push service's URL"},
		{"over-long", with(func(s *NewSubscription) { s.Endpoint = "https://push.example.org/" + strings.Repeat("a", 1100) }), "at most 1024"},
		{"p256dh not base64", with(func(s *NewSubscription) { s.P256dh = "!!!!" }), "p256dh is not base64url"},
		{"p256dh short", with(func(s *NewSubscription) { s.P256dh = "BAAA" }), "p256dh is 3 bytes; want 65"},
		{"p256dh over-long", with(func(s *NewSubscription) { s.P256dh = strings.Repeat("A", 500) }), "p256dh is 500 characters"},
		{"p256dh off the curve", with(func(s *NewSubscription) { s.P256dh = "BA" + strings.Repeat("A", 85) }), "not a point of P-256"},
		{"auth not base64", with(func(s *NewSubscription) { s.Auth = "a b" }), "auth is not base64url"},
		{"auth long", with(func(s *NewSubscription) { s.Auth = strings.Repeat("A", 30) }), "auth is 22 bytes; want 16"},
	} {
		_, err := f.svc.Subscribe(context.Background(), bob, c.sub)
		if !refusedWith(err, Invalid, c.want) {
			t.Errorf("%s: %v; want an invalid refusal saying %q", c.what, err, c.want)
		}
	}
	for i := range MaxSubscriptions {
		s := good
		s.Endpoint += string(rune('a' + i))
		if _, err := f.svc.Subscribe(context.Background(), bob, s); err != nil {
			t.Fatal(err)
		}
	}
	// The same endpoint again is no new subscription; a new one is one
	// too many.
	if _, err := f.svc.Subscribe(context.Background(), bob, with(func(s *NewSubscription) { s.Endpoint += "a" })); err != nil {
		t.Errorf("an endpoint again: %v", err)
	}
	if _, err := f.svc.Subscribe(context.Background(), bob, good); !refusedWith(err, TooMany, "remove one") {
		t.Errorf("subscription %d: %v", MaxSubscriptions+1, err)
	}
	if err := f.svc.RemoveSubscription(context.Background(), bob, "nope"); !refusedWith(err, NotFound, "no push subscription") {
		t.Errorf("removing none: %v", err)
	}
}

// subscription is the push service's browser's subscription at path.
func subscription(ps *notifytest.PushService, path string) NewSubscription {
	endpoint, key, auth := ps.Subscription(path)
	return NewSubscription{Endpoint: endpoint, P256dh: key, Auth: auth}
}

// refusedWith reports whether err is a refusal of code saying want.
func refusedWith(err error, code Code, want string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code && strings.Contains(e.Message, want)
}

// TestPrefsRefuse: unknown kinds and channels; the defaults.
func TestPrefsRefuse(t *testing.T) {
	f := newFixture(t)
	bob := f.account("bob")
	for _, c := range []struct {
		p    Prefs
		want string
	}{
		{Prefs{"moves": {ChannelPush: true}}, `no kind of notification "moves"`},
		{Prefs{KindTurn: {"sms": true}}, `no channel "sms"`},
		{Prefs{strings.Repeat("k", 500): {}}, "…"},
	} {
		if err := f.svc.SetPrefs(context.Background(), bob, c.p); !refusedWith(err, Invalid, c.want) {
			t.Errorf("%v: %v; want %q", c.p, err, c.want)
		}
	}
	s, err := f.svc.Settings(context.Background(), bob)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Kinds {
		for _, ch := range Channels {
			if s.Prefs[k][ch] != Default(k, ch) {
				t.Errorf("%s by %s: %v, want the default", k, ch, s.Prefs[k][ch])
			}
		}
	}
	if err := f.svc.SetPrefs(context.Background(), bob, Prefs{KindEnded: {ChannelEmail: true, ChannelPush: false}}); err != nil {
		t.Fatal(err)
	}
	if s, _ := f.svc.Settings(context.Background(), bob); !s.Prefs[KindEnded][ChannelEmail] || s.Prefs[KindEnded][ChannelPush] {
		t.Errorf("after setting: %v", s.Prefs[KindEnded])
	}
}

// TestEmailAddresses: refused addresses; nothing but the verification is
// mailed to an unverified address; a verification link works once; an
// address another account verified is refused.
func TestEmailAddresses(t *testing.T) {
	f := newFixture(t)
	ada, bob := f.account("ada"), f.account("bob")
	for _, addr := range []string{"", "bob", "bob@", "@example.org", "bob@example", "bob@@example.org", "Bob <bob@example.org>",
		"bob @example.org", "bob@example..org", "bob@-x.org", "bob@[127.0.0.1]", "bob@127.0.0.1", "bob\r\n@example.org",
		"bob@" + strings.Repeat("a", 250) + ".org", strings.Repeat("b", 65) + "@example.org"} {
		if err := f.svc.SetEmail(context.Background(), bob, addr); !refusedWith(err, Invalid, "address") {
			t.Errorf("address %q: %v", addr, err)
		}
	}
	if err := f.svc.SetEmail(context.Background(), bob, "bob@example.org"); err != nil {
		t.Fatal(err)
	}
	m := f.nextMail()
	link := notifytest.LinkAfter(t, m.Body, site+"/verify-email?token=")
	if m.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
		t.Error("the verification has no one-click unsubscribe")
	}
	// Unverified: a challenge is not mailed.
	f.svc.SeekPosted(context.Background(), store.Seek{ID: "s1", Account: ada, Game: "pommel", Target: bob})
	if rows := f.kindRows(bob, KindChallenge, 1); len(rows) != 1 || rows[0].Channel != ChannelPush {
		t.Errorf("rows %+v: no mail row to an unverified address", rows)
	}
	u, _ := url.Parse(link)
	token := u.Query().Get("token")
	for _, bad := range []string{"", "x", token + "x", strings.Repeat("A", 43)} {
		if _, err := f.svc.VerifyEmail(context.Background(), bad); !refusedWith(err, Invalid, "not valid") {
			t.Errorf("VerifyEmail(%q): %v", bad, err)
		}
	}
	if _, err := f.svc.VerifyEmail(context.Background(), token); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.VerifyEmail(context.Background(), token); !refusedWith(err, Invalid, "not valid") {
		t.Errorf("the link used twice: %v", err)
	}
	// Ada gives Bob's address: the verification goes, and is refused.
	if err := f.svc.SetEmail(context.Background(), ada, "BOB@example.org"); err != nil {
		t.Fatal(err)
	}
	u, _ = url.Parse(notifytest.LinkAfter(t, f.nextMail().Body, site+"/verify-email?token="))
	if _, err := f.svc.VerifyEmail(context.Background(), u.Query().Get("token")); !refusedWith(err, Conflict, "another account's") {
		t.Errorf("verifying another account's address: %v", err)
	}
	// The verification's unsubscribe link drops the unverified address.
	if err := f.svc.SetEmail(context.Background(), ada, "ada@example.org"); err != nil {
		t.Fatal(err)
	}
	m = f.nextMail()
	u, _ = url.Parse(strings.Trim(m.Header.Get("List-Unsubscribe"), "<>"))
	if _, err := f.svc.Unsubscribe(context.Background(), u.Query().Get("token")); err != nil {
		t.Fatal(err)
	}
	if s, _ := f.svc.Settings(context.Background(), ada); s.Email != "" {
		t.Errorf("after the verification's unsubscribe the address is %q", s.Email)
	}
	// Ada asked for two verifications (the second dropped, and still
	// counted): three more this hour, then no more.
	for i := range DefaultLimits.VerifiesPerHour {
		err := f.svc.SetEmail(context.Background(), ada, "ada"+string(rune('a'+i))+"@example.org")
		switch {
		case i < DefaultLimits.VerifiesPerHour-2 && err != nil:
			t.Fatalf("verification %d: %v", i+3, err)
		case i >= DefaultLimits.VerifiesPerHour-2 && !refusedWith(err, TooMany, "too many verification mails"):
			t.Fatalf("verification %d: %v; want too many", i+3, err)
		}
	}
}

// TestUnsubscribeRefuses: a forged, malformed or over-long token.
func TestUnsubscribeRefuses(t *testing.T) {
	f := newFixture(t)
	bob := f.account("bob")
	good := f.svc.unsubscribeToken(bob, KindTurn)
	forged := strings.Replace(good, KindTurn, KindChallenge, 1)
	for _, tok := range []string{"", "x", "a.b", "a.b.c.d", forged, bob + ".turn.!!", ".turn." + strings.Split(good, ".")[2],
		f.svc.unsubscribeToken(bob, "moves"), strings.Repeat("a", 300)} {
		if _, err := f.svc.Unsubscribe(context.Background(), tok); !refusedWith(err, Invalid, "not valid") {
			t.Errorf("Unsubscribe(%.40q): %v", tok, err)
		}
	}
	if got, err := f.svc.Unsubscribe(context.Background(), good); err != nil || got.Kind != KindTurn {
		t.Errorf("the good token: %+v, %v", got, err)
	}
}

// TestForgotPassword: a reset link is mailed to a verified address only;
// the answer is the same for a name nobody has; an account is mailed at
// most ResetsPerHour; a client address is bounded.
func TestForgotPassword(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.Limits = Limits{ResetBurst: 6, ResetEvery: time.Hour} })
	bob, cy := f.account("bob"), f.account("cy")
	f.verify(bob, "bob@example.org")
	if err := f.svc.SetEmail(context.Background(), cy, "cy@example.org"); err != nil {
		t.Fatal(err)
	}
	f.nextMail() // cy's verification, not followed
	for _, who := range []string{"nobody", "nobody@example.org", "cy", "cy@example.org"} {
		if err := f.svc.ForgotPassword(context.Background(), who, "10.0.0.1"); err != nil {
			t.Errorf("ForgotPassword(%s): %v; want the same answer as any", who, err)
		}
	}
	if err := f.svc.ForgotPassword(context.Background(), "BOB@example.org", "10.0.0.2"); err != nil {
		t.Fatal(err)
	}
	m := f.nextMail()
	link := notifytest.LinkAfter(t, m.Body, site+"/reset-password?token=")
	if m.To != "bob@example.org" || !strings.Contains(m.Body, "bob") || m.Header.Get("List-Unsubscribe") == "" {
		t.Errorf("the reset mail to %s:\n%s", m.To, m.Body)
	}
	u, _ := url.Parse(link)
	if _, err := f.st.Token(context.Background(), account.HashSessionToken(u.Query().Get("token")), store.TokenReset, f.clock.Now()); err != nil {
		t.Errorf("the mailed token is not the store's: %v", err)
	}
	f.mb.None(t, "nobody else has a verified address")
	if err := f.svc.ForgotPassword(context.Background(), "", "10.0.0.2"); !refusedWith(err, Invalid, "name or your e-mail") {
		t.Errorf("no name: %v", err)
	}
	if err := f.svc.ForgotPassword(context.Background(), strings.Repeat("a", 300), "10.0.0.2"); !refusedWith(err, Invalid, "at most 254") {
		t.Errorf("an over-long name: %v", err)
	}
	// Bob asks twice more: three mails an hour, the fourth asking gets
	// the same answer and no mail.
	for range 3 {
		if err := f.svc.ForgotPassword(context.Background(), "bob", "10.0.0.2"); err != nil {
			t.Fatal(err)
		}
	}
	f.nextMail()
	f.nextMail()
	// The fourth's work is done after its answer, in order: once a later
	// event's row is there, it was done.
	f.svc.SeekPosted(context.Background(), store.Seek{ID: "s1", Account: cy, Game: "pommel", Target: bob})
	f.kindRows(bob, KindChallenge, 1)
	f.sendDue(2) // the challenge, by push and mail
	f.mb.Next(t)
	f.mb.None(t, "a fourth reset in the hour")
	if n := len(f.kindRows(bob, kindReset, 3)); n != 3 {
		t.Errorf("%d reset rows, want 3", n)
	}
	// 10.0.0.1 asked four times, 10.0.0.2 six (two refused for their
	// length before its budget): the sixth from .1 passes, the seventh
	// not; .2's fifth is its last.
	if err := f.svc.ForgotPassword(context.Background(), "nobody", "10.0.0.1"); err != nil {
		t.Errorf("the fifth from 10.0.0.1: %v", err)
	}
	if err := f.svc.ForgotPassword(context.Background(), "nobody", "10.0.0.1"); err != nil {
		t.Errorf("the sixth from 10.0.0.1: %v", err)
	}
	var e *Error
	if err := f.svc.ForgotPassword(context.Background(), "nobody", "10.0.0.1"); !refusedWith(err, TooMany, "too many reset requests") || !errors.As(err, &e) || e.RetryAfter <= 0 {
		t.Errorf("the seventh from 10.0.0.1: %v", err)
	}
}

// TestNoMailer: without a mailer, no address and no reset; push goes on.
func TestNoMailer(t *testing.T) {
	f := newFixture(t, func(c *Config) { c.Mailer = nil })
	bob := f.account("bob")
	if err := f.svc.SetEmail(context.Background(), bob, "bob@example.org"); !refusedWith(err, Unavailable, "no e-mail") {
		t.Errorf("SetEmail: %v", err)
	}
	if err := f.svc.ForgotPassword(context.Background(), "bob", "10.0.0.1"); !refusedWith(err, Unavailable, "no e-mail") {
		t.Errorf("ForgotPassword: %v", err)
	}
	if s, _ := f.svc.Settings(context.Background(), bob); s.Mail {
		t.Error("Settings say the site mails")
	}
}

func TestConfigRefuses(t *testing.T) {
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	h, err := hall.New(hall.Config{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	mailer, _ := NewSMTP(SMTPConfig{Host: "localhost", Port: 25, From: "a@b.org"})
	for _, c := range []Config{
		{Games: h},
		{Store: st},
		{Store: st, Games: h, Mailer: mailer},
		{Store: st, Games: h, Mailer: mailer, PublicURL: "http://arbiter.test"},
		{Store: st, Games: h, PublicURL: "https://arbiter.test/?q=1"},
		{Store: st, Games: h, Quiet: -time.Second},
	} {
		if _, err := New(context.Background(), c); err == nil {
			t.Errorf("New(%+v): accepted", c)
		}
	}
	// Two services of one database share the keys.
	a, err := New(context.Background(), Config{Store: st, Games: h})
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(context.Background(), Config{Store: st, Games: h})
	if err != nil {
		t.Fatal(err)
	}
	if a.vapid != b.vapid || string(a.unsub) != string(b.unsub) || len(a.unsub) != 32 {
		t.Error("two services of one store have different keys")
	}
}

func TestParseSMTP(t *testing.T) {
	for _, c := range []struct {
		url, from string
		want      SMTPConfig
		bad       string
	}{
		{url: "smtp://mail.example.org", from: "a@example.org", want: SMTPConfig{Host: "mail.example.org", Port: 587, TLS: TLSStartTLS, From: "a@example.org"}},
		{url: "smtps://u:p%40ss@mail.example.org:2465", from: "a@example.org", want: SMTPConfig{Host: "mail.example.org", Port: 2465, Username: "u", Password: "p@ss", TLS: TLSImplicit, From: "a@example.org"}},
		{url: "smtp://127.0.0.1:2525/", from: "a@example.org", want: SMTPConfig{Host: "127.0.0.1", Port: 2525, TLS: TLSStartTLS, From: "a@example.org"}},
		{url: "http://mail.example.org", from: "a@example.org", bad: "scheme"},
		{url: "smtp://", from: "a@example.org", bad: "want smtp://"},
		{url: "smtp://mail.example.org:0", from: "a@example.org", bad: "port"},
		{url: "smtp://mail.example.org:99999", from: "a@example.org", bad: "port"},
		{url: "smtp://mail.example.org/x", from: "a@example.org", bad: "want smtp://"},
		{url: "smtp://mail.example.org?tls=no", from: "a@example.org", bad: "want smtp://"},
		{url: "smtp://mail.example.org", bad: "sender"},
		{url: "smtp://mail.example.org", from: "nobody", bad: "sender"},
	} {
		got, err := ParseSMTP(c.url, c.from)
		switch {
		case c.bad != "" && (err == nil || !strings.Contains(err.Error(), c.bad)):
			t.Errorf("ParseSMTP(%s, %s) = %+v, %v; want an error with %q", c.url, c.from, got, err, c.bad)
		case c.bad == "" && (err != nil || got != c.want):
			t.Errorf("ParseSMTP(%s, %s) = %+v, %v; want %+v", c.url, c.from, got, err, c.want)
		}
	}
	if _, err := ParseSMTP("smtp://u:secret-password@host:x", "a@b.org"); err == nil || strings.Contains(err.Error(), "secret-password") {
		t.Errorf("a bad URL's error %v quotes the password", err)
	}
}
