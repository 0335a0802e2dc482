package accounts

import (
	"fmt"
	"time"

	"github.com/arbiter-games/arbiter/account"
)

// Limits bound the password work and the sign-ups of one client address
// (an IPv6 /64), and the failed-login throttle; zero fields take
// DefaultLimits' values.
type Limits struct {
	// HashBurst and HashEvery bound the password hashes an address may
	// have the service compute (a login, right or wrong, a sign-up, a
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

// DefaultLimits: 20 hashes an address, then one every 3 s, one at a time
// (a hash holds a core for tens of milliseconds: an address gets at most
// one core, and over time about 2% of one); 3 sign-ups, then one every
// 20 minutes.
var DefaultLimits = Limits{HashBurst: 20, HashEvery: 3 * time.Second, HashesAtOnce: 1,
	SignUpBurst: 3, SignUpEvery: 20 * time.Minute}

// budgetKeys bounds the addresses each budget remembers.
const budgetKeys = 1 << 16

// WithDefaults is l with its zero fields DefaultLimits'; a negative field
// is an error.
func (l Limits) WithDefaults() (Limits, error) {
	if l.HashBurst < 0 || l.HashEvery < 0 || l.HashesAtOnce < 0 || l.SignUpBurst < 0 || l.SignUpEvery < 0 {
		return l, fmt.Errorf("account limits %+v: none may be negative", l)
	}
	d := DefaultLimits
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

// hashBudget admits cost password hashes for the address addr; release
// ends the hashes' claim.
func (s *Service) hashBudget(addr string, cost int) (release func(), err error) {
	release, wait, ok := s.hashes.Admit(account.AddrKey(addr), cost, s.now())
	if !ok {
		return nil, tooMany(wait, "too many password checks from this address; try again in %s seconds")
	}
	return release, nil
}

// signUpBudget admits a sign-up from the address addr.
func (s *Service) signUpBudget(addr string) error {
	if _, wait, ok := s.signUps.Admit(account.AddrKey(addr), 1, s.now()); !ok {
		return tooMany(wait, "too many accounts made from this address; try again in %s seconds")
	}
	return nil
}

// throttled refuses a login (or a password given again) that has failed
// too often lately (see account.Throttle.Check).
func (s *Service) throttled(key, addr, device string) error {
	if wait, ok := s.throttle.Check(key, addr, device, s.now()); !ok {
		return tooMany(wait, "too many failed attempts; try again in %s seconds")
	}
	return nil
}
