// Package row turns a store.Header into the columns both databases keep
// and back, and checks what a caller asks to write, so that SQLite and
// PostgreSQL store exactly the same values.
package row

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/store"
)

// Columns are the games table's columns, in the order Names lists them.
type Columns struct {
	ID, Game, Options, StartFEN, Seats string
	Clock, Result                      *string // JSON, nil for SQL NULL
	Ply                                int
	Version                            int64
	DrawOffer, OpenSeats               int
	Created, Updated                   int64 // milliseconds since 1970, UTC
	Rated                              int   // 0 or 1: both databases scan an INTEGER into it
	Waiting                            *string
	NoTakebacks                        int
}

// Names lists the games table's columns in the order of Columns' fields
// (Fields and Scan use that order).
const Names = "id, game, options, start_fen, seats, clock, ply, version, result, draw_offer, open_seats, created, updated, rated, waiting, no_takebacks"

// Fields gives the columns as query arguments, in the order of Names.
func (c *Columns) Fields() []any {
	return []any{c.ID, c.Game, c.Options, c.StartFEN, c.Seats, c.Clock, c.Ply, c.Version, c.Result, c.DrawOffer, c.OpenSeats, c.Created, c.Updated, c.Rated, c.Waiting, c.NoTakebacks}
}

// Targets gives pointers to the columns for a row scan, in the order of
// Names.
func (c *Columns) Targets() []any {
	return []any{&c.ID, &c.Game, &c.Options, &c.StartFEN, &c.Seats, &c.Clock, &c.Ply, &c.Version, &c.Result, &c.DrawOffer, &c.OpenSeats, &c.Created, &c.Updated, &c.Rated, &c.Waiting, &c.NoTakebacks}
}

// storedSeat is a seat as the database keeps it: unlike store.Seat's JSON,
// which the server may show, it includes the token hash.
type storedSeat struct {
	Player    string `json:"player"`
	Name      string `json:"name,omitempty"`
	TokenHash []byte `json:"tokenHash,omitempty"`
	Open      bool   `json:"open"`
	Account   string `json:"account,omitempty"`
	Arrived   bool   `json:"arrived,omitempty"`
	Bot       bool   `json:"bot,omitempty"`
}

// FromHeader gives the columns for h. Times are kept in UTC to the
// millisecond.
func FromHeader(h store.Header) (Columns, error) {
	c := Columns{
		ID: h.ID, Game: h.Game, StartFEN: h.StartFEN, Ply: h.Ply, Version: h.Version,
		DrawOffer: h.DrawOffer, Created: Millis(h.Created), Updated: Millis(h.Updated), Rated: boolInt(h.Rated),
		NoTakebacks: boolInt(h.NoTakebacks),
	}
	opts, err := json.Marshal(h.Options)
	if err != nil {
		return Columns{}, err
	}
	c.Options = string(opts)
	var seats []storedSeat
	if h.Seats != nil {
		seats = make([]storedSeat, 0, len(h.Seats))
	}
	for _, s := range h.Seats {
		seats = append(seats, storedSeat(s))
		if s.Open {
			c.OpenSeats++
		}
	}
	b, err := json.Marshal(seats)
	if err != nil {
		return Columns{}, err
	}
	c.Seats = string(b)
	if h.Clock != nil {
		clock := *h.Clock
		clock.TurnStart = Time(Millis(clock.TurnStart))
		if c.Clock, err = jsonText(clock); err != nil {
			return Columns{}, err
		}
	}
	if h.Result != nil {
		if c.Result, err = jsonText(h.Result); err != nil {
			return Columns{}, err
		}
	}
	if !h.Waiting.IsZero() {
		if c.Waiting, err = jsonText(h.Waiting); err != nil {
			return Columns{}, err
		}
	}
	return c, nil
}

// boolInt is b as an INTEGER column keeps it.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func jsonText(v any) (*string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	s := string(b)
	return &s, nil
}

