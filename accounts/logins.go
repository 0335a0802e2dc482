package accounts

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"errors"
	"strings"

	"github.com/arbiter-games/arbiter/account"
	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/store"
)

// newAccountID is a fresh account id: 20 random letters and digits.
func newAccountID() string {
	b := make([]byte, 12)
	rand.Read(b)
	return "u" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))
}

// SignUp makes an account of name and password for the client at addr
// and logs it in. The rules are checked before any budget is spent; then
// the address pays a sign-up and a hash.
func (s *Service) SignUp(ctx context.Context, name, password, addr string) (Session, error) {
	if err := account.CheckName(name); err != nil {
		return Session{}, refuse(Invalid, "%s", err)
	}
	if err := s.passwords.Check(password, name); err != nil {
		return Session{}, refuse(Invalid, "%s", err)
	}
	// A taken name is told before the budget is spent: the store would
	// refuse it anyway, and a typo should not cost a sign-up.
	if _, err := s.store.AccountByName(ctx, name); err == nil {
		return Session{}, nameTaken(name)
	}
	if err := s.signUpBudget(addr); err != nil {
		return Session{}, err
	}
	release, err := s.hashBudget(addr, 1)
	if err != nil {
		return Session{}, err
	}
	hash, err := s.hasher.Hash(ctx, password)
	release()
	if err != nil {
		return Session{}, err
	}
	a := store.Account{ID: newAccountID(), Name: name, Password: hash, Created: s.now()}
	if err := s.store.CreateAccount(ctx, a); err != nil {
		if errors.Is(err, store.ErrNameTaken) {
			return Session{}, nameTaken(name)
		}
		return Session{}, err
	}
	s.log.Info("account created", "account", a.ID, "name", a.Name)
	return s.startSession(ctx, fromStore(a))
}

func nameTaken(name string) *Error {
	return refuse(NameTaken, "the name %s is taken; choose another", clip.Quote(name))
}

// startSession stores a new session for a, unless a moderator closed
// it or it is a bot (the right password then learns why).
func (s *Service) startSession(ctx context.Context, a Account) (Session, error) {
	if a.Standing.Closed {
		return Session{}, refuse(Forbidden, "a moderator closed this account: %s", a.Standing.CloseReason)
	}
	if a.IsBot() {
		return Session{}, refuse(Forbidden, "%s is a bot: it plays through the bot API with an API token (Authorization: Bearer %s...), and signs in to no page", a.Name, account.APITokenPrefix)
	}
	token, hash := account.NewSessionToken()
	now := s.now()
	if err := s.store.CreateSession(ctx, store.Session{Hash: hash, Account: a.ID, Created: now, Expires: now.Add(SessionLife)}); err != nil {
		return Session{}, err
	}
	return Session{Token: token, Account: a}, nil
}

// LogIn checks a name and password and logs the account in. A wrong
// name costs the same hash as a wrong password and answers the same, so
// that neither the answer nor its time tells which names exist. Every
// check, right or wrong, is paid from the address's hash budget;
// failures are throttled per name and address, per address, and per name
// from unknown devices (a device cookie from an earlier login to the name
// is counted apart).
func (s *Service) LogIn(ctx context.Context, name, password string, c Client) (Session, error) {
	a, found, err := s.loginAccount(ctx, name)
	if err != nil {
		return Session{}, err
	}
	key, device := throttleKey(name), ""
	if found {
		device = DeviceOf(a, c.Device)
	}
	if err := s.throttled(key, c.Addr, device); err != nil {
		return Session{}, err
	}
	release, err := s.hashBudget(c.Addr, 1)
	if err != nil {
		return Session{}, err
	}
	ok, err := s.checkPassword(ctx, a, found, password)
	release()
	if err != nil {
		return Session{}, err
	}
	if !ok {
		s.throttle.Fail(key, c.Addr, device, s.now())
		return Session{}, refuse(BadLogin, "wrong name or password")
	}
	s.throttle.Succeed(key, c.Addr, device)
	return s.startSession(ctx, a)
}

// throttleKey is the key a login's name is throttled under: its Key, cut
// so that an over-long name (which no account has) holds no more memory
// than a real one.
func throttleKey(name string) string {
	return account.Key(name[:min(len(name), 2*account.NameMax)])
}

