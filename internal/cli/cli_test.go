package cli

import (
	"bytes"
	"flag"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	_ "github.com/arbiter-games/arbiter/games/all"
	"github.com/arbiter-games/arbiter/internal/testtext"
)

var update = flag.Bool("update", false, "rewrite golden files")

// result is what one run of the command line did.
type result struct {
	code        int
	out, errOut string
}

// run calls Execute with args and in as standard input.
func run(t *testing.T, in string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Execute(args, strings.NewReader(in), &out, &errOut)
	return result{code, out.String(), errOut.String()}
}

// runOK runs args and fails the test unless it exits 0 with nothing on
// stderr. It returns stdout.
func runOK(t *testing.T, args ...string) string {
	t.Helper()
	r := run(t, "", args...)
	if r.code != 0 || r.errOut != "" {
		t.Fatalf("arbiter %s: exit %d, stderr %q; want 0 and nothing", strings.Join(args, " "), r.code, r.errOut)
	}
	return r.out
}

// lines splits output into its lines; the output must end with a newline.
func lines(t *testing.T, out string) []string {
	t.Helper()
	if out == "" {
		return nil
	}
	if !strings.HasSuffix(out, "\n") {
		t.Fatalf("output does not end with a newline: %q", out)
	}
	return strings.Split(strings.TrimSuffix(out, "\n"), "\n")
}

// checkGolden compares got with testdata/name, or rewrites the file with
// -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	testtext.Golden(t, filepath.Join("testdata", name), got, *update)
}

// TestGolden checks whole outputs against testdata: the game list, the
// starting moves and the boards.
func TestGolden(t *testing.T) {
	t.Parallel()
	tests := []struct {
		golden string
		args   []string
	}{
		{"games.golden", []string{"games"}},
		{"moves-pommel.golden", []string{"moves", "pommel"}},
		{"moves-pommel-76.golden", []string{"moves", "pommel-76"}},
		{"show-pommel.golden", []string{"show", "pommel"}},
		{"show-pommel-76.golden", []string{"show", "pommel-76"}},
		// White's leap a3xa6 over a4 and a5 is compulsory.
		{"show-pommel-leap.golden", []string{"show", "pommel", "a1-a3", "a6-a4"}},
		// Captains are drawn in capitals.
		{"show-pommel-captains.golden", []string{"show", "pommel", "--from", "W:Wc3,Kc5:Bc4,Kg1"}},
		{"show-game-over.golden", []string{"show", "pommel", "--from", "W:W:Ba6"}},
		{"show-maxplies.golden", []string{"show", "pommel", "-o", "maxplies=1", "a1-a3"}},
		{"perft-divide-pommel-2.golden", []string{"perft", "--divide", "pommel", "2"}},
	}
	for _, tt := range tests {
		t.Run(tt.golden, func(t *testing.T) {
			t.Parallel()
			checkGolden(t, tt.golden, runOK(t, tt.args...))
		})
	}
}

// moveText is the move notation of RULINGS section 0: from-to, a chain of
// landings from-l1-l2, a capture fromxl1xl2, then Eximo's drops @cell.
var moveText = regexp.MustCompile(`^[a-z][1-9][0-9]*((-[a-z][1-9][0-9]*)+|(x[a-z][1-9][0-9]*)+)(@[a-z][1-9][0-9]*){0,2}$`)

// checkMoveList checks the moves contract of RULINGS section 5: one move
// per line, in byte order, nothing else.
func checkMoveList(t *testing.T, out string) []string {
	t.Helper()
	moves := lines(t, out)
	for _, m := range moves {
		if !moveText.MatchString(m) {
			t.Errorf("line %q is not a move", m)
		}
	}
	if !slices.IsSorted(moves) {
		t.Errorf("moves are not in byte order: %q", moves)
	}
	if len(slices.Compact(slices.Clone(moves))) != len(moves) {
		t.Errorf("a move is listed twice: %q", moves)
	}
	return moves
}

