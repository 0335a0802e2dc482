package cli

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/spf13/cobra"

	// Named so: the tests of this package call a position endgame.
	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/internal/clip"
	"github.com/arbiter-games/arbiter/match"
)

// probeFlags are the settings of 'arbiter probe'.
type probeFlags struct {
	p        position
	tables   string
	sample   int
	value    string
	material string
	seed     uint64
}

// valueAllowed is what --value accepts.
const valueAllowed = "win, draw or loss: the value for the side to move"

func probeCmd() *cobra.Command {
	var pf probeFlags
	cmd := &cobra.Command{
		Use:   "probe GAME --tables DIR (--from FEN | --sample N)",
		Short: "Look a position up in endgame tables, or draw positions from them",
		Long: `probe opens the tables that 'arbiter solve' wrote into --tables DIR (for GAME
with the same --option rules) and prints the value of the --from position
for the side to move, one line: "win N" (it wins in N plies at best),
"loss N" (it loses in N plies at worst) or "draw". A position the tables
do not hold (more pieces, a side without pieces, another game or other
rules, a bad FEN) is an error.

--sample N instead prints N distinct positions of the tables, one FEN a
line with its value as a # comment: an openings book for 'match --openings'
and 'lab --openings'. They are drawn uniformly (the same for the same
--seed) among the positions where the game goes on, of one --material
(such as KMvK) or of all, of one --value or of all.`,
		Args: withUsage(cobra.ExactArgs(1)),
		RunE: func(cmd *cobra.Command, args []string) error {
			return clipFolder(pf.run(cmd, args[0]), pf.tables)
		},
	}
	pf.p.cmd = cmd
	cmd.Flags().StringArrayVarP(&pf.p.options, "option", "o", nil, "a game option as key=value (repeatable); the tables' rules")
	allow(cmd, "option", optionAllowed)
	cmd.Flags().StringVar(&pf.p.from, "from", "", "the position to look up (FEN)")
	allow(cmd, "from", "a position written as FEN (see the fen command)")
	cmd.Flags().StringVar(&pf.tables, "tables", "", "the tables' folder, as 'arbiter solve' wrote it")
	allow(cmd, "tables", "a folder of tables")
	sampleAllowed := fmt.Sprintf("a whole number from 1 to %d", match.MaxOpenings)
	cmd.Flags().IntVar(&pf.sample, "sample", 0, "print this many positions of the tables ("+sampleAllowed+")")
	allow(cmd, "sample", sampleAllowed)
	cmd.Flags().StringVar(&pf.value, "value", "", "with --sample, only positions of this value ("+valueAllowed+")")
	allow(cmd, "value", valueAllowed)
	cmd.Flags().StringVar(&pf.material, "material", "", "with --sample, only positions of this material, such as KMvK")
	allow(cmd, "material", "a material such as KMvK: the first side's kings and men, v, the second side's")
	seedVar(cmd, &pf.seed, "with --sample, the seed that draws the positions")
	return cmd
}

// run checks the flags, opens the tables and probes or samples.
func (pf *probeFlags) run(cmd *cobra.Command, id string) error {
	flags := cmd.Flags()
	switch {
	case strings.TrimSpace(pf.tables) == "":
		return errors.New("--tables is missing: give the folder 'arbiter solve' wrote")
	case flags.Changed("from") && flags.Changed("sample"):
		return errors.New("--from and --sample do not go together: probe one position, or draw a sample")
	case !flags.Changed("from") && !flags.Changed("sample"):
		return errors.New("give --from FEN to look a position up, or --sample N to draw positions")
	}
	if flags.Changed("from") {
		for _, name := range []string{"value", "material", "seed"} {
			if flags.Changed(name) {
				return fmt.Errorf("--%s goes with --sample, not with --from", name)
			}
		}
	}
	g, err := pf.p.newGame(id)
	if err != nil {
		return err
	}
	// The same test as Build's, so that such a game is not blamed on the
	// folder.
	if _, ok := g.Start().(game.Placer); !ok || g.Players() != 2 {
		return fmt.Errorf("%s has no endgame tables: only two-player games of one piece a cell (Pommel, Eximo) have them so far", g.ID())
	}
	if flags.Changed("sample") {
		return pf.runSample(cmd, g)
	}
	return pf.probeOne(cmd, g)
}

