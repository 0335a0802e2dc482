package server

import (
	"net/http"
	"strings"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// Setting a position up by clicking: the page says what a cell should
// hold, the core builds the position so changed (game.FromStacks: the
// game's notation written, the game's own parser reading it), so that a
// position no game allows is refused with the parser's message, and
// neither the page nor the server needs to know any game's notation.

// editRequest is POST /api/analysis/{game}/edit.
type editRequest struct {
	FEN     string            `json:"fen"`
	Options map[string]string `json:"options"`
	// Clear empties the board before the rest.
	Clear bool `json:"clear"`
	// Cell, when not empty, is given Stack: its pieces bottom first in
	// the letters of data-stack ("wbB"); an empty Stack empties the cell.
	Cell  string `json:"cell"`
	Stack string `json:"stack"`
	// ToMove, when not null, is the seat to move.
	ToMove *int `json:"toMove"`
}

// handleEdit answers POST /api/analysis/{game}/edit with the position
// edited, as GET /api/analysis/{game} shows it (its fen the new FEN).
func (s *Server) handleEdit(w http.ResponseWriter, r *http.Request) {
	if err := s.admit(r, s.clients.allowMove); err != nil {
		writeError(w, err)
		return
	}
	var req editRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	st, apiErr := analysisState(r.PathValue("game"), req.Options, req.FEN, nil)
	if apiErr != nil {
		writeError(w, apiErr)
		return
	}
	edited, apiErr := editPosition(st, req)
	if apiErr != nil {
		writeError(w, apiErr)
		return
	}
	v, err := s.analysisOf(edited, nil)
	if err != nil {
		writeError(w, asAPIError(err))
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// editPosition applies req to st's position and builds the result through
// the game's FEN parser (game.FromStacks).
func editPosition(st game.State, req editRequest) (game.State, *apiError) {
	rules := st.Game()
	pos, err := position(st, 0)
	if err != nil {
		return nil, asAPIError(err)
	}
	stacks, toMove := pos.Stacks, pos.ToMove
	if req.Clear {
		stacks = map[string]string{}
	}
	if req.Cell != "" {
		if _, ok := rules.Board().Parse(req.Cell); !ok {
			return nil, fail(codeInvalid, "cell %s is not a cell of %s's board (%s)", quote(req.Cell), rules.ID(), rules.Board().ID())
		}
		if err := checkStackLetters(rules, req.Stack); err != nil {
			return nil, err
		}
		if req.Stack == "" {
			delete(stacks, req.Cell)
		} else {
			stacks[req.Cell] = req.Stack
		}
	}
	if req.ToMove != nil {
		if *req.ToMove < 0 || *req.ToMove >= rules.Players() {
			return nil, fail(codeInvalid, "toMove %d: want a seat of %s, 0 to %d", *req.ToMove, rules.ID(), rules.Players()-1)
		}
		toMove = *req.ToMove
	}
	pieces := map[board.Cell][]game.Piece{}
	for name, letters := range stacks {
		c, ok := rules.Board().Parse(name)
		if !ok {
			return nil, fail(codeInvalid, "cell %s is not a cell of %s's board (%s)", quote(name), rules.ID(), rules.Board().ID())
		}
		stack, apiErr := piecesOf(rules, letters)
		if apiErr != nil {
			return nil, apiErr
		}
		pieces[c] = stack
	}
	edited, err := game.FromStacks(rules, pieces, game.Player(toMove))
	if err != nil {
		return nil, fail(codeInvalid, "%v", err)
	}
	return edited, nil
}

// checkStackLetters refuses a stack written with letters of no seat.
func checkStackLetters(rules game.Game, stack string) *apiError {
	var allowed []string
	for p := range rules.Players() {
		allowed = append(allowed, string(rules.Seat(game.Player(p)).Letter))
	}
	for _, l := range stack {
		if !strings.Contains(strings.Join(allowed, ""), strings.ToLower(string(l))) {
			return fail(codeInvalid, "stack %s: %q is no seat's piece; write the seats' letters %s, bottom first, upper case for a promoted piece",
				quote(stack), l, strings.Join(allowed, ", "))
		}
	}
	return nil
}

// piecesOf reads a stack written in the letters of data-stack, bottom
// first: a seat's letter, upper case for a promoted piece.
func piecesOf(rules game.Game, letters string) ([]game.Piece, *apiError) {
	if err := checkStackLetters(rules, letters); err != nil {
		return nil, err
	}
	stack := make([]game.Piece, 0, len(letters))
	for _, l := range letters {
		piece, ok := game.Piece{Owner: game.NoPlayer}, false
		for p := range rules.Players() {
			switch letter := rune(rules.Seat(game.Player(p)).Letter); l {
			case letter:
				piece, ok = game.Piece{Owner: game.Player(p), Rank: game.Man}, true
			case letter - 'a' + 'A':
				piece, ok = game.Piece{Owner: game.Player(p), Rank: game.King}, true
			}
		}
		if !ok {
			return nil, fail(codeInvalid, "stack %s: %q is no seat's piece", quote(letters), l)
		}
		stack = append(stack, piece)
	}
	return stack, nil
}

// writesStacks tells whether the game's notation writes stacks, a cell
// holding several pieces (game.StackFEN), as its descriptor says.
func writesStacks(rules game.Game) (bool, *apiError) {
	d, ok := game.Lookup(rules.ID())
	if !ok || d.FEN == nil {
		return false, fail(codeInternal, "%s names no FEN notation", rules.ID())
	}
	return d.FEN.Stacks(), nil
}