func TestMoves(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		want []string // nil: only check the format and count
		n    int
	}{
		{name: "pommel start", args: []string{"pommel"}, n: 30},
		{name: "pommel-76 start", args: []string{"pommel-76"}, n: 54},
		{name: "black replies", args: []string{"pommel", "a1-a3"}, n: 30},
		// Black's a6-a4 hops over its own a5: White must leap both.
		{name: "compulsory leap", args: []string{"pommel", "a1-a3", "a6-a4"}, want: []string{"a3xa6"}},
		{name: "after the leap", args: []string{"pommel", "a1-a3", "a6-a4", "a3xa6"}, n: 29},
		{name: "colon for x", args: []string{"pommel", "a1-a3", "a6-a4", "a3:a6"}, n: 29},
		// Black's last soldier taken: no moves, and no error.
		{name: "game won", args: []string{"pommel", "--from", "W:Wc3:Bc4", "c3xc5"}, want: []string{}},
		{name: "from FEN", args: []string{"pommel", "--from", "W:Wc3,c5:Bc4,Kg1"},
			want: []string{"c3-b4", "c3-d4", "c5-b6", "c5-c6", "c5-d6"}},
		// Black must take c3: the soldier on c4 jumps it to c2, or the
		// captain on g1 runs over f2 e2 d3 and jumps it to b4.
		{name: "from FEN then moves", args: []string{"pommel", "--from", "W:Wc3,c5:Bc4,Kg1", "c5-c6"},
			want: []string{"c4xc2", "g1xb4"}},
		// Black steps down: c5 touches b5 and d5 below it.
		{name: "black to move", args: []string{"pommel", "--from", "B:Wc3:Bc5"}, want: []string{"c5-b5", "c5-c4", "c5-d5"}},
		{name: "maxplies ends the game", args: []string{"pommel", "-o", "maxplies=1", "a1-a3"}, want: []string{}},
		{name: "maxplies not reached", args: []string{"pommel", "-o", "maxplies=2", "a1-a3"}, n: 30},
		{name: "eximo start", args: []string{"eximo"}, n: 40},
		// Chains over friendly men (b1-b3-b5) and drops (d7-c8@e1@g2):
		// the format is checked, the moves themselves by eximo's tests.
		{name: "eximo jumps and drops", args: []string{"eximo", "--from", "B:Wa5:Bb1,c1,d1,f1,g1,b2,c2,d2,e2,f2,d7,b4"}, n: 35},
		{name: "checkers-2011 start", args: []string{"checkers-2011"}, n: 22},
		{name: "punt-match start", args: []string{"punt-match"}, n: 52},
		{name: "punt-heks-match start", args: []string{"punt-heks-match"}, n: 64},
		{name: "punt-heks-match-3p start", args: []string{"punt-heks-match-3p"}, n: 62},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			moves := checkMoveList(t, runOK(t, append([]string{"moves"}, tt.args...)...))
			if tt.want != nil {
				if !slices.Equal(moves, tt.want) {
					t.Errorf("moves = %q, want %q", moves, tt.want)
				}
			} else if len(moves) != tt.n {
				t.Errorf("%d moves, want %d: %q", len(moves), tt.n, moves)
			}
		})
	}
}

