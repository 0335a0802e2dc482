package cli

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/match"
)

// sprtBase are the flags of a cheap SPRT match: short pommel games at
// depth 1 or 2.
func sprtBase(players ...string) []string {
	args := []string{"match", "pommel", "-o", "maxplies=40", "--depth", "2", "-q"}
	for _, p := range players {
		args = append(args, "--player", p)
	}
	return args
}

// sprtReport is what the report of a --sprt match says, read back from
// its lines.
type sprtReport struct {
	test            match.SPRT
	llr, lo, hi     float64
	counts          match.Pentanomial
	games, pairs    int
	resumed         int
	verdict, eloRow string
}

// readSPRT reads the report that writeSPRT prints, failing the test if a
// line is missing or malformed.
func readSPRT(t *testing.T, out string) sprtReport {
	t.Helper()
	ls := lines(t, out)
	if len(ls) != 6 {
		t.Fatalf("want 6 lines, got:\n%s", out)
	}
	var r sprtReport
	spec, _, _ := strings.Cut(strings.TrimPrefix(ls[0], "sprt "), ":")
	test, err := match.ParseSPRT(spec)
	if err != nil {
		t.Fatalf("line %q: %v", ls[0], err)
	}
	r.test = test
	c := &r.counts
	for i, scan := range []struct {
		line, format string
		args         []any
	}{
		{ls[1], "LLR %f (%f, %f)", []any{&r.llr, &r.lo, &r.hi}},
		{ls[3], "pentanomial [%d %d %d %d %d]", []any{&c[0], &c[1], &c[2], &c[3], &c[4]}},
		{ls[4], "games %d, pairs %d (%d from the record file)", []any{&r.games, &r.pairs, &r.resumed}},
	} {
		if _, err := fmt.Sscanf(scan.line, scan.format, scan.args...); err != nil {
			t.Fatalf("line %d %q: %v", i, scan.line, err)
		}
	}
	r.eloRow, r.verdict = ls[2], ls[5]
	return r
}

// check fails the test unless the report agrees with itself: the LLR and
// its bounds are the test's on the printed counts, the games are two per
// pair, and the Elo line is the counts' estimate.
func (r sprtReport) check(t *testing.T) {
	t.Helper()
	for _, want := range []struct {
		name        string
		got, wanted float64
	}{{"LLR", r.llr, r.test.LLR(r.counts)}, {"lower bound", r.lo, r.test.LowerBound()}, {"upper bound", r.hi, r.test.UpperBound()}} {
		if fmt.Sprintf("%.2f", want.got) != fmt.Sprintf("%.2f", want.wanted) {
			t.Errorf("%s %.2f printed, the counts %v give %.2f", want.name, want.got, r.counts, want.wanted)
		}
	}
	if r.pairs != r.counts.Pairs() || r.games != 2*r.pairs {
		t.Errorf("games %d, pairs %d for counts %v", r.games, r.pairs, r.counts)
	}
	if !strings.HasPrefix(r.eloRow, "Elo "+r.counts.EloText()+" ") {
		t.Errorf("Elo line %q, want the estimate %s", r.eloRow, r.counts.EloText())
	}
}

// TestMatchSPRTStrongAcceptsH1: ab against random crosses the upper
// bound long before --games and says so on its last line.
func TestMatchSPRTStrongAcceptsH1(t *testing.T) {
	out := runOK(t, append(sprtBase("ab=ab", "rnd=random"), "--games", "400", "--sprt", "elo0=0,elo1=200")...)
	r := readSPRT(t, out)
	r.check(t)
	if r.verdict != "H1 accepted" || r.llr < r.hi {
		t.Errorf("verdict %q at LLR %.2f, want H1 accepted at %.2f or more:\n%s", r.verdict, r.llr, r.hi, out)
	}
	if r.games >= 200 {
		t.Errorf("took %d of 400 games; ab against random should be decided in far fewer", r.games)
	}
}

