package lab

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/match"
)

// The files of a run's folder.
const (
	ManifestFile = "run.json"
	GamesFile    = "games.jsonl"
	RecordFile   = "games.pdn"
	SummaryFile  = "summary.json"
	ReportFile   = "report.html"
	GamesCSV     = "games.csv"
	PliesCSV     = "plies.csv"
)

// Manifest is what a run's folder is for: everything that decides its
// games. A folder holds one run; the same command continues it, another
// is refused.
type Manifest struct {
	Game    string            `json:"game"`
	Options map[string]string `json:"options"`
	// Players are the engines' specs, one per seat of the game's first
	// round (seats rotate from game to game).
	Players []string `json:"players"`
	// MoveTime is a duration in Go's notation ("500ms"), "0s" for none.
	MoveTime string `json:"movetime"`
	Depth    int    `json:"depth"`
	Nodes    int64  `json:"nodes"`
	Opening  int    `json:"opening"`
	// OpeningOrder is the order the random opening plies are drawn from:
	// "sorted" (the legal moves sorted by their text, match.CanonicalMoves)
	// in a run with random plies; "" in one without, or made before the
	// lab drew them so (from the order the game generated the moves in,
	// so that its seed means other openings).
	OpeningOrder string `json:"openingOrder,omitempty"`
	// From is the position (FEN) every game starts from, "" for the
	// game's start.
	From string `json:"from,omitempty"`
	// Openings are the run's book, its lines normalised (see
	// match.ParseOpenings), and Book their SHA-256 (match.BookHash): a run
	// is continued or merged only with the same book.
	Openings []string `json:"openings,omitempty"`
	Book     string   `json:"book,omitempty"`
	Seed     uint64   `json:"seed"`
	// Shard is the share of the games this folder plays, "I/N", or "" for
	// all of them.
	Shard string `json:"shard"`
	// Games is how many games the run has (a shard plays its share of
	// them); raising it continues the run.
	Games int `json:"games"`
	// Date is the day the run started, the Date tag of its records.
	Date string `json:"date"`
	// Label names the run in a comparison; it does not decide the games,
	// so it may change when the run is continued.
	Label string `json:"label,omitempty"`
	// Tables names the endgame tables the engines probed, "" for none.
	Tables string `json:"tables,omitempty"`
	// Builds name the arbiters that played the run's games (see Build),
	// the first first: a run continued by another build names both. They
	// do not decide the games (the engine signatures of the games say
	// what played them), so a run may go on with another build.
	Builds []string `json:"builds,omitempty"`
}

// sameRun says how m and other differ as runs, or "" when they are the
// same run (Games and Date may differ).
func (m Manifest) sameRun(other Manifest) string {
	a, b := m, other
	a.Games, b.Games, a.Date, b.Date, a.Label, b.Label = 0, 0, "", "", "", ""
	a.Builds, b.Builds = nil, nil
	if a.Shard != b.Shard {
		return fmt.Sprintf("shard %s there, %s here", shardText(a.Shard), shardText(b.Shard))
	}
	a.Shard, b.Shard = "", ""
	a.Options, b.Options = withDefaults(a.Game, a.Options), withDefaults(b.Game, b.Options)
	return differs(a, b)
}

// withDefaults gives every option of the game that opts lacks its
// default: a run made before the game had an option (first= and swap=
// came late) played by its default, and continues or merges with a run
// that names it.
func withDefaults(id string, opts map[string]string) map[string]string {
	d, ok := game.Lookup(id)
	if !ok {
		return opts
	}
	all := maps.Clone(opts)
	if all == nil {
		all = map[string]string{}
	}
	for _, spec := range d.AllOptions() {
		if _, set := all[spec.Key]; !set {
			all[spec.Key] = spec.Default
		}
	}
	return all
}

// shardText writes a manifest's shard, "all" for every game.
func shardText(s string) string {
	if s == "" {
		return "all"
	}
	return s
}

// differs names the first field where two manifests differ, as "seed 1
// there, 2 here", or "" when none does.
func differs(a, b Manifest) string {
	fields := []struct {
		name string
		x, y any
	}{{"game", a.Game, b.Game}, {"options", optionsText(a.Options), optionsText(b.Options)},
		{"players", a.Players, b.Players}, {"movetime", a.MoveTime, b.MoveTime}, {"depth", a.Depth, b.Depth},
		{"nodes", a.Nodes, b.Nodes}, {"opening", a.Opening, b.Opening},
		{"random plies' order", openingOrderText(a), openingOrderText(b)}, {"from", fromText(a.From), fromText(b.From)},
		{"openings book", bookText(a.Book), bookText(b.Book)}, {"seed", a.Seed, b.Seed},
		{"shard", a.Shard, b.Shard}, {"endgame tables", tablesText(a.Tables), tablesText(b.Tables)}}
	for _, f := range fields {
		if x, y := fmt.Sprint(f.x), fmt.Sprint(f.y); x != y {
			return fmt.Sprintf("%s %s there, %s here", f.name, x, y)
		}
	}
	return ""
}

