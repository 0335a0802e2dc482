package server

import (
	_ "embed"
	"fmt"
	"html"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/game"
)

// The tutorials: /learn lists one per family of games, /learn/{family}
// walks through its steps, each a position where the player is asked for
// one kind of move. The page asks the server for the tutorial
// (GET /api/learn/{family}) and for the verdict on each move tried
// (GET /api/learn/{family}/{step}?move=M): the server decides, from the
// step's accepted moves, and says what the move did.

//go:embed learn.html
var learnPage []byte

// tutorial is one family's introduction.
type tutorial struct {
	Family  string // the address: /learn/{Family}
	Title   string
	Summary string
	Games   []string // the game ids the rules apply to
	Rules   string   // the rules page: /rules/{Rules}
	King    string   // what the family calls a promoted piece
	Steps   []lessonStep
}

// lessonStep is one position and the move it asks for.
type lessonStep struct {
	Title string
	Text  string // the rule, in plain words
	Goal  string // what to play, one sentence
	Hint  string // added to the answer to a wrong move, when set
	Done  string // what the right move did
	Game  string
	FEN   string
	goal  goal
	// Accept are the moves that reach the goal, in the game's notation:
	// exactly the legal moves goal describes (TestLearnLessons).
	Accept []string
}

// goalKind is what a step asks a move to do.
type goalKind int

const (
	goalPath      goalKind = iota // move the piece on from to to
	goalCapture                   // take exactly n pieces
	goalPromote                   // promote the moving piece
	goalOwnJumps                  // a jumping move (no capture) of n jumps
	goalLeave                     // leave the board on the far row, dropping n new men
	goalTakeKing                  // take a king (prisoner)
	goalLiberate                  // free one of the mover's pieces held prisoner
	goalEliminate                 // eliminate n stacks by a sandwich
	goalScore                     // raise the mover's score by n
	goalTakeOver                  // land on a pawn or pile another player controls
	goalWin                       // end the game as its only winner
)

// goal is a step's goal: its kind and the number or cells it needs.
type goal struct {
	kind     goalKind
	n        int
	from, to string
}

// played is a legal move with what it did: the position before and
// after, and its effects.
type played struct {
	before, after game.State
	move          game.Move
	fx            game.Effects
}

// play makes the move text on a copy of st.
func play(st game.State, text string) (played, error) {
	m, err := game.ParseMove(st, text)
	if err != nil {
		return played{}, err
	}
	fx, err := game.MoveEffects(st, m)
	if err != nil {
		return played{}, err
	}
	after := st.Clone()
	after.Play(m)
	return played{before: st, after: after, move: m, fx: fx}, nil
}

// check tells whether p reaches the goal and, when it does not, what it
// does instead, in words for the player.
func (g goal) check(p played) (bool, string) {
	fx := p.fx
	switch g.kind {
	case goalPath:
		return fx.Path[0] == g.from && fx.Path[len(fx.Path)-1] == g.to, "it does not take the piece on " + g.from + " to " + g.to
	case goalCapture:
		n := piecesTaken(fx)
		return n == g.n, fmt.Sprintf("it takes %s, and the goal is %d in one move", count(n, "piece"), g.n)
	case goalPromote:
		return fx.Promoted != "", "it promotes nothing: the move must end on your last row"
	case goalOwnJumps:
		jumps := len(fx.Path) - 1
		if fx.Capture {
			return false, "it is a capture, not a jumping move over your own men"
		}
		return jumps == g.n, fmt.Sprintf("it lands %s, and the goal is a jumping move that lands %s", times(jumps), times(g.n))
	case goalLeave:
		if !fx.Removed {
			return false, "it does not reach the far row"
		}
		return len(fx.Drops) == g.n, fmt.Sprintf("it drops %s, and the goal is %d", count(len(fx.Drops), "man"), g.n)
	case goalTakeKing:
		return takesKing(fx), "it takes no king"
	case goalLiberate:
		return liberates(fx), "it frees none of your pieces"
	case goalEliminate:
		n := eliminated(fx)
		return n == g.n, fmt.Sprintf("it eliminates %s, and the goal is %d", count(n, "stack"), g.n)
	case goalScore:
		n := scored(fx)
		if n == 0 {
			return false, fmt.Sprintf("it scores nothing, and the goal is to score %d", g.n)
		}
		return n == g.n, fmt.Sprintf("it changes your score by %d, and the goal is to score %d", n, g.n)
	case goalTakeOver:
		owner := p.before.Owner(p.move.To())
		return owner != game.NoPlayer && owner != fx.Player, "it lands on no pawn or pile of another player"
	case goalWin:
		r := p.after.Result()
		return r.Over() && r.Winners == game.PlayerSet(0).Add(fx.Player), "the game goes on after it"
	}
	return false, "the step's goal is unknown"
}

// piecesTaken counts the pieces a move took off their cells by jumping
// them (prisoners included), not those a sandwich removed afterwards.
func piecesTaken(fx game.Effects) int {
	n := 0
	for _, c := range fx.Captured {
		if c.Leg > 0 {
			n += len(c.Taken)
		}
	}
	return n
}

func takesKing(fx game.Effects) bool {
	for _, c := range fx.Captured {
		for _, p := range c.Taken {
			if c.Leg > 0 && p.Rank == game.King {
				return true
			}
		}
	}
	return false
}