// Header reads the columns back.
func (c *Columns) Header() (store.Header, error) {
	h := store.Header{
		ID: c.ID, Game: c.Game, StartFEN: c.StartFEN, Ply: c.Ply, Version: c.Version,
		DrawOffer: c.DrawOffer, Created: Time(c.Created), Updated: Time(c.Updated), Rated: c.Rated == 1,
		NoTakebacks: c.NoTakebacks == 1,
	}
	if err := json.Unmarshal([]byte(c.Options), &h.Options); err != nil {
		return store.Header{}, fmt.Errorf("game %s: stored options: %w", c.ID, err)
	}
	var seats []storedSeat
	if err := json.Unmarshal([]byte(c.Seats), &seats); err != nil {
		return store.Header{}, fmt.Errorf("game %s: stored seats: %w", c.ID, err)
	}
	if seats != nil {
		h.Seats = make([]store.Seat, 0, len(seats))
	}
	for _, s := range seats {
		h.Seats = append(h.Seats, store.Seat(s))
	}
	if c.Clock != nil {
		h.Clock = new(store.Clock)
		if err := json.Unmarshal([]byte(*c.Clock), h.Clock); err != nil {
			return store.Header{}, fmt.Errorf("game %s: stored clock: %w", c.ID, err)
		}
		h.Clock.TurnStart = Time(Millis(h.Clock.TurnStart))
	}
	if c.Result != nil {
		h.Result = new(store.Result)
		if err := json.Unmarshal([]byte(*c.Result), h.Result); err != nil {
			return store.Header{}, fmt.Errorf("game %s: stored result: %w", c.ID, err)
		}
	}
	if c.Waiting != nil {
		if err := json.Unmarshal([]byte(*c.Waiting), &h.Waiting); err != nil {
			return store.Header{}, fmt.Errorf("game %s: stored waiting: %w", c.ID, err)
		}
	}
	return h, nil
}

// Millis is t as the databases keep it.
func Millis(t time.Time) int64 { return t.UnixMilli() }

