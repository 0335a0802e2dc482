package lab

import (
	"context"
	"path/filepath"
	"runtime/debug"
	"slices"
	"testing"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
)

// flat is an evaluation that sees nothing: an engine that plays by it
// makes other choices than the game's own evaluation does.
type flat struct{}

func (flat) Judges(game.State) bool                   { return true }
func (flat) Evaluate(game.State) [game.MaxPlayers]int { return [game.MaxPlayers]int{} }

// otherEngine is spec's engine as another arbiter's might be: the same
// name, another evaluation.
func otherEngine(spec string) Player {
	return Player{Spec: spec, New: func(seed uint64) (ai.Engine, error) { return ai.New(spec, seed, ai.WithEvaluation(flat{})) }}
}

func TestBuildOf(t *testing.T) {
	for _, tt := range []struct {
		name     string
		settings []debug.BuildSetting
		want     string
	}{
		{"a clean tree", []debug.BuildSetting{{Key: "vcs.revision", Value: "4d2080e"}, {Key: "vcs.modified", Value: "false"}}, "4d2080e"},
		{"a changed tree", []debug.BuildSetting{{Key: "vcs.modified", Value: "true"}, {Key: "vcs.revision", Value: "4d2080e"}}, "4d2080e+modified"},
		{"go run or go test", []debug.BuildSetting{{Key: "GOOS", Value: "linux"}}, UnknownBuild},
		{"changed but no revision", []debug.BuildSetting{{Key: "vcs.modified", Value: "true"}}, UnknownBuild},
	} {
		if got := buildOf(tt.settings); got != tt.want {
			t.Errorf("%s: build %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestSignature: the signature is the same each time for an engine, and
// differs for an engine that chooses otherwise (another evaluation, or
// another kind of engine).
func TestSignature(t *testing.T) {
	g := newGame(t, "pommel")
	sig := func(p Player) string {
		t.Helper()
		s, err := Signature(context.Background(), g, p.New)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	ab := sig(engine("ab"))
	if again := sig(engine("ab")); again != ab {
		t.Errorf("ab's signature %s, then %s: it must be repeatable", ab, again)
	}
	if other := sig(otherEngine("ab")); other == ab {
		t.Errorf("ab with another evaluation has ab's signature %s", ab)
	}
	if r := sig(engine("random")); r == ab {
		t.Errorf("random has ab's signature %s", ab)
	}
	if other := sig(engine("ab")); len(other) != 12 {
		t.Errorf("signature %q: want 12 hex digits", other)
	}
}

// TestSignaturesCache: a Signatures computes each player's signature
// once, keyed by game, options, spec and tables.
func TestSignaturesCache(t *testing.T) {
	var sg Signatures
	calls := 0
	p := engine("ab")
	inner := p.New
	p.New = func(seed uint64) (ai.Engine, error) { calls++; return inner(seed) }
	g := newGame(t, "pommel")
	for range 3 {
		if _, err := sg.Of(context.Background(), g, p, ""); err != nil {
			t.Fatal(err)
		}
	}
	if calls != 1 {
		t.Errorf("the signature was computed %d times, want once", calls)
	}
	if _, err := sg.Of(context.Background(), newGameWith(t, "pommel", "maxplies", "40"), p, ""); err != nil || calls != 2 {
		t.Errorf("other options: computed %d times in all (%v), want a second time", calls, err)
	}
}

// TestRunRecordsBuildAndSignatures: run.json names the builds that
// played the run and each game its seats' signatures and its build; a
// build with the same engines may continue the run.
func TestRunRecordsBuildAndSignatures(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg := smallRun(t, 2)
	cfg.Build = "build-a"
	if _, err := Run(context.Background(), cfg, dir, nil); err != nil {
		t.Fatal(err)
	}
	cfg.Build, cfg.Games = "build-b", 3
	if _, err := Run(context.Background(), cfg, dir, nil); err != nil {
		t.Fatalf("the same engines of another build may continue a run: %v", err)
	}
	m, _, err := readManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"build-a", "build-b"}; !slices.Equal(m.Builds, want) {
		t.Errorf("run.json's builds %v, want %v", m.Builds, want)
	}
	sigs := map[string]string{}
	for _, p := range cfg.Players {
		if sigs[p.Spec], err = Signature(context.Background(), cfg.Game, p.New); err != nil {
			t.Fatal(err)
		}
	}
	games, err := readGames(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range games {
		want := "build-a"
		if d.Index == 2 {
			want = "build-b"
		}
		if d.Build != want || len(d.Signatures) != 2 || d.Signatures[0] != sigs[d.Seats[0]] || d.Signatures[1] != sigs[d.Seats[1]] {
			t.Errorf("game %d: build %q, signatures %v of seats %v; want %s, %v", d.Index+1, d.Build, d.Signatures, d.Seats, want, sigs)
		}
	}
}
