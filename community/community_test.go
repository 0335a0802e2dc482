package community_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/community"
	"github.com/arbiter-games/arbiter/store"
	"github.com/arbiter-games/arbiter/store/sqlite"
)

// base is the fake clock's start, to the millisecond (as the store keeps
// times).
var base = time.Date(2025, 3, 14, 15, 9, 26, 0, time.UTC)

// fixture is a service over a real SQLite store, driven by a fake clock.
type fixture struct {
	t   *testing.T
	ctx context.Context
	st  *sqlite.Store
	svc *community.Service
	now time.Time
}

// newFixture opens a store in a fresh folder and a service over it with
// limits l (zero fields: the defaults).
func newFixture(t *testing.T, l community.Limits) *fixture {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatalf("sqlite.Open: %v", err)
	}
	t.Cleanup(func() {
		if err := st.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	f := &fixture{t: t, ctx: ctx, st: st, now: base}
	f.svc, err = community.New(community.Config{Store: st, Limits: l, Now: func() time.Time { return f.now }})
	if err != nil {
		t.Fatalf("community.New: %v", err)
	}
	return f
}

// advance moves the fake clock on.
func (f *fixture) advance(d time.Duration) { f.now = f.now.Add(d) }

// account makes an account named name (its id is name's "id-" twin),
// created age before the fake clock's now.
func (f *fixture) account(name string, age time.Duration) store.Account {
	f.t.Helper()
	a := store.Account{ID: "id-" + name, Name: name, Password: "x", Created: f.now.Add(-age)}
	if err := f.st.CreateAccount(f.ctx, a); err != nil {
		f.t.Fatalf("CreateAccount(%s): %v", name, err)
	}
	return a
}

// game makes a running two-seat game between two accounts.
func (f *fixture) game(id string, a, b store.Account) store.Header {
	f.t.Helper()
	h := store.Header{
		ID:      id,
		Game:    "pommel",
		Options: map[string]string{},
		Seats: []store.Seat{
			{Player: "human", Name: a.Name, Account: a.ID},
			{Player: "human", Name: b.Name, Account: b.ID},
		},
		Version:   1,
		DrawOffer: -1,
		Created:   f.now,
		Updated:   f.now,
	}
	if err := f.st.Create(f.ctx, h); err != nil {
		f.t.Fatalf("Create(%s): %v", id, err)
	}
	return h
}

// end stores a result of h.
func (f *fixture) end(h store.Header) store.Header {
	f.t.Helper()
	h.Version++
	h.Result = &store.Result{Winners: []int{0}, Reason: "resignation"}
	h.Updated = f.now
	if err := f.st.Update(f.ctx, h); err != nil {
		f.t.Fatalf("Update ending %s: %v", h.ID, err)
	}
	return h
}

// say writes a message, one second after the last (so that messages sort
// as written), and fails the test if it is refused.
func (f *fixture) say(game, room string, by store.Account, text string) community.Message {
	f.t.Helper()
	f.advance(time.Second)
	m, err := f.svc.Say(f.ctx, game, room, by.ID, text)
	if err != nil {
		f.t.Fatalf("%s says %q in %s/%s: %v", by.Name, text, game, room, err)
	}
	return m
}

// standing reads an account's standing from the store.
func (f *fixture) standing(a store.Account) store.Standing {
	f.t.Helper()
	got, err := f.st.Account(f.ctx, a.ID)
	if err != nil {
		f.t.Fatalf("Account(%s): %v", a.Name, err)
	}
	return got.Standing
}

// wantCode fails unless err is a refusal of code; it gives the refusal.
func wantCode(t *testing.T, what string, err error, code community.Code) *community.Error {
	t.Helper()
	var ce *community.Error
	if !errors.As(err, &ce) {
		t.Fatalf("%s: error %v, want a refusal %q", what, err, code)
	}
	if ce.Code != code {
		t.Fatalf("%s: refusal %q (%s), want %q", what, ce.Code, ce.Message, code)
	}
	return ce
}

// roomNames are the names of rooms.
func roomNames(rooms []community.Room) []string {
	var names []string
	for _, r := range rooms {
		names = append(names, r.Name)
	}
	return names
}

// texts are the texts of messages.
func texts(msgs []community.Message) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, m.Text)
	}
	return out
}

// rooms reads the rooms of a game for reader, failing on an error.
func (f *fixture) rooms(game, reader string) []community.Room {
	f.t.Helper()
	rooms, err := f.svc.Rooms(f.ctx, game, reader)
	if err != nil {
		f.t.Fatalf("Rooms(%s, %q): %v", game, reader, err)
	}
	return rooms
}

// room is the room named name of rooms; it fails the test when there is
// none.
func room(t *testing.T, rooms []community.Room, name string) community.Room {
	t.Helper()
	for _, r := range rooms {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no room %q in %v", name, roomNames(rooms))
	return community.Room{}
}

func TestSayText(t *testing.T) {
	f := newFixture(t, community.Limits{MessageRunes: 10})
	ada, bob := f.account("ada", time.Hour), f.account("bob", time.Hour)
	f.game("g", ada, bob)
	tests := []struct {
		name, text, want string
	}{
		{"trimmed", "  \t hello \n ", "hello"},
		{"control characters dropped", "he\x00l\x07lo\x1b", "hello"},
		{"format characters dropped", "he\u200bl\u202elo\ufeff", "hello"},
		{"newlines inside dropped", "a\nb\r\nc", "abc"},
		{"at the limit, counted in characters", strings.Repeat("é", 10), strings.Repeat("é", 10)},
		{"at the limit once cleaned", strings.Repeat("x", 10) + "\u200b\x00", strings.Repeat("x", 10)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.advance(time.Minute) // never near the per-minute limit
			m, err := f.svc.Say(f.ctx, "g", store.RoomPlayers, ada.ID, tt.text)
			if err != nil {
				t.Fatalf("Say(%q): %v", tt.text, err)
			}
			if m.Text != tt.want {
				t.Errorf("Say(%q) kept %q, want %q", tt.text, m.Text, tt.want)
			}
			stored, err := f.st.ChatMessage(f.ctx, m.ID)
			if err != nil || stored.Text != tt.want {
				t.Errorf("the store keeps %q (%v), want %q", stored.Text, err, tt.want)
			}
			if m.Game != "g" || m.Room != store.RoomPlayers || m.Account != ada.ID || m.Name != "ada" || m.At != f.now.UnixMilli() {
				t.Errorf("message %+v: want game g, room players, ada's, at %d", m, f.now.UnixMilli())
			}
		})
	}

	refused := []struct {
		name, text string
		says       string // part of the refusal's message
	}{
		{"empty", "", "empty"},
		{"only spaces", "   \t\n ", "empty"},
		{"only control and format characters", "\x00\u200b\x1b", "empty"},
		{"over the limit", strings.Repeat("é", 11), "11 characters"},
		{"far over the limit", strings.Repeat("x", 300), "300 characters"},
		{"invalid UTF-8", "hi \xff there", "UTF-8"},
		{"a cut UTF-8 sequence", "caf\xc3", "UTF-8"},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			f.advance(time.Minute)
			_, err := f.svc.Say(f.ctx, "g", store.RoomPlayers, ada.ID, tt.text)
			ce := wantCode(t, fmt.Sprintf("Say(%q)", tt.text), err, community.Invalid)
			if !strings.Contains(ce.Message, tt.says) {
				t.Errorf("refusal %q does not say %q", ce.Message, tt.says)
			}
		})
	}
	msgs, err := f.st.Chat(f.ctx, "g", store.RoomPlayers, 0)
	if err != nil || len(msgs) != len(tests) {
		t.Errorf("the store keeps %d messages (%v), want %d: refused ones are not stored", len(msgs), err, len(tests))
	}
}