// openingOrderText writes the order a run's random plies are drawn from.
func openingOrderText(m Manifest) string {
	switch {
	case m.Opening == 0:
		return "none"
	case m.OpeningOrder == "":
		return "the game's (before the lab sorted them)"
	}
	return m.OpeningOrder
}

// tablesText writes a run's endgame tables, "none" for none.
func tablesText(t string) string {
	if t == "" {
		return "none"
	}
	return t
}

// fromText writes a run's start position, "the start" for the game's own.
func fromText(fen string) string {
	if fen == "" {
		return "the start"
	}
	return clip.Quote(fen)
}

// bookText names a run's openings book by the start of its hash, "none"
// without one.
func bookText(hash string) string {
	if hash == "" {
		return "none"
	}
	return "sha256:" + hash[:min(12, len(hash))]
}

// optionsText writes options as "k=v k=v" in key order.
func optionsText(opts map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		parts = append(parts, k+"="+opts[k])
	}
	return strings.Join(parts, " ")
}

// GameData is one finished game as games.jsonl keeps it, one JSON line
// each: enough to write its record and recount every metric.
type GameData struct {
	// Index is the game's place in the run, 0 for the first; it fixes its
	// opening and its seats.
	Index int `json:"index"`
	// From is the position (FEN) the game started from, "" for the
	// game's start.
	From    string   `json:"from,omitempty"`
	Seats   []string `json:"seats"` // the engine in each seat, in turn order
	Opening []string `json:"opening"`
	Moves   []Search `json:"moves"`
	Winners []int    `json:"winners"` // none for a draw
	Reason  string   `json:"reason"`
	Scores  []int    `json:"scores,omitempty"`
	// Signatures are the engine signature of each seat's engine, in turn
	// order (see Signature); none in a game recorded before games had
	// them. Build names the arbiter that played the game (see Build).
	Signatures []string `json:"signatures,omitempty"`
	Build      string   `json:"build,omitempty"`
}

// signature is the engine signature of seat k, UnknownSignature when the
// game has none.
func (d GameData) signature(k int) string {
	if k < len(d.Signatures) && d.Signatures[k] != "" {
		return d.Signatures[k]
	}
	return UnknownSignature
}

// build is the arbiter that played the game, UnknownBuild when the game
// does not say.
func (d GameData) build() string {
	if d.Build == "" {
		return UnknownBuild
	}
	return d.Build
}

// Search is one engine move and what its search reported.
type Search struct {
	Move  string `json:"move"`
	Score int    `json:"score"`
	Depth int    `json:"depth,omitempty"`
	Nodes int64  `json:"nodes,omitempty"`
	// Micros is the time the search took, in microseconds.
	Micros int64 `json:"us"`
}

// fromLog turns a match's game log into the data kept for it.
func fromLog(index int, l *match.GameLog) GameData {
	d := GameData{Index: index, From: l.From, Seats: slices.Clone(l.Seats), Opening: slices.Clone(l.Opening),
		Reason: l.Result.Reason.String(), Winners: []int{}}
	for _, s := range l.Moves {
		d.Moves = append(d.Moves, Search{Move: s.Move, Score: s.Score, Depth: s.Depth, Nodes: s.Nodes,
			Micros: s.Elapsed.Microseconds()})
	}
	n := l.Game.Players()
	for p := range n {
		if l.Result.Winners.Has(game.Player(p)) {
			d.Winners = append(d.Winners, p)
		}
	}
	// A game decided by its scores keeps them: at its natural end, or at
	// a repetition scored as it stands (Punt's repetition=scored).
	if l.Result.Reason == game.Scored || l.Result.Reason == game.Repetition && len(d.Winners) > 0 {
		d.Scores = slices.Clone(l.Result.Scores[:n])
	}
	return d
}