// probeOne prints the value of the --from position.
func (pf *probeFlags) probeOne(cmd *cobra.Command, g game.Game) error {
	if strings.TrimSpace(pf.p.from) == "" {
		return errors.New("--from is empty: give a position as FEN (see the fen command)")
	}
	s, err := g.ParseFEN(pf.p.from)
	if err != nil {
		return err
	}
	t, err := endgame.Open(pf.tables, g)
	if err != nil {
		return err
	}
	v, err := t.Probe(s)
	if err != nil {
		return err
	}
	fmt.Fprintln(cmd.OutOrStdout(), v)
	return nil
}

// sampleSpec is what a sample draws: how many positions, of which
// materials and value.
type sampleSpec struct {
	n         int
	materials []endgame.Material
	kind      endgame.Kind
	anyKind   bool
	seed      uint64
}

// sampleSpec checks --sample, --value and --material against the tables.
func (pf *probeFlags) sampleSpec(t *endgame.Tables) (sampleSpec, error) {
	if pf.sample < 1 || pf.sample > match.MaxOpenings {
		return sampleSpec{}, fmt.Errorf("--sample %d: want a whole number from 1 to %d", pf.sample, match.MaxOpenings)
	}
	spec := sampleSpec{n: pf.sample, seed: pf.seed, anyKind: pf.value == ""}
	switch pf.value {
	case "", "draw":
	case "win":
		spec.kind = endgame.Win
	case "loss":
		spec.kind = endgame.Loss
	default:
		return sampleSpec{}, fmt.Errorf("--value %s: want %s", clip.Quote(pf.value), valueAllowed)
	}
	var want endgame.Material
	if pf.material != "" {
		var err error
		if want, err = endgame.ParseMaterial(pf.material); err != nil {
			return sampleSpec{}, fmt.Errorf("--%w", err)
		}
	}
	for _, ms := range t.Manifest().Materials {
		m, err := endgame.ParseMaterial(ms.Material)
		if err != nil {
			return sampleSpec{}, err
		}
		if pf.material == "" || m == want {
			spec.materials = append(spec.materials, m)
		}
	}
	if len(spec.materials) == 0 && pf.material != "" {
		return sampleSpec{}, fmt.Errorf("--material %s: the tables in %s do not hold it (up to %d pieces)", pf.material, t.Dir(), t.Pieces())
	}
	return spec, nil
}

// runSample draws the sample and prints it, one FEN and its value a line;
// nothing when it fails.
func (pf *probeFlags) runSample(cmd *cobra.Command, g game.Game) error {
	t, err := endgame.Open(pf.tables, g)
	if err != nil {
		return err
	}
	spec, err := pf.sampleSpec(t)
	if err != nil {
		return err
	}
	picked, err := drawSample(t, spec)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, p := range picked {
		s, err := t.Position(p.m, p.i)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "%s # %s %s\n", s.FEN(), p.v, p.m)
	}
	fmt.Fprint(cmd.OutOrStdout(), b.String())
	return nil
}

// sampled is one position drawn: its material, index and value.
type sampled struct {
	m endgame.Material
	i uint64
	v endgame.Value
}

// drawSample walks every index of the spec's materials once and keeps a
// uniform sample of spec.n of the positions that match (reservoir
// sampling), leaving out those where the game is over: a loss in 0 is a
// side to move without a legal move. The sample comes back in random
// order, so that a book cut short still mixes the materials.
func drawSample(t *endgame.Tables, spec sampleSpec) ([]sampled, error) {
	rng := rand.New(rand.NewPCG(spec.seed, 0x7461626c6573)) // "tables"
	keep := make([]sampled, 0, spec.n)
	var seen uint64
	for _, m := range spec.materials {
		for i := range t.Indexes(m) {
			v, ok, err := t.At(m, i)
			if err != nil {
				return nil, err
			}
			if !ok || v == (endgame.Value{Kind: endgame.Loss}) || !spec.anyKind && v.Kind != spec.kind {
				continue
			}
			seen++
			switch {
			case len(keep) < spec.n:
				keep = append(keep, sampled{m, i, v})
			default:
				if r := rng.Uint64N(seen); r < uint64(spec.n) {
					keep[r] = sampled{m, i, v}
				}
			}
		}
	}
	if len(keep) < spec.n {
		return nil, fmt.Errorf("--sample %d: the tables hold only %d such positions where the game goes on", spec.n, seen)
	}
	rng.Shuffle(len(keep), func(a, b int) { keep[a], keep[b] = keep[b], keep[a] })
	return keep, nil
}
