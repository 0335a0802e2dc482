package game

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"reflect"
)

// Tunable is a game whose evaluation is a set of integer weights that a
// tuner may change (arbiter tune). Weights returns a pointer to a copy of
// the weights the game evaluates with: a struct whose exported fields are
// ints or arrays of ints. EvaluationOf judges positions of the game by
// such a pointer's weights, which it copies.
type Tunable interface {
	Weights() any
	EvaluationOf(weights any) (Evaluation, error)
}

// WeightsFile is the form in which a game's tuned weights are kept (one
// JSON file per game id, embedded in the binary): the weights, and how
// they were made, so that the run can be repeated.
type WeightsFile struct {
	ID      string          `json:"id"`
	Command string          `json:"command"`
	Note    string          `json:"note,omitempty"`
	Weights json.RawMessage `json:"weights"`
}

// ParseWeights reads a WeightsFile for game id into w, a pointer to a
// weights struct. Every exported field of w must be given and nothing
// else: a field left out would silently keep its zero.
func ParseWeights(data []byte, id string, w any) error {
	var f WeightsFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return fmt.Errorf("weights: %v", err)
	}
	if f.ID != id {
		return fmt.Errorf("weights: the file is for %q, not %q", f.ID, id)
	}
	var given map[string]json.RawMessage
	if err := json.Unmarshal(f.Weights, &given); err != nil {
		return fmt.Errorf("weights: %v", err)
	}
	if err := checkGiven(reflect.TypeOf(w).Elem(), given); err != nil {
		return err
	}
	dec = json.NewDecoder(bytes.NewReader(f.Weights))
	dec.DisallowUnknownFields()
	if err := dec.Decode(w); err != nil {
		return fmt.Errorf("weights: %v", err)
	}
	return nil
}

// checkGiven makes sure that every exported field of t is given, arrays
// at their length: JSON would leave a missing field zero and drop or zero
// the numbers of an array of another length.
func checkGiven(t reflect.Type, given map[string]json.RawMessage) error {
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		if given[f.Name] == nil {
			return fmt.Errorf("weights: %s is missing", f.Name)
		}
		if f.Type.Kind() != reflect.Array {
			continue
		}
		var items []json.RawMessage
		if err := json.Unmarshal(given[f.Name], &items); err != nil {
			return fmt.Errorf("weights: %s: %v", f.Name, err)
		}
		if len(items) != f.Type.Len() {
			return fmt.Errorf("weights: %s has %d numbers, not %d", f.Name, len(items), f.Type.Len())
		}
	}
	return nil
}

// WeightNames lists the tunable numbers of a weights struct in order, as
// Field or Field[i] for arrays.
func WeightNames(w any) []string {
	var names []string
	walkWeights(w, func(name string, _ reflect.Value) { names = append(names, name) })
	return names
}

// WeightValues returns the numbers of a weights struct in WeightNames'
// order.
func WeightValues(w any) []int {
	var vals []int
	walkWeights(w, func(_ string, v reflect.Value) { vals = append(vals, int(v.Int())) })
	return vals
}

// SetWeightValues sets the numbers of the weights struct w points to, in
// WeightNames' order.
func SetWeightValues(w any, vals []int) error {
	n := len(WeightNames(w))
	if len(vals) != n {
		return fmt.Errorf("weights: %d numbers for %d weights", len(vals), n)
	}
	i := 0
	walkWeights(w, func(_ string, v reflect.Value) { v.SetInt(int64(vals[i])); i++ })
	return nil
}

// walkWeights calls f on every int of the struct w points to, in field
// order, arrays element by element.
func walkWeights(w any, f func(name string, v reflect.Value)) {
	v := reflect.ValueOf(w).Elem()
	t := v.Type()
	for i := range t.NumField() {
		field := t.Field(i)
		if !field.IsExported() {
			continue
		}
		fv := v.Field(i)
		switch fv.Kind() {
		case reflect.Int:
			f(field.Name, fv)
		case reflect.Array:
			for j := range fv.Len() {
				f(fmt.Sprintf("%s[%d]", field.Name, j), fv.Index(j))
			}
		}
	}
}

// LoadWeights returns the weights of game id from files, where a game's
// package embeds its weights files as weights/ID.json, or def when the id
// has none. The files are part of the build, and a test reads every one,
// so a file that does not parse is a programming error: it panics.
func LoadWeights[W any](files fs.FS, id string, def W) W {
	data, err := fs.ReadFile(files, "weights/"+id+".json")
	if err != nil {
		return def
	}
	var w W
	if err := ParseWeights(data, id, &w); err != nil {
		panic(fmt.Sprintf("weights/%s.json: %v", id, err))
	}
	return w
}

// EvaluationFrom makes an evaluation by weights w, which must be a *W,
// with evaluation, for a game's Tunable.EvaluationOf.
func EvaluationFrom[W any](w any, evaluation func(W) Evaluation) (Evaluation, error) {
	weights, ok := w.(*W)
	if !ok {
		var want *W
		return nil, fmt.Errorf("weights of type %T, not %T", w, want)
	}
	return evaluation(*weights), nil
}
