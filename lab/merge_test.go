package lab

import (
	"context"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestMergedShardsEqualTheWholeRun(t *testing.T) {
	root := t.TempDir()
	whole := filepath.Join(root, "whole")
	if _, err := Run(context.Background(), smallRun(t, 5), whole, nil); err != nil {
		t.Fatal(err)
	}
	var shards []string
	for i := range 2 {
		cfg := smallRun(t, 5)
		cfg.Shard = Shard{Index: i, Count: 2}
		dir := filepath.Join(root, "shard", itoa(i))
		sum, err := Run(context.Background(), cfg, dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		if want := []int{3, 2}[i]; sum.Games != want {
			t.Errorf("shard %d/2 of 5 games played %d, want %d", i, sum.Games, want)
		}
		shards = append(shards, dir)
	}
	merged := filepath.Join(root, "merged")
	sum, total, err := Merge(merged, []string{shards[1], shards[0]}, false)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Games != 5 || total != 5 {
		t.Errorf("merged %d games of %d, want 5 of 5", sum.Games, total)
	}
	comments := regexp.MustCompile(`\{[^}]*\}`) // the searches' times differ
	for _, name := range []string{SummaryFile, GamesCSV, PliesCSV, ManifestFile, RecordFile} {
		a, b := string(readFile(t, filepath.Join(whole, name))), string(readFile(t, filepath.Join(merged, name)))
		if name == RecordFile {
			a, b = comments.ReplaceAllString(a, ""), comments.ReplaceAllString(b, "")
		}
		if a != b {
			t.Errorf("merged %s differs from the whole run's", name)
		}
	}
	if timeless(t, whole) != timeless(t, merged) {
		t.Errorf("merged games.jsonl differs from the whole run's")
	}
}

func TestMergeRefuses(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	if _, err := Run(context.Background(), smallRun(t, 2), a, nil); err != nil {
		t.Fatal(err)
	}
	cfg := smallRun(t, 2)
	cfg.Seed = 8
	if _, err := Run(context.Background(), cfg, b, nil); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		out  string
		dirs []string
		want string
	}{
		{filepath.Join(root, "m1"), []string{a, b}, "holds another run than"},
		{filepath.Join(root, "m2"), []string{a, a}, "game 1 is in both"},
		{filepath.Join(root, "m3"), []string{root}, "holds no lab run"},
		{a, []string{b}, "is not empty"},
		{filepath.Join(root, "m4"), nil, "needs the shards' folders"},
	}
	for _, tt := range tests {
		if _, _, err := Merge(tt.out, tt.dirs, false); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Merge(%s, %v): %v, want an error with %q", tt.out, tt.dirs, err, tt.want)
		}
	}
}

// TestOptionsMissingFromAnOldRunAreTheirDefaults: a run written before
// the game had an option is the same run as one naming its default, and
// another run than one naming another value.
func TestOptionsMissingFromAnOldRunAreTheirDefaults(t *testing.T) {
	old := Manifest{Game: "pommel", Options: map[string]string{"hop": "friendly", "maxplies": "600"}, Seed: 1}
	now := old
	now.Options = map[string]string{"hop": "friendly", "maxplies": "600", "first": "white", "swap": "off"}
	if why := old.sameRun(now); why != "" {
		t.Errorf("an old run and the same run with the new options' defaults differ: %s", why)
	}
	now.Options = map[string]string{"hop": "friendly", "maxplies": "600", "first": "black", "swap": "off"}
	if why := old.sameRun(now); !strings.Contains(why, "first=black") {
		t.Errorf("an old run and a run with first=black: %q, want the options named", why)
	}
}
