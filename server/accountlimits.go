package server

import (
	"fmt"
	"net/http"
	"time"

	"github.com/arbiter-games/arbiter/account"
)

// AccountLimits bound the password work and the sign-ups of one client
// address (an IPv6 /64), and the failed-login throttle; zero fields take
// DefaultAccountLimits' values.
type AccountLimits struct {
	// HashBurst and HashEvery bound the password hashes an address may
	// have the server compute (a login, right or wrong, a sign-up, a
	// password change, an account's deletion): HashBurst at once, then
	// one per HashEvery. HashesAtOnce bounds its hashes in flight, so
	// that one address cannot hold every hashing slot.
	HashBurst    int
	HashEvery    time.Duration
	HashesAtOnce int
	// SignUpBurst and SignUpEvery bound the accounts an address may
	// make.
	SignUpBurst int
	SignUpEvery time.Duration
	// Throttle counts failed logins; see account.ThrottleConfig.
	Throttle account.ThrottleConfig
}

// DefaultAccountLimits: 20 hashes an address, then one every 3 s, one at
// a time (a hash holds a core for tens of milliseconds: an address gets
// at most one core, and over time about 2% of one); 3 sign-ups, then one
// every 20 minutes.
var DefaultAccountLimits = AccountLimits{HashBurst: 20, HashEvery: 3 * time.Second, HashesAtOnce: 1,
	SignUpBurst: 3, SignUpEvery: 20 * time.Minute}

// budgetKeys bounds the addresses each budget remembers.
const budgetKeys = 1 << 16

func (l AccountLimits) withDefaults() (AccountLimits, error) {
	if l.HashBurst < 0 || l.HashEvery < 0 || l.HashesAtOnce < 0 || l.SignUpBurst < 0 || l.SignUpEvery < 0 {
		return l, fmt.Errorf("account limits %+v: none may be negative", l)
	}
	d := DefaultAccountLimits
	for _, f := range []struct{ got, def *int }{{&l.HashBurst, &d.HashBurst}, {&l.HashesAtOnce, &d.HashesAtOnce}, {&l.SignUpBurst, &d.SignUpBurst}} {
		if *f.got == 0 {
			*f.got = *f.def
		}
	}
	for _, f := range []struct{ got, def *time.Duration }{{&l.HashEvery, &d.HashEvery}, {&l.SignUpEvery, &d.SignUpEvery}} {
		if *f.got == 0 {
			*f.got = *f.def
		}
	}
	return l, nil
}

// hashBudget admits cost password hashes for the request's address, or
// answers 429 with Retry-After itself; release ends the hashes' claim.
func (s *Server) hashBudget(w http.ResponseWriter, r *http.Request, cost int) (release func(), ok bool) {
	release, wait, ok := s.accounts.hashes.Admit(account.AddrKey(clientKey(r)), cost, s.now())
	if !ok {
		w.Header().Set("Retry-After", retryAfter(wait))
		writeError(w, fail(codeRateLimited, "too many password checks from this address; try again in %s seconds", retryAfter(wait)))
	}
	return release, ok
}

// signUpBudget admits a sign-up from the request's address, or answers
// 429 with Retry-After itself.
func (s *Server) signUpBudget(w http.ResponseWriter, r *http.Request) bool {
	_, wait, ok := s.accounts.signUps.Admit(account.AddrKey(clientKey(r)), 1, s.now())
	if !ok {
		w.Header().Set("Retry-After", retryAfter(wait))
		writeError(w, fail(codeRateLimited, "too many accounts made from this address; try again in %s seconds", retryAfter(wait)))
	}
	return ok
}
