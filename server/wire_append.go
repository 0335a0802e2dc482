package server

import (
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/arbiter-games/arbiter/game"
)

// The game's event, encoded by hand: every socket of a game is sent one
// after each move, and encoding/json's reflection (a map sorted, each
// piece marshalled through its MarshalJSON and compacted) was a tenth of
// the server's time under load. The bytes are exactly json.Marshal's
// (TestAppendGameEventIsMarshal compares the two over random games and
// over every field filled at random), so the golden files and every
// client read the same thing; what this code cannot write as json.Marshal
// would (a piece of no rank) it leaves to json.Marshal.

// appendGameEvent appends ev, an event of type "game", as json.Marshal
// writes it; ok is false, and b unchanged, when it cannot.
func appendGameEvent(b []byte, ev *event) (_ []byte, ok bool) {
	start := len(b)
	b = append(b, `{"type":`...)
	b = appendString(b, ev.Type)
	if ev.ID != "" || ev.Ply != nil || ev.Seat != nil || ev.Status != 0 || ev.Error != nil || !encodable(ev.Game) {
		return b[:start], false // not a game's event, or one json.Marshal refuses
	}
	if ev.Version != 0 {
		b = append(b, `,"version":`...)
		b = strconv.AppendInt(b, ev.Version, 10)
	}
	if ev.Game != nil {
		b = append(b, `,"game":`...)
		b = appendGameView(b, ev.Game)
	}
	switch {
	case ev.Position != nil:
		b = append(b, `,"position":`...)
		b = appendPosition(b, ev.Position)
	case ev.live != nil:
		b = appendLivePosition(b, ev.live.st, ev.live.ply)
	}
	if ev.Effects != nil {
		b = append(b, `,"effects":`...)
		if b, ok = appendEffects(b, ev.Effects); !ok {
			return b[:start], false
		}
	}
	return append(b, '}'), true
}

// encodable reports whether g holds only what json.Marshal writes: no
// time outside years 0 to 9999, no rating NaN or infinite.
func encodable(g *gameView) bool {
	if g == nil {
		return true
	}
	for _, t := range []time.Time{g.Created, g.Updated} {
		if y := t.Year(); y < 0 || y > 9999 {
			return false
		}
	}
	for _, s := range g.Seats {
		if s.Rating != nil && (math.IsNaN(*s.Rating) || math.IsInf(*s.Rating, 0)) {
			return false
		}
	}
	return true
}

func appendGameView(b []byte, g *gameView) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, g.ID)
	b = append(b, `,"game":`...)
	b = appendString(b, g.Game)
	b = append(b, `,"name":`...)
	b = appendString(b, g.Name)
	b = append(b, `,"options":`...)
	b = appendStringMap(b, g.Options)
	b = append(b, `,"fen":`...)
	b = appendString(b, g.FEN)
	b = append(b, `,"moves":`...)
	b = appendStrings(b, g.Moves)
	b = append(b, `,"ply":`...)
	b = strconv.AppendInt(b, int64(g.Ply), 10)
	b = append(b, `,"toMove":`...)
	b = strconv.AppendInt(b, int64(g.ToMove), 10)
	b = append(b, `,"legal":`...)
	b = appendStrings(b, g.Legal)
	b = append(b, `,"result":`...)
	b = appendResult(b, g.Result)
	b = append(b, `,"version":`...)
	b = strconv.AppendInt(b, g.Version, 10)
	if g.StartFEN != "" {
		b = append(b, `,"startFen":`...)
		b = appendString(b, g.StartFEN)
	}
	b = append(b, `,"seats":`...)
	b = appendSeats(b, g.Seats)
	b = append(b, `,"rated":`...)
	b = strconv.AppendBool(b, g.Rated)
	b = append(b, `,"movers":`...)
	b = appendInts(b, g.Movers)
	b = append(b, `,"drawOffer":`...)
	b = strconv.AppendInt(b, int64(g.DrawOffer), 10)
	b = append(b, `,"takeback":`...)
	b = strconv.AppendInt(b, int64(g.Takeback), 10)
	b = append(b, `,"takebacks":`...)
	b = strconv.AppendBool(b, g.Takebacks)
	if g.Clock != nil {
		b = append(b, `,"clock":`...)
		b = appendClock(b, g.Clock)
	}
	if g.Description != "" {
		b = append(b, `,"description":`...)
		b = appendString(b, g.Description)
	}
	if g.Attention != "" {
		b = append(b, `,"attention":`...)
		b = appendString(b, g.Attention)
	}
	b = append(b, `,"url":`...)
	b = appendString(b, g.URL)
	b = append(b, `,"created":`...)
	b = appendTime(b, g.Created)
	b = append(b, `,"updated":`...)
	b = appendTime(b, g.Updated)
	return append(b, '}')
}

func appendResult(b []byte, r *resultView) []byte {
	if r == nil {
		return append(b, "null"...)
	}
	b = append(b, `{"winners":`...)
	b = appendInts(b, r.Winners)
	b = append(b, `,"reason":`...)
	b = appendString(b, r.Reason)
	if len(r.Scores) > 0 {
		b = append(b, `,"scores":`...)
		b = appendInts(b, r.Scores)
	}
	return append(b, '}')
}