// TestHopOption checks that hop=any lets a soldier pass an enemy piece,
// and that -o and --option mean the same. The position:
//
//	c5  w    White's c3 is behind Black's c4 and its own c5;
//	c4  b    c4 cannot be taken (c3 and c5 are both full),
//	c3  w    so hop=any adds c3-c6 and nothing else.
func TestHopOption(t *testing.T) {
	t.Parallel()
	const fen = "W:Wc3,c5:Bc4,Kg1"
	friendly := []string{"c3-b4", "c3-d4", "c5-b6", "c5-c6", "c5-d6"}
	anyHop := []string{"c3-b4", "c3-c6", "c3-d4", "c5-b6", "c5-c6", "c5-d6"}
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"moves", "pommel", "--from", fen}, friendly},
		{[]string{"moves", "pommel", "--from", fen, "-o", "hop=friendly"}, friendly},
		{[]string{"moves", "pommel", "--from", fen, "-o", "hop=any"}, anyHop},
		{[]string{"moves", "pommel", "--from", fen, "--option", "hop=any"}, anyHop},
		{[]string{"moves", "pommel", "--from", fen, "--option=hop=any", "-o", "maxplies=50"}, anyHop},
		// After c3-c6 Black's captain may stop only where it sees a White
		// piece: a4 and g3 see c5, g4 sees c6.
		{[]string{"moves", "pommel", "--from", fen, "-o", "hop=any", "c3-c6"},
			[]string{"c4-b4", "c4-c3", "c4-d4", "g1-a4", "g1-g3", "g1-g4"}},
		// From the start hop=any changes nothing: no enemy is in reach.
		{[]string{"moves", "pommel", "-o", "hop=any"}, checkMoveList(t, runOK(t, "moves", "pommel"))},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			if got := checkMoveList(t, runOK(t, tt.args...)); !slices.Equal(got, tt.want) {
				t.Errorf("moves = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestPerft checks the perft contract of RULINGS section 5: the count alone
// on the last (here the only) line.
func TestPerft(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want uint64
	}{
		{[]string{"pommel", "0"}, 1},
		{[]string{"pommel", "1"}, 30},
		{[]string{"pommel", "2"}, 900},
		{[]string{"pommel", "3"}, 27892},
		{[]string{"pommel-76", "1"}, 54},
		{[]string{"pommel-76", "2"}, 2916},
		{[]string{"pommel-76", "3"}, 157356},
		{[]string{"pommel", "1", "a1-a3", "a6-a4"}, 1},
		{[]string{"pommel", "2", "a1-a3", "a6-a4"}, 29},
		{[]string{"pommel", "1", "--from", "W:W:Ba6"}, 0},
		// Perft ignores the ply cap, even past it.
		{[]string{"pommel", "3", "-o", "maxplies=1"}, 27892},
		{[]string{"pommel", "1", "-o", "maxplies=1", "a1-a3"}, 30},
		{[]string{"pommel", "1", "-o", "maxplies=1", "a1-a3", "a6-a4"}, 1},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			out := runOK(t, append([]string{"perft"}, tt.args...)...)
			if want := fmt.Sprintf("%d\n", tt.want); out != want {
				t.Errorf("perft %s printed %q, want %q", strings.Join(tt.args, " "), out, want)
			}
		})
	}
}

// TestPerftDivide checks that --divide prints "move count" for every legal
// move, sorted, then the total alone on the last line, equal to their sum
// and to perft's count.
func TestPerftDivide(t *testing.T) {
	t.Parallel()
	tests := [][]string{
		{"pommel", "1"},
		{"pommel", "2"},
		{"pommel", "3"},
		{"pommel-76", "3"},
		{"pommel", "2", "a1-a3", "a6-a4"},
		{"pommel", "2", "--from", "W:Wc3,c5:Bc4,Kg1", "-o", "hop=any"},
		{"eximo", "2", "--from", "B:Wa5:Bb1,c1,d1,f1,g1,b2,c2,d2,e2,f2,d7,b4"},
		{"checkers-2011", "3"},
		{"punt-heks-match-3p", "2"},
	}
	for _, args := range tests {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			out := lines(t, runOK(t, append([]string{"perft", "--divide"}, args...)...))
			if len(out) < 2 {
				t.Fatalf("perft --divide printed %q", out)
			}
			var moves []string
			var sum uint64
			for _, l := range out[:len(out)-1] {
				m, n, ok := strings.Cut(l, " ")
				count, err := strconv.ParseUint(n, 10, 64)
				if !ok || err != nil || !moveText.MatchString(m) {
					t.Fatalf("line %q is not \"move count\"", l)
				}
				moves = append(moves, m)
				sum += count
			}
			total, err := strconv.ParseUint(out[len(out)-1], 10, 64)
			if err != nil {
				t.Fatalf("last line %q is not a count alone", out[len(out)-1])
			}
			if sum != total {
				t.Errorf("the counts add up to %d, the total line says %d", sum, total)
			}
			// The same moves as the moves command (with the options and
			// position, without the depth), and the same total as perft.
			movesArgs := append([]string{"moves", args[0]}, args[2:]...)
			if want := checkMoveList(t, runOK(t, movesArgs...)); !slices.Equal(moves, want) {
				t.Errorf("divide moves %q, want the legal moves %q", moves, want)
			}
			if perft := runOK(t, append([]string{"perft"}, args...)...); perft != fmt.Sprintf("%d\n", total) {
				t.Errorf("perft printed %q, divide's total is %d", perft, total)
			}
		})
	}
	t.Run("depth 0", func(t *testing.T) {
		t.Parallel()
		if out := runOK(t, "perft", "--divide", "pommel", "0"); out != "1\n" {
			t.Errorf("perft --divide pommel 0 printed %q, want %q", out, "1\n")
		}
	})
}

