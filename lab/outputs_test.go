package lab

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

// TestAnalyseAllKeepsOrderAndFirstError: measuring the games on every
// core gives what measuring them one by one gives, in the games' order,
// and a bad game's error names the first bad game.
func TestAnalyseAllKeepsOrderAndFirstError(t *testing.T) {
	dir := t.TempDir()
	cfg := smallRun(t, 6)
	if _, err := Run(context.Background(), cfg, dir, nil); err != nil {
		t.Fatal(err)
	}
	games, err := readGames(dir)
	if err != nil {
		t.Fatal(err)
	}
	measured, err := analyseAll(cfg.Game, games)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range games {
		stats, plies, err := analyseGame(cfg.Game, d)
		if err != nil || !reflect.DeepEqual(stats, measured[i].stats) || !reflect.DeepEqual(plies, measured[i].plies) {
			t.Errorf("game %d measured apart differs from the one measured with the others (%v)", i+1, err)
		}
	}
	bad := append([]GameData(nil), games...)
	for _, i := range []int{2, 4} {
		bad[i].Opening = append([]string{"zz9"}, bad[i].Opening...)
	}
	if _, err := analyseAll(cfg.Game, bad); err == nil || !strings.HasPrefix(err.Error(), "game 3, ply 1:") {
		t.Errorf("bad games 3 and 5: error %v, want game 3's", err)
	}
}
