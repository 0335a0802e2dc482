package loadtest

import (
	"context"
	"fmt"
	"io"
	"maps"
	"math"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"
)

// probe checks that an arbiter server answers at the target, from an
// address of the run's own when the system lets the run bind one.
func (r *run) probe(ctx context.Context) error {
	if r.target.Addr().Is4() {
		c := newClient(r.target, clientAddr(0))
		err := c.health(ctx)
		c.close()
		if err == nil {
			r.spread = true
			return nil
		}
	}
	c := newClient(r.target, netip.Addr{})
	defer c.close()
	if err := c.health(ctx); err != nil {
		return fmt.Errorf("loadtest: no arbiter server answers on %s (%v); start one with arbiter serve --addr %s", r.target, err, r.target)
	}
	return nil
}

// tally counts the errors of a run by kind, keeping the first message of
// each. It is safe for concurrent use.
type tally struct {
	mu     sync.Mutex
	counts map[string]*ErrorCount
}

func newTally() *tally { return &tally{counts: map[string]*ErrorCount{}} }

func (t *tally) add(kind string, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	c := t.counts[kind]
	if c == nil {
		c = &ErrorCount{First: err.Error()}
		t.counts[kind] = c
	}
	c.N++
}

// errorText lists the errors in one line.
func (t *tally) errorText() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.counts) == 0 {
		return "no error"
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(t.counts)) {
		parts = append(parts, fmt.Sprintf("%s ×%d (%s)", k, t.counts[k].N, t.counts[k].First))
	}
	return strings.Join(parts, "; ")
}

// ErrorCount is how often one kind of error happened, and its first
// message.
type ErrorCount struct {
	N     int
	First string
}

// Played is a game the run held and the moves it had acknowledged, in
// order from the start (none for an AI game).
type Played struct {
	ID    string
	AI    bool
	Moves []string
}

// Latencies summarises a set of durations.
type Latencies struct {
	N                  int
	P50, P90, P99, Max time.Duration
}

// summarize takes the nearest-rank percentiles of ds, which it sorts.
func summarize(ds []time.Duration) Latencies {
	if len(ds) == 0 {
		return Latencies{}
	}
	slices.Sort(ds)
	rank := func(p float64) time.Duration {
		return ds[int(math.Ceil(p*float64(len(ds))))-1]
	}
	return Latencies{N: len(ds), P50: rank(0.50), P90: rank(0.90), P99: rank(0.99), Max: ds[len(ds)-1]}
}

// Report is what a run measured.
type Report struct {
	// Target is the address the run played against.
	Target string
	// OwnAddresses says each game came from a loopback address of its
	// own (else every game came from one and shared its limits).
	OwnAddresses bool
	// Held and AIHeld are the human and AI games held at once from the
	// start; Replaced counts the games started after one ended.
	Held, AIHeld, Replaced int
	// Finished counts the human games that played all their moves; Failed
	// the slots that stopped on an error they could not get past.
	Finished, Failed int
	// Elapsed is the measured window: from every game held to the last
	// slot stopping.
	Elapsed time.Duration
	// Moves counts the human moves acknowledged.
	Moves int
	// Errors counts the errors by operation and status or cause.
	Errors map[string]*ErrorCount
	// Ack is the time from a move's POST sent to its 200; Broadcast from
	// the POST sent to the viewer's socket delivering its event.
	Ack, Broadcast Latencies
	// AIMoves counts the AI moves the viewers saw within the window.
	AIMoves int
	Level   int
	// Games are the games held, human and AI, in the order they started.
	Games []*Played
}

// MovesPerSecond is the human moves acknowledged a second.
func (r *Report) MovesPerSecond() float64 { return perSecond(r.Moves, r.Elapsed) }

// AIMovesPerSecond is the AI moves served a second.
func (r *Report) AIMovesPerSecond() float64 { return perSecond(r.AIMoves, r.Elapsed) }

func perSecond(n int, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

// report gathers the slots' counts.
func (r *run) report(slots []*slot, elapsed time.Duration) *Report {
	rep := &Report{Target: r.target.String(), OwnAddresses: r.spread, Elapsed: elapsed, Level: r.cfg.Level}
	var ack, broadcast []time.Duration
	for _, s := range slots {
		rep.Games = append(rep.Games, s.games...)
		if !s.ok() {
			continue
		}
		if s.ai {
			rep.AIHeld++
		} else {
			rep.Held++
		}
		rep.Replaced += s.replaced
		rep.Moves += s.moves
		rep.AIMoves += s.aiMoves
		ack, broadcast = append(ack, s.ack...), append(broadcast, s.broadcast...)
		if s.finished {
			rep.Finished++
		}
		if s.failed {
			rep.Failed++
		}
	}
	rep.Ack, rep.Broadcast = summarize(ack), summarize(broadcast)
	r.tally.mu.Lock()
	rep.Errors = maps.Clone(r.tally.counts)
	r.tally.mu.Unlock()
	return rep
}

// Write prints the report for people.
func (r *Report) Write(w io.Writer) error {
	var b strings.Builder
	from := "each game from a loopback address of its own"
	if !r.OwnAddresses {
		from = "every game from one address, so the server's per-client limits apply to them all"
	}
	fmt.Fprintf(&b, "target:       %s (%s)\n", r.Target, from)
	fmt.Fprintf(&b, "games held:   %d human, %d AI; %d started after one ended; %d human games played all their moves, %d stopped on errors\n",
		r.Held, r.AIHeld, r.Replaced, r.Finished, r.Failed)
	fmt.Fprintf(&b, "time:         %s\n", r.Elapsed.Round(time.Millisecond))
	if r.Held > 0 {
		fmt.Fprintf(&b, "moves:        %d acknowledged (%.1f a second)\n", r.Moves, r.MovesPerSecond())
		fmt.Fprintf(&b, "acknowledged: %s\n", r.Ack)
		fmt.Fprintf(&b, "broadcast:    %s\n", r.Broadcast)
	}
	if r.AIHeld > 0 {
		fmt.Fprintf(&b, "AI moves:     %d at level %d (%.1f a second)\n", r.AIMoves, r.Level, r.AIMovesPerSecond())
	}
	b.WriteString("errors:       ")
	if len(r.Errors) == 0 {
		b.WriteString("none\n")
	}
	for i, k := range slices.Sorted(maps.Keys(r.Errors)) {
		if i > 0 {
			b.WriteString("              ")
		}
		fmt.Fprintf(&b, "%s: %d (first: %s)\n", k, r.Errors[k].N, r.Errors[k].First)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// String writes the percentiles in milliseconds.
func (l Latencies) String() string {
	if l.N == 0 {
		return "no samples"
	}
	return fmt.Sprintf("p50 %s  p90 %s  p99 %s  max %s  (%d moves)", ms(l.P50), ms(l.P90), ms(l.P99), ms(l.Max), l.N)
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
}
