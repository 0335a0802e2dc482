package accounts

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/account"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/sqlite"
)

// cheapHash makes the tests' hashes take no time.
var cheapHash = account.Params{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

// roomy lets the tests hash and sign up as often as they like; a test of
// a limit sets its own.
var roomy = Limits{HashBurst: 1 << 20, HashEvery: time.Nanosecond, HashesAtOnce: 1 << 20,
	SignUpBurst: 1 << 20, SignUpEvery: time.Nanosecond}

const strong = "correct horse battery"

// newService is a service over a fresh SQLite store in t.TempDir().
func newService(t *testing.T, l Limits) *Service {
	t.Helper()
	st, err := sqlite.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	s, err := New(Config{Store: st, Params: &cheapHash, Limits: l})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustSignUp(t *testing.T, s *Service, name, addr string) Session {
	t.Helper()
	sess, err := s.SignUp(t.Context(), name, strong, addr)
	if err != nil {
		t.Fatalf("sign-up of %s: %v", name, err)
	}
	return sess
}

// refusedAs fails the test unless err is a refusal of code.
func refusedAs(t *testing.T, what string, err error, code Code) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Code != code {
		t.Errorf("%s: %v; want a refusal %s", what, err, code)
		return
	}
	if code == TooMany && e.RetryAfter <= 0 {
		t.Errorf("%s: refused %s without a wait", what, code)
	}
}

func TestSignUpRefusals(t *testing.T) {
	s := newService(t, Limits{HashBurst: 1 << 20, HashEvery: time.Nanosecond, HashesAtOnce: 1 << 20, SignUpBurst: 2, SignUpEvery: time.Hour})
	mustSignUp(t, s, "ada", "10.0.0.1")
	for _, c := range []struct {
		what, name, password, addr string
		want                       Code
	}{
		{"a name too short", "a", strong, "10.0.0.2", Invalid},
		{"a name with a space", "ada lovelace", strong, "10.0.0.2", Invalid},
		{"a common password", "bob", "password", "10.0.0.2", Invalid},
		{"the name as password", "charlie", "charlie", "10.0.0.2", Invalid},
		{"a taken name, in other case", "ADA", strong, "10.0.0.2", NameTaken},
		{"a third account from one address", "dora", strong, "10.0.0.1", ""},
		{"a fourth", "eve", strong, "10.0.0.1", TooMany},
	} {
		_, err := s.SignUp(t.Context(), c.name, c.password, c.addr)
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", c.what, err)
			}
			continue
		}
		refusedAs(t, c.what, err, c.want)
	}
	// Refusals by the rules cost no sign-up: the other address has both
	// of its own left.
	mustSignUp(t, s, "frank", "10.0.0.2")
	mustSignUp(t, s, "grace", "10.0.0.2")
}

func TestSignUpLogsIn(t *testing.T) {
	s := newService(t, roomy)
	sess := mustSignUp(t, s, "ada", "10.0.0.1")
	a, ok := s.Session(t.Context(), sess.Token)
	if !ok || a.Name != "ada" || a.ID != sess.Account.ID {
		t.Errorf("the session of a sign-up: %+v, %v; want ada's", a, ok)
	}
}

func TestLogInThrottle(t *testing.T) {
	s := newService(t, Limits{HashBurst: 1 << 20, HashEvery: time.Nanosecond, HashesAtOnce: 1 << 20,
		Throttle: account.ThrottleConfig{NameBurst: 2, NameEvery: time.Hour}})
	signedUp := mustSignUp(t, s, "ada", "10.0.0.9")
	device, _ := DeviceCookie(signedUp.Account)
	guesser := Client{Addr: "10.0.0.1"}
	for _, c := range []struct {
		what     string
		name     string
		password string
		from     Client
		want     Code
	}{
		{"a wrong password", "ada", "wrong one", guesser, BadLogin},
		{"no such name", "nobody", strong, guesser, BadLogin},
		{"a second wrong password", "ada", "wrong two", guesser, BadLogin},
		{"the right password, once throttled", "ada", strong, guesser, TooMany},
		{"the owner's device from the same address", "ada", strong, Client{Addr: "10.0.0.1", Device: device}, ""},
		{"the right password from elsewhere", "ada", strong, Client{Addr: "10.0.0.2"}, ""},
	} {
		sess, err := s.LogIn(t.Context(), c.name, c.password, c.from)
		if c.want == "" {
			if err != nil || sess.Account.Name != "ada" || sess.Token == "" {
				t.Errorf("%s: %+v, %v; want a session of ada's", c.what, sess, err)
			}
			continue
		}
		refusedAs(t, c.what, err, c.want)
	}
}

func TestLogInRefusesHashesOverTheBudget(t *testing.T) {
	s := newService(t, Limits{HashBurst: 2, HashEvery: time.Hour, SignUpBurst: 5})
	mustSignUp(t, s, "ada", "10.0.0.9")
	from := Client{Addr: "10.0.0.1"}
	for i := range 2 {
		if _, err := s.LogIn(t.Context(), "ada", strong, from); err != nil {
			t.Fatalf("login %d: %v", i+1, err)
		}
	}
	_, err := s.LogIn(t.Context(), "ada", strong, from)
	refusedAs(t, "a third right login with 2 hashes a burst", err, TooMany)
}

