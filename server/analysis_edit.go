package server

import (
	"maps"
	"net/http"
	"strings"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
)

// Setting a position up by clicking: the page says what a cell should
// hold, the server writes the FEN of the position so changed and has the
// game's own parser read it, so that a position no game allows is
// refused with the parser's message, and the page needs to know no
// game's notation.

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
	v, err := analysisOf(edited, nil)
	if err != nil {
		writeError(w, asAPIError(err))
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// editPosition applies req to st's position and reads the result back
// through the game's FEN parser.
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
			return nil, fail(codeInvalid, "cell %q is not a cell of %s's board (%s)", req.Cell, rules.ID(), rules.Board().ID())
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
	stacked, apiErr := writesStacks(rules)
	if apiErr != nil {
		return nil, apiErr
	}
	fen, apiErr := writeFEN(rules, stacked, stacks, toMove)
	if apiErr != nil {
		return nil, apiErr
	}
	edited, err := rules.ParseFEN(fen)
	if err != nil {
		return nil, fail(codeInvalid, "%v", err)
	}
	// The parser takes what it is given or refuses it; should it ever
	// change a position silently, the edit is refused rather than shown.
	if back, err := position(edited, 0); err != nil || !maps.Equal(back.Stacks, stacks) || back.ToMove != toMove {
		return nil, fail(codeInvalid, "%s reads the FEN %q as another position", rules.ID(), fen)
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
			return fail(codeInvalid, "stack %q: %q is no seat's piece; write the seats' letters %s, bottom first, upper case for a promoted piece",
				stack, l, strings.Join(allowed, ", "))
		}
	}
	return nil
}

// writesStacks tells which of the core's two notations the game's FEN is
// (game.StackFEN or game.PieceListFEN): the one whose writing of the
// start position the game reads back as its start.
func writesStacks(rules game.Game) (bool, *apiError) {
	start := rules.Start()
	pos, err := position(start, 0)
	if err != nil {
		return false, asAPIError(err)
	}
	for _, stacked := range []bool{true, false} {
		fen, apiErr := writeFEN(rules, stacked, pos.Stacks, pos.ToMove)
		if apiErr != nil {
			continue
		}
		if back, err := rules.ParseFEN(fen); err == nil && back.FEN() == start.FEN() {
			return stacked, nil
		}
	}
	return false, fail(codeInternal, "%s's positions cannot be written from their stacks", rules.ID())
}

// writeFEN writes stacks (data-stack letters by cell name) and the seat
// to move in the game's notation: "W:a1=w,c3=bW" when stacked, else
// "W:Wa1,Kc6:Bg5" (a list per seat, kings prefixed with K).
func writeFEN(rules game.Game, stacked bool, stacks map[string]string, toMove int) (string, *apiError) {
	b := rules.Board()
	upper := func(p int) string { return strings.ToUpper(string(rules.Seat(game.Player(p)).Letter)) }
	var sb strings.Builder
	sb.WriteString(upper(toMove))
	if stacked {
		sb.WriteByte(':')
		var items []string
		for c := range b.Len() {
			name := b.Name(board.Cell(c))
			if stack := stacks[name]; stack != "" {
				items = append(items, name+"="+stack)
			}
		}
		sb.WriteString(strings.Join(items, ","))
		return sb.String(), nil
	}
	lists := make([][]string, rules.Players())
	for c := range b.Len() {
		name := b.Name(board.Cell(c))
		stack := stacks[name]
		if len(stack) > 1 {
			return "", fail(codeInvalid, "%s: a cell holds one piece, not a stack of %d (%s on %s)", rules.ID(), len(stack), stack, name)
		}
		if stack == "" {
			continue
		}
		for p := range rules.Players() {
			if strings.EqualFold(stack, string(rules.Seat(game.Player(p)).Letter)) {
				if stack != strings.ToLower(stack) {
					name = "K" + name
				}
				lists[p] = append(lists[p], name)
			}
		}
	}
	for p, list := range lists {
		sb.WriteString(":" + upper(p) + strings.Join(list, ","))
	}
	return sb.String(), nil
}