func TestSayWho(t *testing.T) {
	f := newFixture(t, community.Limits{})
	ada, bob, cy := f.account("ada", time.Hour), f.account("bob", time.Hour), f.account("cy", time.Hour)
	gone := f.account("gone", time.Hour)
	if err := f.st.DeleteAccount(f.ctx, gone.ID, f.now); err != nil {
		t.Fatal(err)
	}
	h := f.game("g", ada, bob)
	tests := []struct {
		name       string
		game, room string
		account    string
		want       community.Code // "" for allowed
	}{
		{"a player in the players' room", "g", store.RoomPlayers, ada.ID, ""},
		{"the other player in the players' room", "g", store.RoomPlayers, bob.ID, ""},
		{"a spectator in the spectators' room", "g", store.RoomSpectators, cy.ID, ""},
		{"a player in the spectators' room", "g", store.RoomSpectators, ada.ID, community.Forbidden},
		{"a spectator in the players' room", "g", store.RoomPlayers, cy.ID, community.Forbidden},
		{"a visitor in the spectators' room", "g", store.RoomSpectators, "", community.Forbidden},
		{"a visitor in the players' room", "g", store.RoomPlayers, "", community.Forbidden},
		{"an unknown room", "g", "lobby", ada.ID, community.Invalid},
		{"an empty room", "g", "", ada.ID, community.Invalid},
		{"a room in another case", "g", "Players", ada.ID, community.Invalid},
		{"an unknown game", "nope", store.RoomSpectators, cy.ID, community.NotFound},
		{"an unknown account", "g", store.RoomSpectators, "id-nobody", community.NotFound},
		{"a deleted account", "g", store.RoomSpectators, gone.ID, community.NotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.advance(time.Minute)
			_, err := f.svc.Say(f.ctx, tt.game, tt.room, tt.account, "hello")
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Say: %v, want it allowed", err)
				}
				return
			}
			wantCode(t, "Say", err, tt.want)
		})
	}

	// Once the game is over, its players still write only in theirs.
	f.end(h)
	f.advance(time.Minute)
	if _, err := f.svc.Say(f.ctx, "g", store.RoomPlayers, ada.ID, "gg"); err != nil {
		t.Errorf("a player in the players' room of an ended game: %v", err)
	}
	_, err := f.svc.Say(f.ctx, "g", store.RoomSpectators, ada.ID, "gg")
	wantCode(t, "a player in the spectators' room of an ended game", err, community.Forbidden)
	if _, err := f.svc.Say(f.ctx, "g", store.RoomSpectators, cy.ID, "well played"); err != nil {
		t.Errorf("a spectator in the spectators' room of an ended game: %v", err)
	}
}

func TestSayPerMinute(t *testing.T) {
	const per = 5
	f := newFixture(t, community.Limits{PerMinute: per})
	ada, bob, cy := f.account("ada", time.Hour), f.account("bob", time.Hour), f.account("cy", time.Hour)
	f.game("g", ada, bob)
	for i := range per {
		if _, err := f.svc.Say(f.ctx, "g", store.RoomPlayers, ada.ID, fmt.Sprint("line ", i)); err != nil {
			t.Fatalf("message %d of %d in a minute: %v", i+1, per, err)
		}
	}
	_, err := f.svc.Say(f.ctx, "g", store.RoomPlayers, ada.ID, "one too many")
	ce := wantCode(t, fmt.Sprintf("message %d in a minute", per+1), err, community.TooMany)
	if !strings.Contains(ce.Message, fmt.Sprint(per)) {
		t.Errorf("refusal %q does not say the limit, %d", ce.Message, per)
	}
	// The limit is each account's.
	if _, err := f.svc.Say(f.ctx, "g", store.RoomPlayers, bob.ID, "me too"); err != nil {
		t.Errorf("another player's first message: %v", err)
	}
	if _, err := f.svc.Say(f.ctx, "g", store.RoomSpectators, cy.ID, "and me"); err != nil {
		t.Errorf("a spectator's first message: %v", err)
	}
	// Refused messages cost nothing, and are not stored.
	msgs, err := f.st.Chat(f.ctx, "g", store.RoomPlayers, 0)
	if err != nil || len(msgs) != per+1 {
		t.Errorf("%d messages stored (%v), want %d", len(msgs), err, per+1)
	}
	// The bucket refills evenly: one message every 60/per seconds.
	f.advance(60*time.Second/per - time.Second)
	_, err = f.svc.Say(f.ctx, "g", store.RoomPlayers, ada.ID, "too soon")
	wantCode(t, "a message before a token came back", err, community.TooMany)
	f.advance(60 * time.Second)
	if _, err := f.svc.Say(f.ctx, "g", store.RoomPlayers, ada.ID, "a minute on"); err != nil {
		t.Fatalf("a message a minute later: %v", err)
	}
	// A minute refills the whole burst, not more.
	f.advance(time.Hour)
	for i := range per {
		if _, err := f.svc.Say(f.ctx, "g", store.RoomPlayers, ada.ID, fmt.Sprint("again ", i)); err != nil {
			t.Fatalf("message %d of %d after an hour: %v", i+1, per, err)
		}
	}
	_, err = f.svc.Say(f.ctx, "g", store.RoomPlayers, ada.ID, "over again")
	wantCode(t, "the message after the burst, an hour later", err, community.TooMany)
}

