package endgame

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sync"

	"github.com/arbiter-games/arbiter/game"
)

// Tables are a table folder opened for reading. Materials are read from
// disk the first time a position of theirs is looked up, then kept. A
// Tables is safe for concurrent use.
type Tables struct {
	dir       string
	g         game.Game
	man       *Manifest
	binom     *binomials
	materials map[Material]*stored
}

// stored is one material, read once: its values, or in drop tables its
// two bounds.
type stored struct {
	once   sync.Once
	l      layout
	bounds [2]storedBound
	err    error
}

// storedBound is one table of values as its two files hold it.
type storedBound struct {
	wdl   []byte
	plies []byte
	width int
}

// at is index i's value and its .wdl code.
func (b *storedBound) at(i uint64) (Value, byte) {
	d := int(distance(b.plies, b.width, i))
	switch code := b.wdl[i/4] >> (2 * (i % 4)) & 3; code {
	case wdlWin:
		return Value{Kind: Win, Plies: d}, code
	case wdlLoss:
		return Value{Kind: Loss, Plies: d}, code
	default:
		return Value{}, code
	}
}

// Open opens the tables in dir for g. It refuses a folder without a
// manifest, or built for another game or other rules.
func Open(dir string, g game.Game) (*Tables, error) {
	man, err := readManifest(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s holds no endgame tables (no %s): build them with arbiter solve", dir, manifestName)
	}
	if err != nil {
		return nil, err
	}
	if man.Game != g.ID() || man.Rules != RulesOf(g) {
		return nil, fmt.Errorf("%s holds tables of %s (%s), not of %s (%s)", dir, man.Game, rulesText(man.Rules), g.ID(), rulesText(RulesOf(g)))
	}
	if _, ok := g.Start().(game.Placer); !ok || man.Cells != g.Board().Len() {
		return nil, fmt.Errorf("%s: tables of %d cells do not fit %s", dir, man.Cells, g.ID())
	}
	t := &Tables{dir: dir, g: g, man: man, binom: newBinomials(man.Cells), materials: map[Material]*stored{}}
	for _, ms := range man.Materials {
		m, err := ParseMaterial(ms.Material)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", dir, err)
		}
		t.materials[m] = &stored{l: newLayout(m, man.Cells, t.binom)}
	}
	return t, nil
}

func rulesText(r string) string {
	if r == "" {
		return "default rules"
	}
	return r
}

// Manifest returns what the folder holds.
func (t *Tables) Manifest() Manifest { return *t.man }

// Identity names the tables by what they hold: game, rules, pieces and a
// hash of their manifest, whose figures come from every value, so that
// two folders of the same tables have the same identity and a lab run
// can tell whether it is continued with the tables it started with.
func (t *Tables) Identity() string {
	data, err := json.Marshal(t.man)
	if err != nil {
		return t.man.Game + " (unreadable manifest)"
	}
	sum := sha256.Sum256(data)
	return fmt.Sprintf("%s (%s) up to %d pieces, %s", t.man.Game, rulesText(t.man.Rules), t.man.Pieces, hex.EncodeToString(sum[:6]))
}

// Pieces is the most pieces a position in the tables has.
func (t *Tables) Pieces() int { return t.man.Pieces }

// Dir is the folder the tables were opened from.
func (t *Tables) Dir() string { return t.dir }

// Probe returns the value of s for the side to move, or an error saying
// why the tables do not hold it.
func (t *Tables) Probe(s game.State) (Value, error) {
	if s.Game().ID() != t.g.ID() || RulesOf(s.Game()) != t.man.Rules {
		return Value{}, fmt.Errorf("a position of %s (%s): the tables are of %s (%s)", s.Game().ID(), rulesText(RulesOf(s.Game())), t.g.ID(), rulesText(t.man.Rules))
	}
	pl, ok := s.(game.Placer)
	if !ok {
		return Value{}, fmt.Errorf("%s has no tables", s.Game().ID())
	}
	pieces := pl.Placement(nil)
	m := materialOf(pieces)
	if m.Side(0) == 0 || m.Side(1) == 0 {
		return Value{}, errors.New("the game is over: a side has no pieces")
	}
	if len(pieces) > t.man.Pieces {
		return Value{}, fmt.Errorf("the position has %d pieces; the tables in %s hold at most %d", len(pieces), t.dir, t.man.Pieces)
	}
	v, err := t.value(m, pieces, s.ToMove())
	if err != nil {
		return Value{}, err
	}
	return v, nil
}