// loginAccount is the account name logs in to; found is false when there
// is none that can log in with a password (no such name, an AI level, a
// deleted account).
func (s *Service) loginAccount(ctx context.Context, name string) (a Account, found bool, err error) {
	sa, err := s.store.AccountByName(ctx, name)
	switch {
	case errors.Is(err, store.ErrNoAccount) || err == nil && sa.Password == "":
		return Account{}, false, nil
	case err != nil:
		return Account{}, false, err
	}
	return fromStore(sa), true, nil
}

// checkPassword checks a login's password against a, spending the same
// work when no account was found.
func (s *Service) checkPassword(ctx context.Context, a Account, found bool, password string) (bool, error) {
	if !found {
		_, err := s.hasher.VerifyNobody(ctx, password)
		return false, err
	}
	return s.hasher.Verify(ctx, password, a.password)
}

// Session is the account of a session token (as account.NewSessionToken
// made it); false when no live session has it, and for a bot's (a bot
// has none: its sessions ended when it turned into one). A failure of the store is
// logged and counts as no session.
func (s *Service) Session(ctx context.Context, token string) (Account, bool) {
	a, err := s.store.SessionAccount(ctx, account.HashSessionToken(token), s.now())
	if err != nil {
		if !errors.Is(err, store.ErrNoSession) {
			s.log.Warn("reading a session", "err", err)
		}
		return Account{}, false
	}
	if a.Standing.Closed || a.IsBot() {
		return Account{}, false
	}
	return fromStore(a), true
}

// SessionHolds tells whether the session of the token hash hash still
// logs in to the account id. A failure of the store says nothing of the
// session: it is logged and the session holds.
func (s *Service) SessionHolds(ctx context.Context, hash []byte, id string) bool {
	a, err := s.store.SessionAccount(ctx, hash, s.now())
	if err == nil {
		return a.ID == id
	}
	// A store that cannot answer for a moment keeps the sockets open; a
	// read cut short because the socket itself is closing (its session
	// revoked, say) holds nothing: the command it was for is not played.
	if !errors.Is(err, store.ErrNoSession) && ctx.Err() == nil {
		s.log.Warn("reading a socket's session", "err", err)
		return true
	}
	return false
}

// LogOut ends the session of token; ended is false when there was none
// (then nothing is written).
func (s *Service) LogOut(ctx context.Context, token string) (ended bool, err error) {
	if _, ok := s.Session(ctx, token); !ok {
		return false, nil
	}
	if err := s.store.DeleteSession(ctx, account.HashSessionToken(token)); err != nil {
		return false, err
	}
	return true, nil
}

// LogOutEverywhere ends every session of the account id.
func (s *Service) LogOutEverywhere(ctx context.Context, id string) error {
	return s.store.DeleteSessions(ctx, id, nil)
}

// ChangePassword sets a's password to newPassword once old is checked;
// every session of a but the one of keepToken ends. The answer is a with
// its new hash, for a new device cookie (the old ones were signed with
// the old hash).
func (s *Service) ChangePassword(ctx context.Context, a Account, old, newPassword string, c Client, keepToken string) (Account, error) {
	if err := s.passwords.Check(newPassword, a.Name); err != nil {
		return a, refuse(Invalid, "%s", err)
	}
	// Two hashes, the old password's check and the new one's, paid at once.
	release, err := s.hashBudget(c.Addr, 2)
	if err != nil {
		return a, err
	}
	defer release()
	if err := s.passwordAgain(ctx, a, old, c); err != nil {
		return a, err
	}
	hash, err := s.hasher.Hash(ctx, newPassword)
	if err == nil {
		err = s.store.SetPassword(ctx, a.ID, hash, account.HashSessionToken(keepToken))
	}
	if err != nil {
		return a, err
	}
	a.password = hash
	return a, nil
}

// passwordAgain checks the password of a signed-in account before a
// change that needs it, throttled as logins are (the caller has paid its
// hash).
func (s *Service) passwordAgain(ctx context.Context, a Account, password string, c Client) error {
	key, device := account.Key(a.Name), DeviceOf(a, c.Device)
	if err := s.throttled(key, c.Addr, device); err != nil {
		return err
	}
	ok, err := s.hasher.Verify(ctx, password, a.password)
	if err != nil {
		return err
	}
	if !ok {
		s.throttle.Fail(key, c.Addr, device, s.now())
		return refuse(BadLogin, "wrong password")
	}
	return nil
}

