package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/notify"
	"github.com/arbiter-games/arbiter/notify/notifytest"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/postgres"
	"github.com/arbiter-games/arbiter/store/sqlite"
)

// publicURL is the tests' site as its mails name it: a link is followed
// by asking the test server for its path and query.
const publicURL = "https://arbiter.test"

// notifySite is a test server that sends notifications: mails to a real
// SMTP server of the test's, pushes to a push service of the test's, on
// a clock the test moves.
type notifySite struct {
	*testServer
	svc *notify.Service
}

// notifyConfig is a site's notification service: mail through mb, the
// test's push service on loopback, the outbox read every 20 ms.
func notifyConfig(t *testing.T, mb *notifytest.Mailbox) *notify.Config {
	t.Helper()
	cfg, err := notify.ParseSMTP(mb.URL(), "arbiter <games@arbiter.test>")
	if err != nil {
		t.Fatal(err)
	}
	mailer, err := notify.NewSMTP(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return &notify.Config{Mailer: mailer, PublicURL: publicURL, AllowLoopback: true, Poll: 20 * time.Millisecond}
}

func newNotifySite(t *testing.T, st store.Store, mb *notifytest.Mailbox, clock *testClock) *notifySite {
	t.Helper()
	params := cheapHash
	ns := &notifySite{}
	ns.testServer = newTestServer(t, siteConfig{Store: st, PasswordHash: &params, Now: clock.Now, Notify: notifyConfig(t, mb),
		Notified: func(s *notify.Service) { ns.svc = s }})
	return ns
}

// follow asks the test server for a mailed link's page and gives the
// link's token: the page answers 200 as a shell of the account pages.
func (m *member) follow(link string) string {
	m.t.Helper()
	u, err := url.Parse(link)
	if err != nil || u.Scheme+"://"+u.Host != publicURL {
		m.t.Fatalf("the link %q is not the site's", link)
	}
	code, body := m.call("GET", u.RequestURI(), nil)
	if code != 200 || !strings.Contains(string(body), "data-page=") {
		m.t.Fatalf("GET %s: %d %.200s", u.RequestURI(), code, body)
	}
	return u.Query().Get("token")
}

// verifyEmail sets m's address and follows the link mailed to it.
func (m *member) verifyEmail(mb *notifytest.Mailbox, address string) {
	m.t.Helper()
	m.must(200, "PUT", "/api/account/email", map[string]string{"address": address}, nil)
	mail := mb.Next(m.t)
	if mail.To != address {
		m.t.Fatalf("the verification went to %s, want %s", mail.To, address)
	}
	token := m.follow(notifytest.LinkAfter(m.t, mail.Body, publicURL+"/verify-email?token="))
	var v struct {
		Address  string
		Verified bool
	}
	m.must(200, "POST", "/api/email/verify", map[string]string{"token": token}, &v)
	if v.Address != address || !v.Verified {
		m.t.Fatalf("verified %+v, want %s", v, address)
	}
}

// subscribe gives m's browser a push subscription at the push service's
// /push/NAME.
func (m *member) subscribe(ps *notifytest.PushService) {
	m.t.Helper()
	endpoint, key, auth := ps.Subscription("/push/" + m.name)
	m.must(201, "POST", "/api/account/push", map[string]any{"endpoint": endpoint, "expirationTime": nil,
		"keys": map[string]string{"p256dh": key, "auth": auth}}, nil)
}

// settings are m's notification settings.
func (m *member) settings() notifySettingsView {
	m.t.Helper()
	var v notifySettingsView
	m.must(200, "GET", "/api/account/notifications", nil, &v)
	return v
}

// correspondenceChallenge plays the acceptance's opening: from challenges to at 3 days
// a move, to accepts; it gives the game and the member to move first.
func correspondenceChallenge(t *testing.T, from, to *member) (string, *member) {
	t.Helper()
	var seek struct{ ID string }
	from.must(201, "POST", "/api/seeks", map[string]any{"game": "pommel", "clock": map[string]int{"days": 3}, "to": to.name}, &seek)
	var started struct{ Game string }
	to.must(201, "POST", "/api/seeks/"+seek.ID+"/accept", nil, &started)
	var g gameAnswer
	from.must(200, "GET", "/api/games/"+started.Game, nil, &g)
	if g.You != nil && *g.You == g.ToMove {
		return started.Game, from
	}
	return started.Game, to
}

// moveFirst plays the first legal move of the game for m.
func (m *member) moveFirst(id string) {
	m.t.Helper()
	var g gameAnswer
	m.must(200, "GET", "/api/games/"+id, nil, &g)
	m.must(200, "POST", "/api/games/"+id+"/moves", map[string]any{"move": g.Legal[0], "ply": g.Ply}, nil)
}

// received is a notification as a test tallies it: to whom, of what.
type received struct{ to, kind string }

// tagKind is the kind of a push's tag ("turn-GAME").
func tagKind(tag string) string {
	kind, _, _ := strings.Cut(tag, "-")
	return kind
}

// TestNotificationsAcceptance: two accounts play a correspondence game
// from a challenge; the challenged hears of the challenge, the
// challenger of the seek taken; one moves, and after the quiet period
// (the test's clock moved, nothing waited for) the other gets a Web Push
// message at the test's push service, which decrypts and names the game,
// and a mail at the test's SMTP server, whose one-click unsubscribe
// works. Then a password reset by the mailed link works once, and an
// expired link is refused.
func TestNotificationsAcceptance(t *testing.T) {
	mb, ps, clock := notifytest.NewMailbox(t), notifytest.NewPushService(t), newTestClock()
	ts := newNotifySite(t, nil, mb, clock)
	ada, bob := ts.signUp("ada"), ts.signUp("bob")
	for _, m := range []*member{ada, bob} {
		m.verifyEmail(mb, m.name+"@example.org")
		m.subscribe(ps)
	}
	vapid := ada.settings().VAPIDKey
	id, first := correspondenceChallenge(t, ada, bob)
	second := map[*member]*member{ada: bob, bob: ada}[first]
	// The challenge (push and mail to Bob) and the seek taken (push to
	// Ada: a seek taken is not mailed by default).
	got := map[received]notifytest.Message{}
	for range 2 {
		p := ps.Next(t)
		msg := ps.Open(t, p, vapid)
		got[received{strings.TrimPrefix(p.Path, "/push/"), tagKind(msg.Tag)}] = msg
	}
	if msg, ok := got[received{"bob", notify.KindChallenge}]; !ok || !strings.Contains(msg.Title, "ada challenges you") {
		t.Errorf("pushes %+v: want Bob's challenge", got)
	}
	if msg, ok := got[received{"ada", notify.KindAccepted}]; !ok || msg.URL != "/play/"+id {
		t.Errorf("pushes %+v: want Ada's seek taken, opening the game", got)
	}
	if m := mb.Next(t); m.To != "bob@example.org" || !strings.Contains(m.Header.Get("Subject"), "challenges you") {
		t.Errorf("mail to %s %q: want Bob's challenge", m.To, m.Header.Get("Subject"))
	}

	first.moveFirst(id)
	waitRows(t, ts.store, second.name, notify.KindTurn)
	clock.advance(notify.DefaultQuiet - time.Second)
	ts.svc.Nudge()
	ps.None(t, "before the quiet period")
	clock.advance(time.Second)
	p := ps.Next(t)
	msg := ps.Open(t, p, vapid)
	if p.Path != "/push/"+second.name || msg.URL != "/play/"+id || tagKind(msg.Tag) != notify.KindTurn ||
		!strings.Contains(msg.Title, "Your move against "+first.name) || !strings.Contains(msg.Body, "Pommel") {
		t.Errorf("the turn's push to %s: %+v", p.Path, msg)
	}
	m := mb.Next(t)
	if m.To != second.name+"@example.org" || !strings.Contains(m.Body, publicURL+"/play/"+id) ||
		m.Header.Get("List-Unsubscribe-Post") != "List-Unsubscribe=One-Click" {
		t.Errorf("the turn's mail to %s:\n%s", m.To, m.Body)
	}
	// One-click unsubscribe, as a mail provider posts it: no cookie.
	unsub := strings.Trim(m.Header.Get("List-Unsubscribe"), "<>")
	if !strings.Contains(m.Body, unsub) {
		t.Errorf("the mail's body lacks its unsubscribe link %s", unsub)
	}
	u, _ := url.Parse(unsub)
	code, body := ts.doWith("POST", u.RequestURI(), "", http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}, "List-Unsubscribe=One-Click")
	if code != 200 || !strings.Contains(string(body), `"kind":"turn"`) {
		t.Fatalf("one-click unsubscribe: %d %s", code, body)
	}
	if s := second.settings(); s.Prefs[notify.KindTurn][notify.ChannelEmail] || !s.Prefs[notify.KindTurn][notify.ChannelPush] {
		t.Errorf("after unsubscribing: %v", s.Prefs)
	}
	ps.None(t, "one push a notification")
	mb.None(t, "one mail a notification")

	// A password reset by the mailed link, once.
	code, body = ts.do("POST", "/api/password/forgot", "", map[string]string{"name": "bob"})
	if code != 202 {
		t.Fatalf("forgot: %d %s", code, body)
	}
	m = mb.Next(t)
	token := bob.follow(notifytest.LinkAfter(t, m.Body, publicURL+"/reset-password?token="))
	reset := map[string]string{"token": token, "password": "a brand new password"}
	if code, body := ts.do("POST", "/api/password/reset", "", reset); code != 204 {
		t.Fatalf("reset: %d %s", code, body)
	}
	if code, _ := bob.call("GET", "/api/session", nil); code != 401 {
		t.Errorf("Bob's session after the reset: %d, want 401 (every session ends)", code)
	}
	if code, body := ts.do("POST", "/api/session", "", map[string]string{"name": "bob", "password": "a brand new password"}); code != 200 {
		t.Errorf("signing in with the new password: %d %s", code, body)
	}
	reset["password"] = "yet another password"
	if code, body := ts.do("POST", "/api/password/reset", "", reset); code != 422 || errorCode(body) != codeInvalid {
		t.Errorf("the link used again: %d %s; want 422 invalid", code, body)
	}
	// An expired link.
	ts.do("POST", "/api/password/forgot", "", map[string]string{"name": "ada@example.org"})
	m = mb.Next(t)
	token = ada.follow(notifytest.LinkAfter(t, m.Body, publicURL+"/reset-password?token="))
	clock.advance(notify.TokenLife + time.Second)
	if code, body := ts.do("POST", "/api/password/reset", "", map[string]string{"token": token, "password": "a brand new password"}); code != 422 {
		t.Errorf("an expired link: %d %s; want 422", code, body)
	}
}