func appendSeats(b []byte, seats []seatView) []byte {
	if seats == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range seats {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendSeat(b, &seats[i])
	}
	return append(b, ']')
}

func appendSeat(b []byte, s *seatView) []byte {
	b = append(b, `{"seat":`...)
	b = strconv.AppendInt(b, int64(s.Seat), 10)
	b = append(b, `,"player":`...)
	b = appendString(b, s.Player)
	if s.Name != "" {
		b = append(b, `,"name":`...)
		b = appendString(b, s.Name)
	}
	b = append(b, `,"side":`...)
	b = appendString(b, s.Side)
	b = append(b, `,"open":`...)
	b = strconv.AppendBool(b, s.Open)
	if s.Account != "" {
		b = append(b, `,"account":`...)
		b = appendString(b, s.Account)
	}
	if s.Arrived {
		b = append(b, `,"arrived":true`...)
	}
	if s.Rating != nil {
		b = append(b, `,"rating":`...)
		b = appendFloat(b, *s.Rating)
	}
	if s.Provisional {
		b = append(b, `,"provisional":true`...)
	}
	if s.Bot {
		b = append(b, `,"bot":true`...)
	}
	return append(b, '}')
}

func appendClock(b []byte, c *clockView) []byte {
	b = append(b, `{"kind":`...)
	b = appendString(b, c.Kind)
	b = append(b, `,"control":`...)
	b = appendString(b, c.Control)
	if c.BaseMs != 0 {
		b = append(b, `,"baseMs":`...)
		b = strconv.AppendInt(b, c.BaseMs, 10)
	}
	if c.IncrementMs != 0 {
		b = append(b, `,"incrementMs":`...)
		b = strconv.AppendInt(b, c.IncrementMs, 10)
	}
	if c.PerMoveMs != 0 {
		b = append(b, `,"perMoveMs":`...)
		b = strconv.AppendInt(b, c.PerMoveMs, 10)
	}
	b = append(b, `,"leftMs":`...)
	b = appendInts(b, c.LeftMs)
	b = append(b, `,"running":`...)
	b = strconv.AppendBool(b, c.Running)
	return append(b, '}')
}

func appendPosition(b []byte, p *positionView) []byte {
	b = append(b, `{"board":`...)
	b = appendString(b, p.Board)
	b = append(b, `,"ply":`...)
	b = strconv.AppendInt(b, int64(p.Ply), 10)
	b = append(b, `,"toMove":`...)
	b = strconv.AppendInt(b, int64(p.ToMove), 10)
	b = append(b, `,"stacks":`...)
	b = appendStringMap(b, p.Stacks)
	if len(p.Scores) > 0 {
		b = append(b, `,"scores":`...)
		b = appendInts(b, p.Scores)
	}
	b = appendEndRows(b, p)
	return append(b, '}')
}

// appendEndRows appends p's end rows and frozen piles, when it has them.
func appendEndRows(b []byte, p *positionView) []byte {
	if len(p.EndRows) > 0 {
		b = append(b, `,"endRows":[`...)
		for i, row := range p.EndRows {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendStrings(b, row)
		}
		b = append(b, ']')
	}
	if len(p.Frozen) > 0 {
		b = append(b, `,"frozen":`...)
		b = appendStrings(b, p.Frozen)
	}
	return b
}