// TestErrors checks that every mistake exits non-zero with one clear line
// on stderr and nothing on stdout.
func TestErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want []string // parts of the message
	}{
		// Illegal moves name the move, its 1-based index and the reason.
		{[]string{"moves", "pommel", "a1-a3", "zz"}, []string{"move 2", `"zz"`, "illegal", "from-to"}},
		{[]string{"moves", "pommel", "a1-a3", "a1-a4"}, []string{"move 2", `"a1-a4"`, "illegal", "no piece on a1"}},
		{[]string{"moves", "pommel", "a1-a4"}, []string{"move 1", `"a1-a4"`, "the piece on a1 can play a1-a3, a1-d3"}},
		{[]string{"moves", "pommel", "a6-a5"}, []string{"move 1", `"a6-a5"`, "Black's", "White is to move"}},
		{[]string{"moves", "pommel", "a1-a3", "a6-a4", "b2-b3"}, []string{"move 3", `"b2-b3"`, "capture is compulsory", "a3xa6"}},
		{[]string{"moves", "pommel", "a1-a9"}, []string{"move 1", `"a9" is not a cell`}},
		{[]string{"moves", "pommel", "a1-a3xa5"}, []string{"move 1", `"a1-a3xa5"`, "not both"}},
		{[]string{"moves", "pommel", "A1-A3"}, []string{"move 1", `"A1-A3"`, "lower case", "a1-a3"}},
		{[]string{"moves", "pommel", "a1-a3", ""}, []string{"move 2", "empty move"}},
		{[]string{"moves", "pommel", "-o", "maxplies=1", "a1-a3", "a6-a4"}, []string{"move 2", `"a6-a4"`, "game is over", "maxplies"}},
		{[]string{"moves", "pommel", "--from", "W:W:Ba6", "a1-a2"}, []string{"move 1", "game is over", "Black wins"}},
		{[]string{"perft", "pommel", "1", "a1-a3", "zz"}, []string{"move 2", `"zz"`}},
		{[]string{"fen", "pommel", "b1-b4"}, []string{"move 1", `"b1-b4"`, "b1-b3"}},
		{[]string{"show", "pommel", "a1-a3", "a1-a4"}, []string{"move 2", `"a1-a4"`}},
		// Games and options.
		{[]string{"moves", "nope"}, []string{`unknown game "nope"`, "pommel", "pommel-76"}},
		{[]string{"perft", "Pommel", "1"}, []string{`unknown game "Pommel"`}},
		{[]string{"moves", "pommel", "-o", "foo=1"}, []string{`unknown option "foo"`, "hop", "maxplies"}},
		{[]string{"moves", "pommel", "--option", "hop=sideways"}, []string{"hop=sideways", "friendly, any"}},
		{[]string{"moves", "pommel", "-o", "maxplies=0"}, []string{"maxplies=0", "whole number", "1 to 1000000"}},
		{[]string{"moves", "pommel", "-o", "maxplies=many"}, []string{"maxplies=many", "whole number"}},
		{[]string{"moves", "pommel", "-o", "hop"}, []string{`"hop"`, "key=value"}},
		{[]string{"moves", "pommel", "--option", "=any"}, []string{`"=any"`, "key=value"}},
		{[]string{"moves", "pommel", "-o", "hop="}, []string{`"hop="`, "key=value"}},
		{[]string{"moves", "pommel", "-o", "hop=any", "-o", "hop=friendly"}, []string{"hop", "given twice"}},
		// FENs say which field is wrong.
		{[]string{"moves", "pommel", "--from", "X:Wa1:Ba6"}, []string{"bad FEN", `"X:Wa1:Ba6"`, "field 1", "W or B"}},
		{[]string{"moves", "pommel", "--from", ""}, []string{"bad FEN", "field 1", "W or B"}},
		{[]string{"moves", "pommel", "--from", "W:Wz9:Ba6"}, []string{"bad FEN", "field 2", `"z9" is not a cell`}},
		{[]string{"moves", "pommel", "--from", "W:Wa1:Bb8"}, []string{"bad FEN", "field 3", `"b8" is not a cell`}},
		{[]string{"moves", "pommel", "--from", "W:Wa1:Ba1"}, []string{"bad FEN", "field 3", "two pieces on a1"}},
		{[]string{"moves", "pommel", "--from", "W:Wa1:Wb1"}, []string{"bad FEN", "field 3", "listed twice"}},
		{[]string{"moves", "pommel", "--from", "W:Wa1:Bb1:x"}, []string{"bad FEN", "at most three fields"}},
		{[]string{"show", "pommel-76", "--from", "W:Wi9:Ba1"}, []string{"bad FEN", "field 2", `"i9"`}},
		// Perft depth.
		{[]string{"perft", "pommel", "x"}, []string{`depth "x"`, "whole number"}},
		{[]string{"perft", "pommel", "-1"}, []string{`"-1" is not a flag`, "whole number from 0 to 32"}},
		{[]string{"perft", "pommel", "1.5"}, []string{`depth "1.5"`, "whole number"}},
		{[]string{"perft", "pommel", "--", "-1"}, []string{`depth "-1"`, "from 0 to 32"}},
		{[]string{"perft", "pommel", "33"}, []string{`depth "33"`, "from 0 to 32"}},
		{[]string{"perft", "pommel", "a1-a3"}, []string{`depth "a1-a3"`}},
		// Commands and their arguments.
		{[]string{"moves"}, []string{"moves", "at least 1 arg", "usage: arbiter moves GAME"}},
		{[]string{"perft", "pommel"}, []string{"perft", "at least 2 arg", "usage: arbiter perft GAME DEPTH"}},
		{[]string{"play", "pommel", "a1-a3"}, []string{"play", "accepts at most 1 arg", "usage: arbiter play GAME"}},
		{[]string{"games", "pommel"}, []string{"games", "usage: arbiter games"}},
		{[]string{"move", "pommel"}, []string{`unknown command "move"`}},
		{[]string{"moves", "pommel", "--frm", "W:Wa1:Ba6"}, []string{"unknown flag: --frm"}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			r := run(t, "", tt.args...)
			if r.code == 0 {
				t.Errorf("exit status 0, want non-zero")
			}
			if r.out != "" {
				t.Errorf("stdout %q, want nothing", r.out)
			}
			if !strings.HasPrefix(r.errOut, "arbiter: ") || !strings.HasSuffix(r.errOut, "\n") {
				t.Errorf("stderr %q, want \"arbiter: ...\\n\"", r.errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(r.errOut, w) {
					t.Errorf("stderr %q does not say %q", r.errOut, w)
				}
			}
		})
	}
}