func TestRooms(t *testing.T) {
	f := newFixture(t, community.Limits{})
	ada, bob := f.account("ada", time.Hour), f.account("bob", 30*24*time.Hour)
	cy, eve, fay := f.account("cy", time.Hour), f.account("eve", time.Hour), f.account("fay", time.Hour)
	h := f.game("g", ada, bob)
	f.say("g", store.RoomPlayers, ada, "p1 ada")
	f.say("g", store.RoomPlayers, bob, "p2 bob")
	f.say("g", store.RoomSpectators, cy, "s1 cy")
	f.say("g", store.RoomSpectators, eve, "s2 eve")
	f.say("g", store.RoomSpectators, fay, "s3 fay")
	// cy blocks eve, and fay blocks cy: cy sees neither's messages.
	if _, err := f.svc.Block(f.ctx, cy.ID, "eve"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Block(f.ctx, fay.ID, "cy"); err != nil {
		t.Fatal(err)
	}
	all := []string{"s1 cy", "s2 eve", "s3 fay"}

	tests := []struct {
		name     string
		reader   string
		rooms    []string
		write    []bool
		why      []string // parts of each room's Why
		messages [][]string
	}{
		{"a visitor", "", []string{store.RoomSpectators}, []bool{false}, []string{"Sign in"}, [][]string{all}},
		{"an unknown account, as a visitor", "id-nobody", []string{store.RoomSpectators}, []bool{false}, []string{"Sign in"},
			[][]string{all}},
		{"a player during the game", ada.ID, []string{store.RoomPlayers}, []bool{true}, []string{""},
			[][]string{{"p1 ada", "p2 bob"}}},
		{"the other player during the game", bob.ID, []string{store.RoomPlayers}, []bool{true}, []string{""},
			[][]string{{"p1 ada", "p2 bob"}}},
		{"a spectator who blocks one and is blocked by another", cy.ID, []string{store.RoomSpectators}, []bool{true},
			[]string{""}, [][]string{{"s1 cy"}}},
		{"the blocked spectator", eve.ID, []string{store.RoomSpectators}, []bool{true}, []string{""},
			[][]string{{"s2 eve", "s3 fay"}}},
		{"the blocking spectator", fay.ID, []string{store.RoomSpectators}, []bool{true}, []string{""},
			[][]string{{"s2 eve", "s3 fay"}}},
	}
	check := func(t *testing.T, rooms []community.Room, names []string, write []bool, why []string, messages [][]string) {
		t.Helper()
		if got := roomNames(rooms); !slices.Equal(got, names) {
			t.Fatalf("rooms %v, want %v", got, names)
		}
		for i, r := range rooms {
			if r.Write != write[i] {
				t.Errorf("room %s: Write %v, want %v (why %q)", r.Name, r.Write, write[i], r.Why)
			}
			if why[i] == "" && r.Why != "" || !strings.Contains(r.Why, why[i]) {
				t.Errorf("room %s: Why %q, want %q", r.Name, r.Why, why[i])
			}
			if got := texts(r.Messages); !slices.Equal(got, messages[i]) {
				t.Errorf("room %s: messages %q, want %q", r.Name, got, messages[i])
			}
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			check(t, f.rooms("g", tt.reader), tt.rooms, tt.write, tt.why, tt.messages)
		})
	}

	t.Run("links", func(t *testing.T) {
		f.advance(time.Second)
		// ada is an hour old, bob a month: only bob's links are clickable.
		r := room(t, f.rooms("g", ada.ID), store.RoomPlayers)
		for _, m := range r.Messages {
			if want := m.Account == bob.ID; m.Links != want {
				t.Errorf("message %q of %s: Links %v, want %v", m.Text, m.Name, m.Links, want)
			}
		}
		// The age counts at the message's time, to the limit.
		young := f.account("young", community.DefaultLimits.NewAccount-time.Millisecond)
		old := f.account("old", community.DefaultLimits.NewAccount)
		if m, err := f.svc.Say(f.ctx, "g", store.RoomSpectators, young.ID, "x.example"); err != nil || m.Links {
			t.Errorf("an account a millisecond younger than NewAccount: Links %v (%v), want false", m.Links, err)
		}
		if m, err := f.svc.Say(f.ctx, "g", store.RoomSpectators, old.ID, "y.example"); err != nil || !m.Links {
			t.Errorf("an account as old as NewAccount: Links %v (%v), want true", m.Links, err)
		}
		// Once young is older than NewAccount its new messages' links are
		// clickable, its old one's still not.
		if m := f.say("g", store.RoomSpectators, young, "z.example"); !m.Links {
			t.Errorf("the young account once it is older than NewAccount: Links false")
		}
		for _, m := range room(t, f.rooms("g", ""), store.RoomSpectators).Messages {
			if m.Text == "x.example" && m.Links {
				t.Errorf("a message written while its account was new shows clickable links once it is older")
			}
		}
	})

	t.Run("once the game is over", func(t *testing.T) {
		f.end(h)
		rooms := f.rooms("g", ada.ID)
		if got, want := roomNames(rooms), []string{store.RoomPlayers, store.RoomSpectators}; !slices.Equal(got, want) {
			t.Fatalf("a player's rooms after the game %v, want %v", got, want)
		}
		if p := room(t, rooms, store.RoomPlayers); !p.Write || !slices.Equal(texts(p.Messages), []string{"p1 ada", "p2 bob"}) {
			t.Errorf("the players' room after the game: Write %v, messages %q", p.Write, texts(p.Messages))
		}
		s := room(t, rooms, store.RoomSpectators)
		if s.Write || s.Why == "" {
			t.Errorf("a player may write in the spectators' room after the game (why %q)", s.Why)
		}
		if len(s.Messages) < 3 || !slices.Equal(texts(s.Messages)[:3], all) {
			t.Errorf("a player reads the spectators' room after the game as %q", texts(s.Messages))
		}
		// A spectator still reads only the spectators' room.
		if got := roomNames(f.rooms("g", eve.ID)); !slices.Equal(got, []string{store.RoomSpectators}) {
			t.Errorf("a spectator's rooms after the game %v", got)
		}
	})

	t.Run("unknown game", func(t *testing.T) {
		_, err := f.svc.Rooms(f.ctx, "nope", ada.ID)
		wantCode(t, "Rooms of an unknown game", err, community.NotFound)
	})
}

// TestSameMillisecond checks that messages and log lines written in one
// millisecond are read in the order they were written: their ids sort so.
func TestSameMillisecond(t *testing.T) {
	f := newFixture(t, community.Limits{PerMinute: 100})
	ada, bob, cy := f.account("ada", time.Hour), f.account("bob", time.Hour), f.account("cy", time.Hour)
	f.game("g", ada, bob)
	var want []string
	for i := range 30 {
		by := []store.Account{ada, bob}[i%2]
		text := fmt.Sprint("line ", i)
		if _, err := f.svc.Say(f.ctx, "g", store.RoomPlayers, by.ID, text); err != nil {
			t.Fatal(err)
		}
		want = append(want, text)
	}
	if got := texts(room(t, f.rooms("g", ada.ID), store.RoomPlayers).Messages); !slices.Equal(got, want) {
		t.Errorf("messages of one millisecond read as\n%q\nwritten as\n%q", got, want)
	}
	if err := f.svc.Grant(f.ctx, "cy", true); err != nil {
		t.Fatal(err)
	}
	var actions []string
	for i := range 10 {
		a := []string{store.ActionEngine, store.ActionClearEngine}[i%2]
		if _, err := f.svc.Act(f.ctx, cy.ID, community.Action{Account: "bob", Action: a, Reason: fmt.Sprint("reason ", i)}); err != nil {
			t.Fatal(err)
		}
		actions = append(actions, fmt.Sprint("reason ", i))
	}
	log, err := f.svc.Log(f.ctx, cy.ID, "bob")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range log {
		got = append(got, l.Reason)
	}
	slices.Reverse(actions)
	if !slices.Equal(got, actions) {
		t.Errorf("the log of one millisecond reads\n%q\nwant newest first\n%q", got, actions)
	}
}

func TestRoomsHistory(t *testing.T) {
	f := newFixture(t, community.Limits{History: 3})
	ada, bob, cy := f.account("ada", time.Hour), f.account("bob", time.Hour), f.account("cy", time.Hour)
	f.game("g", ada, bob)
	for i := range 5 {
		f.say("g", store.RoomSpectators, cy, fmt.Sprint("line ", i))
	}
	got := texts(room(t, f.rooms("g", ""), store.RoomSpectators).Messages)
	if want := []string{"line 2", "line 3", "line 4"}; !slices.Equal(got, want) {
		t.Errorf("with History 3 the room shows %q, want the newest, oldest first, %q", got, want)
	}
}

// received are the messages a listener was given so far (publish gives
// them as Say writes them: nothing is on its way once Say returned).
func received(l *community.Listener) []string {
	var out []string
	for {
		select {
		case m := <-l.Messages():
			out = append(out, m.Text)
		default:
			return out
		}
	}
}

