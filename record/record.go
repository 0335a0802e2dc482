// Package record reads and writes game records in the style of PDN: tag
// pairs, then the moves in the project's notation, then the result. A file
// may hold several games. Reading checks the syntax; Replay checks every
// move against the rules.
//
//	[Game "pommel"]
//	[Options "hop=friendly maxplies=600"]
//	[White "Ann"]
//	[Black "Bob"]
//	[Date "2026.11.21"]
//	[Result "1-0"]
//	[Termination "no pieces"]
//
//	1. a1-a3 g6-g4 2. a3xa5 ... 1-0
//
// A number counts turns, a move of every seat in turn order, and stands
// before the first seat's move. A game set up (a FEN tag) with another
// seat to move starts with the end of a turn, as PDN writes a game where
// Black moves first, and so does the number after a note in the middle of
// a turn:
//
//	[FEN "B:Wa2,a3,...:Ba5,a6,..."]
//
//	1... a5-a4 2. a3xa5 a6xa4 ...
//
// Reading takes move numbers as separators: a record numbered otherwise,
// as this package wrote games set up with another seat to move before
// ("1. a5-a4 a3xa5"), reads the same.
package record

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/game"
)

// Tag is one tag pair.
type Tag struct{ Name, Value string }

// Record is one game: its tags in order, its moves, and the notes between
// them.
type Record struct {
	Tags  []Tag
	Moves []string
	// Notes are kept in the order they were read or added.
	Notes []Note
	// Line is where the game starts in the file it was read from (1-based),
	// for error messages; 0 for a record made in memory.
	Line int
}

// Note is text a record carries without reading it: a comment ({...} or
// ;...), a variation ((...)) or an escape line (%...), exactly as written,
// so that a record read and written again loses nothing. Ply is how many
// of the game's moves come before it: BeforeTags puts it in front of the
// tags, AfterResult after the result.
type Note struct {
	Ply  int
	Text string
}

// Where a note stands when it is not between moves.
const (
	BeforeTags  = -1
	AfterResult = 1 << 30
)

// Comment returns a note that is a comment, in braces, after ply moves. A
// brace inside the text would end the comment early, so it becomes a
// parenthesis.
func Comment(ply int, text string) Note {
	text = strings.NewReplacer("{", "(", "}", ")").Replace(text)
	return Note{Ply: ply, Text: "{" + text + "}"}
}

// Truncate keeps the first n moves, and the notes that stand before the
// moves it drops: what came after a move that is taken back goes with it.
func (r *Record) Truncate(n int) {
	if n >= len(r.Moves) {
		return
	}
	r.Moves = r.Moves[:n]
	kept := r.Notes[:0]
	for _, note := range r.Notes {
		if note.Ply <= n || note.Ply == AfterResult {
			kept = append(kept, note)
		}
	}
	r.Notes = kept
}

// The tags the project writes, in the order it writes them: PDN's seven
// tag roster, adapted. Game and Options say what is played; a tag for each
// seat of the game, named as the rules name it, follows in turn order.
const (
	rankBeforeSeats = iota // Event, Site, Date, Round, Game, Options
	rankSeats       = rankBeforeSeats + 6
	rankAfterSeats  = rankSeats + game.MaxPlayers // Result, Termination, FEN
	rankOther       = rankAfterSeats + 3
)

// rank is a tag's place in the roster; seats are the record's game's.
func rank(name string, seats []game.Seat) int {
	if i := slices.Index([]string{"Event", "Site", "Date", "Round", "Game", "Options"}, name); i >= 0 {
		return rankBeforeSeats + i
	}
	if i := slices.IndexFunc(seats, func(s game.Seat) bool { return s.Name == name }); i >= 0 {
		return rankSeats + i
	}
	if i := slices.Index([]string{"Result", "Termination", "FEN"}, name); i >= 0 {
		return rankAfterSeats + i
	}
	return rankOther
}

// Get returns the value of a tag, or "" when it is missing.
func (r *Record) Get(name string) string {
	for _, t := range r.Tags {
		if t.Name == name {
			return t.Value
		}
	}
	return ""
}