// TestFENRoundTrip checks that the FEN printed by fen, given back with
// --from, prints the same FEN, the same moves and the same board.
func TestFENRoundTrip(t *testing.T) {
	t.Parallel()
	tests := [][]string{
		{"pommel"},
		{"pommel", "a1-a3"},
		{"pommel", "a1-a3", "a6-a4"},
		{"pommel", "a1-a3", "a6-a4", "a3xa6"},
		{"pommel", "-o", "hop=any", "a1-a3", "g6-g4"},
		{"pommel", "--from", "W:Wc3,c5:Bc4,Kg1", "c5-c6", "g1xb4"},
		{"pommel", "--from", "B:Wc5,c3,Kd1:Bg6,c4"},
		{"pommel", "--from", "W:Wc3:Bc4", "c3xc5"},
		{"pommel", "--from", "W:W:Ba6"},
		{"pommel-76"},
		{"pommel-76", "b3-b4", "h7-h6", "d3-d4"},
	}
	for _, args := range tests {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			fen := runOK(t, append([]string{"fen"}, args...)...)
			if strings.Count(fen, "\n") != 1 || !strings.HasSuffix(fen, "\n") {
				t.Fatalf("fen printed %q, want one line", fen)
			}
			fen = strings.TrimSuffix(fen, "\n")
			// The options stay on the command line; the position comes from the FEN.
			var opts []string
			for i := 1; i < len(args); i++ {
				if args[i] == "-o" {
					opts = append(opts, args[i], args[i+1])
				}
			}
			again := append([]string{args[0], "--from", fen}, opts...)
			for _, cmd := range []string{"fen", "moves", "show"} {
				got := runOK(t, append([]string{cmd}, again...)...)
				want := runOK(t, append([]string{cmd}, args...)...)
				if got != want {
					t.Errorf("%s from %q:\n%s\nwant (%s):\n%s", cmd, fen, got, strings.Join(args, " "), want)
				}
			}
		})
	}
}

