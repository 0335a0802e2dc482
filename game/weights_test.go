package game

import (
	"slices"
	"strings"
	"testing"
)

type testWeights struct {
	Piece int
	Table [3]int
	note  int // unexported: not a weight
}

func TestParseWeights(t *testing.T) {
	t.Parallel()
	var w testWeights
	good := `{"id":"g","command":"c","weights":{"Piece":100,"Table":[1,2,3]}}`
	if err := ParseWeights([]byte(good), "g", &w); err != nil || w.Piece != 100 || w.Table != [3]int{1, 2, 3} {
		t.Fatalf("%+v, %v", w, err)
	}
	for _, tc := range []struct{ name, text, id, want string }{
		{"another id", good, "h", `for "g", not "h"`},
		{"a missing weight", `{"id":"g","command":"c","weights":{"Piece":100}}`, "g", "Table is missing"},
		{"an unknown weight", `{"id":"g","command":"c","weights":{"Piece":1,"Table":[1,2,3],"King":3}}`, "g", "King"},
		{"an unknown field", `{"id":"g","cmd":"c","weights":{"Piece":1,"Table":[1,2,3]}}`, "g", "cmd"},
		{"a short array", `{"id":"g","command":"c","weights":{"Piece":1,"Table":[1,2,3,4]}}`, "g", "weights"},
		{"not a number", `{"id":"g","command":"c","weights":{"Piece":"a","Table":[1,2,3]}}`, "g", "weights"},
		{"not JSON", `{`, "g", "weights"},
	} {
		if err := ParseWeights([]byte(tc.text), tc.id, &w); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}

func TestWeightValues(t *testing.T) {
	t.Parallel()
	w := &testWeights{Piece: 5, Table: [3]int{6, 7, 8}, note: 9}
	if got := WeightNames(w); !slices.Equal(got, []string{"Piece", "Table[0]", "Table[1]", "Table[2]"}) {
		t.Errorf("names %v", got)
	}
	if got := WeightValues(w); !slices.Equal(got, []int{5, 6, 7, 8}) {
		t.Errorf("values %v", got)
	}
	if err := SetWeightValues(w, []int{1, 2, 3, 4}); err != nil || *w != (testWeights{1, [3]int{2, 3, 4}, 9}) {
		t.Errorf("set: %+v, %v", *w, err)
	}
	if err := SetWeightValues(w, []int{1}); err == nil {
		t.Error("one number for four weights accepted")
	}
}