// TestMatchSPRTStrongFirstIsWeak: the same match with the weak engine
// named first accepts H0, since the test is about the first player.
func TestMatchSPRTWeakFirstAcceptsH0(t *testing.T) {
	out := runOK(t, append(sprtBase("rnd=random", "ab=ab"), "--games", "400", "--sprt", "elo0=0,elo1=200", "--concurrency", "2")...)
	r := readSPRT(t, out)
	r.check(t)
	if r.verdict != "H0 accepted" || r.llr > r.lo {
		t.Errorf("verdict %q at LLR %.2f, want H0 accepted at %.2f or less:\n%s", r.verdict, r.llr, r.lo, out)
	}
}

// TestMatchSPRTEqualEnginesUndecided: two random engines under tight
// bounds and few games reach neither bound, and the last line says within
// how many games.
func TestMatchSPRTEqualEnginesUndecided(t *testing.T) {
	out := runOK(t, append(sprtBase("a=random", "b=random"), "--games", "20", "--sprt", "elo0=-5,elo1=5,alpha=0.01,beta=0.01")...)
	r := readSPRT(t, out)
	r.check(t)
	if r.verdict != "neither bound reached within 20 games" || r.games != 20 {
		t.Errorf("verdict %q after %d games, want neither bound within 20:\n%s", r.verdict, r.games, out)
	}
}

