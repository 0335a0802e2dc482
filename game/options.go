package game

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/arbiter-games/arbiter/internal/clip"
)

// OptionSpec describes one option a game takes.
type OptionSpec struct {
	Key     string
	Default string
	Help    string
	// Values lists the allowed values; when empty, the value must be an
	// integer between Min and Max.
	Values   []string
	Min, Max int
}

// check returns an error unless v is an allowed value of the option.
func (o OptionSpec) check(v string) error {
	if len(o.Values) > 0 {
		if slices.Contains(o.Values, v) {
			return nil
		}
		return fmt.Errorf("option %s=%s: the value must be one of %s", o.Key, clip.Bare(v), strings.Join(o.Values, ", "))
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < o.Min || n > o.Max {
		return fmt.Errorf("option %s=%s: the value must be a whole number from %d to %d", o.Key, clip.Bare(v), o.Min, o.Max)
	}
	return nil
}

// Describe gives the option's allowed values and default in one phrase.
func (o OptionSpec) Describe() string {
	vals := fmt.Sprintf("%d..%d", o.Min, o.Max)
	if len(o.Values) > 0 {
		vals = strings.Join(o.Values, "|")
	}
	return fmt.Sprintf("%s=%s (default %s)", o.Key, vals, o.Default)
}

// maxPliesOption is the ply cap every game takes (RULINGS section 0).
var maxPliesOption = OptionSpec{
	Key: "maxplies", Default: "600", Min: 1, Max: 1_000_000,
	Help: "the game is drawn when this many plies have been played",
}

// The keys of the options every game takes besides maxplies.
const (
	FirstKey = "first"
	SwapKey  = "swap"
)

// firstOption is the seat that moves first, which every game takes: one
// of its seats, by key, the rules' first seat by default. With three
// players the turn goes on from it in the seats' order.
func firstOption(seats []Seat) OptionSpec {
	// AllOptions only asks for it when there are seats.
	keys := make([]string, len(seats))
	for i, s := range seats {
		keys[i] = s.Key
	}
	return OptionSpec{
		Key: FirstKey, Default: keys[0], Values: keys,
		Help: "the seat that moves first, by its key; the turn goes on from it in the usual order",
	}
}

// swapOption is the pie rule, which every two-player game takes: after
// the first move the second player may answer "swap" and take over the
// first player's position (see Swap).
var swapOption = OptionSpec{
	Key: SwapKey, Default: "off", Values: []string{"off", "on"},
	Help: "the pie rule: the second player's first move may be swap, taking over the first player's position",
}

// Options are a game's option values, every key set. The zero value has no
// options. Options are immutable; With returns a changed copy.
type Options struct {
	kv map[string]string
}

// Get returns the value of an option, or "" when it is not set.
func (o Options) Get(key string) string { return o.kv[key] }

// Int returns the value of an integer option; 0 when it is not one.
func (o Options) Int(key string) int {
	n, _ := strconv.Atoi(o.kv[key])
	return n
}

// Keys returns the option keys in sorted order.
func (o Options) Keys() []string {
	keys := make([]string, 0, len(o.kv))
	for k := range o.kv {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// String writes the options as "key=value" pairs in key order, separated
// by spaces, the form records store.
func (o Options) String() string {
	var parts []string
	for _, k := range o.Keys() {
		parts = append(parts, k+"="+o.kv[k])
	}
	return strings.Join(parts, " ")
}

// ParseOption splits "key=value".
func ParseOption(s string) (key, value string, err error) {
	key, value, ok := strings.Cut(s, "=")
	key, value = strings.TrimSpace(key), strings.TrimSpace(value)
	if !ok || key == "" || value == "" {
		return "", "", fmt.Errorf("option %s: write it as key=value", clip.Quote(s))
	}
	return key, value, nil
}

// resolve checks the given values against the specs and fills in defaults.
func resolve(specs []OptionSpec, given map[string]string) (Options, error) {
	kv := make(map[string]string, len(specs))
	for _, s := range specs {
		kv[s.Key] = s.Default
	}
	for _, k := range sortedKeys(given) {
		i := slices.IndexFunc(specs, func(s OptionSpec) bool { return s.Key == k })
		if i < 0 {
			var known []string
			for _, s := range specs {
				known = append(known, s.Key)
			}
			return Options{}, fmt.Errorf("unknown option %s (options: %s)", clip.Quote(k), strings.Join(known, ", "))
		}
		if err := specs[i].check(given[k]); err != nil {
			return Options{}, err
		}
		kv[k] = given[k]
	}
	return Options{kv: kv}, nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
