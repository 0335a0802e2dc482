package lab

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/ai"
)

// mixedRun is smallRun with ab played by another engine of the same name
// (another arbiter's ab, whose evaluation differs), and the other build.
func mixedRun(t *testing.T, games int) Config {
	cfg := smallRun(t, games)
	cfg.Players[0] = otherEngine("ab")
	cfg.Build = "build-b"
	return cfg
}

// TestMixedEnginesRefused: a run made by one engine signature is refused
// resume and merge by another, naming both signatures and both builds,
// unless --mix is given; the report's first line then says the run mixes
// engines, and which.
func TestMixedEnginesRefused(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	first := smallRun(t, 2)
	first.Build = "build-a"
	abSig, err := Signature(ctx, first.Game, first.Players[0].New)
	if err != nil {
		t.Fatal(err)
	}
	otherSig, err := Signature(ctx, first.Game, otherEngine("ab").New)
	if err != nil {
		t.Fatal(err)
	}
	names := func(t *testing.T, err error, what string) {
		t.Helper()
		if err == nil {
			t.Fatalf("%s: mixed engines were accepted", what)
		}
		for _, want := range []string{abSig, otherSig, "build-a", "build-b", "--mix"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %v\ndoes not name %s", what, err, want)
			}
		}
	}
	firstLine := func(t *testing.T, s *Summary, dir string) {
		t.Helper()
		for name, text := range map[string]string{"the console": Text(s), "report.html": reportText(t, dir)} {
			line, _, _ := strings.Cut(text, "\n")
			if !strings.Contains(line, "this run mixes engines") || !strings.Contains(line, abSig) || !strings.Contains(line, otherSig) {
				t.Errorf("%s's first line %q does not say the run mixes ab's %s and %s", name, line, abSig, otherSig)
			}
		}
	}

	t.Run("resume", func(t *testing.T) {
		dir := filepath.Join(root, "resume")
		if _, err := Run(ctx, first, dir, nil); err != nil {
			t.Fatal(err)
		}
		before := string(readFile(t, filepath.Join(dir, ManifestFile)))
		_, err := Run(ctx, mixedRun(t, 3), dir, nil)
		names(t, err, "resume")
		if after := string(readFile(t, filepath.Join(dir, ManifestFile))); after != before {
			t.Errorf("a refused resume changed run.json:\n%s\nto\n%s", before, after)
		}
		mix := mixedRun(t, 3)
		mix.Mix = true
		s, err := Run(ctx, mix, dir, nil)
		if err != nil {
			t.Fatalf("--mix: %v", err)
		}
		firstLine(t, s, dir)
		if again, err := Run(ctx, first, dir, nil); err == nil {
			t.Errorf("a mixed run continued without --mix: %s", Text(again))
		}
	})

	t.Run("merge", func(t *testing.T) {
		a, b := filepath.Join(root, "shard0"), filepath.Join(root, "shard1")
		s0 := smallRun(t, 4)
		s0.Build, s0.Shard = "build-a", Shard{Index: 0, Count: 2}
		s1 := mixedRun(t, 4)
		s1.Shard = Shard{Index: 1, Count: 2}
		for dir, cfg := range map[string]Config{a: s0, b: s1} {
			if _, err := Run(ctx, cfg, dir, nil); err != nil {
				t.Fatal(err)
			}
		}
		_, _, err := Merge(filepath.Join(root, "merged"), []string{a, b}, false)
		names(t, err, "merge")
		if _, err := os.Stat(filepath.Join(root, "merged")); err == nil {
			t.Error("a refused merge made its folder")
		}
		s, _, err := Merge(filepath.Join(root, "mixed"), []string{a, b}, true)
		if err != nil {
			t.Fatalf("merge --mix: %v", err)
		}
		firstLine(t, s, filepath.Join(root, "mixed"))
	})
}

