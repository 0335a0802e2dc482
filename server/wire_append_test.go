package server

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/game"
	_ "github.com/arbiter-games/arbiter/games/all"
)

// marshalled is what json.Marshal writes of ev, nil when it refuses.
func marshalled(ev event) []byte {
	msg, err := json.Marshal(ev.withPosition())
	if err != nil {
		return nil
	}
	return msg
}

// TestAppendGameEventIsMarshal plays random games of every game, and at
// every ply checks that the hand-written event is json.Marshal's to the
// byte: the game, its position and the effects of the move that made it.
func TestAppendGameEventIsMarshal(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 35))
	games := 3
	if testing.Short() {
		games = 1
	}
	view := twoPlayerClocked()
	for _, d := range game.All() {
		rules, err := game.New(d.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		for range games {
			st := rules.Start()
			var effects *game.Effects
			for ply := 0; ; ply++ {
				v := view
				v.Game, v.FEN, v.Ply, v.ToMove, v.Legal = d.ID, st.FEN(), ply, int(st.ToMove()), game.MoveTexts(st)
				ev := gameEvent(&v, st, effects)
				if got, want := marshalGameEvent(ev), marshalled(ev); !bytes.Equal(got, want) {
					t.Fatalf("%s, ply %d:\n got %s\nwant %s", d.ID, ply, got, want)
				}
				moves := st.Moves(nil)
				if len(moves) == 0 || st.Result().Over() || ply == 300 {
					break
				}
				m := moves[rng.IntN(len(moves))]
				e, err := game.MoveEffects(st, m)
				if err != nil {
					t.Fatal(err)
				}
				effects = &e
				st.Play(m)
				v.Moves = append(v.Moves, e.Move)
			}
		}
	}
}

// TestAppendGameEventOfEveryField fills every field of a game's event at
// random, through reflection, so that a field added to the wire types and
// not to the hand-written encoder fails here: strings that need escaping,
// nil and empty lists and maps, times in other zones, ratings of every
// size, pieces of no rank (which json.Marshal refuses, and so must the
// encoder).
func TestAppendGameEventOfEveryField(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(2, 12))
	const cases = 3000
	byHand := 0
	for i := range cases {
		ev := event{Type: "game"}
		f := filler{rng: rng}
		ev.Version = int64(f.integer(64))
		ev.Game, ev.Position, ev.Effects = &gameView{}, &positionView{}, &game.Effects{}
		f.fill(reflect.ValueOf(ev.Game).Elem())
		f.fill(reflect.ValueOf(ev.Position).Elem())
		f.fill(reflect.ValueOf(ev.Effects).Elem())
		if rng.IntN(8) == 0 {
			ev.Position = nil
		}
		if rng.IntN(8) == 0 {
			ev.Effects = nil
		}
		got, want := marshalGameEvent(ev), marshalled(ev)
		if !bytes.Equal(got, want) {
			t.Fatalf("case %d:\n got %s\nwant %s", i, got, want)
		}
		if _, ok := appendGameEvent(nil, &ev); ok {
			byHand++
		}
	}
	if byHand < cases/2 {
		t.Errorf("only %d of %d events were written by hand: the test checks json.Marshal against itself", byHand, cases)
	}
}

// filler fills a value's exported fields at random.
type filler struct{ rng *rand.Rand }

var fillStrings = []string{"", "a1-a3", "g6xe4xg4", "Ann", "<b>&amp;</b>", "a<b", "x>y", "R&D", "del\x7f", "quote \" and \\", "line\nbreak\ttab\x01",
	"é ü ∞", "\u2028\u2029", "bad \xff utf-8", "pommel-76", "W:W21,22:B1,2"}

var fillFloats = []float64{0, 1500, 1234.5678, -3, 1e21, 1e-7, 123456789012345678, math.SmallestNonzeroFloat64}

func (f filler) integer(bits int) int64 {
	switch f.rng.IntN(4) {
	case 0:
		return 0
	case 1:
		return int64(f.rng.IntN(10)) - 1
	default:
		return f.rng.Int64N(1<<(bits-2)) - 1<<(bits-3)
	}
}

func (f filler) fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(fillStrings[f.rng.IntN(len(fillStrings))])
	case reflect.Bool:
		v.SetBool(f.rng.IntN(2) == 0)
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Int16:
		v.SetInt(f.integer(min(v.Type().Bits(), 48)))
	case reflect.Int8: // a player
		v.SetInt(int64(f.rng.IntN(5) - 1))
	case reflect.Uint8: // a piece's rank, now and then none
		rank := uint64(f.rng.IntN(2))
		if f.rng.IntN(100) == 0 {
			rank = 7
		}
		v.SetUint(rank)
	case reflect.Float64:
		v.SetFloat(fillFloats[f.rng.IntN(len(fillFloats))])
	case reflect.Pointer:
		if f.rng.IntN(3) == 0 {
			return
		}
		v.Set(reflect.New(v.Type().Elem()))
		f.fill(v.Elem())
	case reflect.Slice:
		f.fillSlice(v)
	case reflect.Map:
		f.fillMap(v)
	case reflect.Struct:
		f.fillStruct(v)
	default:
		panic("filler: no rule for " + v.Type().String())
	}
}

func (f filler) fillSlice(v reflect.Value) {
	switch f.rng.IntN(4) {
	case 0:
		return // nil
	case 1:
		v.Set(reflect.MakeSlice(v.Type(), 0, 0))
	default:
		n := 1 + f.rng.IntN(4)
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := range n {
			f.fill(v.Index(i))
		}
	}
}

func (f filler) fillMap(v reflect.Value) {
	if f.rng.IntN(4) == 0 {
		return // nil
	}
	v.Set(reflect.MakeMap(v.Type()))
	for range f.rng.IntN(80) {
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		f.fill(k)
		f.fill(e)
		v.SetMapIndex(k, e)
	}
}

func (f filler) fillStruct(v reflect.Value) {
	if v.Type() == reflect.TypeFor[time.Time]() {
		zones := []*time.Location{time.UTC, time.FixedZone("", 5*3600+30*60), time.FixedZone("", -7*3600)}
		at := time.Unix(f.rng.Int64N(4e9), int64(f.rng.IntN(3))*f.rng.Int64N(1e9)).In(zones[f.rng.IntN(len(zones))])
		v.Set(reflect.ValueOf(at))
		return
	}
	for i := range v.NumField() {
		if v.Type().Field(i).IsExported() {
			f.fill(v.Field(i))
		}
	}
}

// BenchmarkGameEvent encodes a Pommel game's event after 40 random
// plies: by json.Marshal and by hand.
func BenchmarkGameEvent(b *testing.B) {
	rules, err := game.New("pommel", nil)
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	st := rules.Start()
	v := twoPlayerClocked()
	v.Moves = nil
	var effects game.Effects
	for range 40 {
		moves := st.Moves(nil)
		m := moves[rng.IntN(len(moves))]
		if effects, err = game.MoveEffects(st, m); err != nil {
			b.Fatal(err)
		}
		st.Play(m)
		v.Moves = append(v.Moves, effects.Move)
	}
	v.FEN, v.Ply, v.Legal = st.FEN(), st.Ply(), game.MoveTexts(st)
	ev := gameEvent(&v, st, &effects)
	b.Run("marshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			marshalled(ev)
		}
	})
	b.Run("by-hand", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			marshalGameEvent(ev)
		}
	})
}