func TestSessionsEnd(t *testing.T) {
	s := newService(t, roomy)
	mustSignUp(t, s, "ada", "10.0.0.1")
	var tokens []string
	for range 3 {
		sess, err := s.LogIn(t.Context(), "ada", strong, Client{Addr: "10.0.0.1"})
		if err != nil {
			t.Fatal(err)
		}
		tokens = append(tokens, sess.Token)
	}
	ended, err := s.LogOut(t.Context(), tokens[0])
	if err != nil || !ended {
		t.Fatalf("log-out: %v, %v; want ended", ended, err)
	}
	if _, ok := s.Session(t.Context(), tokens[0]); ok {
		t.Error("a session lives on after its log-out")
	}
	if _, ok := s.Session(t.Context(), tokens[1]); !ok {
		t.Error("a log-out ended another session")
	}
	if ended, err := s.LogOut(t.Context(), tokens[0]); ended || err != nil {
		t.Errorf("a second log-out: %v, %v; want nothing ended", ended, err)
	}
	a, _ := s.Session(t.Context(), tokens[1])
	// A read cut short by its socket's end holds nothing: a move waiting
	// on it is not played under a session being revoked.
	cut, cancel := context.WithCancel(t.Context())
	cancel()
	if s.SessionHolds(cut, account.HashSessionToken(tokens[1]), a.ID) {
		t.Error("a session read with a cancelled context holds")
	}
	if !s.SessionHolds(t.Context(), account.HashSessionToken(tokens[1]), a.ID) {
		t.Error("a live session does not hold")
	}
	if err := s.LogOutEverywhere(t.Context(), a.ID); err != nil {
		t.Fatal(err)
	}
	for i, token := range tokens[1:] {
		if _, ok := s.Session(t.Context(), token); ok {
			t.Errorf("session %d lives on after logging out everywhere", i+2)
		}
		if s.SessionHolds(t.Context(), account.HashSessionToken(token), a.ID) {
			t.Errorf("session %d still holds for a socket", i+2)
		}
	}
}

func TestPasswordChangeEndsOtherSessions(t *testing.T) {
	s := newService(t, roomy)
	here := mustSignUp(t, s, "ada", "10.0.0.1")
	there, err := s.LogIn(t.Context(), "ada", strong, Client{Addr: "10.0.0.2"})
	if err != nil {
		t.Fatal(err)
	}
	oldDevice, _ := DeviceCookie(here.Account)
	from := Client{Addr: "10.0.0.1"}
	_, err = s.ChangePassword(t.Context(), here.Account, "not it", "a new long password", from, here.Token)
	refusedAs(t, "a change with a wrong old password", err, BadLogin)
	_, err = s.ChangePassword(t.Context(), here.Account, strong, "password", from, here.Token)
	refusedAs(t, "a change to a common password", err, Invalid)
	if _, ok := s.Session(t.Context(), there.Token); !ok {
		t.Fatal("a refused change ended a session")
	}
	a, err := s.ChangePassword(t.Context(), here.Account, strong, "a new long password", from, here.Token)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Session(t.Context(), here.Token); !ok {
		t.Error("the change ended the session that made it")
	}
	if _, ok := s.Session(t.Context(), there.Token); ok {
		t.Error("the other session lives on after the change")
	}
	if DeviceOf(a, oldDevice) != "" {
		t.Error("a device cookie from before the change still counts")
	}
	_, err = s.LogIn(t.Context(), "ada", strong, Client{Addr: "10.0.0.3"})
	refusedAs(t, "a login with the old password", err, BadLogin)
	if _, err := s.LogIn(t.Context(), "ada", "a new long password", Client{Addr: "10.0.0.3"}); err != nil {
		t.Errorf("a login with the new password: %v", err)
	}
}

// fakeGames records what the service asks of the games.
type fakeGames struct{ resigned []string }

func (g *fakeGames) ResignAll(_ context.Context, account string) error {
	g.resigned = append(g.resigned, account)
	return nil
}

func (g *fakeGames) Claim(context.Context, string, string, Account) error { return nil }

func TestDeletion(t *testing.T) {
	s := newService(t, roomy)
	sess := mustSignUp(t, s, "ada", "10.0.0.1")
	games := &fakeGames{}
	err := s.Delete(t.Context(), sess.Account, "not it", Client{Addr: "10.0.0.1"}, games)
	refusedAs(t, "a deletion with a wrong password", err, BadLogin)
	if len(games.resigned) != 0 {
		t.Fatalf("a refused deletion resigned %v", games.resigned)
	}
	if _, err := s.User(t.Context(), "ada"); err != nil {
		t.Fatalf("after a refused deletion: %v", err)
	}
	if err := s.Delete(t.Context(), sess.Account, strong, Client{Addr: "10.0.0.1"}, games); err != nil {
		t.Fatal(err)
	}
	if len(games.resigned) != 1 || games.resigned[0] != sess.Account.ID {
		t.Errorf("the deletion resigned %v; want ada's games", games.resigned)
	}
	if _, ok := s.Session(t.Context(), sess.Token); ok {
		t.Error("a session lives on after its account's deletion")
	}
	_, err = s.User(t.Context(), "ada")
	refusedAs(t, "the profile of a deleted account", err, NotFound)
	_, err = s.LogIn(t.Context(), "ada", strong, Client{Addr: "10.0.0.2"})
	refusedAs(t, "a login to a deleted account", err, BadLogin)
}

