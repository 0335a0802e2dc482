package lab

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/arbiter-games/arbiter/ai"
	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/match"
)

// This file is what a run played elsewhere (on a job queue, package
// lab/queue) needs from the lab: the coordinator opens the run's folder
// and adds the games as they come back; a worker rebuilds the run from
// its manifest and plays one game of it. The lab itself knows no queue.

// Prepare opens dir as cfg's run, as Run does (a folder of another run is
// refused, and so are games of other engines unless cfg.Mix), and gives
// the run's manifest, this arbiter's engine signatures (for checking the
// games that come back: see Engines.Differs) and the games dir still
// lacks.
func Prepare(ctx context.Context, cfg Config, dir string) (Manifest, Engines, []int, error) {
	cfg, engines, todo, err := prepare(ctx, cfg, dir)
	if err != nil {
		return Manifest{}, nil, nil, err
	}
	man, _, err := readManifest(dir)
	return man, engines, todo, err
}

// AddGame adds a game of cfg's run played elsewhere to dir's games.jsonl,
// after checking that it replays in cfg's game (a game that does not would
// spoil every output of the run) and, unless cfg.Mix, that it was played
// by the engines this arbiter plays (engines, from Prepare).
func AddGame(dir string, cfg Config, engines Engines, d GameData) error {
	if _, err := d.log(cfg.Game, ""); err != nil {
		return err
	}
	if why := engines.Differs(d, cfg.build()); why != "" && !cfg.Mix {
		return fmt.Errorf("it comes from another engine: %s: update the workers, or give --mix to mix them in one run (its report says so on its first line)", why)
	}
	return appendGame(dir, d)
}

// PlayGame plays game i of cfg's run, as Run would, and gives its data,
// with its engines' signatures (kept in cfg.Signatures, when given, for
// the next game) and its build.
func PlayGame(ctx context.Context, cfg Config, i int) (GameData, error) {
	if i < 0 || i >= cfg.Games {
		return GameData{}, fmt.Errorf("game %d: the run has games 1 to %d", i+1, cfg.Games)
	}
	engines, err := cfg.engines(ctx)
	if err != nil {
		return GameData{}, err
	}
	log, err := match.Play(ctx, cfg.matchConfig(), i*cfg.matchStride())
	if err != nil {
		return GameData{}, err
	}
	return engines.stamp(fromLog(i, log), cfg.build()), nil
}

// ConfigFromManifest rebuilds the run a manifest (run.json's JSON)
// describes, making its players with newPlayer. A manifest with a field
// this build does not know (written by a newer arbiter), or one it cannot
// rebuild exactly, is refused: playing it would give other games.
func ConfigFromManifest(data []byte, newPlayer func(spec string) (Player, error)) (Config, error) {
	var m Manifest
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return Config{}, fmt.Errorf("the run's manifest: %v", err)
	}
	if m.Shard != "" {
		return Config{}, fmt.Errorf("the run's manifest is shard %s: a queued run has every game", m.Shard)
	}
	g, err := game.New(m.Game, m.Options)
	if err != nil {
		return Config{}, err
	}
	moveTime, err := time.ParseDuration(m.MoveTime)
	if err != nil {
		return Config{}, fmt.Errorf("the run's manifest: movetime %q: %v", m.MoveTime, err)
	}
	cfg := Config{Game: g, Games: m.Games, Limits: ai.Limits{MoveTime: moveTime, Depth: m.Depth, Nodes: m.Nodes},
		Seed: m.Seed, OpeningPlies: m.Opening, From: m.From, Date: m.Date, Label: m.Label}
	if len(m.Openings) > 0 {
		start, err := match.Config{Game: g, From: m.From}.Start()
		if err != nil {
			return Config{}, fmt.Errorf("the run's manifest: %v", err)
		}
		if cfg.Openings, err = match.ParseOpenings(start, strings.Join(m.Openings, "\n")); err != nil {
			return Config{}, fmt.Errorf("the run's openings: %v", err)
		}
	}
	for _, spec := range m.Players {
		p, err := newPlayer(spec)
		if err != nil {
			return Config{}, fmt.Errorf("player %s: %w", spec, err)
		}
		cfg.Players = append(cfg.Players, p)
	}
	if err := cfg.check(); err != nil {
		return Config{}, err
	}
	if why := m.sameRun(cfg.manifest()); why != "" {
		return Config{}, fmt.Errorf("the run's manifest cannot be rebuilt here (%s): play it with the arbiter that queued it", why)
	}
	return cfg, nil
}
