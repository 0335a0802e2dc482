package lab

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/record"
)

// TestAnalyseAllKeepsOrderAndFirstError: measuring the games (and
// writing their records) on every core gives what doing it one by one
// gives, in the games' order, and a bad game's error names the first bad
// game.
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
	var want bytes.Buffer
	for _, d := range games {
		l, err := d.log(cfg.Game, "2026.01.02")
		if err != nil {
			t.Fatal(err)
		}
		rec := l.Record()
		rec.Set("Event", "arbiter lab")
		if err := record.Write(&want, rec); err != nil {
			t.Fatal(err)
		}
	}
	if pdn, err := pdnRecords(cfg.Game, "2026.01.02", games); err != nil || !bytes.Equal(pdn, want.Bytes()) {
		t.Errorf("the records written on every core differ from those written one by one (%v)", err)
	}
	bad := append([]GameData(nil), games...)
	for _, i := range []int{2, 4} {
		bad[i].Opening = append([]string{"zz9"}, bad[i].Opening...)
	}
	if _, err := analyseAll(cfg.Game, bad); err == nil || !strings.HasPrefix(err.Error(), "game 3, ply 1:") {
		t.Errorf("bad games 3 and 5: error %v, want game 3's", err)
	}
}