// reportText is report.html's text, its markup dropped, from its body on.
func reportText(t *testing.T, dir string) string {
	t.Helper()
	page := string(readFile(t, filepath.Join(dir, ReportFile)))
	_, body, _ := strings.Cut(page, "<body>")
	var b strings.Builder
	in := false
	for _, r := range body {
		switch {
		case r == '<':
			in = true
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return strings.TrimLeft(b.String(), " \n")
}

func TestCommandText(t *testing.T) {
	m := Manifest{Game: "pommel", Options: map[string]string{"maxplies": "600", "hop": "any"}, Players: []string{"ab", "random"},
		MoveTime: "0s", Depth: 2, Games: 200, Seed: 1, Opening: 4, Label: "two words", From: "W:Wa1:Bb2"}
	want := "arbiter lab pommel -o hop=any --player ab --player random --games 200 --depth 2 --seed 1 --opening 4 --from W:Wa1:Bb2 --label 'two words' --out DIR"
	if got := CommandText(m); got != want {
		t.Errorf("command\n%s\nwant\n%s", got, want)
	}
}

// TestOutputsShowBuildAndSignature: the console text, report.html, lab
// compare (text and HTML) and a skill trace (skill.json, skill.html)
// name the build and the engines' signatures.
func TestOutputsShowBuildAndSignature(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	cfg := smallRun(t, 2)
	cfg.Build = "build-a"
	sig, err := Signature(ctx, cfg.Game, cfg.Players[0].New)
	if err != nil {
		t.Fatal(err)
	}
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	var sum *Summary
	for _, dir := range []string{a, b} {
		if sum, err = Run(ctx, cfg, dir, nil); err != nil {
			t.Fatal(err)
		}
	}
	runs, err := ReadSummaries([]string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	page, err := CompareHTML(runs)
	if err != nil {
		t.Fatal(err)
	}
	sc := SkillConfig{Run: Config{Game: cfg.Game, Players: []Player{engine("ab")}, Games: 2, Limits: ai.Limits{Depth: 1},
		Seed: 5, OpeningPlies: 2, Build: "build-a"}, Steps: 1}
	tr, err := Skill(ctx, sc, filepath.Join(root, "skill"), nil)
	if err != nil {
		t.Fatal(err)
	}
	// A skill step's engines are the spec at two depths: two players,
	// two signatures.
	stepSigs := tr.Steps[0].Signatures
	if !regexp.MustCompile(`^ab depth 1 [0-9a-f]{12}, ab depth 2 [0-9a-f]{12}$`).MatchString(stepSigs) {
		t.Errorf("skill step 1's signatures %q: want each depth's", stepSigs)
	}
	for name, text := range map[string]string{
		"the console":  Text(sum),
		"report.html":  string(readFile(t, filepath.Join(a, ReportFile))),
		"lab compare":  CompareTable(runs),
		"compare.html": string(page),
		"skill.json":   string(readFile(t, filepath.Join(root, "skill", "skill.json"))),
		"skill.html":   string(readFile(t, filepath.Join(root, "skill", "skill.html"))),
		"skill's line": tr.EnginesText(),
	} {
		want := "ab " + sig
		if strings.HasPrefix(name, "skill") {
			want = stepSigs
		}
		if !strings.Contains(text, "build-a") || !strings.Contains(text, want) {
			t.Errorf("%s names no build build-a or no signatures %q:\n%.3000s", name, want, text)
		}
	}
}

// TestOldOpeningOrderRefused: a run made before the random plies were
// drawn in canonical order means other openings by its seed: it is not
// continued, nor paired game by game with a new one.
func TestOldOpeningOrderRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	cfg := smallRun(t, 1)
	if _, err := Run(context.Background(), cfg, dir, nil); err != nil {
		t.Fatal(err)
	}
	m, _, err := readManifest(dir)
	if err != nil || m.OpeningOrder != OpeningOrder {
		t.Fatalf("run.json's opening order %q (%v), want %q", m.OpeningOrder, err, OpeningOrder)
	}
	old := m
	old.OpeningOrder = ""
	if err := writeJSON(filepath.Join(dir, ManifestFile), old); err != nil {
		t.Fatal(err)
	}
	cfg.Mix = true
	if _, err := Run(context.Background(), cfg, dir, nil); err == nil || !strings.Contains(err.Error(), "random plies' order the game's") {
		t.Errorf("an old run's openings continued: %v", err)
	}
	if why := pairable(old, m); !strings.Contains(why, "random plies' order") {
		t.Errorf("an old run pairs with a new one (%q)", why)
	}
}
