// Package learn holds the tutorials: for each family of games a few
// positions, each teaching one rule by asking for one kind of move, and
// the judge of a move tried on them. It decides from a step's accepted
// moves whether a move is right and, from the move's effects, says in
// words what a wrong one did instead.
//
// Like the rules and the hall, it knows no I/O: the server serves the
// tutorials over HTTP (/learn, /api/learn), and any other transport could
// show them the same way. Its refusals are *Error with a Code, which a
// transport maps to its own answers.
package learn

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
)

// Tutorial is one family's introduction.
type Tutorial struct {
	Family  string // the tutorial's name, unique: the server's /learn/{Family}
	Title   string
	Summary string
	Games   []string // the game ids the rules apply to
	Rules   string   // the rules page: docs/rules/{Rules}.md
	King    string   // what the family calls a promoted piece
	Steps   []Step
}

// Step is one position and the move it asks for.
type Step struct {
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

// Verdict is the judgement of a move tried on a step.
type Verdict struct {
	Move    string // the move as the game writes it
	Correct bool   // the move is one the step accepts
	// Message is the step's Done text for a right move; for a wrong one,
	// what the move does instead of reaching the goal, and the hint.
	Message string
	Effects game.Effects
	After   game.State // the position after the move
	// Ended says how the game ended after the move, when it did.
	Ended string
}

// Families lists the tutorials' names in their order.
func Families() []string {
	var names []string
	for _, t := range Tutorials() {
		names = append(names, t.Family)
	}
	return names
}

// Find finds the tutorial of a family; an unknown family is a NoTutorial
// refusal naming the known ones.
func Find(family string) (Tutorial, error) {
	for _, t := range Tutorials() {
		if t.Family == family {
			return t, nil
		}
	}
	return Tutorial{}, refuse(NoTutorial, "no tutorial %s; want one of %s", clip.Quote(family), strings.Join(Families(), ", "))
}

// Start sets up the step's position.
func (s Step) Start() (game.State, error) {
	rules, err := game.New(s.Game, nil)
	if err != nil {
		return nil, err
	}
	return rules.ParseFEN(s.FEN)
}

// Try plays move on step (numbered from 1) of the family's tutorial and
// judges it. The refusals: NoTutorial, NoStep, and IllegalMove with the
// game's own message; any other error is a broken step, a bug that
// TestLearnLessons is there to catch.
func Try(family string, step int, move string) (Verdict, error) {
	t, err := Find(family)
	if err != nil {
		return Verdict{}, err
	}
	if step < 1 || step > len(t.Steps) {
		return Verdict{}, refuse(NoStep, "no step %s in tutorial %s: its steps are 1 to %d", clip.Quote(strconv.Itoa(step)), t.Family, len(t.Steps))
	}
	return t.Steps[step-1].try(move)
}

// try plays a move on the step's position and judges it.
func (s Step) try(text string) (Verdict, error) {
	st, err := s.Start()
	if err != nil {
		return Verdict{}, fmt.Errorf("step %q: %w", s.Title, err)
	}
	p, err := play(st, text)
	if err != nil {
		return Verdict{}, refuse(IllegalMove, "%v", err)
	}
	v := Verdict{Move: p.fx.Move, Effects: p.fx, After: p.after}
	v.Correct = slices.Contains(s.Accept, p.fx.Move)
	v.Message = s.Done
	if !v.Correct {
		_, why := s.goal.check(p)
		v.Message = fmt.Sprintf("%s is a legal move, but %s.", p.fx.Move, why)
		if s.Hint != "" {
			v.Message += " " + s.Hint
		}
	}
	if r := p.after.Result(); r.Over() {
		v.Ended = r.Describe(p.after.Game())
	}
	return v, nil
}