// result is the game's result as the game package has it.
func (d GameData) result() (game.Result, error) {
	why, ok := game.ParseReason(d.Reason)
	if !ok || why == game.Ongoing {
		return game.Result{}, fmt.Errorf("game %d: reason %q is not how a game ends", d.Index+1, d.Reason)
	}
	r := game.Result{Reason: why}
	for _, p := range d.Winners {
		if p < 0 || p >= game.MaxPlayers {
			return game.Result{}, fmt.Errorf("game %d: winner %d is no seat", d.Index+1, p)
		}
		r.Winners = r.Winners.Add(game.Player(p))
	}
	copy(r.Scores[:], d.Scores)
	return r, nil
}

// log turns the data back into a match's game log, for its record.
func (d GameData) log(g game.Game, date string) (*match.GameLog, error) {
	res, err := d.result()
	if err != nil {
		return nil, err
	}
	l := &match.GameLog{Game: g, Round: d.Index + 1, Date: date, From: d.From, Seats: d.Seats, Opening: d.Opening, Result: res}
	s, err := d.start(g)
	if err != nil {
		return nil, err
	}
	if err := game.PlayMoves(s, d.Opening); err != nil {
		return nil, fmt.Errorf("game %d: %w", d.Index+1, err)
	}
	for _, m := range d.Moves {
		l.Moves = append(l.Moves, match.Search{Seat: s.ToMove(), Move: m.Move, Score: m.Score, Depth: m.Depth,
			Nodes: m.Nodes, Elapsed: time.Duration(m.Micros) * time.Microsecond})
		if err := game.PlayMoves(s, []string{m.Move}); err != nil {
			return nil, fmt.Errorf("game %d: %w", d.Index+1, err)
		}
	}
	return l, nil
}

// start is the position the game started from.
func (d GameData) start(g game.Game) (game.State, error) {
	if d.From == "" {
		return g.Start(), nil
	}
	s, err := g.ParseFEN(d.From)
	if err != nil {
		return nil, fmt.Errorf("game %d: %w", d.Index+1, err)
	}
	return s, nil
}

// readManifest reads dir's manifest; ok is false when there is none.
func readManifest(dir string) (m Manifest, ok bool, err error) {
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if errors.Is(err, fs.ErrNotExist) {
		return Manifest{}, false, nil
	}
	if err != nil {
		return Manifest{}, false, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return Manifest{}, false, fmt.Errorf("%s: %v", filepath.Join(dir, ManifestFile), err)
	}
	return m, true, nil
}

// writeJSON writes v, indented, to a file, through a temporary file so
// that an interrupted write leaves the old file whole.
func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return writeFile(path, append(data, '\n'))
}

// writeFile replaces path with data through a temporary file.
func writeFile(path string, data []byte) error {
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// readGames reads a run's games.jsonl, in index order. A last line cut
// short (the run was killed while writing it) is dropped, and the file is
// cut back to the whole lines so that the next game starts a line of its
// own; any other bad line is an error naming it.
func readGames(dir string) ([]GameData, error) { return readGamesFile(dir, true) }

// readGamesOnly reads a run's games.jsonl as readGames does, without
// cutting a last line cut short (it is skipped): for reading another's
// run, which it leaves as it was. A folder without games gives none.
func readGamesOnly(dir string) ([]GameData, error) { return readGamesFile(dir, false) }

// readGamesFile reads games.jsonl's whole lines, and cuts the file back
// to them when repair is set.
func readGamesFile(dir string, repair bool) ([]GameData, error) {
	path := filepath.Join(dir, GamesFile)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if end := bytes.LastIndexByte(data, '\n') + 1; end < len(data) {
		data = data[:end]
		if repair {
			if err := os.Truncate(path, int64(end)); err != nil {
				return nil, err
			}
		}
	}
	return parseGames(path, data)
}

// parseGames reads whole lines of games.jsonl, in index order.
func parseGames(path string, data []byte) ([]GameData, error) {
	var games []GameData
	seen := map[int]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for line := 1; sc.Scan(); line++ {
		var d GameData
		if err := json.Unmarshal(sc.Bytes(), &d); err != nil {
			return nil, fmt.Errorf("%s line %d: %v", path, line, err)
		}
		if seen[d.Index] {
			return nil, fmt.Errorf("%s line %d: game %d is there twice", path, line, d.Index+1)
		}
		seen[d.Index] = true
		games = append(games, d)
	}
	slices.SortFunc(games, func(a, b GameData) int { return a.Index - b.Index })
	return games, nil
}

// appendGame adds one game to games.jsonl as a line of its own.
func appendGame(dir string, d GameData) error {
	line, err := json.Marshal(d)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(filepath.Join(dir, GamesFile), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
