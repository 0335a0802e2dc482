package pairing

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// example is a tournament worked by hand from the rules (testdata/swiss):
// its players and, round by round, the expected pairing and the results
// played.
type example struct {
	Name    string
	Explain []string
	Players []struct {
		ID     string
		Rating float64
	}
	Rounds []struct {
		Pairs   []string
		Bye     string
		Results []string
	}
}

// TestSwissWorkedExamples replays the hand-worked tournaments: each round
// must come out exactly as the explanation in the file derives it.
func TestSwissWorkedExamples(t *testing.T) {
	files, err := filepath.Glob("testdata/swiss/*.json")
	if err != nil || len(files) < 2 {
		t.Fatalf("worked examples: %v %v", files, err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			ex := readExample(t, f)
			var ps []Player
			for _, p := range ex.Players {
				ps = append(ps, Player{ID: p.ID, Rating: p.Rating})
			}
			for i, want := range ex.Rounds {
				rd, err := Swiss(ps, i+1, SwissOptions{})
				if err != nil {
					t.Fatalf("round %d: %v", i+1, err)
				}
				got := pairStrings(rd)
				if strings.Join(got, " ") != strings.Join(want.Pairs, " ") || rd.Bye != want.Bye {
					t.Fatalf("round %d: got %v bye %q, want %v bye %q", i+1, got, rd.Bye, want.Pairs, want.Bye)
				}
				results := map[Pair]float64{}
				for j, res := range want.Results {
					results[rd.Pairs[j]] = whitePoints(t, res)
				}
				record(ps, rd, func(p Pair) float64 { return results[p] })
			}
		})
	}
}

func readExample(t *testing.T, path string) example {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ex example
	if err := json.Unmarshal(data, &ex); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return ex
}

func pairStrings(rd Round) []string {
	var out []string
	for _, p := range rd.Pairs {
		out = append(out, p.White+"-"+p.Black)
	}
	return out
}

func whitePoints(t *testing.T, result string) float64 {
	switch result {
	case "1-0":
		return 1
	case "½-½":
		return 0.5
	case "0-1":
		return 0
	}
	t.Fatalf("result %q", result)
	return 0
}
