package lab

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/record"
)

// Analysis is a run's games measured: every game, every ply, and the
// summary over them.
type Analysis struct {
	Game    game.Game
	Summary *Summary
	Games   []GameStats
	Plies   []PlyStats
}

// Analyse measures the games of the run m (in index order).
func Analyse(m Manifest, games []GameData) (*Analysis, error) {
	g, err := game.New(m.Game, m.Options)
	if err != nil {
		return nil, err
	}
	a := &Analysis{Game: g}
	measured, err := analyseAll(g, games)
	if err != nil {
		return nil, err
	}
	for _, mg := range measured {
		a.Games = append(a.Games, mg.stats)
		a.Plies = append(a.Plies, mg.plies...)
	}
	a.Summary = summarize(g, m, a.Games, a.Plies)
	a.Summary.Engines = engineUses(games)
	return a, nil
}

// measuredGame is one game's measures.
type measuredGame struct {
	stats GameStats
	plies []PlyStats
}

// analyseAll measures the games on every core: replaying each game is
// most of the time a large run spends writing its outputs, and the games
// do not depend on one another. The results keep the games' order; the
// error is the first game's that failed.
func analyseAll(g game.Game, games []GameData) ([]measuredGame, error) {
	out := make([]measuredGame, len(games))
	err := eachGame(len(games), func(i int) (err error) {
		out[i].stats, out[i].plies, err = analyseGame(g, games[i])
		return err
	})
	return out, err
}

// eachGame calls do(i) for every i below n, on every core, and returns the
// error of the lowest i that failed.
func eachGame(n int, do func(i int) error) error {
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(n, 1)) {
		wg.Go(func() {
			for i := range next {
				errs[i] = do(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return firstError(errs)
}

// firstError is the first of errs that is not nil.
func firstError(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Load reads and measures the run in dir.
func Load(dir string) (*Analysis, Manifest, []GameData, error) {
	m, ok, err := readManifest(dir)
	if err != nil {
		return nil, m, nil, err
	}
	if !ok {
		return nil, m, nil, fmt.Errorf("%s holds no lab run (no %s)", dir, ManifestFile)
	}
	games, err := readGames(dir)
	if err != nil {
		return nil, m, nil, err
	}
	a, err := Analyse(m, games)
	if err != nil {
		return nil, m, nil, fmt.Errorf("%s: %w", dir, err)
	}
	return a, m, games, nil
}

// WriteOutputs measures the games dir holds and writes games.pdn,
// summary.json, games.csv, plies.csv and report.html into it.
func WriteOutputs(dir string) (*Summary, error) {
	a, m, games, err := Load(dir)
	if err != nil {
		return nil, err
	}
	pdn, err := pdnRecords(a.Game, m.Date, games)
	if err != nil {
		return nil, err
	}
	report, err := a.Report()
	if err != nil {
		return nil, err
	}
	files := []struct {
		name string
		data func() ([]byte, error)
	}{
		{RecordFile, func() ([]byte, error) { return pdn, nil }},
		{GamesCSV, a.gamesCSV},
		{PliesCSV, a.pliesCSV},
		{ReportFile, func() ([]byte, error) { return report, nil }},
	}
	for _, f := range files {
		data, err := f.data()
		if err != nil {
			return nil, err
		}
		if err := writeFile(filepath.Join(dir, f.name), data); err != nil {
			return nil, err
		}
	}
	return a.Summary, writeJSON(filepath.Join(dir, SummaryFile), a.Summary)
}

// pdnRecords are the games as games.pdn holds them, in order; each
// game is replayed to write its record, on every core.
func pdnRecords(g game.Game, date string, games []GameData) ([]byte, error) {
	records := make([][]byte, len(games))
	err := eachGame(len(games), func(i int) error {
		l, err := games[i].log(g, date)
		if err != nil {
			return err
		}
		rec := l.Record()
		rec.Set("Event", "arbiter lab")
		var b bytes.Buffer
		err = record.Write(&b, rec)
		records[i] = b.Bytes()
		return err
	})
	return bytes.Join(records, nil), err
}

// gamesCSV is one line per game.
func (a *Analysis) gamesCSV() ([]byte, error) {
	n := a.Game.Players()
	head := []string{"game"}
	for p := range n {
		head = append(head, strings.ToLower(a.Game.PlayerName(game.Player(p))))
	}
	head = append(head, "result", "reason", "plies", "decisions", "branching", "captures", "taken", "chains",
		"leaps", "promotions", "drops", "sandwiches", "takeovers", "score_changes", "lead_changes", "scores")
	rows := [][]string{head}
	for _, g := range a.Games {
		row := []string{strconv.Itoa(g.Index + 1)}
		row = append(row, g.Seats...)
		row = append(row, g.Result, g.Reason)
		for _, v := range []int{g.Plies, g.Decisions} {
			row = append(row, strconv.Itoa(v))
		}
		row = append(row, strconv.FormatFloat(g.Branching, 'f', 2, 64))
		for _, v := range []int{g.Captures, g.Taken, g.Chains, g.Leaps, g.Promotions, g.Drops, g.Sandwiches,
			g.Takeovers, g.ScoreChanges, g.LeadChanges} {
			row = append(row, strconv.Itoa(v))
		}
		row = append(row, ints(g.Scores))
		rows = append(rows, row)
	}
	return csvBytes(rows)
}

// pliesCSV is one line per move of every game.
func (a *Analysis) pliesCSV() ([]byte, error) {
	rows := [][]string{{"game", "ply", "mover", "move", "legal", "capture", "taken", "cells", "chain", "leaps",
		"promoted", "drops", "sandwiches", "takeover", "score_changed", "searched", "score", "depth", "nodes", "eval"}}
	for _, p := range a.Plies {
		row := []string{strconv.Itoa(p.Game + 1), strconv.Itoa(p.Ply), a.Game.PlayerName(game.Player(p.Mover)), p.Move,
			strconv.Itoa(p.Legal), bit(p.Capture), strconv.Itoa(p.Taken), strconv.Itoa(p.Cells), bit(p.Chain),
			strconv.Itoa(p.Leaps), bit(p.Promoted), strconv.Itoa(p.Drops), strconv.Itoa(p.Sandwiches), bit(p.Takeover),
			bit(p.ScoreChanged), bit(p.Searched), "", "", "", ""}
		if p.Searched {
			row[16], row[17], row[18], row[19] = strconv.Itoa(p.Score), strconv.Itoa(p.Depth),
				strconv.FormatInt(p.Nodes, 10), strconv.Itoa(p.Eval)
		}
		rows = append(rows, row)
	}
	return csvBytes(rows)
}

func bit(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// ints writes whole numbers joined by spaces.
func ints(v []int) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, " ")
}

func csvBytes(rows [][]string) ([]byte, error) {
	var b bytes.Buffer
	w := csv.NewWriter(&b)
	if err := w.WriteAll(rows); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
