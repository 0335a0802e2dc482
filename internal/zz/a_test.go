package zz

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/arbiter-games/arbiter/endgame"
	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/pommel"
)

type line struct {
	Opening []string `json:"opening"`
	Moves   []struct {
		Move string `json:"move"`
	} `json:"moves"`
}

func TestAnalyse(t *testing.T) {
	id, tdir := os.Getenv("ZZ_GAME"), os.Getenv("ZZ_TABLES")
	if id == "" {
		t.Skip()
	}
	for _, run := range filepath.SplitList(os.Getenv("ZZ_RUNS")) {
		var rj struct {
			Options map[string]string `json:"options"`
		}
		data, _ := os.ReadFile(filepath.Join(run, "run.json"))
		json.Unmarshal(data, &rj)
		opts := map[string]string{}
		for k, v := range rj.Options {
			if k == "hop" {
				opts[k] = v
			}
		}
		g, err := game.New(id, opts)
		if err != nil {
			t.Fatal(err)
		}
		tb, err := endgame.Open(tdir, g)
		if err != nil {
			t.Log(run, err)
			continue
		}
		f, _ := os.Open(filepath.Join(run, "games.jsonl"))
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<26)
		counts := map[string]int{}
		examples := map[string]string{}
		for sc.Scan() {
			var l line
			json.Unmarshal(sc.Bytes(), &l)
			s := g.Start()
			var entry *endgame.Value
			var entryFEN string
			entryMover := game.Player(0)
			all := append([]string{}, l.Opening...)
			for _, m := range l.Moves {
				all = append(all, m.Move)
			}
			for _, mv := range all {
				if entry == nil {
					if v, err := tb.Probe(s); err == nil {
						entry, entryFEN, entryMover = &v, s.(interface{ FEN() string }).FEN(), s.ToMove()
					}
				}
				m, err := game.ParseMove(s, mv)
				if err != nil {
					t.Fatal(err)
				}
				s.Play(m)
			}
			if entry == nil {
				if v, err := tb.Probe(s); err == nil {
					entry, entryFEN, entryMover = &v, s.(interface{ FEN() string }).FEN(), s.ToMove()
				}
			}
			r := s.Result()
			outcome := "draw"
			if r.Winners.Len() == 1 {
				if r.Winners.Has(entryMover) {
					outcome = "mover-won"
				} else {
					outcome = "mover-lost"
				}
			}
			key := "no table position/" + outcome
			if entry != nil {
				key = fmt.Sprintf("entry %s/%s", kind(*entry), outcome)
			}
			counts[key]++
			if outcome == "draw" {
				final := "final not in tables"
				if v, err := tb.Probe(s); err == nil {
					final = "final " + kind(v)
				}
				counts["draws: "+final]++
				examples["draws: "+final] = s.(interface{ FEN() string }).FEN() + " entry " + entryFEN
			}
		}
		keys := make([]string, 0)
		for k := range counts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		t.Logf("%s:", run)
		for _, k := range keys {
			t.Logf("   %-40s %5d %s", k, counts[k], examples[k])
		}
	}
}

func kind(v endgame.Value) string {
	switch v.Kind {
	case endgame.Win:
		return "win"
	case endgame.Loss:
		return "loss"
	}
	return "draw"
}
