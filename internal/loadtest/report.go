package loadtest

import (
	"context"
	"fmt"
	"io"
	"maps"
	"math"
	"net/netip"
	"slices"
	"strconv"
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
	// Accounts are the names of the accounts holding the seats, by seat
	// (Config.Accounts; nil for anonymous games).
	Accounts []string
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
	// OverSocket says the human games' moves went over their sockets
	// (else they were POSTs: Config.HTTPMoves, or accounts).
	OverSocket bool
	// Errors counts the errors by operation and status or cause.
	Errors map[string]*ErrorCount
	// Ack is the time from a move sent to its acknowledgement (the
	// socket's ack, or the POST's 200); Broadcast from the move sent to
	// the game's socket delivering its event.
	Ack, Broadcast Latencies
	// AIMoves counts the AI moves the viewers saw within the window.
	AIMoves int
	Level   int
	// Games are the games held, human and AI, in the order they started.
	Games []*Played
	// Flood and Slow are what the flood of reads and the slow connections
	// saw, nil when the run had none. Their requests are not in Ack,
	// Broadcast or Errors, which are the games' alone.
	Flood *FloodReport
	Slow  *SlowReport
	// Accounts is what the accounts' sign-ups and pairings took, nil
	// without Config.Accounts.
	Accounts *AccountReport
	// Server are the server's samples, nil without Config.ServerPID.
	Server []ServerSample
}

// AccountReport is what the accounts of the human games took besides
// their moves: each sign-up, and each pairing through the lobby (a seek,
// a read of the lobby and an accept by each other player).
type AccountReport struct {
	// Accounts counts the accounts signed up.
	Accounts int
	// SignUp is the time from POST /api/accounts sent to its 201; Seek
	// from POST /api/seeks to its 201; Lobby from GET /api/seeks to its
	// 200; Accept from POST /api/seeks/{id}/accept to its 201 (or 202).
	SignUp, Seek, Lobby, Accept Latencies
}

// AckHeld reports whether the acknowledgement p99 of the human games'
// moves stayed below AckTarget (false when no move was acknowledged).
func (r *Report) AckHeld() bool { return r.Ack.N > 0 && r.Ack.P99 < AckTarget }

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
	rep := &Report{Target: r.target.String(), OwnAddresses: r.spread, Elapsed: elapsed, Level: r.cfg.Level,
		OverSocket: !r.cfg.HTTPMoves && !r.cfg.Accounts}
	var ack, broadcast []time.Duration
	var signups, seeks, lobby, accepts []time.Duration
	for _, s := range slots {
		rep.Games = append(rep.Games, s.games...)
		signups, seeks = append(signups, s.signups...), append(seeks, s.seeks...)
		lobby, accepts = append(lobby, s.lobbyReads...), append(accepts, s.accepts...)
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
	if r.cfg.Accounts {
		rep.Accounts = &AccountReport{Accounts: len(signups), SignUp: summarize(signups), Seek: summarize(seeks),
			Lobby: summarize(lobby), Accept: summarize(accepts)}
	}
	r.tally.mu.Lock()
	rep.Errors = maps.Clone(r.tally.counts)
	r.tally.mu.Unlock()
	return rep
}

