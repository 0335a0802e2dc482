package pairing

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

func numbers(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = strconv.Itoa(i + 1)
	}
	return ids
}

// TestRoundRobinBergerTables compares every round with FIDE's published
// tables for 4, 6 and 8 players (testdata/berger), and the tables for 3,
// 5 and 7 players (the same with the last number a bye).
func TestRoundRobinBergerTables(t *testing.T) {
	for _, n := range []int{4, 6, 8} {
		data, err := os.ReadFile(fmt.Sprintf("testdata/berger/%d.txt", n))
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if !strings.HasPrefix(line, "#") {
				want = append(want, line)
			}
		}
		for _, players := range []int{n, n - 1} {
			rounds, err := RoundRobin(numbers(players))
			if err != nil {
				t.Fatal(err)
			}
			if len(rounds) != len(want) {
				t.Fatalf("%d players: %d rounds, want %d", players, len(rounds), len(want))
			}
			for i, rd := range rounds {
				got := strings.Join(pairStrings(rd), " ")
				w := want[i]
				if players < n { // the last number is the bye
					last := strconv.Itoa(n)
					var kept []string
					for _, g := range strings.Fields(w) {
						if a, b, _ := strings.Cut(g, "-"); a == last || b == last {
							if want := strings.Trim(strings.Replace(g, last, "", 1), "-"); rd.Bye != want {
								t.Errorf("%d players, round %d: bye %q, want %q", players, i+1, rd.Bye, want)
							}
							continue
						}
						kept = append(kept, g)
					}
					w = strings.Join(kept, " ")
				}
				if got != w {
					t.Errorf("%d players, round %d: got %q, want %q", players, i+1, got, w)
				}
			}
		}
	}
}

// TestRoundRobinProperties: for 2 to 16 players every two meet exactly
// once, everybody plays (or has the bye) once a round, colours stay
// within one of even and never come three times running, and the last
// number (even n) alternates every round, as in the tables.
func TestRoundRobinProperties(t *testing.T) {
	for n := 2; n <= 16; n++ {
		rounds, err := RoundRobin(numbers(n))
		if err != nil {
			t.Fatal(err)
		}
		met := map[[2]string]int{}
		colours := map[string][]Colour{}
		for _, rd := range rounds {
			seen := map[string]int{rd.Bye: 1}
			for _, p := range rd.Pairs {
				seen[p.White]++
				seen[p.Black]++
				a, b := min(p.White, p.Black), max(p.White, p.Black)
				met[[2]string{a, b}]++
				colours[p.White] = append(colours[p.White], White)
				colours[p.Black] = append(colours[p.Black], Black)
			}
			for _, id := range numbers(n) {
				if seen[id] != 1 {
					t.Fatalf("n=%d round %d: %s plays %d times", n, rd.Number, id, seen[id])
				}
			}
		}
		if len(met) != n*(n-1)/2 {
			t.Fatalf("n=%d: %d pairs met, want %d", n, len(met), n*(n-1)/2)
		}
		for pair, k := range met {
			if k != 1 {
				t.Fatalf("n=%d: %v met %d times", n, pair, k)
			}
		}
		for id, cs := range colours {
			if cd := colourDifference(cs); cd > 1 || cd < -1 {
				t.Errorf("n=%d: %s has colours %v", n, id, cs)
			}
			for i := 2; i < len(cs); i++ {
				if cs[i] == cs[i-1] && cs[i] == cs[i-2] {
					t.Errorf("n=%d: %s has three %v running", n, id, cs[i])
				}
			}
		}
		if n%2 == 0 {
			last := colours[strconv.Itoa(n)]
			for i := 1; i < len(last); i++ {
				if last[i] == last[i-1] {
					t.Errorf("n=%d: the last number does not alternate: %v", n, last)
				}
			}
		}
	}
}

func TestRoundRobinRefusals(t *testing.T) {
	for _, ids := range [][]string{nil, {"a"}, {"a", "a"}, {"a", ""}} {
		if _, err := RoundRobin(ids); !errors.Is(err, ErrInvalid) {
			t.Errorf("%q: got %v", ids, err)
		}
	}
}
