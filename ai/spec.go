package ai

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/internal/clip"
)

// config is a spec read and checked before any engine is made from it, so
// that New, Footprint and CheckForServer read every spec the same way.
type config struct {
	kind  string // random, uct, mcts, ab or level
	uct   uctConfig
	mcts  mctsConfig
	ab    abConfig
	level int
}

// parseConfig reads spec; its errors name the spec.
func parseConfig(spec string) (config, error) {
	kind, p, err := splitSpec(spec)
	if err != nil {
		return config{}, specError(spec, err)
	}
	cfg := config{kind: kind}
	switch kind {
	case "random":
	case "uct":
		cfg.uct = parseUCT(p)
	case "mcts":
		cfg.mcts = parseMCTS(p)
	case "ab":
		cfg.ab = parseAB(p)
	case "level":
		cfg.level = p.int("level", 3, 1, len(levels)-1)
		cfg.ab.threads = p.int("threads", 1, 1, MaxThreads)
	default:
		return config{}, fmt.Errorf("unknown player %s: use random, uct, mcts, ab or ai:level=1..6", clip.Quote(spec))
	}
	if err := p.done(); err != nil {
		return config{}, specError(spec, err)
	}
	return cfg, nil
}

// specError names the spec that err is about.
func specError(spec string, err error) error {
	return fmt.Errorf("player %s: %w", clip.Quote(spec), err)
}

// splitSpec splits "kind:k=v,k=v"; "ai:level=4" and "level=4" mean the
// level kind.
func splitSpec(spec string) (string, *params, error) {
	kind, rest, _ := strings.Cut(strings.TrimSpace(spec), ":")
	if strings.Contains(kind, "=") {
		kind, rest = "ai", kind
	}
	p := &params{m: map[string]string{}}
	if rest != "" {
		for _, kv := range strings.Split(rest, ",") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" || v == "" {
				return "", nil, fmt.Errorf("write parameters as key=value")
			}
			if _, twice := p.m[k]; twice {
				return "", nil, fmt.Errorf("parameter %s given twice", clip.Quote(k))
			}
			p.m[k] = v
		}
	}
	if kind == "ai" {
		if _, ok := p.m["level"]; !ok {
			return "", nil, fmt.Errorf("ai needs level=1..6")
		}
		kind = "level"
	}
	return kind, p, nil
}

// params reads a spec's parameters, each with a default and a range, and
// keeps the first error so that a kind's parser reads as a list.
type params struct {
	m   map[string]string
	err error
}

// int reads a whole-number parameter.
func (p *params) int(key string, def, lo, hi int) int {
	v, ok := p.take(key)
	if !ok {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		p.fail(fmt.Errorf("%s=%s: want a whole number from %d to %d", key, clip.Bare(v), lo, hi))
		return def
	}
	return n
}

// float reads a number parameter. NaN and the infinities are refused
// by name: strconv.ParseFloat accepts them, and every comparison with NaN
// is false, so a range check alone would let NaN through.
func (p *params) float(key string, def, lo, hi float64) float64 {
	v, ok := p.take(key)
	if !ok {
		return def
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < lo || f > hi {
		p.fail(fmt.Errorf("%s=%s: want a number from %s to %s", key, clip.Bare(v), formatFloat(lo), formatFloat(hi)))
		return def
	}
	return f
}

// take removes and returns the parameter key, if given.
func (p *params) take(key string) (string, bool) {
	v, ok := p.m[key]
	delete(p.m, key)
	return v, ok
}

func (p *params) fail(err error) {
	if p.err == nil {
		p.err = err
	}
}

// done returns the first error, or names a parameter no one read (the
// first in byte order, so that the message does not change from run to
// run).
func (p *params) done() error {
	if p.err != nil {
		return p.err
	}
	if len(p.m) > 0 {
		keys := make([]string, 0, len(p.m))
		for k := range p.m {
			keys = append(keys, k)
		}
		return fmt.Errorf("unknown parameter %s", clip.Quote(slices.Min(keys)))
	}
	return nil
}

func formatFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