func TestListen(t *testing.T) {
	f := newFixture(t, community.Limits{})
	ada, bob := f.account("ada", time.Hour), f.account("bob", time.Hour)
	cy, eve := f.account("cy", time.Hour), f.account("eve", time.Hour)
	f.game("g", ada, bob)
	f.game("other", ada, bob)
	listen := func(reader string) *community.Listener {
		t.Helper()
		l, err := f.svc.Listen(f.ctx, "g", reader)
		if err != nil {
			t.Fatalf("Listen(g, %q): %v", reader, err)
		}
		return l
	}
	lAda, lBob, lCy, lEve, lVisitor := listen(ada.ID), listen(bob.ID), listen(cy.ID), listen(eve.ID), listen("")
	defer func() {
		for _, l := range []*community.Listener{lAda, lBob, lEve, lVisitor} {
			f.svc.Unlisten(l)
		}
	}()
	expect := func(step string, want map[*community.Listener][]string) {
		t.Helper()
		for name, l := range map[string]*community.Listener{"ada": lAda, "bob": lBob, "cy": lCy, "eve": lEve, "a visitor": lVisitor} {
			got := received(l)
			if !slices.Equal(got, want[l]) {
				t.Errorf("%s: %s's listener got %q, want %q", step, name, got, want[l])
			}
		}
	}

	f.say("g", store.RoomPlayers, bob, "p bob")
	expect("a player's message", map[*community.Listener][]string{lAda: {"p bob"}, lBob: {"p bob"}})
	f.say("g", store.RoomSpectators, cy, "s cy")
	expect("a spectator's message during the game", map[*community.Listener][]string{
		lCy: {"s cy"}, lEve: {"s cy"}, lVisitor: {"s cy"}})
	f.say("other", store.RoomPlayers, ada, "elsewhere")
	f.say("other", store.RoomSpectators, cy, "elsewhere too")
	expect("messages of another game", nil)

	// The listeners' messages are those Say gave.
	m := f.say("g", store.RoomSpectators, eve, "s eve")
	select {
	case got := <-lVisitor.Messages():
		if got != m {
			t.Errorf("the listener got %+v, Say gave %+v", got, m)
		}
	default:
		t.Fatalf("the visitor's listener got nothing")
	}
	received(lCy)
	received(lEve)

	// cy blocks eve: from now neither's listener gets the other's messages.
	if _, err := f.svc.Block(f.ctx, cy.ID, "eve"); err != nil {
		t.Fatal(err)
	}
	f.say("g", store.RoomSpectators, eve, "eve after the block")
	f.say("g", store.RoomSpectators, cy, "cy after the block")
	expect("after cy blocked eve", map[*community.Listener][]string{
		lCy:      {"cy after the block"},
		lEve:     {"eve after the block"},
		lVisitor: {"eve after the block", "cy after the block"},
	})
	// A listener started after the block reads the block from the store.
	lCy2 := listen(cy.ID)
	defer f.svc.Unlisten(lCy2)
	f.say("g", store.RoomSpectators, eve, "eve again")
	if got := received(lCy2); len(got) != 0 {
		t.Errorf("a listener of cy started after the block got %q", got)
	}
	received(lEve)
	received(lVisitor)

	// Unlisten stops delivery.
	f.svc.Unlisten(lCy)
	f.say("g", store.RoomSpectators, cy, "cy after unlisten")
	if got := received(lCy); len(got) != 0 {
		t.Errorf("after Unlisten the listener got %q", got)
	}
	if got := received(lVisitor); !slices.Equal(got, []string{"cy after unlisten"}) {
		t.Errorf("another listener got %q after the first's Unlisten", got)
	}
	f.svc.Unlisten(lCy) // twice is harmless

	_, err := f.svc.Listen(f.ctx, "nope", ada.ID)
	wantCode(t, "Listen to an unknown game", err, community.NotFound)
}

func TestListenEndedGame(t *testing.T) {
	f := newFixture(t, community.Limits{})
	ada, bob, cy := f.account("ada", time.Hour), f.account("bob", time.Hour), f.account("cy", time.Hour)
	f.end(f.game("g", ada, bob))
	l, err := f.svc.Listen(f.ctx, "g", ada.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer f.svc.Unlisten(l)
	f.say("g", store.RoomSpectators, cy, "well played")
	f.say("g", store.RoomPlayers, bob, "gg")
	if got, want := received(l), []string{"well played", "gg"}; !slices.Equal(got, want) {
		t.Errorf("a player's listener after the game got %q, want both rooms' %q", got, want)
	}
}

func TestBlock(t *testing.T) {
	f := newFixture(t, community.Limits{MaxBlocks: 2})
	ada, bob := f.account("ada", time.Hour), f.account("bob", time.Hour)
	f.account("cy", time.Hour)
	f.account("dan", time.Hour)
	gone := f.account("gone", time.Hour)
	if err := f.st.DeleteAccount(f.ctx, gone.ID, f.now); err != nil {
		t.Fatal(err)
	}
	f.game("g", ada, bob)

	refused := []struct {
		name, account, other string
		want                 community.Code
	}{
		{"oneself", ada.ID, "ada", community.Invalid},
		{"oneself in another case", ada.ID, "ADA", community.Invalid},
		{"an unknown name", ada.ID, "nobody", community.NotFound},
		{"a deleted account", ada.ID, "gone", community.NotFound},
		{"as a visitor", "", "bob", community.Forbidden},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.svc.Block(f.ctx, tt.account, tt.other)
			wantCode(t, "Block", err, tt.want)
		})
	}
	if list, err := f.svc.Blocks(f.ctx, ada.ID); err != nil || len(list) != 0 {
		t.Fatalf("after refused blocks ada blocks %+v (%v)", list, err)
	}

	// Both players chat until one blocks the other.
	f.say("g", store.RoomPlayers, ada, "hi")
	f.say("g", store.RoomPlayers, bob, "hello")
	id, err := f.svc.Block(f.ctx, ada.ID, "Bob")
	if err != nil || id != bob.ID {
		t.Fatalf("Block(ada, Bob) = %q, %v; want %q", id, err, bob.ID)
	}
	if on, err := f.svc.Blocking(f.ctx, bob.ID, ada.ID); err != nil || !on {
		t.Errorf("Blocking(bob, ada) = %v, %v after ada blocked bob", on, err)
	}
	for _, who := range []store.Account{bob, ada} {
		f.advance(time.Minute)
		_, err := f.svc.Say(f.ctx, "g", store.RoomPlayers, who.ID, "still there?")
		wantCode(t, who.Name+" in the players' room after ada blocked bob", err, community.Blocked)
		r := room(t, f.rooms("g", who.ID), store.RoomPlayers)
		if r.Write || r.Why == "" {
			t.Errorf("%s's players' room after the block: Write %v, Why %q", who.Name, r.Write, r.Why)
		}
	}
	// The players' room hides the other's messages too.
	if got := texts(room(t, f.rooms("g", ada.ID), store.RoomPlayers).Messages); !slices.Equal(got, []string{"hi"}) {
		t.Errorf("ada reads %q after blocking bob", got)
	}

	// Blocking again changes nothing and is not counted twice; a second
	// account fills MaxBlocks, a third is too many.
	if _, err := f.svc.Block(f.ctx, ada.ID, "bob"); err != nil {
		t.Errorf("blocking bob again: %v", err)
	}
	if _, err := f.svc.Block(f.ctx, ada.ID, "cy"); err != nil {
		t.Fatalf("the second block: %v", err)
	}
	_, err = f.svc.Block(f.ctx, ada.ID, "dan")
	ce := wantCode(t, "a block over MaxBlocks", err, community.TooMany)
	if !strings.Contains(ce.Message, "2") {
		t.Errorf("refusal %q does not say the limit", ce.Message)
	}
	if _, err := f.svc.Block(f.ctx, ada.ID, "bob"); err != nil {
		t.Errorf("blocking bob again at MaxBlocks: %v", err)
	}
	list, err := f.svc.Blocks(f.ctx, ada.ID)
	if err != nil || len(list) != 2 {
		t.Fatalf("ada blocks %+v (%v), want bob and cy", list, err)
	}

	// Unblock restores the chat, both ways.
	if err := f.svc.Unblock(f.ctx, ada.ID, "BOB"); err != nil {
		t.Fatal(err)
	}
	f.say("g", store.RoomPlayers, bob, "back")
	f.say("g", store.RoomPlayers, ada, "welcome back")
	if _, err := f.svc.Block(f.ctx, ada.ID, "dan"); err != nil {
		t.Errorf("a block after an unblock freed a place: %v", err)
	}
	err = f.svc.Unblock(f.ctx, ada.ID, "nobody")
	wantCode(t, "Unblock of an unknown name", err, community.NotFound)

	// A block by the other player stands between them too.
	if _, err := f.svc.Block(f.ctx, bob.ID, "ada"); err != nil {
		t.Fatal(err)
	}
	f.advance(time.Minute)
	_, err = f.svc.Say(f.ctx, "g", store.RoomPlayers, ada.ID, "why?")
	wantCode(t, "ada in the players' room after bob blocked her", err, community.Blocked)
}