// value looks up a position of material m.
func (t *Tables) value(m Material, pieces []game.Placed, toMove game.Player) (Value, error) {
	st, err := t.loaded(m)
	if err != nil {
		return Value{}, err
	}
	i := st.l.index(pieces, toMove)
	v, code := st.bounds[0].at(i)
	if code == wdlNone {
		return Value{}, fmt.Errorf("index %d of %s is no position", i, m)
	}
	if !t.man.Drops {
		return v, nil
	}
	if v1, _ := st.bounds[1].at(i); v1 != v {
		lo, hi := v, v1
		if rank(hi) < rank(lo) {
			lo, hi = hi, lo
		}
		return Value{}, &NotHeldError{Pieces: t.man.Pieces, Low: lo, High: hi}
	}
	return v, nil
}

// boundValue is the value of a position of material m in bound x of drop
// tables (in the only table of others).
func (t *Tables) boundValue(m Material, pieces []game.Placed, toMove game.Player, x int) (Value, error) {
	st, err := t.loaded(m)
	if err != nil {
		return Value{}, err
	}
	i := st.l.index(pieces, toMove)
	v, code := st.bounds[x].at(i)
	if code == wdlNone {
		return Value{}, fmt.Errorf("index %d of %s is no position", i, m)
	}
	return v, nil
}

// NotHeldError says that drop tables do not hold a position: its value
// depends on positions of more pieces than they hold, and lies between
// Low and High for the side to move.
type NotHeldError struct {
	Pieces    int
	Low, High Value
}

func (e *NotHeldError) Error() string {
	return fmt.Sprintf("the tables do not hold this position: its value depends on positions of more than %d pieces (it is between %v and %v)", e.Pieces, e.Low, e.High)
}

// rank orders values for the side to move, worst first: the quickest
// loss, ..., the slowest, a draw, the slowest win, ..., the quickest.
func rank(v Value) int {
	switch v.Kind {
	case Loss:
		return v.Plies - 1<<20
	case Win:
		return 1<<20 - v.Plies
	}
	return 0
}

// loaded returns material m, read from disk the first time.
func (t *Tables) loaded(m Material) (*stored, error) {
	st, ok := t.materials[m]
	if !ok {
		return nil, fmt.Errorf("the tables in %s do not hold %s (the build stopped before it)", t.dir, m)
	}
	st.once.Do(func() { st.load(t.dir, t.man) })
	return st, st.err
}

// load reads the material's files.
func (s *stored) load(dir string, man *Manifest) {
	bounds := []string{""}
	if man.Drops {
		bounds = []string{boundName(0), boundName(1)}
	}
	for x, bound := range bounds {
		want := fileHeader{Game: man.Game, Rules: man.Rules, Material: s.l.m.String(), Indexes: s.l.size(), Content: "wdl", Bound: bound}
		b := &s.bounds[x]
		if _, b.wdl, s.err = readTableFile(filepath.Join(dir, fileBase(s.l.m, bound)+wdlExt), want); s.err != nil {
			return
		}
		want.Content = "plies"
		var h fileHeader
		if h, b.plies, s.err = readTableFile(filepath.Join(dir, fileBase(s.l.m, bound)+dtmExt), want); s.err != nil {
			return
		}
		b.width = h.Width
	}
}

// Prober looks positions up for one search at a time: it keeps the
// scratch a lookup needs, so that a lookup allocates nothing. It is not
// safe for concurrent use; each thread of a search makes its own.
type Prober struct {
	t      *Tables
	pieces []game.Placed
}

// NewProber returns a Prober of t.
func (t *Tables) NewProber() *Prober {
	return &Prober{t: t, pieces: make([]game.Placed, 0, 2*maxTotal)}
}

// Tables returns the tables p reads.
func (p *Prober) Tables() *Tables { return p.t }

// Lookup returns the value of s, a state of the tables' game and rules,
// when the tables hold it. Positions with more pieces than the tables
// cost one call to count them; a table that cannot be read counts as
// not held.
func (p *Prober) Lookup(s game.State) (Value, bool) {
	c, ok := s.(interface{ Count(game.Player) int })
	if !ok || c.Count(0)+c.Count(1) > p.t.man.Pieces || c.Count(0) == 0 || c.Count(1) == 0 {
		return Value{}, false
	}
	pl, ok := s.(game.Placer)
	if !ok {
		return Value{}, false
	}
	p.pieces = pl.Placement(p.pieces[:0])
	v, err := p.t.value(materialOf(p.pieces), p.pieces, s.ToMove())
	return v, err == nil
}