// twoStores are two stores on one database, as two servers would open
// it: SQLite's folder, or PostgreSQL's database.
func twoStores(t *testing.T, kind string) [2]store.Store {
	t.Helper()
	var out [2]store.Store
	if kind == "postgres" {
		url := newDatabase(t)
		for i := range out {
			st, err := postgres.Open(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			out[i] = st
		}
		return out
	}
	dir := t.TempDir()
	for i := range out {
		st, err := sqlite.Open(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = st
	}
	return out
}

// TestNotificationsOnceAcrossServers: two servers on one store, both
// sending, send one push and one mail for each notification: the
// challenge, the seek taken, and the turn of one move (played through
// the other server than the seek). On SQLite, and on PostgreSQL when it
// is there (-short skips it unless ARBITER_TEST_STORE=postgres).
func TestNotificationsOnceAcrossServers(t *testing.T) {
	t.Parallel()
	for _, kind := range []string{"sqlite", "postgres"} {
		t.Run(kind, func(t *testing.T) {
			if kind == "postgres" && os.Getenv("ARBITER_TEST_STORE") != "postgres" && testing.Short() {
				t.Skip("-short: PostgreSQL only with ARBITER_TEST_STORE=postgres")
			}
			mb, ps, clock := notifytest.NewMailbox(t), notifytest.NewPushService(t), newTestClock()
			stores := twoStores(t, kind)
			a, b := newNotifySite(t, stores[0], mb, clock), newNotifySite(t, stores[1], mb, clock)
			ada, bob := a.signUp("ada"), b.signUp("bob")
			ada.verifyEmail(mb, "ada@example.org")
			bob.verifyEmail(mb, "bob@example.org")
			ada.subscribe(ps)
			bob.subscribe(ps)
			id, first := correspondenceChallenge(t, ada, bob)
			// The challenge and the seek taken are sent before the clock
			// jumps: a jump past a lease while a row is being sent would
			// be a send slower than the lease, which another server takes
			// for a dead one's (and sends again).
			waitRows(t, stores[0], "bob", notify.KindChallenge)
			waitRows(t, stores[0], "ada", notify.KindAccepted)
			allSent(t, stores[0])
			onB := *first // the mover's cookies, sent to the other server than the seek's
			onB.ts = b.testServer
			onB.moveFirst(id)
			waitRows(t, stores[0], map[string]string{"ada": "bob", "bob": "ada"}[first.name], notify.KindTurn)
			clock.advance(notify.DefaultQuiet)
			a.svc.Nudge()
			b.svc.Nudge()
			allSent(t, stores[0]) // every row final: nothing more can be sent
			var pushes, mails []string
			vapid := ada.settings().VAPIDKey
			for drained := false; !drained; {
				select {
				case p := <-ps.Pushes():
					pushes = append(pushes, strings.TrimPrefix(p.Path, "/push/")+" "+tagKind(ps.Open(t, p, vapid).Tag))
				case m := <-mb.Mails:
					mails = append(mails, strings.TrimSuffix(m.To, "@example.org")+" "+m.Header.Get("Subject"))
				case <-time.After(200 * time.Millisecond): // every row is final: this only lets the last deliveries land
					drained = true
				}
			}
			second := map[string]string{"ada": "bob", "bob": "ada"}[first.name]
			sort.Strings(pushes)
			want := []string{"ada accepted", "bob challenge", second + " turn"}
			sort.Strings(want)
			if strings.Join(pushes, ",") != strings.Join(want, ",") {
				t.Errorf("pushes %q; want %q, each once", pushes, want)
				for _, name := range []string{"ada", "bob"} {
					acc, _ := stores[0].AccountByName(context.Background(), name)
					rows, _ := stores[0].OutboxOf(context.Background(), acc.ID)
					for _, o := range rows {
						t.Logf("row of %s: %s %s %s attempts=%d done=%v err=%q", name, o.Kind, o.Channel, o.State, o.Attempts, o.Done, o.Error)
					}
				}
			}
			if len(mails) != 2 {
				t.Errorf("mails %q; want the challenge's and the turn's, each once", mails)
			}
		})
	}
}

// allSent waits until ada's and bob's rows are all final.
func allSent(t *testing.T, st store.Store) {
	t.Helper()
	waitFor(t, 30*time.Second, "every notification sent", func() bool {
		for _, name := range []string{"ada", "bob"} {
			acc, err := st.AccountByName(context.Background(), name)
			if err != nil {
				t.Fatal(err)
			}
			rows, err := st.OutboxOf(context.Background(), acc.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range rows {
				if o.State == store.OutboxPending {
					return false
				}
			}
		}
		return true
	})
}

// waitRows waits until the account name has a row of kind in st's
// outbox: its event was enqueued (on the service's goroutine), so that
// the clock moved after it moves past the row's due time.
func waitRows(t *testing.T, st store.Store, name, kind string) {
	t.Helper()
	acc, err := st.AccountByName(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, name+"'s "+kind+" enqueued", func() bool {
		rows, err := st.OutboxOf(context.Background(), acc.ID)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range rows {
			if o.Kind == kind {
				return true
			}
		}
		return false
	})
}

// TestNotificationsRefuse: every input of the notifications' API checked.
func TestNotificationsRefuse(t *testing.T) {
	mb, clock := notifytest.NewMailbox(t), newTestClock()
	ts := newNotifySite(t, nil, mb, clock)
	bob := ts.signUp("bob")
	key := strings.Repeat("A", 87)
	for _, c := range []struct {
		method, path string
		body         any
		code         int
		want         string
	}{
		{"PUT", "/api/account/notifications", map[string]any{"prefs": map[string]any{"moves": map[string]bool{"push": true}}}, 422, "no kind of notification"},
		{"PUT", "/api/account/notifications", map[string]any{"prefs": map[string]any{"turn": map[string]bool{"sms": true}}}, 422, "no channel"},
		{"PUT", "/api/account/notifications", map[string]any{"prefs": map[string]any{"turn": map[string]any{"push": "yes"}}}, 400, "want bool"},
		{"PUT", "/api/account/notifications", map[string]any{"prefs": map[string]any{"turn": map[string]bool{"push": true}}, "extra": 1}, 400, "extra"},
		{"PUT", "/api/account/email", map[string]string{"address": "not an address"}, 422, "address"},
		{"PUT", "/api/account/email", map[string]string{"address": strings.Repeat("a", 300) + "@example.org"}, 422, "at most 254"},
		{"POST", "/api/account/push", map[string]any{"endpoint": "http://push.example.org/x", "keys": map[string]string{"p256dh": key, "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}, 422, "https"},
		{"POST", "/api/account/push", map[string]any{"endpoint": "https://push.example.org/x", "keys": map[string]string{"p256dh": "%%%", "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}, 422, "base64url"},
		{"POST", "/api/account/push", map[string]any{"endpoint": "https://push.example.org/x", "keys": map[string]string{"p256dh": key[:40], "auth": "AAAAAAAAAAAAAAAAAAAAAA"}}, 422, "want 65"},
		{"POST", "/api/account/push", map[string]any{"endpoint": "https://push.example.org/x", "keys": map[string]string{"p256dh": validKey, "auth": "AAAA"}}, 422, "want 16"},
		{"POST", "/api/account/push", map[string]any{"endpoint": "https://push.example.org/" + strings.Repeat("x", 2000)}, 422, "at most 1024"},
		{"DELETE", "/api/account/push/nope", nil, 404, "no push subscription"},
		{"POST", "/api/email/verify", map[string]string{"token": "forged"}, 422, "not valid"},
		{"POST", "/api/email/verify", map[string]string{"token": strings.Repeat("A", 43)}, 422, "not valid"},
		{"POST", "/api/password/forgot", map[string]string{"name": ""}, 422, "name or your e-mail"},
		{"POST", "/api/password/forgot", map[string]string{"name": strings.Repeat("a", 300)}, 422, "at most 254"},
		{"POST", "/api/password/reset", map[string]string{"token": "x", "password": "a brand new password"}, 422, "not valid"},
		{"POST", "/api/password/reset", map[string]string{"token": strings.Repeat("A", 43), "password": "a brand new password"}, 422, "not valid"},
		{"POST", "/api/password/reset", map[string]string{"token": strings.Repeat("A", 4000), "password": "x"}, 422, "not valid"},
	} {
		code, body := bob.call(c.method, c.path, c.body)
		if code != c.code || !strings.Contains(string(body), c.want) {
			t.Errorf("%s %s %.80v: %d %s; want %d with %q", c.method, c.path, c.body, code, body, c.code, c.want)
		}
		var e struct{ Error apiError }
		if json.Unmarshal(body, &e) == nil && len(e.Error.Message) > maxMessage {
			t.Errorf("%s %s: a message of %d bytes", c.method, c.path, len(e.Error.Message))
		}
	}
	// Signed out: 401 (the link's endpoints need no session).
	for _, p := range []string{"/api/account/notifications"} {
		if code, _ := ts.do("GET", p, "", nil); code != 401 {
			t.Errorf("GET %s signed out: %d", p, code)
		}
	}
	// One-click unsubscribe: the body and its type are RFC 8058's, the
	// token signed (the good one is TestNotificationsAcceptance's).
	for _, c := range []struct {
		ctype, body, token string
		code               int
	}{
		{"application/json", `{}`, "x.turn.AAAA", 415},
		{"application/x-www-form-urlencoded", "List-Unsubscribe=Yes", "x.turn.AAAA", 400},
		{"application/x-www-form-urlencoded", "List-Unsubscribe=One-Click", "x.turn.AAAA", 422},
		{"application/x-www-form-urlencoded", "List-Unsubscribe=One-Click", "", 422},
		{"application/x-www-form-urlencoded", "List-Unsubscribe=One-Click", strings.Repeat("a", 500), 422},
	} {
		code, body := ts.doWith("POST", "/unsubscribe?token="+url.QueryEscape(c.token), "", http.Header{"Content-Type": {c.ctype}}, c.body)
		if code != c.code {
			t.Errorf("unsubscribe %s %q token %.20q: %d %s; want %d", c.ctype, c.body, c.token, code, body, c.code)
		}
	}
	// Too many subscriptions.
	for i := range notify.MaxSubscriptions + 1 {
		code, body := bob.call("POST", "/api/account/push", map[string]any{"endpoint": "https://push.example.org/" + string(rune('a'+i)),
			"keys": map[string]string{"p256dh": validKey, "auth": "AAAAAAAAAAAAAAAAAAAAAA"}})
		want := 201
		if i == notify.MaxSubscriptions {
			want = 429
		}
		if code != want {
			t.Fatalf("subscription %d: %d %s; want %d", i+1, code, body, want)
		}
	}
}

// validKey is a P-256 public key, base64url: the generator's point.
const validKey = "BGsX0fLhLEJH-Lzm5WOkQPJ3A32BLeszoPShOUXYmMKWT-NC4v4af5uO5-tKfA-eFivOM1drMV7Oy7ZAaDe_UfU"

// TestNoNotifications: a server made without the service answers 503,
// and the reset of a password still refuses a token it never made.
func TestNoNotifications(t *testing.T) {
	ts := newAccountServer(t)
	bob := ts.signUp("bob")
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/account/notifications"}, {"PUT", "/api/account/email"}, {"POST", "/api/password/forgot"}, {"POST", "/api/email/verify"},
	} {
		if code, body := bob.call(c.method, c.path, map[string]string{}); code != 503 {
			t.Errorf("%s %s: %d %s; want 503", c.method, c.path, code, body)
		}
	}
	if code, _ := bob.call("GET", "/sw.js", nil); code != 200 {
		t.Errorf("GET /sw.js: %d", code)
	}
}