func TestReport(t *testing.T) {
	f := newFixture(t, community.Limits{MaxReports: 2})
	ada, bob, cy := f.account("ada", time.Hour), f.account("bob", time.Hour), f.account("cy", time.Hour)
	f.game("g", ada, bob)
	f.game("h", ada, bob)
	mBob := f.say("g", store.RoomPlayers, bob, "rude words")
	mCy := f.say("g", store.RoomSpectators, cy, "my own words")

	refused := []struct {
		name string
		req  community.ReportRequest
		want community.Code
		says string
	}{
		{"an empty reason", community.ReportRequest{Account: "bob"}, community.Invalid, "reason"},
		{"a reason of two characters", community.ReportRequest{Account: "bob", Reason: "no"}, community.Invalid, "2"},
		{"a reason of two characters once trimmed", community.ReportRequest{Account: "bob", Reason: "   no \n"}, community.Invalid, "2"},
		{"a reason of 501 characters", community.ReportRequest{Account: "bob", Reason: strings.Repeat("é", 501)}, community.Invalid, "501"},
		{"a reason that is not UTF-8", community.ReportRequest{Account: "bob", Reason: "bad \xff\xfe"}, community.Invalid, "reason"},
		{"oneself", community.ReportRequest{Account: "cy", Reason: "testing"}, community.Invalid, "yourself"},
		{"oneself in another case", community.ReportRequest{Account: "CY", Reason: "testing"}, community.Invalid, "yourself"},
		{"one's own message", community.ReportRequest{Message: mCy.ID, Reason: "testing"}, community.Invalid, "yourself"},
		{"no account and no message", community.ReportRequest{Reason: "testing"}, community.Invalid, "name"},
		{"an unknown account", community.ReportRequest{Account: "nobody", Reason: "testing"}, community.NotFound, "nobody"},
		{"an unknown message", community.ReportRequest{Message: "0000000000000ffffffff", Reason: "testing"}, community.NotFound, "0000000000000ffffffff"},
		{"an unknown message of a named account", community.ReportRequest{Account: "bob", Message: "nope", Reason: "testing"}, community.NotFound, "nope"},
		{"a message of another account", community.ReportRequest{Account: "ada", Message: mBob.ID, Reason: "testing"}, community.Invalid, "ada"},
		{"a message of another game", community.ReportRequest{Account: "bob", Game: "h", Message: mBob.ID, Reason: "testing"}, community.Invalid, `"h"`},
		{"an unknown game", community.ReportRequest{Account: "bob", Game: "nope", Reason: "testing"}, community.NotFound, "nope"},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.svc.Report(f.ctx, cy.ID, tt.req)
			ce := wantCode(t, "Report", err, tt.want)
			if !strings.Contains(ce.Message, tt.says) {
				t.Errorf("refusal %q does not say %q", ce.Message, tt.says)
			}
		})
	}
	_, err := f.svc.Report(f.ctx, "", community.ReportRequest{Account: "bob", Reason: "testing"})
	wantCode(t, "a visitor's report", err, community.Forbidden)
	if list, err := f.st.Reports(f.ctx, store.ReportFilter{}); err != nil || len(list) != 0 {
		t.Fatalf("refused reports stored %+v (%v)", list, err)
	}

	// The bounds themselves pass: 3 and 500 characters.
	id1, err := f.svc.Report(f.ctx, cy.ID, community.ReportRequest{Account: "BOB", Game: "g", Message: mBob.ID, Reason: " bad "})
	if err != nil {
		t.Fatalf("a report of a message, its account and game named: %v", err)
	}
	f.advance(time.Second)
	_, err = f.svc.Report(f.ctx, cy.ID, community.ReportRequest{Account: "ada", Reason: strings.Repeat("é", 500)})
	if err != nil {
		t.Fatalf("a report with a reason of 500 characters: %v", err)
	}
	r1, err := f.st.Report(f.ctx, id1)
	if err != nil || r1.Reporter != cy.ID || r1.Account != bob.ID || r1.Message != mBob.ID || r1.Game != "g" || r1.Reason != "bad" {
		t.Errorf("the stored report %+v (%v): want cy's of bob's message in g, reason %q", r1, err, "bad")
	}
	// A message alone names its account.
	f.advance(time.Second)
	_, err = f.svc.Report(f.ctx, ada.ID, community.ReportRequest{Message: mBob.ID, Reason: "rude"})
	if err != nil {
		t.Fatalf("a report naming only a message: %v", err)
	}

	// cy has MaxReports open: one more is too many, until one is closed.
	_, err = f.svc.Report(f.ctx, cy.ID, community.ReportRequest{Account: "bob", Reason: "again"})
	ce := wantCode(t, "a report over MaxReports", err, community.TooMany)
	if !strings.Contains(ce.Message, "2") {
		t.Errorf("refusal %q does not say the limit", ce.Message)
	}
	if err := f.svc.Grant(f.ctx, "ada", true); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Act(f.ctx, ada.ID, community.Action{Account: "bob", Action: store.ActionDismiss, Reason: "fine", Report: id1}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Report(f.ctx, cy.ID, community.ReportRequest{Account: "bob", Reason: "again"}); err != nil {
		t.Errorf("a report once one of MaxReports was closed: %v", err)
	}
}

func TestModeratorsOnly(t *testing.T) {
	f := newFixture(t, community.Limits{})
	f.account("ada", time.Hour)
	cy := f.account("cy", time.Hour)
	gone := f.account("gone", time.Hour)
	if err := f.svc.Grant(f.ctx, "gone", true); err != nil {
		t.Fatal(err)
	}
	if err := f.st.DeleteAccount(f.ctx, gone.ID, f.now); err != nil {
		t.Fatal(err)
	}
	for _, who := range []struct {
		name, id string
		want     community.Code
	}{
		{"an ordinary account", cy.ID, community.Forbidden},
		{"a visitor", "", community.Forbidden},
		{"a deleted moderator", gone.ID, community.NotFound},
	} {
		t.Run(who.name, func(t *testing.T) {
			_, err := f.svc.Reports(f.ctx, who.id)
			wantCode(t, "Reports", err, who.want)
			_, err = f.svc.Act(f.ctx, who.id, community.Action{Account: "ada", Action: store.ActionBan, Reason: "spam"})
			wantCode(t, "Act", err, who.want)
			_, err = f.svc.Log(f.ctx, who.id, "")
			wantCode(t, "Log", err, who.want)
			if f.svc.IsModerator(f.ctx, who.id) {
				t.Errorf("IsModerator true")
			}
		})
	}
	if f.standing(store.Account{ID: "id-ada"}).Banned {
		t.Fatalf("a refused ban banned ada")
	}
}