// Time reads a time the databases kept; the zero time comes back as the
// zero time.
func Time(ms int64) time.Time {
	if ms == (time.Time{}).UnixMilli() {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}

// DefaultLimit is List's answer size when the filter gives none.
const DefaultLimit = 100

// Limit is the number of games List answers for f.
func Limit(f store.Filter) (int, error) {
	switch {
	case f.Limit < 0:
		return 0, fmt.Errorf("store: list limit %d is negative; want 0 (for %d) or more", f.Limit, DefaultLimit)
	case f.Limit == 0:
		return DefaultLimit, nil
	}
	return f.Limit, nil
}

// CheckCreate refuses a header Create must not store.
func CheckCreate(h store.Header) error {
	if err := checkHeader(h); err != nil {
		return err
	}
	if h.Ply != 0 || h.Version != 1 {
		return fmt.Errorf("store: a new game starts at ply 0, version 1; got ply %d, version %d", h.Ply, h.Version)
	}
	return nil
}

// CheckMove refuses a move and header AddMove must not store.
func CheckMove(m store.Move, next store.Header) error {
	if err := checkHeader(next); err != nil {
		return err
	}
	switch {
	case m.Ply < 0:
		return fmt.Errorf("store: move %q is for ply %d; want 0 or more", m.Text, m.Ply)
	case m.Text == "":
		return fmt.Errorf("store: the move for ply %d is empty", m.Ply)
	case next.Ply != m.Ply+1:
		return fmt.Errorf("store: the header after the move of ply %d must have ply %d, not %d", m.Ply, m.Ply+1, next.Ply)
	}
	return checkVersion(next)
}

// CheckUpdate refuses a header Update must not store.
func CheckUpdate(next store.Header) error {
	if err := checkHeader(next); err != nil {
		return err
	}
	return checkVersion(next)
}

func checkVersion(next store.Header) error {
	if next.Version < 2 {
		return fmt.Errorf("store: game %s: a changed game has version 2 or more (one past the stored one), not %d", next.ID, next.Version)
	}
	return nil
}

func checkHeader(h store.Header) error {
	switch {
	case h.ID == "":
		return errors.New("store: the game has no id")
	case h.Game == "":
		return fmt.Errorf("store: game %s has no game id (such as pommel)", h.ID)
	case h.Ply < 0:
		return fmt.Errorf("store: game %s: ply %d is negative", h.ID, h.Ply)
	case h.DrawOffer < -1 || h.DrawOffer >= len(h.Seats):
		return fmt.Errorf("store: game %s: draw offer by seat %d; want -1 (none) or a seat 0..%d", h.ID, h.DrawOffer, len(h.Seats)-1)
	}
	return checkPending(h)
}

// checkPending refuses a take-back request, a premove or a line of no
// seat, a premove for a ply already played, and a line for another ply
// than the game's.
func checkPending(h store.Header) error {
	if tb := h.Waiting.Takeback; tb != nil && (*tb < 0 || *tb >= len(h.Seats)) {
		return fmt.Errorf("store: game %s: take-back request by seat %d; want a seat 0..%d", h.ID, *tb, len(h.Seats)-1)
	}
	if err := checkLine(h); err != nil {
		return err
	}
	pm := h.Waiting.Premove
	switch {
	case pm == nil:
		return nil
	case pm.Seat < 0 || pm.Seat >= len(h.Seats):
		return fmt.Errorf("store: game %s: premove by seat %d; want a seat 0..%d", h.ID, pm.Seat, len(h.Seats)-1)
	case pm.Ply < h.Ply:
		return fmt.Errorf("store: game %s: premove for ply %d, already played (the game is at ply %d)", h.ID, pm.Ply, h.Ply)
	case pm.Move == "":
		return fmt.Errorf("store: game %s: the premove is empty", h.ID)
	}
	return nil
}

// CheckTakeBack refuses a header TakeBack must not store: it has ply
// left, fewer than the stored game.
func CheckTakeBack(next store.Header) error {
	if err := checkHeader(next); err != nil {
		return err
	}
	return checkVersion(next)
}

// Mismatch explains why a conditional write of next changed nothing,
// given the stored game's ply and version. Update (update true) with the
// right version but another ply is the caller's mistake, not a race.
func Mismatch(next store.Header, update bool, ply int, version int64) error {
	if update && version == next.Version-1 && ply != next.Ply {
		return fmt.Errorf("store: game %s: Update cannot change the ply (stored %d, given %d); moves go through AddMove", next.ID, ply, next.Ply)
	}
	return fmt.Errorf("store: game %s (stored ply %d, version %d; written for version %d): %w",
		next.ID, ply, version, next.Version-1, store.ErrConflict)
}

// Where is List's WHERE clause for f (or "") and its arguments; param
// gives the placeholder of the nth argument (1-based).
func Where(f store.Filter, param func(n int) string) (string, []any) {
	var conds []string
	var args []any
	if f.Ongoing {
		conds = append(conds, "result IS NULL")
	}
	if f.OpenSeats {
		conds = append(conds, "open_seats > 0")
	}
	if len(f.IDs) > 0 {
		marks := make([]string, len(f.IDs))
		for i, id := range f.IDs {
			args = append(args, id)
			marks[i] = param(len(args))
		}
		conds = append(conds, "id IN ("+strings.Join(marks, ", ")+")")
	}
	if len(conds) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(conds, " AND "), args
}

// checkLine refuses a line of conditional moves of no seat, for another
// ply than the game's, or with no move or an empty one.
func checkLine(h store.Header) error {
	l := h.Waiting.Line
	switch {
	case l == nil:
		return nil
	case l.Seat < 0 || l.Seat >= len(h.Seats):
		return fmt.Errorf("store: game %s: conditional moves of seat %d; want a seat 0..%d", h.ID, l.Seat, len(h.Seats)-1)
	case l.Ply != h.Ply:
		return fmt.Errorf("store: game %s: conditional moves for ply %d; the game is at ply %d", h.ID, l.Ply, h.Ply)
	case len(l.Moves) == 0 || slices.Contains(l.Moves, ""):
		return fmt.Errorf("store: game %s: conditional moves with an empty move, or none", h.ID)
	}
	return nil
}