// Write prints the report for people.
func (r *Report) Write(w io.Writer) error {
	var b strings.Builder
	from := "each game from a loopback address of its own"
	if r.Accounts != nil {
		from = "each account from a loopback address of its own, a new one for each game"
	}
	if !r.OwnAddresses {
		from = "every game from one address, so the server's per-client limits apply to them all"
	}
	fmt.Fprintf(&b, "target:       %s (%s)\n", r.Target, from)
	fmt.Fprintf(&b, "games held:   %d human, %d AI; %d started after one ended; %d human games played all their moves, %d stopped on errors\n",
		r.Held, r.AIHeld, r.Replaced, r.Finished, r.Failed)
	fmt.Fprintf(&b, "time:         %s\n", r.Elapsed.Round(time.Millisecond))
	if r.Held > 0 {
		fmt.Fprintf(&b, "moves:        %d acknowledged (%.1f a second), %s\n", r.Moves, r.MovesPerSecond(), r.movesSent())
		fmt.Fprintf(&b, "acknowledged: %s\n", r.Ack) // the games' moves only
		fmt.Fprintf(&b, "broadcast:    %s\n", r.Broadcast)
	}
	r.Accounts.write(&b)
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
	r.Flood.write(&b)
	r.Slow.write(&b)
	writeSamples(&b, r.Server)
	b.WriteString("summary:      ")
	switch {
	case r.Ack.N == 0:
		b.WriteString("no human game's move was acknowledged: no acknowledgement p99 to check\n")
	case r.AckHeld():
		fmt.Fprintf(&b, "the game moves' acknowledgement p99 %s < %s: held (p50 %s, max %s, %d moves)\n",
			ms(r.Ack.P99), ms(AckTarget), ms(r.Ack.P50), ms(r.Ack.Max), r.Ack.N)
	default:
		fmt.Fprintf(&b, "the game moves' acknowledgement p99 %s >= %s: NOT held (p50 %s, max %s, %d moves)\n",
			ms(r.Ack.P99), ms(AckTarget), ms(r.Ack.P50), ms(r.Ack.Max), r.Ack.N)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// movesSent says how the human games' moves went, for the report.
func (r *Report) movesSent() string {
	if r.OverSocket {
		return "sent over each game's websocket (one connection a game)"
	}
	return "sent as POSTs (HTTP connections beside each game's websocket)"
}

// String writes the percentiles of moves in milliseconds.
func (l Latencies) String() string { return l.of("moves") }

// of writes the percentiles in milliseconds and the count of what was
// timed.
func (l Latencies) of(what string) string {
	if l.N == 0 {
		return "no samples"
	}
	return fmt.Sprintf("p50 %s  p90 %s  p99 %s  max %s  (%d %s)", ms(l.P50), ms(l.P90), ms(l.P99), ms(l.Max), l.N, what)
}

func (a *AccountReport) write(b *strings.Builder) {
	if a == nil {
		return
	}
	fmt.Fprintf(b, "accounts:     %d signed up, each game's players paired through the lobby (a rated seek, accepted)\n", a.Accounts)
	fmt.Fprintf(b, "sign-ups:     %s\n", a.SignUp.of("sign-ups"))
	fmt.Fprintf(b, "seeks:        %s\n", a.Seek.of("seeks"))
	fmt.Fprintf(b, "lobby reads:  %s\n", a.Lobby.of("reads"))
	fmt.Fprintf(b, "accepts:      %s\n", a.Accept.of("accepts"))
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.1fms", float64(d)/float64(time.Millisecond))
}

const indent = "              "

// from says where side traffic came from.
func from(addr string) string {
	if addr == "" {
		return "the system's address, shared with the games"
	}
	return addr
}

func (f *FloodReport) write(b *strings.Builder) {
	if f == nil {
		return
	}
	fmt.Fprintf(b, "flood:        %d workers from %s: %d requests in %s (%.1f a second; %d lobby, %d game)\n",
		f.Workers, from(f.From), f.Requests(), f.Elapsed.Round(time.Millisecond), f.PerSecond(), f.Lobby, f.Game)
	fmt.Fprintf(b, "%sanswered 200: %d, 429 (rate limited): %d, other: %s; no answer: %d\n",
		indent, f.OK, f.Limited, statuses(f.Other), errorsTotal(f.Errors))
	for _, k := range slices.Sorted(maps.Keys(f.Errors)) {
		fmt.Fprintf(b, "%s%s: %d (first: %s)\n", indent, k, f.Errors[k].N, f.Errors[k].First)
	}
}

func (s *SlowReport) write(b *strings.Builder) {
	if s == nil {
		return
	}
	fmt.Fprintf(b, "slow:         %d connections from %s, each reopened when the server closes it\n", s.Conns, from(s.From))
	for _, k := range s.Kinds {
		after := ""
		if k.Closed > 0 {
			after = " after " + k.ClosedAfter.Round(100*time.Millisecond).String() + " on average"
		}
		fmt.Fprintf(b, "%s%s (%d): opened %d, closed by the server %d%s, refused %d, open at the end %d; first answers: %s\n",
			indent, k.Kind, k.Conns, k.Opened, k.Closed, after, k.Refused, k.Open, statuses(k.Answers))
	}
}

// writeSamples lists the server's samples, the last one against the
// first.
func writeSamples(b *strings.Builder, samples []ServerSample) {
	if len(samples) == 0 {
		return
	}
	b.WriteString("server:       resident memory and open files\n")
	first := samples[0]
	for i, s := range samples {
		if s.Err != "" {
			fmt.Fprintf(b, "%s%-8s %s\n", indent, s.Label, s.Err)
			continue
		}
		fmt.Fprintf(b, "%s%-8s RSS %s  fds %d", indent, s.Label, mib(s.RSS), s.FDs)
		if i > 0 && i == len(samples)-1 && first.Err == "" {
			fmt.Fprintf(b, "  (%+.0f%% RSS, %+d fds since the start)", 100*float64(s.RSS-first.RSS)/float64(max(first.RSS, 1)), s.FDs-first.FDs)
		}
		b.WriteString("\n")
	}
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// statuses writes counts by status: "408 ×3, 503 ×1", or none.
func statuses(m map[int]int) string {
	if len(m) == 0 {
		return "none"
	}
	var parts []string
	for _, s := range slices.Sorted(maps.Keys(m)) {
		name := strconv.Itoa(s)
		if s == 0 {
			name = "not HTTP"
		}
		parts = append(parts, fmt.Sprintf("%s ×%d", name, m[s]))
	}
	return strings.Join(parts, ", ")
}

func errorsTotal(m map[string]*ErrorCount) int {
	n := 0
	for _, e := range m {
		n += e.N
	}
	return n
}
