package server

import (
	_ "embed"
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/learn"
)

// The tutorials' routes: /learn lists one per family of games,
// /learn/{family} walks through its steps, each a position where the
// player is asked for one kind of move. The page asks the server for the
// tutorial (GET /api/learn/{family}) and for the verdict on each move
// tried (GET /api/learn/{family}/{step}?move=M). Package learn holds the
// tutorials and judges the moves; this file only serves them.

//go:embed learn.html
var learnPage []byte

// The API's views of the tutorials.

// learnSummary is a tutorial as GET /api/learn lists it.
type learnSummary struct {
	Family  string   `json:"family"`
	Title   string   `json:"title"`
	Summary string   `json:"summary"`
	Games   []string `json:"games"`
	Rules   string   `json:"rules"`
	Steps   int      `json:"stepCount"`
}

// learnView is GET /api/learn/{family}: the tutorial and each step's
// position, ready to draw and play.
type learnView struct {
	Family  string     `json:"family"`
	Title   string     `json:"title"`
	Summary string     `json:"summary"`
	Games   []string   `json:"games"`
	Rules   string     `json:"rules"`
	King    string     `json:"king"`
	Steps   []stepView `json:"steps"`
}

type stepView struct {
	Title string `json:"title"`
	Text  string `json:"text"`
	Goal  string `json:"goal"`
	Game  string `json:"game"`
	FEN   string `json:"fen"`
	// Seats are the players' names in turn order, Letters their letters
	// in the stacks; Turn is how far the board is turned (degrees) to
	// show the player to move at the bottom, as the game page does.
	Seats    []string     `json:"seats"`
	Letters  []string     `json:"letters"`
	Turn     int          `json:"turn"`
	Position positionView `json:"position"`
	Legal    []string     `json:"legal"`
}

// tryView is GET /api/learn/{family}/{step}?move=M: whether the move
// reaches the step's goal, why not, and what it did.
type tryView struct {
	Move     string       `json:"move"`
	Correct  bool         `json:"correct"`
	Message  string       `json:"message"`
	Effects  game.Effects `json:"effects"`
	Position positionView `json:"position"`
	// Ended says how the game ended after the move, when it did.
	Ended string `json:"ended,omitempty"`
}

func (s *Server) learnRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /learn", s.handleLearnPage)
	mux.HandleFunc("GET /learn/{family}", s.handleLearnPage)
	mux.HandleFunc("GET /api/learn", s.reads(s.handleLearnList))
	mux.HandleFunc("GET /api/learn/{family}", s.reads(s.handleLearn))
	mux.HandleFunc("GET /api/learn/{family}/{step}", s.reads(s.handleLearnTry))
}

// handleLearnPage answers /learn and /learn/{family}: the shell the
// script draws; an unknown family is a 404 page naming the known ones.
func (s *Server) handleLearnPage(w http.ResponseWriter, r *http.Request) {
	if family := r.PathValue("family"); family != "" {
		if _, err := learn.Find(family); err != nil {
			loc := s.page(r).loc
			s.writePlainPage(w, r, http.StatusNotFound, loc.T("learn.notfound.title"),
				"<p>"+html.EscapeString(loc.T("learn.notfound.text", "Tutorial", quote(family), "Tutorials", strings.Join(learn.Families(), ", ")))+
					` <a href="/learn">`+html.EscapeString(loc.T("learn.notfound.all"))+`</a></p>`)
			return
		}
	}
	sh := s.page(r)
	writeShell(w, sh, sh.learn)
}

func (s *Server) handleLearnList(w http.ResponseWriter, _ *http.Request) {
	out := []learnSummary{}
	for _, t := range learn.Tutorials() {
		out = append(out, learnSummary{Family: t.Family, Title: t.Title, Summary: t.Summary, Games: t.Games, Rules: t.Rules, Steps: len(t.Steps)})
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) handleLearn(w http.ResponseWriter, r *http.Request) {
	t, err := learn.Find(r.PathValue("family"))
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	v := learnView{Family: t.Family, Title: t.Title, Summary: t.Summary, Games: t.Games, Rules: t.Rules, King: t.King}
	for _, step := range t.Steps {
		sv, err := viewStep(step)
		if err != nil {
			s.writeFailure(w, fmt.Errorf("tutorial %s, step %q: %w", t.Family, step.Title, err))
			return
		}
		v.Steps = append(v.Steps, sv)
	}
	writeJSON(w, http.StatusOK, v)
}

// viewStep sets the step's position up for the page.
func viewStep(step learn.Step) (stepView, error) {
	st, err := step.Start()
	if err != nil {
		return stepView{}, err
	}
	pos, err := position(st, 0)
	if err != nil {
		return stepView{}, err
	}
	rules := st.Game()
	v := stepView{Title: step.Title, Text: step.Text, Goal: step.Goal, Game: step.Game, FEN: step.FEN,
		Turn: 360 * int(st.ToMove()) / rules.Players(), Position: pos, Legal: game.MoveTexts(st)}
	for p := range rules.Players() {
		seat := rules.Seat(game.Player(p))
		v.Seats = append(v.Seats, seat.Name)
		v.Letters = append(v.Letters, string(seat.Letter))
	}
	return v, nil
}

// handleLearnTry answers a move tried on a step (numbered from 1): legal
// or not (422 illegal_move, the game's own message), then whether it is
// one the step accepts, and what it did.
func (s *Server) handleLearnTry(w http.ResponseWriter, r *http.Request) {
	family, text := r.PathValue("family"), r.PathValue("step")
	n, err := strconv.Atoi(text)
	if err != nil {
		s.writeFailure(w, notAStep(family, text))
		return
	}
	verdict, err := learn.Try(family, n, r.URL.Query().Get("move"))
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	pos, err := position(verdict.After, 1)
	if err != nil {
		s.writeFailure(w, err)
		return
	}
	writeJSON(w, http.StatusOK, tryView{Move: verdict.Move, Correct: verdict.Correct, Message: verdict.Message,
		Effects: verdict.Effects, Position: pos, Ended: verdict.Ended})
}

// notAStep refuses a step that is not a number, as package learn refuses
// one out of range; an unknown family is refused first.
func notAStep(family, text string) error {
	t, err := learn.Find(family)
	if err != nil {
		return err
	}
	return fail(codeNotFound, "no step %s in tutorial %s: its steps are 1 to %d", quote(text), t.Family, len(t.Steps))
}
