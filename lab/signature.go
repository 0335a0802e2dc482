package lab

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/match"
)

// UnknownBuild names a build that does not know its revision: a binary
// made by go run or go test, or from outside a repository.
const UnknownBuild = "unknown"

// Build names this binary's source by its version control revision, as
// the go command stamps it (runtime/debug's vcs.revision, "+modified"
// after it when the tree had changes), or UnknownBuild when it was not
// stamped.
func Build() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return UnknownBuild
	}
	return buildOf(info.Settings)
}

// buildOf reads the revision from a binary's build settings.
func buildOf(settings []debug.BuildSetting) string {
	var rev, modified string
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "+modified"
			}
		}
	}
	if rev == "" {
		return UnknownBuild
	}
	return rev + modified
}

// UnknownSignature is the engine signature of a game recorded before
// games had one: what played it is not known.
const UnknownSignature = "unknown"

// The fixed searches of a signature: the positions a seeded walk reaches
// after these plies, each searched by a fresh engine (seeded too) to
// signatureDepth plies or signatureNodes nodes (iterations for the Monte
// Carlo engines), whichever comes first. Both bounds keep it to a few
// tens of milliseconds a player in most games, a quarter of a second at
// most (uct, whose iterations play to the end, in checkers).
var signaturePlies = [...]int{0, 3, 6, 9, 12, 15}

const (
	signatureSeed  = 20260401
	signatureDepth = 4
	signatureNodes = 1000
)

// Signature fingerprints what an engine plays in g: one engine from
// newEngine (seeded alike each time, single-threaded) searches a fixed set
// of positions of g in turn with fixed limits, and the signature hashes
// each search's move, score, depth and nodes. It changes when the
// engine's choices do (its evaluation, its move order, its pruning), and
// not with its speed or the run's limits. One engine for all the searches
// (not a fresh one each) keeps it to a few tens of milliseconds: making
// an ab engine clears its table.
func Signature(ctx context.Context, g game.Game, newEngine func(seed uint64) (ai.Engine, error)) (string, error) {
	e, err := newEngine(signatureSeed)
	if err != nil {
		return "", err
	}
	if c, ok := e.(io.Closer); ok {
		defer c.Close()
	}
	h := sha256.New()
	for _, s := range signaturePositions(g) {
		info := e.Search(ctx, s, ai.Limits{Depth: signatureDepth, Nodes: signatureNodes}, nil)
		if info.Err != nil {
			return "", info.Err
		}
		if err := ctx.Err(); err != nil {
			return "", err
		}
		text := ""
		if info.Move != (game.Move{}) {
			text = info.Move.Text(g.Board())
		}
		fmt.Fprintf(h, "%s %d %d %d\n", text, info.Score, info.Depth, info.Nodes)
	}
	return hex.EncodeToString(h.Sum(nil)[:6]), nil
}

// signaturePositions are the positions the signature searches: g's start
// and those a seeded random walk reaches, each ply drawn from the moves
// in canonical order (see match.CanonicalMoves) so that the positions stay the
// same when only the order of move generation changes.
func signaturePositions(g game.Game) []game.State {
	rng := rand.New(rand.NewPCG(signatureSeed, 1))
	var out []game.State
	s := g.Start()
	for ply := 0; ply <= signaturePlies[len(signaturePlies)-1] && !s.Result().Over(); ply++ {
		if slices.Contains(signaturePlies[:], ply) {
			out = append(out, s.Clone())
		}
		moves, _ := match.CanonicalMoves(s.Moves(nil), g.Board())
		s.Play(moves[rng.IntN(len(moves))])
	}
	return out
}

// Signatures computes engine signatures once each, for the life of the
// process that holds it: a run, a skill trace or a worker asks again for
// every game. Safe for concurrent use; the zero Signatures is ready.
type Signatures struct {
	mu   sync.Mutex
	done map[string]string
}

// Of gives the signature of p in g (with the endgame tables named
// tables, "" for none), computing it the first time.
func (sg *Signatures) Of(ctx context.Context, g game.Game, p Player, tables string) (string, error) {
	key := strings.Join([]string{g.ID(), optionsText(optionsOf(g)), p.Spec, tables}, "\x00")
	sg.mu.Lock()
	defer sg.mu.Unlock() // one at a time: two games asking at once wait for one search
	if sig, ok := sg.done[key]; ok {
		return sig, nil
	}
	newEngine := p.Single
	if newEngine == nil {
		newEngine = p.New
	}
	sig, err := Signature(ctx, g, newEngine)
	if err != nil {
		return "", fmt.Errorf("the engine signature of %s: %w", p.Spec, err)
	}
	if sg.done == nil {
		sg.done = map[string]string{}
	}
	sg.done[key] = sig
	return sig, nil
}

// optionsOf is g's options as a map.
func optionsOf(g game.Game) map[string]string {
	opts := g.Options()
	m := map[string]string{}
	for _, k := range opts.Keys() {
		m[k] = opts.Get(k)
	}
	return m
}