// liberates reports whether a jumped stack is left commanded by the mover.
func liberates(fx game.Effects) bool {
	for _, c := range fx.Captured {
		if c.Leg > 0 && len(c.Left) > 0 && c.Left[len(c.Left)-1].Owner == fx.Player {
			return true
		}
	}
	return false
}

// eliminated counts the stacks removed after the move (a sandwich): the
// captured cells no leg of the path reaches.
func eliminated(fx game.Effects) int {
	n := 0
	for _, c := range fx.Captured {
		if c.Leg == 0 {
			n++
		}
	}
	return n
}

func scored(fx game.Effects) int {
	if int(fx.Player) >= len(fx.ScoreChange) {
		return 0
	}
	return fx.ScoreChange[fx.Player]
}

// count writes "1 piece", "2 pieces", "no piece".
func count(n int, noun string) string {
	switch {
	case n == 0:
		return "no " + noun
	case n == 1:
		return "1 " + noun
	case noun == "man":
		return fmt.Sprintf("%d men", n)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// times writes "once", "twice", "3 times".
func times(n int) string {
	switch n {
	case 1:
		return "once"
	case 2:
		return "twice"
	}
	return fmt.Sprintf("%d times", n)
}

// tutorialOf finds the tutorial of a family.
func tutorialOf(family string) (tutorial, bool) {
	for _, t := range tutorials() {
		if t.Family == family {
			return t, true
		}
	}
	return tutorial{}, false
}

// start sets up a step's position.
func (st lessonStep) start() (game.State, error) {
	rules, err := game.New(st.Game, nil)
	if err != nil {
		return nil, err
	}
	return rules.ParseFEN(st.FEN)
}

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
		if _, ok := tutorialOf(family); !ok {
			writePlainPage(w, http.StatusNotFound, "No such tutorial",
				"<p>"+html.EscapeString(fmt.Sprintf("No tutorial %s; the tutorials are %s.", quote(family), familyNames()))+
					` <a href="/learn">All the tutorials</a></p>`)
			return
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(learnPage)
}

func familyNames() string {
	var names []string
	for _, t := range tutorials() {
		names = append(names, t.Family)
	}
	return strings.Join(names, ", ")
}

func (s *Server) handleLearnList(w http.ResponseWriter, _ *http.Request) {
	out := []learnSummary{}
	for _, t := range tutorials() {
		out = append(out, t.listed())
	}
	writeJSON(w, http.StatusOK, out)
}

func (t tutorial) listed() learnSummary {
	return learnSummary{Family: t.Family, Title: t.Title, Summary: t.Summary, Games: t.Games, Rules: t.Rules, Steps: len(t.Steps)}
}

func (s *Server) handleLearn(w http.ResponseWriter, r *http.Request) {
	t, apiErr := findTutorial(r.PathValue("family"))
	if apiErr != nil {
		writeError(w, apiErr)
		return
	}
	v := learnView{Family: t.Family, Title: t.Title, Summary: t.Summary, Games: t.Games, Rules: t.Rules, King: t.King}
	for _, step := range t.Steps {
		sv, err := step.view()
		if err != nil {
			writeError(w, fail(codeInternal, "tutorial %s, step %q: %v", t.Family, step.Title, err))
			return
		}
		v.Steps = append(v.Steps, sv)
	}
	writeJSON(w, http.StatusOK, v)
}

func findTutorial(family string) (tutorial, *apiError) {
	t, ok := tutorialOf(family)
	if !ok {
		return tutorial{}, fail(codeNotFound, "no tutorial %s; want one of %s", quote(family), familyNames())
	}
	return t, nil
}

// view sets the step's position up for the page.
func (step lessonStep) view() (stepView, error) {
	st, err := step.start()
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
	t, apiErr := findTutorial(r.PathValue("family"))
	if apiErr != nil {
		writeError(w, apiErr)
		return
	}
	text := r.PathValue("step")
	n, err := strconv.Atoi(text)
	if err != nil || n < 1 || n > len(t.Steps) {
		writeError(w, fail(codeNotFound, "no step %s in tutorial %s: its steps are 1 to %d", quote(text), t.Family, len(t.Steps)))
		return
	}
	v, apiErr := t.Steps[n-1].try(r.URL.Query().Get("move"))
	if apiErr != nil {
		writeError(w, apiErr)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// try plays a move on the step's position and judges it.
func (step lessonStep) try(text string) (tryView, *apiError) {
	st, err := step.start()
	if err != nil {
		return tryView{}, fail(codeInternal, "step %q: %v", step.Title, err)
	}
	p, err := play(st, text)
	if err != nil {
		return tryView{}, fail(codeIllegalMove, "%v", err)
	}
	pos, err := position(p.after, 1)
	if err != nil {
		return tryView{}, fail(codeInternal, "%v", err)
	}
	v := tryView{Move: p.fx.Move, Effects: p.fx, Position: pos}
	v.Correct = slices.Contains(step.Accept, p.fx.Move)
	v.Message = step.Done
	if !v.Correct {
		_, why := step.goal.check(p)
		v.Message = fmt.Sprintf("%s is a legal move, but %s.", p.fx.Move, why)
		if step.Hint != "" {
			v.Message += " " + step.Hint
		}
	}
	if r := p.after.Result(); r.Over() {
		v.Ended = r.Describe(p.after.Game())
	}
	return v, nil
}
