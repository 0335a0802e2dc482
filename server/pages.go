package server

import (
	_ "embed"
	"net/http"
	"strconv"

	"github.com/arbiter-games/arbiter/board"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/i18n"
)

// The two HTML pages are shells: the script under /assets/ draws them
// from the JSON API, so that they hold no inline script or style, as the
// CSP asks. The body's data-page says which page the script draws.
//
//go:embed index.html
var indexPage []byte

//go:embed page.html
var gamePage []byte

//go:embed analysis.html
var analysisPage []byte

// shells are the HTML pages in one language (translate), with this
// server's assets written in by their hashed names (assetSet.link), made
// once a language in New.
type shells struct {
	index, game, analysis, learn, accounts, puzzles []byte
	// tournaments is the tournaments' pages' shell (pages_tournaments.go).
	tournaments []byte
	// plain is writePage's page, its {{title}}, {{header}} and {{body}}
	// left to fill.
	plain string
	// loc is the language's messages, for the words a page of the
	// server's own writes.
	loc *i18n.Localizer
}

// newShells makes the shells of each language of langs.
func newShells(assets *assetSet, langs *i18n.Catalogs) map[string]*shells {
	out := map[string]*shells{}
	for _, l := range langs.Languages() {
		loc := langs.Localizer(l.Tag)
		link := func(page []byte) []byte { return []byte(assets.link(translate(string(page), loc))) }
		out[l.Tag] = &shells{index: link(indexPage), game: link(gamePage), analysis: link(analysisPage),
			learn: link(learnPage), accounts: link(scripted("app.js", loc.T("shell.accounts.nojs"))), puzzles: link(puzzlesPage),
			plain: assets.link(translate(plainPage, loc)), loc: loc}
		out[l.Tag].tournaments = link(scripted("tournaments.js", loc.T("shell.tournaments.nojs")))
	}
	return out
}

// pageRoutes adds the browser's pages, its assets and the two reads only
// the pages need: the catalog of games and a position's stacks.
func (s *Server) pageRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /{$}", s.handleIndex)
	mux.HandleFunc("GET /play/{id}", s.handlePage)
	mux.HandleFunc("GET /games/{id}", s.handlePage)
	s.rulesRoutes(mux)
	s.notFoundRoutes(mux)
	s.analysisRoutes(mux)
	s.learnRoutes(mux)
	s.puzzlePageRoutes(mux)
	s.accountPageRoutes(mux)
	s.tournamentPageRoutes(mux)
	mux.HandleFunc("GET /assets/{name}", func(w http.ResponseWriter, r *http.Request) {
		s.assets.serve(w, r, r.PathValue("name"))
	})
	// Browsers ask for /favicon.ico whatever the page says.
	mux.HandleFunc("GET /favicon.ico", func(w http.ResponseWriter, r *http.Request) {
		s.assets.serve(w, r, "favicon.svg")
	})
	mux.HandleFunc("GET /api/catalog", s.handleCatalog)
	mux.HandleFunc("GET /api/games/{id}/position", s.reads(s.handlePosition))
}

func (s *Server) handleIndex(w http.ResponseWriter, r *http.Request) {
	sh := s.page(r)
	writeShell(w, sh, sh.index)
}

// handlePage answers an invite or spectator link: the game page, which
// reads the game's id from its own path, or the not-found page when no
// game has that id.
func (s *Server) handlePage(w http.ResponseWriter, r *http.Request) {
	s.servePageOfGame(w, r, func(sh *shells) []byte { return sh.game })
}

// catalogGame is one game as GET /api/catalog lists it: what the new-game
// form offers.
type catalogGame struct {
	ID string `json:"id"`
	// Name is the game's name for people ("Pommel 76"), Tagline its
	// summary for the game's card, without the name.
	Name    string          `json:"name"`
	Tagline string          `json:"tagline"`
	Summary string          `json:"summary"`
	Players int             `json:"players"`
	Seats   []string        `json:"seats"`
	Board   string          `json:"board"`
	Options []catalogOption `json:"options"`
}

type catalogOption struct {
	Key     string   `json:"key"`
	Default string   `json:"default"`
	Help    string   `json:"help"`
	Values  []string `json:"values,omitempty"`
	Min     int      `json:"min"`
	Max     int      `json:"max"`
}

