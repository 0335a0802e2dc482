package endgame

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/arbiter-games/arbiter/game"
)

// Values as a build holds them, one uint16 a position: the kind in the
// top two bits, the distance in plies below. A draw is 0, which is also
// "not known yet" while a slice is being solved.
const (
	winBit   uint16 = 0x4000
	lossBit  uint16 = 0x8000
	distMask uint16 = 0x3fff
	// notAPosition marks the indexes of no position: a man on the row
	// where it would have been promoted.
	notAPosition uint16 = 0xffff
)

// decode turns a build's value into a Value.
func decode(v uint16) Value {
	switch {
	case v == notAPosition || v&(winBit|lossBit) == 0:
		return Value{Kind: Draw}
	case v&winBit != 0:
		return Value{Kind: Win, Plies: int(v & distMask)}
	}
	return Value{Kind: Loss, Plies: int(v & distMask)}
}

// Config says what Build builds.
type Config struct {
	// Game is the game with its options; its states must implement
	// game.Placer.
	Game game.Game
	// Pieces is the most pieces a table holds, 2 to MaxPieces.
	Pieces int
	// Dir is where the tables go; tables already there for the same game
	// and rules are read instead of built again (a build resumes).
	Dir string
	// Workers solve slices at once; 0 means one a processor.
	Workers int
	// Memory bounds the bytes the build may hold; 0 means no bound.
	Memory int64
	// Progress, when set, is called now and then with how far the build
	// is, from one goroutine at a time.
	Progress func(Progress)
}

// Progress is how far a build is.
type Progress struct {
	Material    Material
	Done, Total uint64 // positions, over the whole build
	Loaded      bool   // the material was read from Dir, not built
}

// MaxPieces is the most pieces Build accepts.
const MaxPieces = 5

// MaxDropPieces is the most pieces Build accepts for a game with drops
// (Eximo): five would hold some 480 million positions, solved at once.
const MaxDropPieces = 4

// Build builds the tables Config asks for into cfg.Dir, one material at
// a time in the order Materials lists them, writing each when it is done,
// and returns the manifest it wrote.
func Build(ctx context.Context, cfg Config) (*Manifest, error) {
	b, err := newBuilder(cfg)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, err
	}
	if err := b.fitsFolder(); err != nil {
		return nil, err
	}
	stop := b.reportProgress()
	defer stop()
	if dropsMen(cfg.Game) {
		return b.buildDrops(ctx)
	}
	for _, m := range b.materials {
		if err := b.material(ctx, m); err != nil {
			return nil, err
		}
		if err := b.man.write(cfg.Dir); err != nil {
			return nil, err
		}
	}
	return b.man, nil
}

// fitsFolder refuses a folder that holds tables of another game, other
// rules or more pieces: building there would rewrite its manifest.
func (b *builder) fitsFolder() error {
	old, err := readManifest(b.cfg.Dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return err
	case old.Game != b.man.Game || old.Rules != b.man.Rules:
		return fmt.Errorf("%s holds tables of %s (%s), not of %s (%s): choose another folder", b.cfg.Dir, old.Game, rulesText(old.Rules), b.man.Game, rulesText(b.man.Rules))
	case old.Pieces > b.man.Pieces:
		return fmt.Errorf("%s holds tables of up to %d pieces: build %d or more there, or choose another folder", b.cfg.Dir, old.Pieces, old.Pieces)
	}
	return nil
}

// builder is one build's state.
type builder struct {
	cfg       Config
	g         game.Game
	n         int
	binom     *binomials
	materials []Material
	// solved holds the values of every material done so far; a material's
	// slice is written by the workers that solve it and read only after.
	solved  map[Material][]uint16
	layouts map[Material]*layout
	man     *Manifest
	done    atomic.Uint64
	total   uint64
	current atomic.Value // Material being built
	loaded  atomic.Bool
}

func newBuilder(cfg Config) (*builder, error) {
	if cfg.Game == nil {
		return nil, errors.New("endgame: no game")
	}
	if _, ok := cfg.Game.Start().(game.Placer); !ok || cfg.Game.Players() != 2 {
		return nil, fmt.Errorf("endgame: %s has no tables: only two-player games of one piece a cell (Pommel, Eximo) have them so far", cfg.Game.ID())
	}
	if dropsMen(cfg.Game) && cfg.Pieces > MaxDropPieces {
		return nil, fmt.Errorf("endgame: %d pieces: the tables of %s hold 2 to %d", cfg.Pieces, cfg.Game.ID(), MaxDropPieces)
	}
	if cfg.Pieces < 2 || cfg.Pieces > MaxPieces {
		return nil, fmt.Errorf("endgame: %d pieces: tables hold 2 to %d", cfg.Pieces, MaxPieces)
	}
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.GOMAXPROCS(0)
	}
	n := cfg.Game.Board().Len()
	materials := Materials(cfg.Pieces)
	if dropsMen(cfg.Game) {
		materials = DropMaterials(cfg.Pieces)
	}
	b := &builder{cfg: cfg, g: cfg.Game, n: n, binom: newBinomials(n),
		materials: materials, solved: map[Material][]uint16{}, layouts: map[Material]*layout{}}
	for _, m := range b.materials {
		l := newLayout(m, n, b.binom)
		b.layouts[m] = &l
		b.total += l.size()
	}
	if need := b.memoryNeeded(); cfg.Memory > 0 && need > cfg.Memory {
		return nil, fmt.Errorf("endgame: %d pieces on %d cells need about %s of memory, more than the %s allowed", cfg.Pieces, n, bytesText(need), bytesText(cfg.Memory))
	}
	b.man = newManifest(cfg.Game, cfg.Pieces)
	b.current.Store(Material{})
	return b, nil
}

