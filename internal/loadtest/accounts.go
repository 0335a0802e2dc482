package loadtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strconv"
	"time"
)

// Games played by accounts (Config.Accounts): each human slot holds one
// account a seat, signed up once at the start and kept for the whole run.
// Each game of the slot starts in the lobby: its first account seeks (a
// rated game, 10 minutes and 5 seconds a move), the others read the
// lobby's seeks and accept that one, and then each plays its seat with its
// own session cookie, as a browser does.

// The clock of the seeks, in seconds: long enough that no game of the run
// loses on time (a player's pause is at most MaxThink).
const (
	seekInitial   = 600
	seekIncrement = 5
)

// signupTime bounds the sign-up of every account: the server hashes each
// password with Argon2id (tens of milliseconds, a few at once), so
// thousands of accounts take a minute or more.
const signupTime = 10 * time.Minute

// Errors of the pairing, counted by the tally.
var (
	errSeekNotListed = errors.New("the seek is not in GET /api/seeks")
	errNoStart       = errors.New("no game started once every seat had accepted")
	errSeats         = errors.New("the game's seats are not the run's accounts")
)

// player is one account of the run. Its jar holds its session cookie; its
// client, a new one from a new source address for each game (as the
// anonymous games do), sends that cookie.
type player struct {
	name, password string
	jar            http.CookieJar
	client         *client
}

// newPlayers makes one account a seat for slot s: a name from the run's
// tag and the slot's and seat's numbers ("lt-1a2b3c4d-12-0"), a random
// password.
func (r *run) newPlayers(s *slot) ([]*player, error) {
	players := make([]*player, r.players)
	for seat := range players {
		jar, err := cookiejar.New(nil)
		if err != nil {
			return nil, err
		}
		players[seat] = &player{name: fmt.Sprintf("lt-%s-%d-%d", r.tag, s.idx, seat),
			password: "load-" + randomHex(8), jar: jar}
	}
	return players, nil
}

// runTag is a random tag for the run's account names, so that runs against
// the same server do not take each other's names.
func runTag() string { return randomHex(4) }

// randomHex is n random bytes in hexadecimal.
func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}

// renew gives p a new client, from a new source address, with its jar.
func (r *run) renew(p *player) {
	if p.client != nil {
		p.client.close()
	}
	p.client = r.newClientWith(p.jar)
}

// signUp creates the accounts of a human slot, timing each sign-up.
func (r *run) signUp(ctx context.Context, s *slot) error {
	if s.ai {
		return nil
	}
	players, err := r.newPlayers(s)
	if err != nil {
		return err
	}
	s.players = players
	for _, p := range players {
		r.renew(p)
		sent := time.Now()
		if err := p.client.signUp(ctx, p.name, p.password); err != nil {
			r.tally.add(errorKind("signup", err), err)
			return err
		}
		s.signups = append(s.signups, time.Since(sent))
	}
	return nil
}

// newAccountGame starts the slot's next game through the lobby, each
// player with a new client, and opens its viewer.
func (r *run) newAccountGame(ctx context.Context, s *slot) error {
	for _, p := range s.players {
		r.renew(p)
	}
	s.client = s.players[0].client
	id, err := r.pair(ctx, s)
	if err != nil {
		return err
	}
	v, err := s.client.get(ctx, id)
	if err != nil {
		r.tally.add(errorKind("get", err), err)
		return err
	}
	if s.seatOf, err = seatsOf(v, s.players); err != nil {
		r.tally.add(errorKind("seats", err), err)
		return err
	}
	viewer, err := s.client.watch(ctx, id)
	if err != nil {
		r.tally.add(errorKind("socket", err), err)
		return err
	}
	names := make([]string, len(s.seatOf))
	for seat, i := range s.seatOf {
		names[seat] = s.players[i].name
	}
	r.hold(s, v, viewer, names)
	return nil
}

// pair makes the slot's first account seek a game and the others accept
// it, timing the seek and each accept; it answers the game started. A
// seek whose accepts failed is withdrawn, so that the account's open
// seeks do not pile up to the server's cap.
func (r *run) pair(ctx context.Context, s *slot) (string, error) {
	seeker := s.players[0]
	sent := time.Now()
	seekID, err := seeker.client.seek(ctx, r.seekRequest())
	if err != nil {
		r.tally.add(errorKind("seek", err), err)
		return "", err
	}
	s.seeks = append(s.seeks, time.Since(sent))
	id, err := r.join(ctx, s, seeker.name, seekID)
	if err != nil {
		if werr := seeker.client.withdraw(context.WithoutCancel(ctx), seekID); werr != nil {
			r.tally.add(errorKind("withdraw", werr), werr)
		}
		return "", err
	}
	return id, nil
}

// seekRequest is the seek of every account game: the run's game, ending
// after Moves plies as the anonymous games do, rated, with a clock.
func (r *run) seekRequest() map[string]any {
	return map[string]any{"game": r.cfg.Game, "options": map[string]string{"maxplies": strconv.Itoa(r.cfg.Moves)},
		"rated": true, "clock": map[string]int{"initial": seekInitial, "increment": seekIncrement}}
}