// appendLivePosition appends ,"position": and the position of st as
// appendPosition writes position(st, ply), reading the stacks straight
// into the event; nothing when st shows no stacks (position refuses it).
func appendLivePosition(b []byte, st game.State, ply int) []byte {
	stacker, ok := st.(game.Stacker)
	if !ok {
		return b
	}
	rules := st.Game()
	board := rules.Board()
	b = append(b, `,"position":{"board":`...)
	b = appendString(b, board.ID())
	b = append(b, `,"ply":`...)
	b = strconv.AppendInt(b, int64(ply), 10)
	b = append(b, `,"toMove":`...)
	b = strconv.AppendInt(b, int64(st.ToMove()), 10)
	b = append(b, `,"stacks":{`...)
	var space [32]game.Piece
	first := true
	for c := range board.CellsByName() {
		pieces := stacker.Stack(c, space[:0])
		if len(pieces) == 0 {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = appendString(b, board.Name(c))
		b = append(b, `:"`...)
		b = game.AppendStackLetters(b, rules, pieces)
		b = append(b, '"')
	}
	b = append(b, '}')
	if sc, ok := st.(game.Scorer); ok && rules.Players() > 0 {
		all := sc.Scores()
		b = append(b, `,"scores":`...)
		b = appendInts(b, all[:rules.Players()])
	}
	if er, ok := rules.(endRower); ok {
		pos := positionView{}
		pos.EndRows, pos.Frozen = endRows(st, er)
		b = appendEndRows(b, &pos)
	}
	return append(b, '}')
}

// appendEffects appends e; ok is false for a piece of no rank, which
// json.Marshal refuses.
func appendEffects(b []byte, e *game.Effects) (_ []byte, ok bool) {
	b = append(b, `{"move":`...)
	b = appendString(b, e.Move)
	b = append(b, `,"player":`...)
	b = strconv.AppendInt(b, int64(e.Player), 10)
	b = append(b, `,"capture":`...)
	b = strconv.AppendBool(b, e.Capture)
	b = append(b, `,"path":`...)
	b = appendStrings(b, e.Path)
	b = append(b, `,"moving":`...)
	if b, ok = appendPieces(b, e.Moving); !ok {
		return b, false
	}
	if len(e.Captured) > 0 {
		b = append(b, `,"captured":[`...)
		for i := range e.Captured {
			if i > 0 {
				b = append(b, ',')
			}
			if b, ok = appendCapture(b, &e.Captured[i]); !ok {
				return b, false
			}
		}
		b = append(b, ']')
	}
	if len(e.Prisoners) > 0 {
		b = append(b, `,"prisoners":`...)
		if b, ok = appendPieces(b, e.Prisoners); !ok {
			return b, false
		}
	}
	if e.Promoted != "" {
		b = append(b, `,"promoted":`...)
		b = appendString(b, e.Promoted)
	}
	if e.Removed {
		b = append(b, `,"removed":true`...)
	}
	if len(e.Drops) > 0 {
		b = append(b, `,"drops":[`...)
		for i, d := range e.Drops {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"cell":`...)
			b = appendString(b, d.Cell)
			b = append(b, `,"piece":`...)
			if b, ok = appendPiece(b, d.Piece); !ok {
				return b, false
			}
			b = append(b, '}')
		}
		b = append(b, ']')
	}
	b = append(b, `,"landed":`...)
	if b, ok = appendPieces(b, e.Landed); !ok {
		return b, false
	}
	if e.Swap {
		b = append(b, `,"swap":true`...)
	}
	if len(e.Scores) > 0 {
		b = append(b, `,"scores":`...)
		b = appendInts(b, e.Scores)
	}
	if len(e.ScoreChange) > 0 {
		b = append(b, `,"scoreChange":`...)
		b = appendInts(b, e.ScoreChange)
	}
	return append(b, '}'), true
}

func appendCapture(b []byte, c *game.Capture) (_ []byte, ok bool) {
	b = append(b, `{"cell":`...)
	b = appendString(b, c.Cell)
	b = append(b, `,"leg":`...)
	b = strconv.AppendInt(b, int64(c.Leg), 10)
	b = append(b, `,"taken":`...)
	if b, ok = appendPieces(b, c.Taken); !ok {
		return b, false
	}
	b = append(b, `,"left":`...)
	if b, ok = appendPieces(b, c.Left); !ok {
		return b, false
	}
	return append(b, '}'), true
}

func appendPieces(b []byte, pieces []game.Piece) (_ []byte, ok bool) {
	if pieces == nil {
		return append(b, "null"...), true
	}
	b = append(b, '[')
	for i, p := range pieces {
		if i > 0 {
			b = append(b, ',')
		}
		if b, ok = appendPiece(b, p); !ok {
			return b, false
		}
	}
	return append(b, ']'), true
}

// appendPiece writes p as its MarshalJSON does.
func appendPiece(b []byte, p game.Piece) (_ []byte, ok bool) {
	var rank string
	switch p.Rank {
	case game.Man:
		rank = "man"
	case game.King:
		rank = "king"
	default:
		return b, false
	}
	b = append(b, `{"owner":`...)
	b = strconv.AppendInt(b, int64(p.Owner), 10)
	b = append(b, `,"rank":"`...)
	b = append(b, rank...)
	return append(b, `"}`...), true
}

func appendStrings(b []byte, list []string) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

func appendInts[T int | int64](b []byte, list []T) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, n := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return append(b, ']')
}

// appendStringMap writes m with its keys sorted, as json.Marshal does.
func appendStringMap(b []byte, m map[string]string) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	var space [64]string
	keys := space[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		b = appendString(b, m[k])
	}
	return append(b, '}')
}

// appendString writes s as a JSON string. The notation, cells and ids
// are plain ASCII, copied as they are; anything json.Marshal would
// escape (quotes, controls, HTML's <, > and &, non-ASCII) goes through
// json.Marshal itself.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			quoted, _ := json.Marshal(s)
			return append(b, quoted...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendTime writes t as its MarshalJSON does (RFC 3339 with
// nanoseconds), for a year from 0 to 9999 (encodable).
func appendTime(b []byte, t time.Time) []byte {
	b = append(b, '"')
	b = t.AppendFormat(b, time.RFC3339Nano)
	return append(b, '"')
}

// appendFloat writes a finite f (encodable) through json.Marshal, whose
// choice of digits and exponents it keeps: a rating is rare in an event.
func appendFloat(b []byte, f float64) []byte {
	quoted, _ := json.Marshal(f)
	return append(b, quoted...)
}