func TestGrant(t *testing.T) {
	f := newFixture(t, community.Limits{})
	dan := f.account("dan", time.Hour)
	if f.svc.IsModerator(f.ctx, dan.ID) {
		t.Fatalf("a new account is a moderator")
	}
	if err := f.svc.Grant(f.ctx, "DAN", true); err != nil {
		t.Fatal(err)
	}
	if !f.standing(dan).Admin || !f.svc.IsModerator(f.ctx, dan.ID) {
		t.Fatalf("Grant did not make dan a moderator")
	}
	if _, err := f.svc.Reports(f.ctx, dan.ID); err != nil {
		t.Errorf("Reports of a moderator: %v", err)
	}
	log, err := f.svc.Log(f.ctx, dan.ID, "")
	if err != nil || len(log) != 1 {
		t.Fatalf("the log after Grant %+v (%v), want one line", log, err)
	}
	if l := log[0]; l.Action != store.ActionGrant || l.Moderator != "" || l.ModeratorName != "" || l.Account != dan.ID ||
		l.AccountName != "dan" || !l.At.Equal(f.now) || l.Reason == "" {
		t.Errorf("the grant's log line %+v: want grant of dan by no moderator at %v", l, f.now)
	}
	f.advance(time.Second)
	if err := f.svc.Grant(f.ctx, "dan", false); err != nil {
		t.Fatal(err)
	}
	if f.standing(dan).Admin || f.svc.IsModerator(f.ctx, dan.ID) {
		t.Fatalf("Grant(false) left dan a moderator")
	}
	acts, err := f.st.ModActions(f.ctx, dan.ID, 0)
	if err != nil || len(acts) != 2 || acts[0].Action != store.ActionRevoke || acts[0].Moderator != "" {
		t.Errorf("the log after the revoke %+v (%v)", acts, err)
	}
	err = f.svc.Grant(f.ctx, "nobody", true)
	ce := wantCode(t, "Grant of an unknown name", err, community.NotFound)
	if !strings.Contains(ce.Message, "nobody") {
		t.Errorf("refusal %q does not name the account", ce.Message)
	}
}

// modFixture is a fixture with a moderator, dan, and a game between ada
// and bob.
func modFixture(t *testing.T) (f *fixture, dan, ada, bob, cy store.Account) {
	f = newFixture(t, community.Limits{})
	dan, ada, bob, cy = f.account("dan", time.Hour), f.account("ada", time.Hour), f.account("bob", time.Hour), f.account("cy", time.Hour)
	if err := f.svc.Grant(f.ctx, "dan", true); err != nil {
		t.Fatal(err)
	}
	f.game("g", ada, bob)
	return f, dan, ada, bob, cy
}

func (f *fixture) act(mod store.Account, a community.Action) community.Done {
	f.t.Helper()
	f.advance(time.Second)
	d, err := f.svc.Act(f.ctx, mod.ID, a)
	if err != nil {
		f.t.Fatalf("Act(%+v): %v", a, err)
	}
	return d
}

func TestActRefuses(t *testing.T) {
	f, dan, _, bob, _ := modFixture(t)
	m := f.say("g", store.RoomPlayers, bob, "hello")
	refused := []struct {
		name string
		a    community.Action
		want community.Code
	}{
		{"mute for 0 minutes", community.Action{Account: "bob", Action: store.ActionMute, Reason: "spam", Minutes: 0}, community.Invalid},
		{"mute for -1 minutes", community.Action{Account: "bob", Action: store.ActionMute, Reason: "spam", Minutes: -1}, community.Invalid},
		{"mute for half a minute", community.Action{Account: "bob", Action: store.ActionMute, Reason: "spam", Minutes: 0.5}, community.Invalid},
		{"mute for NaN minutes", community.Action{Account: "bob", Action: store.ActionMute, Reason: "spam", Minutes: math.NaN()}, community.Invalid},
		{"mute for +Inf minutes", community.Action{Account: "bob", Action: store.ActionMute, Reason: "spam", Minutes: math.Inf(1)}, community.Invalid},
		{"mute for -Inf minutes", community.Action{Account: "bob", Action: store.ActionMute, Reason: "spam", Minutes: math.Inf(-1)}, community.Invalid},
		{"mute for 43201 minutes", community.Action{Account: "bob", Action: store.ActionMute, Reason: "spam", Minutes: 43201}, community.Invalid},
		{"an unknown action", community.Action{Account: "bob", Action: "kick", Reason: "spam"}, community.Invalid},
		{"no action", community.Action{Account: "bob", Reason: "spam"}, community.Invalid},
		{"grant, the command line's", community.Action{Account: "bob", Action: store.ActionGrant, Reason: "helpful"}, community.Invalid},
		{"revoke, the command line's", community.Action{Account: "dan", Action: store.ActionRevoke, Reason: "helpful"}, community.Invalid},
		{"a reason too short", community.Action{Account: "bob", Action: store.ActionBan, Reason: "x"}, community.Invalid},
		{"a reason too long", community.Action{Account: "bob", Action: store.ActionBan, Reason: strings.Repeat("x", 501)}, community.Invalid},
		{"an unknown account", community.Action{Account: "nobody", Action: store.ActionBan, Reason: "spam"}, community.NotFound},
		{"remove without a message", community.Action{Account: "bob", Action: store.ActionRemove, Reason: "spam"}, community.Invalid},
		{"remove of an unknown message", community.Action{Account: "bob", Action: store.ActionRemove, Reason: "spam", Message: "nope"}, community.NotFound},
		{"an unknown report", community.Action{Account: "bob", Action: store.ActionDismiss, Reason: "fine", Report: "nope"}, community.NotFound},
		{"mute oneself", community.Action{Account: "dan", Action: store.ActionMute, Reason: "testing", Minutes: 60}, community.Invalid},
		{"ban oneself", community.Action{Account: "DAN", Action: store.ActionBan, Reason: "testing"}, community.Invalid},
		{"close oneself", community.Action{Account: "dan", Action: store.ActionClose, Reason: "testing"}, community.Invalid},
		{"mark oneself", community.Action{Account: "dan", Action: store.ActionEngine, Reason: "testing"}, community.Invalid},
		{"unban oneself", community.Action{Account: "dan", Action: store.ActionUnban, Reason: "testing"}, community.Invalid},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.svc.Act(f.ctx, dan.ID, tt.a)
			wantCode(t, "Act", err, tt.want)
		})
	}
	// A refused action changes nothing and writes no log line.
	if s := f.standing(bob); s != (store.Standing{}) {
		t.Errorf("bob's standing after refused actions %+v", s)
	}
	if s := f.standing(dan); s != (store.Standing{Admin: true}) {
		t.Errorf("dan's standing after refused actions %+v", s)
	}
	if msg, err := f.st.ChatMessage(f.ctx, m.ID); err != nil || msg.Removed {
		t.Errorf("bob's message after refused actions %+v (%v)", msg, err)
	}
	if acts, err := f.st.ModActions(f.ctx, "", 0); err != nil || len(acts) != 1 {
		t.Errorf("the log after refused actions %+v (%v), want the grant alone", acts, err)
	}
}