// join lets the slot's other accounts find the seek in the lobby and
// accept it, in turn; the last accept starts the game.
func (r *run) join(ctx context.Context, s *slot, seeker, seekID string) (string, error) {
	for _, p := range s.players[1:] {
		r.lookUp(ctx, s, p, seeker, seekID)
		sent := time.Now()
		game, err := p.client.accept(ctx, seekID)
		if err != nil {
			r.tally.add(errorKind("accept", err), err)
			return "", err
		}
		s.accepts = append(s.accepts, time.Since(sent))
		if game != "" {
			return game, nil
		}
	}
	r.tally.add(errorKind("accept", errNoStart), errNoStart)
	return "", errNoStart
}

// lookUp reads the lobby's seeks as p, timing the read, and counts an
// error when the seek is not listed as seeker's. The lobby lists a page
// of real-time seeks at a time, newest first: with many seeks open at
// once, the seek may be on a later page, so it reads on by the cursor of
// each page's last seek, up to lobbyPages pages. The accept goes on
// either way: the seek's id is known.
func (r *run) lookUp(ctx context.Context, s *slot, p *player, seeker, seekID string) {
	sent := time.Now()
	before := ""
	for range lobbyPages {
		seeks, err := p.client.seeks(ctx, before)
		if err != nil {
			r.tally.add(errorKind("lobby", err), err)
			return
		}
		for _, sk := range seeks {
			if sk.ID == seekID && sk.By == seeker {
				s.lobbyReads = append(s.lobbyReads, time.Since(sent))
				return
			}
		}
		if len(seeks) < lobbyPage {
			break
		}
		before = seeks[len(seeks)-1].Cursor
	}
	s.lobbyReads = append(s.lobbyReads, time.Since(sent))
	r.tally.add(errorKind("lobby", errSeekNotListed), errSeekNotListed)
}

// seatsOf finds which of players holds each seat of v by its account's
// name, and checks that the server knows the first player's cookie (the
// reader of v) by its seat ("you").
func seatsOf(v view, players []*player) ([]int, error) {
	if len(v.Seats) != len(players) {
		return nil, fmt.Errorf("%w: %d seats for %d accounts", errSeats, len(v.Seats), len(players))
	}
	seatOf := make([]int, len(v.Seats))
	taken := make([]bool, len(players))
	for seat, sv := range v.Seats {
		i := playerNamed(players, sv.Account)
		if i < 0 || taken[i] {
			return nil, fmt.Errorf("%w: seat %d is %q's", errSeats, seat, sv.Account)
		}
		seatOf[seat], taken[i] = i, true
	}
	if v.You == nil || *v.You < 0 || *v.You >= len(seatOf) || seatOf[*v.You] != 0 {
		return nil, fmt.Errorf("%w: the game does not show the seeker its seat (\"you\")", errSeats)
	}
	return seatOf, nil
}

func playerNamed(players []*player, name string) int {
	for i, p := range players {
		if p.name == name {
			return i
		}
	}
	return -1
}

// signUp creates an account; the answer's cookie goes to the client's
// jar.
func (c *client) signUp(ctx context.Context, name, password string) error {
	body := map[string]string{"name": name, "password": password}
	return c.do(ctx, "signup", http.MethodPost, "/api/accounts", "", body, nil)
}

// seek opens a seek and answers its id.
func (c *client) seek(ctx context.Context, req map[string]any) (string, error) {
	var out struct {
		ID string `json:"id"`
	}
	err := c.do(ctx, "seek", http.MethodPost, "/api/seeks", "", req, &out)
	return out.ID, err
}

// listedSeek is what the run reads of a seek in the lobby.
type listedSeek struct {
	ID     string `json:"id"`
	By     string `json:"by"`
	Cursor string `json:"cursor"`
}

// The lobby's pages the run reads: lobbyPage real-time seeks a page (the
// most the server gives), at most lobbyPages pages a look-up.
const (
	lobbyPage  = 100
	lobbyPages = 20
)

// seeks reads a page of the lobby's real-time seeks, after the seek
// whose cursor is before ("" for the newest).
func (c *client) seeks(ctx context.Context, before string) ([]listedSeek, error) {
	path := fmt.Sprintf("/api/seeks?kind=realtime&limit=%d", lobbyPage)
	if before != "" {
		path += "&before=" + url.QueryEscape(before)
	}
	var out []listedSeek
	err := c.do(ctx, "lobby", http.MethodGet, path, "", nil, &out)
	return out, err
}

// accept takes a seek and answers the game it started, "" while it waits
// for more players (202).
func (c *client) accept(ctx context.Context, id string) (string, error) {
	var out struct {
		Game string `json:"game"`
	}
	err := c.do(ctx, "accept", http.MethodPost, "/api/seeks/"+id+"/accept", "", nil, &out)
	return out.Game, err
}

// withdraw deletes one's own seek.
func (c *client) withdraw(ctx context.Context, id string) error {
	return c.do(ctx, "withdraw", http.MethodDelete, "/api/seeks/"+id, "", nil, nil)
}
