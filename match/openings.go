package match

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
)

// Opening is one line of an openings book: a position (FEN) that the game
// starts from, or moves played from the match's start position (the
// game's start, or Config.From); never both.
type Opening struct {
	FEN   string
	Moves []string
}

// Text writes the opening as a book line: its FEN, or its moves separated
// by spaces ("" for no move at all: the start itself).
func (o Opening) Text() string {
	if o.FEN != "" {
		return o.FEN
	}
	return strings.Join(o.Moves, " ")
}

// The limits of an openings book: a book is read whole before the first
// game, and each line is played out to check it.
const (
	MaxBookBytes = 1 << 20
	MaxOpenings  = 10_000
	MaxBookLine  = 4096
)

// fenLike is how a FEN starts in every game of the project ("W:", "B:"):
// a line that starts so and does not parse is reported as a bad position,
// not as a bad move.
var fenLike = regexp.MustCompile(`^[A-Za-z]:`)

// ParseOpenings reads an openings book: one opening a line, a FEN or moves
// from start separated by spaces; '#' starts a comment, and blank lines
// are skipped. Every line must give a position where the game goes on.
// The openings come back normalised (moves as the game writes them, FENs
// as the game writes them), so that two books that differ only in
// spelling are the same book (see BookHash).
func ParseOpenings(start game.State, text string) ([]Opening, error) {
	if len(text) > MaxBookBytes {
		return nil, fmt.Errorf("the openings book has %d bytes: want at most %d", len(text), MaxBookBytes)
	}
	var book []Opening
	for n, line := range strings.Split(text, "\n") {
		if len(line) > MaxBookLine {
			return nil, fmt.Errorf("line %d: %d characters, want at most %d", n+1, len(line), MaxBookLine)
		}
		body, _, _ := strings.Cut(line, "#")
		body = strings.TrimSpace(body)
		if body == "" {
			continue
		}
		if len(book) == MaxOpenings {
			return nil, fmt.Errorf("line %d: more than %d openings: split the book", n+1, MaxOpenings)
		}
		o, err := parseOpening(start, body)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n+1, err)
		}
		book = append(book, o)
	}
	if len(book) == 0 {
		return nil, fmt.Errorf("the openings book has no opening: give one FEN or move list a line")
	}
	return book, nil
}

// parseOpening reads one line: a FEN when the game's parser takes it,
// else moves from start.
func parseOpening(start game.State, body string) (Opening, error) {
	g := start.Game()
	if s, err := g.ParseFEN(body); err == nil {
		o := Opening{FEN: s.FEN()}
		return o, goesOn(s, body)
	} else if fenLike.MatchString(body) {
		return Opening{}, err
	}
	s := start.Clone()
	fields := strings.Fields(body)
	if err := game.PlayMoves(s, fields); err != nil {
		return Opening{}, err
	}
	o := Opening{Moves: make([]string, len(fields))}
	replay := start.Clone()
	for i, text := range fields {
		m, _ := game.ParseMove(replay, text) // played above: legal
		o.Moves[i] = m.Text(g.Board())
		replay.Play(m)
	}
	return o, goesOn(s, body)
}

// goesOn refuses an opening after which the game is over.
func goesOn(s game.State, body string) error {
	if r := s.Result(); r.Over() {
		return fmt.Errorf("the game is over after %s (%s): give a position with a move to play", clip.Quote(body), r.Describe(s.Game()))
	}
	return nil
}

// BookHash is the SHA-256 of a book's normalised lines, in hex: two runs
// with the same hash played the same openings in the same order.
func BookHash(book []Opening) string {
	h := sha256.New()
	for _, o := range book {
		fmt.Fprintln(h, o.Text())
	}
	return hex.EncodeToString(h.Sum(nil))
}

// startOf is the position opening o starts a game from, and the FEN the
// game's record gives for it ("" for the game's start).
func (cfg Config) startOf(o Opening) (game.State, string, error) {
	if o.FEN != "" {
		s, err := cfg.Game.ParseFEN(o.FEN)
		return s, o.FEN, err
	}
	s, err := cfg.Start()
	if err != nil {
		return nil, "", err
	}
	return s, cfg.From, game.PlayMoves(s, o.Moves)
}