func TestMute(t *testing.T) {
	f, dan, ada, bob, _ := modFixture(t)
	f.say("g", store.RoomPlayers, bob, "hello")
	d := f.act(dan, community.Action{Account: "bob", Action: store.ActionMute, Reason: "insults", Minutes: 60})
	if d.Account != bob.ID || d.SessionsEnded {
		t.Errorf("Done %+v after a mute: want bob's, sessions kept", d)
	}
	until := f.now.Add(60 * time.Minute)
	if s := f.standing(bob); !s.MutedUntil.Equal(until) || s.MuteReason != "insults" {
		t.Fatalf("bob's standing after a mute of 60 minutes %+v, want muted until %v for insults", s, until)
	}
	f.advance(59 * time.Minute)
	_, err := f.svc.Say(f.ctx, "g", store.RoomPlayers, bob.ID, "let me talk")
	ce := wantCode(t, "a muted player's message", err, community.Muted)
	if !strings.Contains(ce.Message, "insults") {
		t.Errorf("refusal %q does not give the mute's reason", ce.Message)
	}
	r := room(t, f.rooms("g", bob.ID), store.RoomPlayers)
	if r.Write || !strings.Contains(r.Why, "insults") {
		t.Errorf("a muted player's room: Write %v, Why %q", r.Write, r.Why)
	}
	// A mute keeps its account only: the other player still writes.
	f.say("g", store.RoomPlayers, ada, "still here")
	f.now = until.Add(-time.Millisecond)
	_, err = f.svc.Say(f.ctx, "g", store.RoomPlayers, bob.ID, "now?")
	wantCode(t, "a millisecond before the mute ends", err, community.Muted)
	f.now = until
	if _, err := f.svc.Say(f.ctx, "g", store.RoomPlayers, bob.ID, "free"); err != nil {
		t.Errorf("once the mute ended: %v", err)
	}
	// Unmute ends a mute early.
	f.act(dan, community.Action{Account: "bob", Action: store.ActionMute, Reason: "insults again", Minutes: 43200})
	if s := f.standing(bob); !s.MutedUntil.Equal(f.now.Add(30 * 24 * time.Hour)) {
		t.Errorf("a mute of 43200 minutes ends %v", s.MutedUntil)
	}
	_, err = f.svc.Say(f.ctx, "g", store.RoomPlayers, bob.ID, "hm")
	wantCode(t, "muted again", err, community.Muted)
	f.act(dan, community.Action{Account: "bob", Action: store.ActionUnmute, Reason: "apologised"})
	f.say("g", store.RoomPlayers, bob, "sorry")
}

