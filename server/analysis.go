package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/analysis"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/hall"
)

// The analysis board: any position of any game (a FEN, then moves), its
// legal moves, and the engine's best move. Nothing is stored; each
// request carries the whole position.

// The bounds of an analysis search, in milliseconds of thinking.
const (
	minAnalysisMillis     = 100
	maxAnalysisMillis     = 5000
	defaultAnalysisMillis = 1000
	// maxAnalysisMoves bounds the moves a request replays.
	maxAnalysisMoves = 2000
	// maxAnalysisLines bounds the best moves a search lists at once.
	maxAnalysisLines = 5
)

// analysisView is GET /api/analysis/{game}: the position reached, what
// the board draws of it and what may be played.
type analysisView struct {
	Game   string            `json:"game"`
	FEN    string            `json:"fen"`
	Moves  []string          `json:"moves"`
	Legal  []string          `json:"legal"`
	ToMove int               `json:"toMove"`
	Result *resultView       `json:"result"`
	Ended  string            `json:"description,omitempty"`
	Board  string            `json:"board"`
	Stacks map[string]string `json:"stacks"`
	Scores []int             `json:"scores,omitempty"`
	// Stacking says whether a cell may hold several pieces (the game's
	// FEN writes stacks), for the page's set-up mode.
	Stacking bool `json:"stacking"`
	// Tables is the endgame tables' answer (serve --tables), null when
	// they do not hold the position.
	Tables *tablesView `json:"tables"`
}

// tablesView is "tables" in an analysis answer, analysis.TablesAnswer
// (which says what its fields mean) as the API writes it.
type tablesView struct {
	Value string `json:"value"`
	Plies int    `json:"plies"`
	Move  string `json:"move"`
}

// bestRequest is POST /api/analysis/{game}/best.
type bestRequest struct {
	FEN     string            `json:"fen"`
	Moves   []string          `json:"moves"`
	Options map[string]string `json:"options"`
	// MoveTime is the time to think in milliseconds (0: a second).
	MoveTime int `json:"movetime"`
	// Lines is how many best moves to list, 1 to maxAnalysisLines (absent:
	// one). Kept raw so that any value other than such an integer (2.5,
	// "3") is refused the same way, quoting it.
	Lines json.RawMessage `json:"lines"`
}

// bestView is the engine's answer: its move, its score from the mover's
// point of view (hundredths of a piece; ScoreText writes wins as "win5"),
// the depth it completed and the line it expects; Lines lists the best
// moves asked for, best first, the first being Move, Score and Line.
type bestView struct {
	Move      string     `json:"move"`
	Score     int        `json:"score"`
	ScoreText string     `json:"scoreText"`
	Depth     int        `json:"depth"`
	Nodes     int64      `json:"nodes"`
	Line      []string   `json:"line"`
	Millis    int64      `json:"ms"`
	Lines     []lineView `json:"lines"`
}

// lineView is one of the best moves: its score as bestView writes it and
// its line, the move first.
type lineView struct {
	Move      string   `json:"move"`
	Score     int      `json:"score"`
	ScoreText string   `json:"scoreText"`
	Line      []string `json:"line"`
}

// searchRequest is a search admitted: the position, how many best moves
// to list, and the ticket of the analysis service that holds its worker.
type searchRequest struct {
	state  game.State
	lines  int
	ticket *analysis.Ticket
}

func (s *Server) analysisRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /analysis/{game}", s.handleAnalysisPage)
	mux.HandleFunc("GET /api/analysis/{game}", s.handleAnalysis)
	mux.HandleFunc("POST /api/analysis/{game}/best", s.handleBest)
	mux.HandleFunc("POST /api/analysis/{game}/stream", s.handleStream)
	mux.HandleFunc("POST /api/analysis/{game}/edit", s.handleEdit)
}

func (s *Server) handleAnalysisPage(w http.ResponseWriter, r *http.Request) {
	s.serveAnalysisPage(w, r)
}