// memoryNeeded estimates a build's peak: two bytes a position of every
// material, which stay for the captures and promotions that lead into
// them, and a slice's scratch (a few words a position and one for each
// king's move inside it) on each worker.
func (b *builder) memoryNeeded() int64 {
	if dropsMen(b.g) {
		return b.dropMemoryNeeded()
	}
	var largest uint64
	for _, l := range b.layouts {
		largest = max(largest, l.sliceSize())
	}
	scratch := int64(largest) * (16 + 8*edgesPerPosition) * int64(min(b.cfg.Workers, 2))
	return int64(b.total)*2 + scratch
}

// edgesPerPosition is a generous guess of the kings' quiet moves from a
// position, for the memory estimate.
const edgesPerPosition = 24

// bytesText writes a byte count for people.
func bytesText(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d bytes", n)
}

// reportProgress calls cfg.Progress every fifth of a second until the
// returned function is called, which reports once more.
func (b *builder) reportProgress() func() {
	if b.cfg.Progress == nil {
		return func() {}
	}
	report := func() {
		b.cfg.Progress(Progress{Material: b.current.Load().(Material), Done: b.done.Load(), Total: b.total, Loaded: b.loaded.Load()})
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				report()
			}
		}
	})
	return func() {
		close(quit)
		wg.Wait()
		report()
	}
}

// material reads m's tables from the folder, or builds and writes them.
func (b *builder) material(ctx context.Context, m Material) error {
	l := b.layouts[m]
	b.current.Store(m)
	vals, err := readMaterial(b.cfg.Dir, b.man, m, l.size())
	switch {
	case err == nil:
		b.loaded.Store(true)
		b.done.Add(l.size())
	case errors.Is(err, os.ErrNotExist):
		b.loaded.Store(false)
		vals = make([]uint16, l.size())
		if err := b.solveMaterial(ctx, l, vals); err != nil {
			return err
		}
		if err := writeMaterial(b.cfg.Dir, b.man, m, vals); err != nil {
			return err
		}
	default:
		return err
	}
	b.solved[m] = vals
	stats, err := b.statistics(l, vals)
	if err != nil {
		return err
	}
	b.man.add(stats)
	return nil
}

// solveMaterial solves the slices of l, the most advanced men first: a
// man's move only goes forward, so it leads to a slice solved before.
// Slices with men equally far advanced do not lead into each other and
// are solved side by side.
func (b *builder) solveMaterial(ctx context.Context, l *layout, vals []uint16) error {
	adv := b.advances(l)
	order := make([]uint32, l.slices)
	for i := range order {
		order[i] = uint32(i)
	}
	slices.SortStableFunc(order, func(x, y uint32) int { return int(adv[y]) - int(adv[x]) })
	workers := make([]*worker, b.cfg.Workers)
	for w := range workers {
		workers[w] = b.newWorker(l, vals, adv)
	}
	for start := 0; start < len(order); {
		end := start
		for end < len(order) && adv[order[end]] == adv[order[start]] {
			end++
		}
		if err := b.solveGroup(ctx, workers, order[start:end]); err != nil {
			return err
		}
		start = end
	}
	return nil
}

// advances returns, for each slice of l, how far its men have come: the
// sum of the first side's men's heights minus the second side's. Every
// man's move raises it.
func (b *builder) advances(l *layout) []int16 {
	adv := make([]int16, l.slices)
	bd := b.g.Board()
	var buf []game.Placed
	for s := range adv {
		buf, _ = l.position(uint64(s)*l.sliceSize(), buf[:0])
		sum := 0
		for _, pc := range buf {
			if pc.Piece.Rank != game.Man {
				continue
			}
			_, y := bd.Coord(pc.Cell)
			if pc.Piece.Owner == 0 {
				sum += y
			} else {
				sum -= y
			}
		}
		adv[s] = int16(sum)
	}
	return adv
}

// solveGroup solves the slices of one advance, the workers side by side.
func (b *builder) solveGroup(ctx context.Context, workers []*worker, group []uint32) error {
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, len(workers))
	for w, wk := range workers {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= int64(len(group)) || ctx.Err() != nil {
					errs[w] = ctx.Err()
					return
				}
				if err := wk.solveSlice(uint64(group[i])); err != nil {
					errs[w] = err
					next.Store(int64(len(group)))
					return
				}
				b.done.Add(wk.l.sliceSize())
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}