func TestClaimsAreBounded(t *testing.T) {
	s := newService(t, roomy)
	sess := mustSignUp(t, s, "ada", "10.0.0.1")
	_, err := s.ClaimGames(t.Context(), sess.Account, make([]Claim, MaxClaims+1), &fakeGames{})
	refusedAs(t, "a claim of too many games", err, Invalid)
	got, err := s.ClaimGames(t.Context(), sess.Account, []Claim{{ID: "g1", Token: "t"}}, &fakeGames{})
	if err != nil || len(got.Claimed) != 1 || len(got.Refused) != 0 {
		t.Errorf("a claim of one game: %+v, %v", got, err)
	}
}

func TestExportsRunOneAtATime(t *testing.T) {
	s := newService(t, roomy)
	sess := mustSignUp(t, s, "ada", "10.0.0.1")
	first, err := s.StartExport(t.Context(), sess.Account.ID)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.StartExport(t.Context(), sess.Account.ID)
	refusedAs(t, "a second export at once", err, TooMany)
	first.Done()
	second, err := s.StartExport(t.Context(), sess.Account.ID)
	if err != nil {
		t.Errorf("an export after the first ended: %v", err)
	} else {
		second.Done()
	}
}

func TestDeviceCookies(t *testing.T) {
	s := newService(t, roomy)
	ada := mustSignUp(t, s, "ada", "10.0.0.1").Account
	bob := mustSignUp(t, s, "bob", "10.0.0.1").Account
	value, ok := DeviceCookie(ada)
	if !ok {
		t.Fatal("no device cookie for an account with a password")
	}
	for _, c := range []struct {
		what  string
		a     Account
		value string
		known bool
	}{
		{"ada's cookie for ada", ada, value, true},
		{"ada's cookie for bob", bob, value, false},
		{"a forged MAC", ada, forged(value), false},
		{"no cookie", ada, "", false},
		{"an over-long cookie", ada, value + string(make([]byte, deviceCookieMax)), false},
	} {
		if got := DeviceOf(c.a, c.value) != ""; got != c.known {
			t.Errorf("%s: known %v, want %v", c.what, got, c.known)
		}
	}
	if _, ok := DeviceCookie(Account{ID: "level3", Name: "Level 3"}); ok {
		t.Error("a device cookie for an account without a password")
	}
}

// forged is a device cookie's value with the last character of its MAC
// changed.
func forged(value string) string {
	last := byte('A')
	if value[len(value)-1] == last {
		last = 'B'
	}
	return value[:len(value)-1] + string(last)
}

// TestResetPassword: a reset link's token sets a new password by the
// sign-up's rules, ends every session, and works once; a malformed,
// unknown or expired token is refused alike.
func TestResetPassword(t *testing.T) {
	s := newService(t, roomy)
	ctx := t.Context()
	sess := mustSignUp(t, s, "ada", "10.0.0.1")
	token := func(at time.Time) string {
		tok, hash := account.NewSessionToken()
		if err := s.store.CreateToken(ctx, store.Token{Hash: hash, Account: sess.Account.ID, Purpose: store.TokenReset,
			Created: at, Expires: at.Add(time.Hour)}, 10, at.Add(-time.Hour)); err != nil {
			t.Fatal(err)
		}
		return tok
	}
	expired := token(time.Now().Add(-2 * time.Hour))
	good := token(time.Now())
	for _, c := range []struct{ what, token, password string }{
		{"a malformed token", "not-a-token", "a new strong password"},
		{"an over-long token", good + good, "a new strong password"},
		{"an unknown token", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "a new strong password"},
		{"an expired token", expired, "a new strong password"},
		{"a weak password", good, "ada"},
	} {
		_, err := s.ResetPassword(ctx, c.token, c.password, "10.0.0.1")
		refusedAs(t, c.what, err, Invalid)
	}
	if _, err := s.ResetPassword(ctx, good, "a new strong password", "10.0.0.1"); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Session(ctx, sess.Token); ok {
		t.Error("the session lives on after the reset")
	}
	if _, err := s.LogIn(ctx, "ada", "a new strong password", Client{Addr: "10.0.0.1"}); err != nil {
		t.Errorf("logging in with the new password: %v", err)
	}
	_, err := s.ResetPassword(ctx, good, "another strong password", "10.0.0.1")
	refusedAs(t, "the token used again", err, Invalid)
}