func TestBanAndClose(t *testing.T) {
	f, dan, ada, bob, cy := modFixture(t)
	session := func(a store.Account, token string) []byte {
		t.Helper()
		h := make([]byte, 32)
		copy(h, token)
		if err := f.st.CreateSession(f.ctx, store.Session{Hash: h, Account: a.ID, Created: f.now, Expires: f.now.Add(24 * time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if _, err := f.st.SessionAccount(f.ctx, h, f.now); err != nil {
			t.Fatalf("a fresh session: %v", err)
		}
		return h
	}
	bobSession, cySession, adaSession := session(bob, "bob"), session(cy, "cy"), session(ada, "ada")
	acct := func(a store.Account) store.Account {
		t.Helper()
		got, err := f.st.Account(f.ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if err := community.Allowed(acct(bob)); err != nil {
		t.Fatalf("Allowed(bob) before the ban: %v", err)
	}

	d := f.act(dan, community.Action{Account: "bob", Action: store.ActionBan, Reason: "cheating"})
	if d.Account != bob.ID || !d.SessionsEnded {
		t.Errorf("Done %+v after a ban: want bob's, sessions ended", d)
	}
	if _, err := f.st.SessionAccount(f.ctx, bobSession, f.now); err == nil {
		t.Errorf("bob's session outlived his ban")
	}
	if _, err := f.st.SessionAccount(f.ctx, adaSession, f.now); err != nil {
		t.Errorf("ada's session after bob's ban: %v", err)
	}
	_, err := f.svc.Say(f.ctx, "g", store.RoomPlayers, bob.ID, "unfair")
	ce := wantCode(t, "a banned player's message", err, community.Banned)
	if !strings.Contains(ce.Message, "cheating") {
		t.Errorf("refusal %q does not give the ban's reason", ce.Message)
	}
	ce = wantCode(t, "Allowed(bob) after the ban", community.Allowed(acct(bob)), community.Banned)
	if !strings.Contains(ce.Message, "cheating") {
		t.Errorf("Allowed's refusal %q does not give the reason", ce.Message)
	}
	if r := room(t, f.rooms("g", bob.ID), store.RoomPlayers); r.Write || !strings.Contains(r.Why, "cheating") {
		t.Errorf("a banned player's room: Write %v, Why %q", r.Write, r.Why)
	}

	d = f.act(dan, community.Action{Account: "bob", Action: store.ActionUnban, Reason: "appeal granted"})
	if d.SessionsEnded {
		t.Errorf("an unban ended sessions")
	}
	if err := community.Allowed(acct(bob)); err != nil {
		t.Errorf("Allowed(bob) after the unban: %v", err)
	}
	f.say("g", store.RoomPlayers, bob, "thanks")

	d = f.act(dan, community.Action{Account: "cy", Action: store.ActionClose, Reason: "spam account"})
	if d.Account != cy.ID || !d.SessionsEnded {
		t.Errorf("Done %+v after a close: want cy's, sessions ended", d)
	}
	if s := f.standing(cy); !s.Closed || s.CloseReason != "spam account" {
		t.Errorf("cy's standing after a close %+v", s)
	}
	if _, err := f.st.SessionAccount(f.ctx, cySession, f.now); err == nil {
		t.Errorf("cy's session outlived the close")
	}
	_, err = f.svc.Say(f.ctx, "g", store.RoomSpectators, cy.ID, "still here")
	wantCode(t, "a closed account's message", err, community.NotFound)

	d = f.act(dan, community.Action{Account: "ada", Action: store.ActionEngine, Reason: "engine moves"})
	if d.SessionsEnded || !f.standing(ada).Engine {
		t.Errorf("after an engine mark: Done %+v, standing %+v", d, f.standing(ada))
	}
	if _, err := f.st.SessionAccount(f.ctx, adaSession, f.now); err != nil {
		t.Errorf("ada's session after an engine mark: %v", err)
	}
	f.act(dan, community.Action{Account: "ada", Action: store.ActionClearEngine, Reason: "false positive"})
	if f.standing(ada).Engine {
		t.Errorf("clear-engine left the mark")
	}
}

func TestDismissAndRemove(t *testing.T) {
	f, dan, ada, bob, cy := modFixture(t)
	m1 := f.say("g", store.RoomPlayers, bob, "rude words")
	m2 := f.say("g", store.RoomPlayers, bob, "kind words")
	f.advance(time.Second)
	r1, err := f.svc.Report(f.ctx, ada.ID, community.ReportRequest{Message: m1.ID, Reason: "rude"})
	if err != nil {
		t.Fatal(err)
	}
	f.advance(time.Second)
	r2, err := f.svc.Report(f.ctx, cy.ID, community.ReportRequest{Account: "bob", Reason: "annoying"})
	if err != nil {
		t.Fatal(err)
	}
	f.advance(time.Second)
	r3, err := f.svc.Report(f.ctx, cy.ID, community.ReportRequest{Account: "dan", Reason: "power trip"})
	if err != nil {
		t.Fatal(err)
	}
	openIDs := func() []string {
		t.Helper()
		list, err := f.svc.Reports(f.ctx, dan.ID)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, r := range list {
			ids = append(ids, r.ID)
		}
		return ids
	}
	if got, want := openIDs(), []string{r3, r2, r1}; !slices.Equal(got, want) {
		t.Fatalf("open reports %v, want newest first %v", got, want)
	}
	list, _ := f.svc.Reports(f.ctx, dan.ID)
	if or := list[2]; or.ReporterName != "ada" || or.AccountName != "bob" || or.Message == nil || or.Message.Text != "rude words" {
		t.Errorf("the report of a message as moderators read it: %+v", or)
	}

	// Dismiss closes the report and nothing else.
	d := f.act(dan, community.Action{Account: "bob", Action: store.ActionDismiss, Reason: "banter", Report: r2})
	if d.SessionsEnded {
		t.Errorf("a dismiss ended sessions")
	}
	if got, want := openIDs(), []string{r3, r1}; !slices.Equal(got, want) {
		t.Errorf("open reports after dismissing %s: %v, want %v", r2, got, want)
	}
	if rep, err := f.st.Report(f.ctx, r2); err != nil || rep.ClosedBy != dan.ID || !rep.Closed.Equal(f.now) {
		t.Errorf("the dismissed report %+v (%v): want closed by dan at %v", rep, err, f.now)
	}
	if s := f.standing(bob); s != (store.Standing{}) {
		t.Errorf("bob's standing after a dismiss %+v", s)
	}
	// A moderator may dismiss a report of themselves (no other action).
	f.act(dan, community.Action{Account: "dan", Action: store.ActionDismiss, Reason: "not abuse", Report: r3})
	if got, want := openIDs(), []string{r1}; !slices.Equal(got, want) {
		t.Errorf("open reports after dismissing the report of dan: %v, want %v", got, want)
	}

	// Remove takes the message down, and closes the report it answers.
	f.act(dan, community.Action{Account: "bob", Action: store.ActionRemove, Reason: "insult", Message: m1.ID, Report: r1})
	for _, reader := range []string{ada.ID, bob.ID} {
		got := texts(room(t, f.rooms("g", reader), store.RoomPlayers).Messages)
		if want := []string{m2.Text}; !slices.Equal(got, want) {
			t.Errorf("the players' room for %s after the removal: %q, want %q", reader, got, want)
		}
	}
	if got := openIDs(); len(got) != 0 {
		t.Errorf("open reports after the removal %v, want none", got)
	}
	if msg, err := f.st.ChatMessage(f.ctx, m1.ID); err != nil || !msg.Removed || msg.Text != "rude words" {
		t.Errorf("the removed message %+v (%v): want kept, removed", msg, err)
	}
}

func TestLog(t *testing.T) {
	f, dan, _, _, _ := modFixture(t)
	f.account("eve", time.Hour)
	f.advance(time.Second) // the log's order is by time
	if err := f.svc.Grant(f.ctx, "eve", true); err != nil {
		t.Fatal(err)
	}
	eve, err := f.st.AccountByName(f.ctx, "eve")
	if err != nil {
		t.Fatal(err)
	}
	f.act(dan, community.Action{Account: "bob", Action: store.ActionMute, Reason: "spam", Minutes: 10})
	f.act(eve, community.Action{Account: "ada", Action: store.ActionEngine, Reason: "engine"})
	f.act(dan, community.Action{Account: "bob", Action: store.ActionBan, Reason: "more spam"})

	type line struct{ mod, account, action, reason string }
	lines := func(entries []community.LogEntry) []line {
		var out []line
		for _, e := range entries {
			out = append(out, line{e.ModeratorName, e.AccountName, e.Action, e.Reason})
		}
		return out
	}
	all, err := f.svc.Log(f.ctx, dan.ID, "")
	if err != nil {
		t.Fatal(err)
	}
	want := []line{
		{"dan", "bob", store.ActionBan, "more spam"},
		{"eve", "ada", store.ActionEngine, "engine"},
		{"dan", "bob", store.ActionMute, "spam"},
		{"", "eve", store.ActionGrant, "granted from the command line"},
		{"", "dan", store.ActionGrant, "granted from the command line"},
	}
	if got := lines(all); !slices.Equal(got, want) {
		t.Errorf("the log\n got %+v\nwant %+v", got, want)
	}
	if !all[2].Until.Equal(all[2].At.Add(10 * time.Minute)) {
		t.Errorf("the mute's line ends %v, want 10 minutes after %v", all[2].Until, all[2].At)
	}
	bobs, err := f.svc.Log(f.ctx, eve.ID, "BOB")
	if err != nil {
		t.Fatal(err)
	}
	if got := lines(bobs); !slices.Equal(got, []line{want[0], want[2]}) {
		t.Errorf("bob's log %+v, want %+v", got, []line{want[0], want[2]})
	}
	_, err = f.svc.Log(f.ctx, dan.ID, "nobody")
	wantCode(t, "the log of an unknown name", err, community.NotFound)
}

func TestNew(t *testing.T) {
	if _, err := community.New(community.Config{}); err == nil {
		t.Errorf("New with no store: no error")
	}
	f := newFixture(t, community.Limits{})
	if got := f.svc.Limits(); got != community.DefaultLimits {
		t.Errorf("Limits() of a zero Limits %+v, want the defaults %+v", got, community.DefaultLimits)
	}
	for _, l := range []community.Limits{{MessageRunes: -1}, {PerMinute: -1}, {History: -1}, {NewAccount: -1}, {MaxBlocks: -1}, {MaxReports: -1}} {
		if _, err := community.New(community.Config{Store: f.st, Limits: l}); err == nil {
			t.Errorf("New with limits %+v: no error", l)
		}
	}
}

func TestListenerOpensTheSpectatorsRoomWhenTheGameEnds(t *testing.T) {
	f := newFixture(t, community.Limits{})
	ada, bob, cy := f.account("ada", time.Hour), f.account("bob", time.Hour), f.account("cy", time.Hour)
	h := f.game("g", ada, bob)
	l, err := f.svc.Listen(f.ctx, "g", ada.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer f.svc.Unlisten(l)
	f.say("g", store.RoomSpectators, cy, "during")
	if got := received(l); len(got) != 0 {
		t.Fatalf("a player's listener got the spectators' %q during the game", got)
	}
	f.end(h)
	f.say("g", store.RoomSpectators, cy, "after")
	if got, want := received(l), []string{"after"}; !slices.Equal(got, want) {
		t.Errorf("a player's listener after the end got %q, want %q", got, want)
	}
}

func TestUnblockReachesOpenListeners(t *testing.T) {
	f := newFixture(t, community.Limits{})
	ada, bob := f.account("ada", time.Hour), f.account("bob", time.Hour)
	f.game("g", ada, bob)
	l, err := f.svc.Listen(f.ctx, "g", ada.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer f.svc.Unlisten(l)
	if _, err := f.svc.Block(f.ctx, ada.ID, "bob"); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.Unblock(f.ctx, ada.ID, "bob"); err != nil {
		t.Fatal(err)
	}
	f.say("g", store.RoomPlayers, bob, "hello again")
	if got, want := received(l), []string{"hello again"}; !slices.Equal(got, want) {
		t.Errorf("after the unblock Ada's open listener got %q, want %q", got, want)
	}
}