// Set sets a tag, replacing its value or adding it in roster order: a
// seat's tag goes where its seat comes in the turn order of the record's
// game, so set Game first.
func (r *Record) Set(name, value string) {
	for i, t := range r.Tags {
		if t.Name == name {
			r.Tags[i].Value = value
			return
		}
	}
	r.Tags = append(r.Tags, Tag{name, value})
	seats := r.seats()
	// Keep roster tags first, in roster order; others keep their order.
	for i := len(r.Tags) - 1; i > 0 && rank(r.Tags[i].Name, seats) < rank(r.Tags[i-1].Name, seats); i-- {
		r.Tags[i], r.Tags[i-1] = r.Tags[i-1], r.Tags[i]
	}
}

// seats are the seats of the record's game, in turn order; none when the
// Game tag names no registered game (its seat tags are then ordinary
// tags).
func (r *Record) seats() []game.Seat {
	d, _ := game.Lookup(r.Get("Game"))
	return d.Seats
}

// New starts a record of a game from its start (fen == "") or from a FEN,
// with the seats' names in turn order.
func New(g game.Game, fen string, players []string, date string) *Record {
	r := &Record{}
	r.Set("Date", date)
	r.Set("Game", g.ID())
	r.Set("Options", g.Options().String())
	for p := 0; p < g.Players(); p++ {
		name := "?"
		if p < len(players) && players[p] != "" {
			name = players[p]
		}
		r.Set(g.PlayerName(game.Player(p)), name)
	}
	r.Set("Result", "*")
	if fen != "" {
		r.Set("FEN", fen)
	}
	return r
}

// ResultText writes a result as the Result tag does: each seat's share of
// the point in seat order, "1-0", "0-1", "1/2-1/2", "1-0-0", "1/2-1/2-0";
// "*" for a game in progress.
func ResultText(res game.Result, players int) string {
	if !res.Over() {
		return "*"
	}
	winners := res.Winners.Len()
	parts := make([]string, players)
	for p := range parts {
		switch {
		case winners == 0:
			parts[p] = share(players)
		case res.Winners.Has(game.Player(p)):
			parts[p] = share(winners)
		default:
			parts[p] = "0"
		}
	}
	return strings.Join(parts, "-")
}

func share(n int) string {
	if n == 1 {
		return "1"
	}
	return fmt.Sprintf("1/%d", n)
}

// Finish sets the Result and Termination tags from the state's result.
func (r *Record) Finish(res game.Result, g game.Game) {
	r.Set("Result", ResultText(res, g.Players()))
	if res.Over() {
		r.Set("Termination", res.Reason.String())
	}
}

// Del removes a tag; a missing tag is no error.
func (r *Record) Del(name string) {
	r.Tags = slices.DeleteFunc(r.Tags, func(t Tag) bool { return t.Name == name })
}

// ParseResult reads a Result tag as ResultText writes it, for a game of
// players seats, with the reason its Termination tag gives. A game that
// ended off the board without a known Termination reads as resigned (a
// win) or agreed (a draw).
func ParseResult(tag, termination string, players int) (game.Result, error) {
	parts := strings.Split(tag, "-")
	if len(parts) != players {
		return game.Result{}, fmt.Errorf("result %q: want a share for each of %d seats, such as %s", tag, players,
			ResultText(game.Win(0, game.NoMoves), players))
	}
	var res game.Result
	for p, part := range parts {
		switch {
		case part == "0":
		case part == "1" || strings.HasPrefix(part, "1/"):
			res.Winners = res.Winners.Add(game.Player(p))
		default:
			return game.Result{}, fmt.Errorf("result %q: %q is not a share (1, 0 or 1/N)", tag, part)
		}
	}
	if res.Winners.Len() == players && players > 1 {
		res.Winners = 0 // every seat shares: a draw
	}
	why, ok := game.ParseReason(termination)
	switch {
	case ok && why != game.Ongoing:
		res.Reason = why
	case res.Winners == 0:
		res.Reason = game.Agreement
	default:
		res.Reason = game.Resignation
	}
	return res, nil
}