// Games is what the service needs of the games in play (the hall): to
// resign an account's games, and to give an account an anonymous seat.
type Games interface {
	ResignAll(ctx context.Context, account string) error
	Claim(ctx context.Context, gameID, token string, a Account) error
}

// Delete deletes a once its password is checked: its games in play are
// resigned (by games), its finished games stay with "deleted" in its
// seats, its sessions end.
func (s *Service) Delete(ctx context.Context, a Account, password string, c Client, games Games) error {
	release, err := s.hashBudget(c.Addr, 1)
	if err != nil {
		return err
	}
	err = s.passwordAgain(ctx, a, password, c)
	release()
	if err != nil {
		return err
	}
	if err := games.ResignAll(ctx, a.ID); err != nil {
		return err
	}
	if err := s.store.DeleteAccount(ctx, a.ID, s.now()); err != nil {
		return err
	}
	s.log.Info("account deleted", "account", a.ID)
	return nil
}

// MaxClaims bounds the games one claim may name.
const MaxClaims = 200

// Claim is an anonymous seat a browser holds: its game and its token.
type Claim struct {
	ID, Token string
}

// Claimed is what a claim did: the games whose seats a now holds, and
// the refusal of each other (the games' own).
type Claimed struct {
	Claimed []string
	Refused []Refused
}

// Refused is a game a claim could not take, and why.
type Refused struct {
	ID  string
	Err error
}

// ClaimGames gives a the anonymous seats of claims, each as games
// allows.
func (s *Service) ClaimGames(ctx context.Context, a Account, claims []Claim, games Games) (Claimed, error) {
	if len(claims) > MaxClaims {
		return Claimed{}, refuse(Invalid, "%d games; claim at most %d at once", len(claims), MaxClaims)
	}
	out := Claimed{Claimed: []string{}, Refused: []Refused{}}
	for _, g := range claims {
		if err := games.Claim(ctx, g.ID, g.Token, a); err != nil {
			out.Refused = append(out.Refused, Refused{ID: clipID(g.ID), Err: err})
			continue
		}
		out.Claimed = append(out.Claimed, g.ID)
	}
	return out, nil
}

// clipID is a game id as an answer may quote it back.
func clipID(id string) string {
	if len(id) > 40 {
		return id[:40]
	}
	return id
}

// ResetPassword sets the password of the account a reset link was
// mailed to: token is the link's (see package notify), newPassword is
// checked by the rules a sign-up's is, against the account's name, and
// paid from the address's hash budget. The token is used once: the
// password, the end of every session of the account and the token's use
// are one write, so that of two uses one wins. A token malformed,
// unknown, used or expired is refused alike (Invalid). It gives the
// account, with its new hash.
func (s *Service) ResetPassword(ctx context.Context, token, newPassword, addr string) (Account, error) {
	bad := refuse(Invalid, "this reset link is not valid: it was used, it expired, or it was never made; ask for another")
	if !account.ValidSessionToken(token) { // a link's token has a session token's form
		return Account{}, bad
	}
	hash := account.HashSessionToken(token)
	t, err := s.store.Token(ctx, hash, store.TokenReset, s.now())
	if errors.Is(err, store.ErrNoToken) {
		return Account{}, bad
	}
	if err != nil {
		return Account{}, err
	}
	sa, err := s.store.Account(ctx, t.Account)
	if err != nil {
		return Account{}, err
	}
	a := fromStore(sa)
	if err := s.passwords.Check(newPassword, a.Name); err != nil {
		return Account{}, refuse(Invalid, "%s", err)
	}
	release, err := s.hashBudget(addr, 1)
	if err != nil {
		return Account{}, err
	}
	hashed, err := s.hasher.Hash(ctx, newPassword)
	release()
	if err != nil {
		return Account{}, err
	}
	if _, err := s.store.ResetPassword(ctx, hash, hashed, s.now()); errors.Is(err, store.ErrNoToken) {
		return Account{}, bad
	} else if err != nil {
		return Account{}, err
	}
	s.log.Info("password reset", "account", a.ID)
	a.password = hashed
	return a, nil
}