// TestMatchSPRTResumes: a restart with the same --out counts the games
// the file holds, plays only the rest, and adds them to the file.
func TestMatchSPRTResumes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sprt.pdn")
	args := append(sprtBase("a=random", "b=random"), "--sprt", "elo0=-5,elo1=5,alpha=0.01,beta=0.01", "--out", path)
	first := readSPRT(t, runOK(t, append(args, "--games", "10")...))
	second := readSPRT(t, runOK(t, append(args, "--games", "30")...))
	second.check(t)
	if first.pairs != 5 || second.resumed != 5 || second.pairs != 15 {
		t.Errorf("pairs %d, then %d with %d resumed; want 5, then 15 with 5 resumed", first.pairs, second.pairs, second.resumed)
	}
	for k, n := range first.counts {
		if second.counts[k] < n {
			t.Errorf("counts %v after the restart lost the first run's %v", second.counts, first.counts)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for round := 1; round <= 30; round++ {
		if n := strings.Count(string(data), fmt.Sprintf("[Round \"%d\"]", round)); n != 1 {
			t.Errorf("round %d is in the file %d times, want once", round, n)
		}
	}
	again := readSPRT(t, runOK(t, append(args, "--games", "30")...))
	if again.resumed != 15 || again.counts != second.counts {
		t.Errorf("a finished run restarted: %d resumed, counts %v; want 15 and %v", again.resumed, again.counts, second.counts)
	}
}

// TestMatchBookPlaysEachLineFromBothSeats: --book is --openings, each
// line played twice with the seats swapped.
func TestMatchBookPlaysEachLineFromBothSeats(t *testing.T) {
	dir := t.TempDir()
	book, out := filepath.Join(dir, "book.txt"), filepath.Join(dir, "m.pdn")
	if err := os.WriteFile(book, []byte("a2-b3\na1-a3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	runOK(t, append(sprtBase("a=random", "b=random"), "--games", "4", "--sprt", "elo0=0,elo1=5", "--book", book, "--out", out)...)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	games := strings.Split(string(data), "[Round ")[1:]
	if len(games) != 4 {
		t.Fatalf("%d games in the record, want 4:\n%s", len(games), data)
	}
	for k, want := range []struct{ white, opening string }{{"a", "a2-b3"}, {"b", "a2-b3"}, {"a", "a1-a3"}, {"b", "a1-a3"}} {
		if !strings.Contains(games[k], "[White \""+want.white+"\"]") || !strings.Contains(games[k], "1. "+want.opening) {
			t.Errorf("game %d: want %s as White from %s:\n%s", k+1, want.white, want.opening, games[k])
		}
	}
}

// TestMatchSPRTRefusals: every refusal of --sprt and --book, in one line
// that names the problem.
func TestMatchSPRTRefusals(t *testing.T) {
	badBook := filepath.Join(t.TempDir(), "bad.txt")
	if err := os.WriteFile(badBook, []byte("a1-h9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	foreign := filepath.Join(t.TempDir(), "other.pdn")
	runOK(t, append(sprtBase("x=random", "y=random"), "--games", "2", "--out", foreign)...)
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		// The flag is named once: "--sprt: ", never "--sprt: sprt: ".
		{"bad spec", append(sprtBase("a=random", "b=random"), "--sprt", "elo0=5,elo1=0"), "--sprt: elo0=5 must be below elo1=0"},
		{"unknown key", append(sprtBase("a=random", "b=random"), "--sprt", "gamma=1"), "--sprt: unknown key"},
		{"empty spec", append(sprtBase("a=random", "b=random"), "--sprt", ""), "--sprt: empty spec"},
		{"not a number", append(sprtBase("a=random", "b=random"), "--sprt", "alpha=NaN"), "--sprt: alpha=NaN is not a finite number"},
		{"too long", append(sprtBase("a=random", "b=random"), "--sprt", strings.Repeat("x", 300)), "--sprt: spec"},
		{"odd games", append(sprtBase("a=random", "b=random"), "--sprt", "elo1=5", "--games", "7"), "--games 7: --sprt plays pairs"},
		{"one player", append(sprtBase("a=random"), "--sprt", "elo1=5"), "give --player NAME=SPEC once for each"},
		{"three players, games not rotations", []string{"match", "punt-heks-match-3p", "--player", "a=random", "--player", "b=random", "--player", "c=random",
			"--depth", "1", "--sprt", "elo1=5", "--games", "3001"}, "--games 3001: --sprt plays rotations of 3 games, give a multiple of 3"},
		{"three players, default games", []string{"match", "punt-heks-match-3p", "--player", "a=random", "--player", "b=random", "--player", "c=random",
			"--depth", "1", "--sprt", "elo1=5"}, "--games 10: --sprt plays rotations of 3 games"},
		{"three players, two given", []string{"match", "punt-heks-match-3p", "--player", "a=random", "--player", "b=random",
			"--depth", "1", "--sprt", "elo1=5", "--games", "6"}, "give --player NAME=SPEC once for each"},
		{"book and openings", append(sprtBase("a=random", "b=random"), "--book", "x", "--openings", "x"), "the same flag: give one"},
		// A book given as --book is named --book in its errors.
		{"missing book", append(sprtBase("a=random", "b=random"), "--book", filepath.Join(t.TempDir(), "none")), "--book \""},
		{"empty book name", append(sprtBase("a=random", "b=random"), "--book", " "), "--book is empty: give a file of openings, or leave --book out"},
		{"book is a folder", append(sprtBase("a=random", "b=random"), "--book", t.TempDir()), "--book \""},
		{"bad book line", append(sprtBase("a=random", "b=random"), "--book", badBook), "--book \""},
		{"missing openings", append(sprtBase("a=random", "b=random"), "--openings", filepath.Join(t.TempDir(), "none")), "--openings \""},
		{"another match's file", append(sprtBase("a=random", "b=random"), "--sprt", "elo1=5", "--games", "2", "--out", foreign), "not a game of this match"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, "", c.args...)
			if r.code == 0 || !strings.Contains(r.errOut, c.want) || strings.Count(strings.TrimSpace(r.errOut), "\n") != 0 {
				t.Errorf("exit %d, stderr %q; want a failure of one line with %q", r.code, r.errOut, c.want)
			}
			if strings.Contains(r.errOut, "sprt: sprt:") || slices.Contains(c.args, "--book") && !slices.Contains(c.args, "--openings") && strings.Contains(r.errOut, "--openings") {
				t.Errorf("stderr %q names a flag twice or one not given", r.errOut)
			}
		})
	}
}

// threeBase are the flags of a cheap three-player SPRT match: punt's
// three-player game, searches of 300 nodes.
func threeBase(players ...string) []string {
	args := []string{"match", "punt-heks-match-3p", "--nodes", "300", "--opening", "2", "-q"}
	for _, p := range players {
		args = append(args, "--player", p)
	}
	return args
}

// threeReport is what the report of a three-player --sprt match says,
// read back from its lines.
type threeReport struct {
	test                   match.SPRT
	llr, lo, hi            float64
	units                  match.Units
	games, rotations       int
	resumed                int
	eloRow, clock, verdict string
}

// readThreeSPRT reads the report that writeSPRT prints for three
// players, failing the test if a line is missing or malformed: the
// rotations line "[0:3 0.33:1 ...]" is read back into counts.
func readThreeSPRT(t *testing.T, out string) threeReport {
	t.Helper()
	ls := lines(t, out)
	if len(ls) != 6 && len(ls) != 7 {
		t.Fatalf("want 6 lines, or 7 with a clock, got:\n%s", out)
	}
	r := threeReport{units: match.NewUnits(3), eloRow: ls[2], verdict: ls[len(ls)-1]}
	if len(ls) == 7 {
		r.clock = ls[5]
	}
	spec, against, _ := strings.Cut(strings.TrimPrefix(ls[0], "sprt "), ": ")
	test, err := match.ParseSPRT(spec)
	if err != nil || against != "new against old, old2" {
		t.Fatalf("line %q: %v", ls[0], err)
	}
	r.test = test
	if _, err := fmt.Sscanf(ls[1], "LLR %f (%f, %f)", &r.llr, &r.lo, &r.hi); err != nil {
		t.Fatalf("line %q: %v", ls[1], err)
	}
	if _, err := fmt.Sscanf(ls[4], "games %d, rotations %d (%d from the record file)", &r.games, &r.rotations, &r.resumed); err != nil {
		t.Fatalf("line %q: %v", ls[4], err)
	}
	counts, ok := strings.CutPrefix(ls[3], "rotations [")
	counts, rest, _ := strings.Cut(counts, "]")
	if !ok || rest != " (points:count, by new's points over the 3 games of a rotation)" {
		t.Fatalf("line %q is not the rotations line", ls[3])
	}
	for _, item := range strings.Fields(counts) {
		var points float64
		var n int
		if _, err := fmt.Sscanf(item, "%g:%d", &points, &n); err != nil {
			t.Fatalf("line %q, item %q: %v", ls[3], item, err)
		}
		r.units.Counts[int(math.Round(6*points))] += n
	}
	return r
}

// check fails the test unless the report agrees with itself: the LLR and
// its bounds are the test's on the printed counts, the games are three
// per rotation, and the Elo line is the counts' estimate over each other.
func (r threeReport) check(t *testing.T) {
	t.Helper()
	for _, want := range []struct {
		name        string
		got, wanted float64
	}{{"LLR", r.llr, r.test.UnitsLLR(r.units)}, {"lower bound", r.lo, r.test.LowerBound()}, {"upper bound", r.hi, r.test.UpperBound()}} {
		if fmt.Sprintf("%.2f", want.got) != fmt.Sprintf("%.2f", want.wanted) {
			t.Errorf("%s %.2f printed, the counts %v give %.2f", want.name, want.got, r.units, want.wanted)
		}
	}
	if r.rotations != r.units.Total() || r.games != 3*r.rotations {
		t.Errorf("games %d, rotations %d for counts %v", r.games, r.rotations, r.units)
	}
	if want := "Elo " + r.units.EloText() + " (new over each of the 2 others, 95% interval over rotations)"; r.eloRow != want {
		t.Errorf("Elo line %q, want %q", r.eloRow, want)
	}
}

// verdictLine matches the last line of a report.
var verdictLine = regexp.MustCompile(`^(H1 accepted|H0 accepted|neither bound reached within [0-9]+ games)$`)

// TestMatchSPRTThreePlayersDecides: ai:level=2 against two random players
// crosses the upper bound, and the weak player named first the lower
// one: the test is about the first player against the other two.
func TestMatchSPRTThreePlayersDecides(t *testing.T) {
	for _, c := range []struct {
		first, other, verdict string
	}{{"ai:level=2", "random", "H1 accepted"}, {"random", "ai:level=2", "H0 accepted"}} {
		out := runOK(t, append(threeBase("new="+c.first, "old="+c.other, "old2="+c.other), "--games", "300", "--concurrency", "2",
			"--sprt", "elo0=0,elo1=200")...)
		r := readThreeSPRT(t, out)
		r.check(t)
		if r.verdict != c.verdict || r.games >= 300 {
			t.Errorf("%s first: verdict %q after %d games, want %s before 300:\n%s", c.first, r.verdict, r.games, c.verdict, out)
		}
	}
}

// TestMatchSPRTThreePlayersResumes: the end-to-end three-player test with
// ai: engines: a short run, then a restart with more --games on the same
// --out that counts the rotations the file holds and plays only the rest,
// every round once in the file, and a restart of a finished run that
// plays nothing.
func TestMatchSPRTThreePlayersResumes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sprt3.pdn")
	args := append(threeBase("new=ai:level=1", "old=ai:level=1", "old2=ai:level=1"), "--concurrency", "2",
		"--sprt", "elo0=-5,elo1=5,alpha=0.01,beta=0.01", "--out", path)
	first := readThreeSPRT(t, runOK(t, append(args, "--games", "6")...))
	second := readThreeSPRT(t, runOK(t, append(args, "--games", "12")...))
	for _, r := range []threeReport{first, second} {
		r.check(t)
		if !verdictLine.MatchString(r.verdict) {
			t.Errorf("last line %q is no verdict", r.verdict)
		}
	}
	if first.rotations != 2 || second.resumed != 2 || second.rotations != 4 || second.verdict != "neither bound reached within 12 games" {
		t.Errorf("rotations %d, then %d with %d resumed, %q; want 2, then 4 with 2 resumed, undecided", first.rotations, second.rotations, second.resumed, second.verdict)
	}
	for k, n := range first.units.Counts {
		if second.units.Counts[k] < n {
			t.Errorf("counts %v after the restart lost the first run's %v", second.units, first.units)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for round := 1; round <= 12; round++ {
		if n := strings.Count(string(data), fmt.Sprintf("[Round \"%d\"]", round)); n != 1 {
			t.Errorf("round %d is in the file %d times, want once", round, n)
		}
	}
	again := readThreeSPRT(t, runOK(t, append(args, "--games", "12")...))
	if again.resumed != 4 || !slices.Equal(again.units.Counts, second.units.Counts) {
		t.Errorf("a finished run restarted: %d resumed, counts %v; want 4 and %v", again.resumed, again.units, second.units)
	}
}

// TestMatchSPRTThreePlayersBookAndClock: with three players --book plays
// each line three times, the seats rotated, and --clock runs the games on
// Fischer clocks, the report counting the flag falls.
func TestMatchSPRTThreePlayersBookAndClock(t *testing.T) {
	dir := t.TempDir()
	book, path := filepath.Join(dir, "book.txt"), filepath.Join(dir, "m.pdn")
	if err := os.WriteFile(book, []byte("b6-b5\nb6-b5 e1-e2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"match", "punt-heks-match-3p", "-q", "--player", "new=random", "--player", "old=random", "--player", "old2=random",
		"--games", "6", "--clock", "10s+0.1s", "--sprt", "elo0=0,elo1=20", "--book", book, "--out", path}
	r := readThreeSPRT(t, runOK(t, args...))
	r.check(t)
	if !strings.HasPrefix(r.clock, "clock 10s+100ms: ") || !strings.Contains(r.clock, "flag falls in 6 games (new ") {
		t.Errorf("clock line %q, want the flag falls of 6 games on 10s+100ms", r.clock)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	games := strings.Split(string(data), "[Round ")[1:]
	if len(games) != 6 {
		t.Fatalf("%d games in the record, want 6:\n%s", len(games), data)
	}
	for k, want := range []struct{ white, opening string }{
		{"new", "1. b6-b5 "}, {"old2", "1. b6-b5 "}, {"old", "1. b6-b5 "},
		{"new", "1. b6-b5 e1-e2 "}, {"old2", "1. b6-b5 e1-e2 "}, {"old", "1. b6-b5 e1-e2 "},
	} {
		if !strings.Contains(games[k], "[White \""+want.white+"\"]") || !strings.Contains(games[k], want.opening) {
			t.Errorf("game %d: want %s as White from %q:\n%s", k+1, want.white, want.opening, games[k])
		}
	}
}
