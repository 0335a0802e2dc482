package lab

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/arbiter-games/arbiter/internal/clip"
)

// Engines are the engine signatures of a run's seat names (a player's
// spec, "#2" after a second engine of the same spec) as one arbiter plays
// them.
type Engines map[string]string

// engines computes the signature of each of cfg's seat names.
func (cfg Config) engines(ctx context.Context) (Engines, error) {
	sg := cfg.Signatures
	if sg == nil {
		sg = &Signatures{}
	}
	mc := cfg.matchConfig()
	out := Engines{}
	for k, seat := range mc.Players {
		p := cfg.Players[0]
		if len(cfg.Players) > 1 {
			p = cfg.Players[k]
		}
		sig, err := sg.Of(ctx, cfg.Game, p, cfg.Tables)
		if err != nil {
			return nil, err
		}
		out[seat.Name] = sig
	}
	return out, nil
}

// EngineSignatures computes this arbiter's engine signature of each of
// cfg's seat names, for a run played elsewhere (see Prepare).
func EngineSignatures(ctx context.Context, cfg Config) (Engines, error) { return cfg.engines(ctx) }

// stamp gives d its seats' signatures and the build that played it.
func (e Engines) stamp(d GameData, build string) GameData {
	d.Signatures = make([]string, len(d.Seats))
	for k, name := range d.Seats {
		d.Signatures[k] = e[name]
	}
	d.Build = build
	return d
}

// Differs says how game d was played by another engine than e's, naming
// both signatures and both builds (this arbiter's is build), or "" when
// each of its seats was played as e plays it.
func (e Engines) Differs(d GameData, build string) string {
	for k, name := range d.Seats {
		if want, ok := e[name]; ok && d.signature(k) != want {
			return fmt.Sprintf("game %d's %s played as engine %s (build %s); this arbiter plays it as %s (build %s)",
				d.Index+1, clip.Bare(name), clip.Bare(d.signature(k)), clip.Bare(d.build()), want, clip.Bare(build))
		}
	}
	return ""
}

// refuseOthers refuses the games of dir that another engine played.
func (e Engines) refuseOthers(dir, build string, have []GameData) error {
	for _, d := range have {
		if why := e.Differs(d, build); why != "" {
			return fmt.Errorf("%s holds games of another engine: %s: give another --out, or --mix to mix them in one run (its report says so on its first line)",
				dir, why)
		}
	}
	return nil
}

// EngineUse is one engine signature a seat name played a run's games
// with: how many games, the first of them (1 for the run's first game)
// and the builds that played them.
type EngineUse struct {
	Player    string   `json:"player"`
	Signature string   `json:"signature"`
	Games     int      `json:"games"`
	First     int      `json:"first"`
	Builds    []string `json:"builds"`
}

// engineUses lists the signatures each seat name played games with, by
// name and then by first game.
func engineUses(games []GameData) []EngineUse {
	var out []EngineUse
	at := map[[2]string]int{}
	for _, d := range games {
		for k, name := range d.Seats {
			key := [2]string{name, d.signature(k)}
			i, ok := at[key]
			if !ok {
				i = len(out)
				at[key] = i
				out = append(out, EngineUse{Player: name, Signature: key[1], First: d.Index + 1})
			}
			if u := &out[i]; !slices.Contains(u.Builds, d.build()) {
				u.Builds = append(u.Builds, d.build())
			}
			out[i].Games++
		}
	}
	slices.SortStableFunc(out, func(a, b EngineUse) int {
		return cmp.Or(strings.Compare(a.Player, b.Player), a.First-b.First)
	})
	return out
}

// plural writes n and word, with an s unless n is 1: "1 game", "2 games".
func plural(n int, word string) string { return fmt.Sprintf("%d %s", n, pluralWord(n, word)) }

// MixWarning is the line a run that mixes engines starts its outputs
// with, naming the seats played by more than one signature and each of
// them, "" when every seat was played by one.
func (s *Summary) MixWarning() string {
	var parts []string
	for _, name := range s.mixedPlayers() {
		var sigs []string
		for _, u := range s.Engines {
			if u.Player == name {
				sigs = append(sigs, fmt.Sprintf("%s in %s from game %d (build %s)", u.Signature, plural(u.Games, "game"), u.First,
					strings.Join(u.Builds, ", ")))
			}
		}
		parts = append(parts, fmt.Sprintf("%s played as %s", name, strings.Join(sigs, " and as ")))
	}
	if len(parts) == 0 {
		return ""
	}
	return "warning: this run mixes engines (made with --mix): " + strings.Join(parts, "; ")
}

// mixedPlayers are the seat names that played with more than one
// signature.
func (s *Summary) mixedPlayers() []string {
	count := map[string]int{}
	var out []string
	for _, u := range s.Engines {
		if count[u.Player]++; count[u.Player] == 2 {
			out = append(out, u.Player)
		}
	}
	return out
}

// EnginesText writes the builds and engines of a run as one line:
// "build 4d2080e; engine signatures ab 95dd1432c669, random bee3bdf31683".
func (s *Summary) EnginesText() string {
	builds := s.Run.Builds
	if len(builds) == 0 {
		builds = []string{UnknownBuild}
	}
	sigs := signaturesText(s)
	if sigs == "-" {
		sigs = "none recorded (a run made before the lab recorded them)"
	}
	return fmt.Sprintf("%s %s; engine signatures %s", pluralWord(len(builds), "build"), strings.Join(builds, ", "), sigs)
}

// pluralWord is word, with an s unless n is 1.
func pluralWord(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
