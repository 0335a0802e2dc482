package lab

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/arbiter-games/arbiter/internal/clip"
)

// Merge joins the folders of one run's shards into out, a new or empty
// folder, and writes its outputs: the result equals the run played in one
// go, as far as the shards got. The folders must hold the same run (their
// shards aside), and no game may be in two of them; their games must have
// been played by the same engines (each seat name with one signature)
// unless mix is set, and the merged report then says on its first line
// that the run mixes engines. It returns the merged summary and how many
// games the run has in all.
func Merge(out string, dirs []string, mix bool) (*Summary, int, error) {
	if len(dirs) == 0 {
		return nil, 0, fmt.Errorf("merge needs the shards' folders")
	}
	var merged Manifest
	var games []GameData
	from := map[int]string{}
	first := map[string]GameData{} // each seat name's first game, and its signature there
	firstDir := map[string]string{}
	for k, dir := range dirs {
		m, ok, err := readManifest(dir)
		if err != nil {
			return nil, 0, err
		}
		if !ok {
			return nil, 0, fmt.Errorf("%s holds no lab run (no %s)", dir, ManifestFile)
		}
		whole := m
		whole.Shard = ""
		if k == 0 {
			merged = whole
		} else if why := merged.sameRun(whole); why != "" {
			return nil, 0, fmt.Errorf("%s holds another run than %s (%s)", dir, dirs[0], why)
		}
		merged.Games = max(merged.Games, m.Games)
		merged.Builds = joinBuilds(merged.Builds, m.Builds)
		have, err := readGames(dir)
		if err != nil {
			return nil, 0, err
		}
		for _, d := range have {
			if other, dup := from[d.Index]; dup {
				return nil, 0, fmt.Errorf("game %d is in both %s and %s: merge each shard once", d.Index+1, other, dir)
			}
			from[d.Index] = dir
			if mix {
				continue
			}
			if err := sameEngines(first, firstDir, d, dir); err != nil {
				return nil, 0, err
			}
		}
		games = append(games, have...)
	}
	if err := newFolder(out); err != nil {
		return nil, 0, err
	}
	slices.SortFunc(games, func(a, b GameData) int { return a.Index - b.Index })
	for _, d := range games {
		if err := appendGame(out, d); err != nil {
			return nil, 0, err
		}
	}
	if err := writeJSON(filepath.Join(out, ManifestFile), merged); err != nil {
		return nil, 0, err
	}
	sum, err := WriteOutputs(out)
	return sum, merged.Games, err
}

// newFolder makes dir, or checks that it is an empty folder.
func newFolder(dir string) error {
	entries, err := os.ReadDir(dir)
	if err == nil && len(entries) > 0 {
		return fmt.Errorf("%s is not empty: merge into a new or empty folder", dir)
	}
	return os.MkdirAll(dir, 0o755)
}

// sameEngines refuses game d of dir when a seat name of it played with
// another signature in an earlier game (first, found in firstDir), and
// notes its seats' first games.
func sameEngines(first map[string]GameData, firstDir map[string]string, d GameData, dir string) error {
	for k, name := range d.Seats {
		e, ok := first[name]
		if !ok {
			first[name], firstDir[name] = d, dir
			continue
		}
		j := slices.Index(e.Seats, name)
		if e.signature(j) != d.signature(k) {
			return fmt.Errorf("%s and %s hold games of different engines: %s played as %s in game %d of %s (build %s), as %s in game %d of %s (build %s): merge shards of one engine, or give --mix to mix them in one run (its report says so on its first line)",
				firstDir[name], dir, clip.Bare(name), clip.Bare(e.signature(j)), e.Index+1, firstDir[name], clip.Bare(e.build()),
				clip.Bare(d.signature(k)), d.Index+1, dir, clip.Bare(d.build()))
		}
	}
	return nil
}