func (s *Server) handleCatalog(w http.ResponseWriter, _ *http.Request) {
	out := []catalogGame{}
	for _, d := range game.All() {
		rules, err := game.New(d.ID, nil)
		if err != nil {
			continue
		}
		c := catalogGame{ID: d.ID, Name: d.Name, Tagline: gameTagline(d), Summary: d.Summary, Players: d.Players, Board: rules.Board().ID()}
		for _, seat := range d.Seats {
			c.Seats = append(c.Seats, seat.Name)
		}
		for _, o := range d.AllOptions() {
			c.Options = append(c.Options, catalogOption{Key: o.Key, Default: o.Default, Help: o.Help,
				Values: o.Values, Min: o.Min, Max: o.Max})
		}
		out = append(out, c)
	}
	writeJSON(w, http.StatusOK, out)
}

// positionView is a position of a game as the board draws it: each
// occupied cell's stack in the letters of section 7's data-stack (the
// seat's letter, upper case for a promoted piece), bottom first.
type positionView struct {
	Board  string            `json:"board"`
	Ply    int               `json:"ply"`
	ToMove int               `json:"toMove"`
	Stacks map[string]string `json:"stacks"`
	// Scores are the players' scores in games that score.
	Scores []int `json:"scores,omitempty"`
	// EndRows are, in games with end rows (Punt), the cells of each
	// player's end row in turn order; Frozen are the piles that stand on
	// their controller's end row: they never move again and are what the
	// controller scores.
	EndRows [][]string `json:"endRows,omitempty"`
	Frozen  []string   `json:"frozen,omitempty"`
}

// endRower is a game whose players have end rows (the Punt games).
type endRower interface {
	EndRow(p game.Player, c board.Cell) bool
}

// handlePosition answers GET /api/games/{id}/position?ply=N: the position
// before the move of ply N (the current one without ply), so that a page
// steps through a game's history without knowing its rules.
func (s *Server) handlePosition(w http.ResponseWriter, r *http.Request) {
	ply := -1
	if text := r.URL.Query().Get("ply"); text != "" {
		n, err := strconv.Atoi(text)
		if err != nil || n < 0 {
			writeError(w, fail(codeInvalid, "ply %s: want a ply of this game, a whole number from 0", quote(text)))
			return
		}
		ply = n
	}
	st, ply, err := s.hall.StateAt(r.Context(), r.PathValue("id"), ply)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	v, err := position(st, ply)
	s.answer(w, v, err)
}

// position reads every cell's stack of st.
func position(st game.State, ply int) (positionView, error) {
	rules := st.Game()
	stacker, ok := st.(game.Stacker)
	if !ok {
		return positionView{}, fail(codeInternal, "%s does not show its stacks", rules.ID())
	}
	b := rules.Board()
	v := positionView{Board: b.ID(), Ply: ply, ToMove: int(st.ToMove()), Stacks: map[string]string{}}
	var buf []game.Piece
	for c := range b.Len() {
		buf = stacker.Stack(board.Cell(c), buf[:0])
		if len(buf) > 0 {
			v.Stacks[b.Name(board.Cell(c))] = game.StackLetters(rules, buf)
		}
	}
	if sc, ok := st.(game.Scorer); ok {
		all := sc.Scores()
		v.Scores = all[:rules.Players()]
	}
	if er, ok := rules.(endRower); ok {
		v.EndRows, v.Frozen = endRows(st, er)
	}
	return v, nil
}

// endRows lists each player's end-row cells and the piles frozen on them.
func endRows(st game.State, er endRower) (rows [][]string, frozen []string) {
	rules := st.Game()
	b := rules.Board()
	rows = make([][]string, rules.Players())
	for c := range b.Len() {
		cell := board.Cell(c)
		for p := range rules.Players() {
			if !er.EndRow(game.Player(p), cell) {
				continue
			}
			rows[p] = append(rows[p], b.Name(cell))
			if st.Owner(cell) == game.Player(p) {
				frozen = append(frozen, b.Name(cell))
			}
		}
	}
	return rows, frozen
}