// handleAnalysis answers GET /api/analysis/{game}?fen=F&moves=M1+M2&options=k=v,k=v.
func (s *Server) handleAnalysis(w http.ResponseWriter, r *http.Request) {
	if err := s.admit(r, s.clients.allowMove); err != nil {
		writeError(w, err)
		return
	}
	q := r.URL.Query()
	options, err := parseOptionList(q.Get("options"))
	if err != nil {
		writeError(w, err)
		return
	}
	moves := strings.Fields(strings.ReplaceAll(q.Get("moves"), ",", " "))
	st, err := analysisState(r.PathValue("game"), options, q.Get("fen"), moves)
	if err != nil {
		writeError(w, err)
		return
	}
	v, viewErr := s.analysisOf(st, moves)
	if viewErr != nil {
		writeError(w, asAPIError(viewErr))
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// parseOptionList reads "key=value,key=value".
func parseOptionList(text string) (map[string]string, *apiError) {
	out := map[string]string{}
	for _, kv := range strings.Split(text, ",") {
		if strings.TrimSpace(kv) == "" {
			continue
		}
		k, v, err := game.ParseOption(strings.TrimSpace(kv))
		if err != nil {
			return nil, fail(codeInvalid, "options: %v", err)
		}
		out[k] = v
	}
	return out, nil
}

// analysisState sets up the position: the game with its options, the
// FEN (the start when empty), then the moves.
func analysisState(id string, options map[string]string, fen string, moves []string) (game.State, *apiError) {
	if _, ok := game.Lookup(id); !ok {
		return nil, fail(codeNotFound, "unknown game %s; want one of %s", quote(id), gameIDs())
	}
	rules, err := game.New(id, options)
	if err != nil {
		return nil, fail(codeInvalid, "%v", err)
	}
	if len(moves) > maxAnalysisMoves {
		return nil, fail(codeInvalid, "%d moves; at most %d are replayed", len(moves), maxAnalysisMoves)
	}
	st := rules.Start()
	if strings.TrimSpace(fen) != "" {
		if st, err = rules.ParseFEN(strings.TrimSpace(fen)); err != nil {
			return nil, fail(codeInvalid, "%v", err)
		}
	}
	if err := game.PlayMoves(st, moves); err != nil {
		return nil, fail(codeIllegalMove, "%v", err)
	}
	return st, nil
}

// analysisOf is the analysis answer for st, reached by moves.
func (s *Server) analysisOf(st game.State, moves []string) (analysisView, error) {
	pos, err := position(st, st.Ply())
	if err != nil {
		return analysisView{}, err
	}
	rules := st.Game()
	v := analysisView{Game: rules.ID(), FEN: st.FEN(), Moves: moves, Legal: game.MoveTexts(st), ToMove: int(st.ToMove()),
		Board: pos.Board, Stacks: pos.Stacks, Scores: pos.Scores}
	stacking, apiErr := writesStacks(rules)
	if apiErr != nil {
		return analysisView{}, apiErr
	}
	v.Stacking = stacking
	if v.Moves == nil {
		v.Moves = []string{}
	}
	if v.Legal == nil {
		v.Legal = []string{}
	}
	if r := st.Result(); r.Over() {
		v.Result = resultViewOf(hall.StoredResult(r, rules.Players()))
		v.Ended = r.Describe(rules)
	}
	if a := s.analysis.Tables(st); a != nil {
		v.Tables = &tablesView{Value: a.Value, Plies: a.Plies, Move: a.Move}
	}
	return v, nil
}

// handleBest answers POST /api/analysis/{game}/best: a fresh alpha-beta
// search of the position, bounded by its movetime (at most 5 s), run in
// one of the AI workers, one search per client at a time.
func (s *Server) handleBest(w http.ResponseWriter, r *http.Request) {
	req, release, apiErr := s.admitSearch(w, r)
	if apiErr != nil {
		writeError(w, apiErr)
		return
	}
	defer release()
	v, err := s.search(r.Context(), req, nil)
	if err != nil {
		writeError(w, asAPIError(err))
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// handleStream answers POST /api/analysis/{game}/stream, the body of
// /best: the same search, bounded the same way, whose progress is sent as
// Server-Sent Events while it thinks. Each completed depth is an "info"
// event (a bestView of that depth), the last event is "best" (the answer
// /best gives) or, should the engine fail, "error" (an error answer's
// body). Closing the request stops the search. A request refused before
// the search starts gets the plain JSON error answer of /best.
func (s *Server) handleStream(w http.ResponseWriter, r *http.Request) {
	req, release, apiErr := s.admitSearch(w, r)
	if apiErr != nil {
		writeError(w, apiErr)
		return
	}
	defer release()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	events := http.NewResponseController(w)
	send := func(event string, v any) {
		data, _ := json.Marshal(v)
		// A client gone is noticed through the request's context, which
		// stops the search: a failed write needs no handling of its own.
		_, _ = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, data)
		_ = events.Flush()
	}
	v, err := s.search(r.Context(), req, func(v bestView) { send("info", v) })
	if err != nil {
		send("error", map[string]*apiError{"error": asAPIError(err)})
		return
	}
	send("best", v)
}

// admitSearch reads and checks a search request (the body of /best and
// /stream) and admits it: the position set up, a movetime and a number
// of lines in range, a game not over, the client's request budget, one
// search per client, and a free AI worker (waited for at most
// workerWait). On success release must be called when the search ends.
func (s *Server) admitSearch(w http.ResponseWriter, r *http.Request) (searchRequest, func(), *apiError) {
	var req bestRequest
	if err := s.decode(w, r, &req); err != nil {
		return searchRequest{}, nil, err
	}
	if req.MoveTime == 0 {
		req.MoveTime = defaultAnalysisMillis
	}
	if req.MoveTime < minAnalysisMillis || req.MoveTime > maxAnalysisMillis {
		return searchRequest{}, nil, fail(codeInvalid, "movetime %d: want %d to %d milliseconds", req.MoveTime, minAnalysisMillis, maxAnalysisMillis)
	}
	lines, apiErr := parseLines(req.Lines)
	if apiErr != nil {
		return searchRequest{}, nil, apiErr
	}
	st, apiErr := analysisState(r.PathValue("game"), req.Options, req.FEN, req.Moves)
	if apiErr != nil {
		return searchRequest{}, nil, apiErr
	}
	if res := st.Result(); res.Over() {
		return searchRequest{}, nil, fail(codeGameOver, "the game is over (%s): there is no move to search", res.Describe(st.Game()))
	}
	if err := s.admit(r, s.clients.allowMove); err != nil {
		return searchRequest{}, nil, err
	}
	moveTime := time.Duration(req.MoveTime) * time.Millisecond
	ticket, err := s.analysis.Admit(r.Context(), moveTime, s.analysisKeys(r)...)
	if err != nil {
		return searchRequest{}, nil, s.analysisRefusal(w, err)
	}
	return searchRequest{state: st, lines: lines, ticket: ticket}, ticket.Release, nil
}

// analysisKeys name the client of an analysis for its budget: its
// address (an IPv6 /64), and its account when signed in, so that neither
// many addresses nor many accounts buy more search time.
func (s *Server) analysisKeys(r *http.Request) []string {
	keys := []string{"addr:" + clientKey(r)}
	if id := s.sessionAccountID(r); id != "" {
		keys = append(keys, "account:"+id)
	}
	return keys
}

// analysisRefusal is the API's answer to a refusal of the analysis
// service, with Retry-After when the client's budget is spent.
func (s *Server) analysisRefusal(w http.ResponseWriter, err error) *apiError {
	var ae *analysis.Error
	if !errors.As(err, &ae) {
		return asAPIError(err)
	}
	switch ae.Code {
	case analysis.RateLimited:
		w.Header().Set("Retry-After", retryAfter(ae.RetryAfter))
		return fail(codeRateLimited, "%s", ae.Message)
	case analysis.ShuttingDown:
		return fail(codeShutdown, "%s", ae.Message)
	}
	return fail(string(hall.Busy), "%s", ae.Message)
}

// parseLines reads a search request's "lines": absent or null is one,
// else an integer from 1 to maxAnalysisLines.
func parseLines(raw json.RawMessage) (int, *apiError) {
	text := strings.TrimSpace(string(raw))
	if text == "" || text == "null" {
		return 1, nil
	}
	n, err := strconv.Atoi(text)
	if err != nil || n < 1 || n > maxAnalysisLines {
		return 0, fail(codeInvalid, "lines %s: want an integer from 1 to %d", quote(text), maxAnalysisLines)
	}
	return n, nil
}

// search runs the admitted search of req's position; it stops when ctx
// ends (the client went) or the server stops. report, when not nil, is
// given each completed depth. One line is the search's own; more come
// from a search of every root move with an exact score for the best
// ones (analysis.Ticket.Search).
func (s *Server) search(ctx context.Context, req searchRequest, report func(bestView)) (bestView, error) {
	var onDepth func(analysis.Best)
	if report != nil {
		onDepth = func(b analysis.Best) { report(bestOf(b)) }
	}
	best, err := req.ticket.Search(ctx, req.state, req.lines, onDepth)
	if err != nil {
		return bestView{}, err
	}
	return bestOf(best), nil
}

// bestOf is the API's writing of a search's answer.
func bestOf(b analysis.Best) bestView {
	v := bestView{Move: b.Move, Score: b.Score, ScoreText: b.ScoreText, Depth: b.Depth, Nodes: b.Nodes, Line: b.Line,
		Millis: b.Elapsed.Milliseconds(), Lines: make([]lineView, 0, len(b.Lines))}
	for _, l := range b.Lines {
		v.Lines = append(v.Lines, lineView{Move: l.Move, Score: l.Score, ScoreText: l.ScoreText, Line: l.Line})
	}
	return v
}