// TestShowGameOver checks that show says how a finished game ended.
func TestShowGameOver(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"pommel", "--from", "W:W:Ba6"}, []string{"White to move", "Game over: Black wins", "no pieces"}},
		{[]string{"pommel", "--from", "W:Wc3:Bc4", "c3xc5"}, []string{"Black to move", "Game over: White wins", "no pieces"}},
		{[]string{"pommel", "-o", "maxplies=1", "a1-a3"}, []string{"Game over: draw", "maxplies"}},
	}
	for _, tt := range tests {
		out := runOK(t, append([]string{"show"}, tt.args...)...)
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("show %s does not say %q:\n%s", strings.Join(tt.args, " "), w, out)
			}
		}
		if last := lines(t, out); !strings.HasPrefix(last[len(last)-1], "Game over: ") {
			t.Errorf("show %s: last line %q, want the result", strings.Join(tt.args, " "), last[len(last)-1])
		}
	}
	if out := runOK(t, "show", "pommel"); strings.Contains(out, "Game over") {
		t.Errorf("show pommel says the game is over:\n%s", out)
	}
}

// TestHelp checks that arbiter alone and help list the commands on stdout.
func TestHelp(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{nil, {"help"}, {"--help"}} {
		out := runOK(t, args...)
		for _, cmd := range []string{"games", "moves", "perft", "fen", "show", "play"} {
			if !strings.Contains(out, "\n  "+cmd+" ") {
				t.Errorf("arbiter %s does not list %s:\n%s", strings.Join(args, " "), cmd, out)
			}
		}
	}
	if out := runOK(t, "help", "perft"); !strings.Contains(out, "--divide") {
		t.Errorf("arbiter help perft does not mention --divide:\n%s", out)
	}
}

// TestLongInputOneShortLine: a move, depth, flag or option of any length
// is quoted by its start only, so the error stays one short line that
// still says what is wrong (and, for a move, its index and why).
func TestLongInputOneShortLine(t *testing.T) {
	longMove := strings.Repeat("a1-", 5000) + "a3"
	long := strings.Repeat("x", 20_000)
	tests := []struct {
		args []string
		want []string // parts of the message
	}{
		{[]string{"moves", "pommel", longMove}, []string{`move 1 "a1-a1-a1-`, `"… is illegal`, "the piece on a1 can play a1-a3, a1-d3"}},
		{[]string{"moves", "pommel", "a1-a3", strings.ToUpper(longMove)}, []string{"move 2 ", "lower case"}},
		{[]string{"perft", "pommel", "1", longMove}, []string{"move 1 ", "is illegal"}},
		{[]string{"perft", "pommel", long}, []string{`depth "xxx`, "want a whole number"}},
		{[]string{"moves", "pommel", "--" + long}, []string{`unknown flag: --"xxx`}},
		{[]string{"moves", "pommel", "--from", long}, []string{"bad FEN"}},
		{[]string{"moves", "pommel", "-o", "maxplies=" + long}, []string{"maxplies="}},
		{[]string{"best", "pommel", "--player", long}, []string{"unknown player"}},
	}
	for _, tc := range tests {
		r := run(t, "", tc.args...)
		what := fmt.Sprintf("arbiter %.40s", strings.Join(tc.args, " "))
		if r.code != 1 || len(r.errOut) > 200 || strings.Count(r.errOut, "\n") != 1 {
			t.Errorf("%s: exit %d, stderr of %d bytes: %.300q; want 1 and one line under 200 bytes", what, r.code, len(r.errOut), r.errOut)
		}
		for _, part := range tc.want {
			if !strings.Contains(r.errOut, part) {
				t.Errorf("%s: stderr %.300q does not say %q", what, r.errOut, part)
			}
		}
	}
}

// TestUnknownCommandsQuotedShort: an unknown command or argument,
// however long, is named by at most 80 characters, on one short line.
func TestUnknownCommandsQuotedShort(t *testing.T) {
	long := strings.Repeat("x", 5000)
	for _, args := range [][]string{{long}, {"serve", long}, {"games", long}} {
		var errOut strings.Builder
		code := Execute(args, strings.NewReader(""), &strings.Builder{}, &errOut)
		if got := errOut.String(); code == 0 || len(got) > 300 || strings.Count(got, "\n") != 1 {
			t.Errorf("%.20v: exit %d, %d bytes: %.120s", args, code, len(got), got)
		}
	}
}
