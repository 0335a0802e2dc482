package server

import (
	"bytes"
	"encoding/json"
	"flag"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arbiter-games/arbiter/game"
	"github.com/arbiter-games/arbiter/hall"
	"github.com/arbiter-games/arbiter/lobby"
	"github.com/arbiter-games/arbiter/reviews"
	"github.com/arbiter-games/arbiter/store"
	"github.com/coder/websocket"
)

var updateWire = flag.Bool("update", false, "rewrite the golden files under testdata/wire")

// wireTime is the instant every golden view was made and changed at.
var wireTime = time.Date(2026, 3, 14, 15, 9, 26, 535000000, time.UTC)

// twoPlayerClocked is a Pommel game in play between two accounts, with a
// running Fischer clock and a draw offered.
func twoPlayerClocked() hall.View {
	return hall.View{ID: "g2clock", Game: "pommel", Name: "Pommel", Options: map[string]string{},
		FEN: "W:W21,22:B1,2", Moves: []string{"a3-b4", "h6-g5"}, Ply: 2, ToMove: 0,
		Legal: []string{"b4-a5", "b4-c5"}, Version: 3,
		Seats: []hall.SeatView{
			{Seat: 0, Player: "human", Name: "alice", Side: "White", Account: "alice"},
			{Seat: 1, Player: "human", Name: "bob", Side: "Black", Account: "bob"},
		},
		Rated: true, Accounts: []string{"u-alice", "u-bob"}, Movers: []int{0, 1}, DrawOffer: 1, Takeback: 0, Takebacks: true,
		Clock: &hall.ClockView{Kind: "fischer", Control: "5m+3s", BaseMs: 300000, IncrementMs: 3000,
			LeftMs: []int64{298500, 301000}, Running: true},
		URL: "/games/g2clock", Created: wireTime, Updated: wireTime.Add(time.Minute)}
}

// finishedRated is a rated Checkers 2011 game won by resignation, with a
// correspondence clock stopped.
func finishedRated() hall.View {
	return hall.View{ID: "gdone", Game: "checkers2011", Name: "Checkers 2011",
		Options: map[string]string{"swap": "on"}, FEN: "B:W5:B30", Moves: []string{"swap", "c3-d4", "resign"},
		Ply: 2, ToMove: 1, Legal: []string{},
		Result:  &store.Result{Winners: []int{0}, Reason: "resignation"},
		Version: 7, StartFEN: "W:W1,2:B29,30",
		Seats: []hall.SeatView{
			{Seat: 0, Player: "human", Side: "White", Account: "alice"},
			{Seat: 1, Player: "ai:level=3", Name: "Level 3", Side: "Black", Open: false, Account: "Level 3"},
		},
		Rated: true, Accounts: []string{"u-alice", "level-3"}, Movers: []int{1, 0}, DrawOffer: -1, Takeback: -1,
		Clock:       &hall.ClockView{Kind: "correspondence", Control: "3d", PerMoveMs: 259200000, LeftMs: []int64{259200000, 1000}},
		Description: "Black resigned: White wins", URL: "/games/gdone", Created: wireTime, Updated: wireTime.Add(time.Hour)}
}

// threePlayer is a Punt game for three, one seat open, one an engine's,
// scored when drawn.
func threePlayer() hall.View {
	return hall.View{ID: "g3", Game: "punt-heks-match-3p", Name: "Punt-Heks-Match (3 players)",
		Options: map[string]string{"end": "allstuck"}, FEN: "3p-fen", Moves: []string{}, Ply: 0, ToMove: 0,
		Legal:   []string{"a1-a2"},
		Result:  &store.Result{Winners: []int{}, Reason: "repetition", Scores: []int{3, 3, 2}},
		Version: 1,
		Seats: []hall.SeatView{
			{Seat: 0, Player: "human", Name: "carol", Side: "White"},
			{Seat: 1, Player: "human", Side: "Black", Open: true},
			{Seat: 2, Player: "ai:level=2", Side: "Red"},
		},
		Accounts: []string{"", "", ""}, Movers: []int{}, DrawOffer: -1, Takeback: -1, Takebacks: true,
		Attention: "the AI of seat 2 failed", URL: "/games/g3", Created: wireTime, Updated: wireTime}
}

// wireEffects is a capture's effects, with a promotion and scores.
func wireEffects() *game.Effects {
	man := game.Piece{Owner: 0}
	return &game.Effects{Move: "c3xe5", Player: 0, Capture: true, Path: []string{"c3", "e5"},
		Moving: []game.Piece{man}, Captured: []game.Capture{{Cell: "d4", Leg: 1, Taken: []game.Piece{{Owner: 1}}, Left: []game.Piece{}}},
		Promoted: "e5", Landed: []game.Piece{man}, Scores: []int{1, 0}, ScoreChange: []int{1, 0}}
}

// wireSeek is a rated seek with a clock, challenging one player.
func wireSeek() lobby.SeekView {
	to := "bob"
	return lobby.SeekView{ID: "s1", Game: "pommel", Options: map[string]string{}, Rated: true,
		Clock: &lobby.SeekControl{Initial: 300, Increment: 3}, By: "alice", Rating: 1500, Provisional: true,
		To: &to, Seats: 2, Joined: []string{}, Created: wireTime, Kind: "realtime", Cursor: "c1"}
}

// wireCases are the representative answers of the API and its sockets,
// each with how the server encodes it.
func wireCases(t *testing.T) []struct {
	name string
	data func() ([]byte, error)
} {
	rules, err := game.New("pommel", nil)
	if err != nil {
		t.Fatal(err)
	}
	you := 0
	seats := 2
	return []struct {
		name string
		data func() ([]byte, error)
	}{
		{"game-clocked", func() ([]byte, error) {
			return json.Marshal(gameAnswer{gameView: gameViewOf(twoPlayerClocked()), You: &you})
		}},
		{"game-finished-rated", func() ([]byte, error) {
			// The seats' ratings, as withAccounts reads them.
			rating, other := 1512.3, 1487.7
			v := gameViewOf(finishedRated())
			v.Seats[0].Rating = &rating
			v.Seats[1].Rating, v.Seats[1].Provisional = &other, true
			return json.Marshal(gameAnswer{gameView: v, You: &you,
				Ratings: []ratingChangeView{{Seat: 0, Before: 1500, After: 1512.3, RD: 80.1}, {Seat: 1, Before: 1500, After: 1487.7, RD: 80.1}}})
		}},
		{"review-queued", func() ([]byte, error) {
			return json.Marshal(reviewViewOf(reviews.Review{Game: "g1", State: reviews.Queued}))
		}},
		{"review-failed", func() ([]byte, error) {
			return json.Marshal(reviewViewOf(reviews.Review{Game: "g1", State: reviews.Failed, Error: "the review took longer than 15m0s"}))
		}},
		{"review-done", func() ([]byte, error) {
			return json.Marshal(reviewViewOf(reviews.Review{Game: "g1", State: reviews.Done, Result: &reviews.Result{Nodes: 100000,
				Moves: []reviews.Move{
					{Ply: 0, Seat: 0, Move: "a1-a3", Score: -5, ScoreText: "-5", Best: "c2-b3", Line: []string{"c2-b3", "a5-a4"},
						Played: -12, Loss: 7, WinChance: 0.49, After: 0.47, Drop: 0.02},
					{Ply: 1, Seat: 1, Move: "a5-a4", Score: 40, ScoreText: "+40", Best: "c5-b5", Line: []string{"c5-b5"},
						Played: -60, Loss: 100, WinChance: 0.6, After: 0.35, Drop: 0.25, Mark: reviews.Blunder, Exact: "win in 23 → draw"},
					{Ply: 2, Seat: 0, Move: "a3xa5", Score: 70, ScoreText: "+70", Best: "a3xa5", Line: []string{"a3xa5"},
						Played: 70, WinChance: 0.66, After: 0.66, Forced: true},
				},
				Accuracy: []float64{97.5, 61.25},
				Counts:   []reviews.Counts{{}, {Blunder: 1}}}}))
		}},
		{"game-three-players", func() ([]byte, error) {
			return json.Marshal(gameAnswer{gameView: gameViewOf(threePlayer())})
		}},
		{"created", func() ([]byte, error) {
			return json.Marshal(createdViewOf(hall.Created{ID: "g3", URL: "/games/g3", Game: threePlayer(),
				Seats: []hall.Invite{{Seat: 0, Token: "tok0", URL: "/games/g3?token=tok0"}}}))
		}},
		{"invite", func() ([]byte, error) {
			return json.Marshal(inviteViewOf(hall.Invite{Seat: 1, Token: "tok1", URL: "/games/g3?token=tok1"}))
		}},
		{"lobby", func() ([]byte, error) {
			v := threePlayer()
			g := hall.LobbyGame{ID: v.ID, Game: v.Game, Options: v.Options, Seats: v.Seats, Ply: v.Ply,
				Version: v.Version, URL: v.URL, Updated: v.Updated}
			return json.Marshal(map[string][]lobbyGameView{"open": lobbyGameViews([]hall.LobbyGame{g}), "live": lobbyGameViews(nil)})
		}},
		{"event-effects", func() ([]byte, error) {
			return encodeEvent(&hall.Event{Game: twoPlayerClocked(), Effects: wireEffects(), State: rules.Start()}), nil
		}},
		{"event-first", func() ([]byte, error) {
			v := finishedRated()
			return json.Marshal(gameEvent(&v, nil, nil))
		}},
		{"turns", func() ([]byte, error) {
			v := twoPlayerClocked()
			return json.Marshal([]turnView{{ID: v.ID, Game: v.Game, Opponents: []string{"bob"},
				OpponentAccounts: []bool{true}, Since: v.Updated, Clock: clockViewOf(v.Clock)}})
		}},
		{"seeks", func() ([]byte, error) {
			return json.Marshal(seekViews([]lobby.SeekView{wireSeek(), {ID: "s2", Game: "eximo", Options: map[string]string{"x": "y"},
				By: "carol", Seats: 2, Joined: []string{"dave"}, Created: wireTime, Kind: "correspondence",
				Clock: &lobby.SeekControl{Days: 3}, NoTakebacks: true}}))
		}},
		{"lobby-seeks", func() ([]byte, error) {
			return json.Marshal(lobbyMessageOf(lobby.Message{Type: "seeks", Seeks: []lobby.SeekView{wireSeek()}}))
		}},
		{"lobby-started", func() ([]byte, error) {
			return json.Marshal(lobbyMessageOf(lobby.Message{Type: "started", Seek: "s1", Game: "g2clock"}))
		}},
		{"analysis-ended", func() ([]byte, error) {
			return json.Marshal(analysisView{Game: "pommel", FEN: "W:W21:B", Moves: []string{"a3-b4"}, Legal: []string{},
				ToMove: 1, Result: resultViewOf(&store.Result{Winners: []int{0}, Reason: "no pieces"}), Ended: "Black has no pieces: White wins", Board: "hexcol45",
				Stacks: map[string]string{"a1": "w"}})
		}},
		{"event-presence", func() ([]byte, error) {
			return json.Marshal(presenceEvent{Type: "presence", Present: []int{0, 2}})
		}},
		{"lobby-turn", func() ([]byte, error) {
			return json.Marshal(lobbyMessage{Type: "turn", Count: &seats})
		}},
	}
}

// TestWireGolden: every answer is encoded byte for byte as
// testdata/wire holds it (go test -run TestWireGolden -update rewrites
// it): the browser's pages read these shapes.
func TestWireGolden(t *testing.T) {
	for _, tc := range wireCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.data()
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "wire", tc.name+".json")
			if *updateWire {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("encoded\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// TestEventWireOnce: an event is encoded once however many sockets ask
// for it at once, each given the same bytes.
func TestEventWireOnce(t *testing.T) {
	var wires eventWires
	ev := &hall.Event{Game: threePlayer()}
	const sockets = 8
	got := make([][]byte, sockets)
	var wg sync.WaitGroup
	for i := range sockets {
		wg.Go(func() { got[i] = wires.wire(ev) })
	}
	wg.Wait()
	if n := wires.encoded.Load(); n != 1 {
		t.Errorf("encoded %d times for %d sockets, want once", n, sockets)
	}
	for i, data := range got {
		if &data[0] != &got[0][0] {
			t.Errorf("socket %d was given bytes of its own", i)
		}
	}
	if want := encodeEvent(ev); !bytes.Equal(got[0], want) {
		t.Errorf("wire %s, want %s", got[0], want)
	}
}

// TestEventsEncodedOnceForEverySocket: the sockets watching a game are
// sent the same bytes for each move, encoded once for all of them.
func TestEventsEncodedOnceForEverySocket(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	g := ts.twoHumans()
	var viewers []*websocket.Conn
	for range 3 {
		conn, err := ts.dial(g.ID, nil)
		if err != nil {
			t.Fatal(err)
		}
		next(t, conn) // the game as it is
		viewers = append(viewers, conn)
	}
	tokens := []string{g.Seats[0].Token, g.Seats[1].Token}
	const moves = 2
	for ply := range moves {
		v := ts.game(g.ID)
		if code, ec := ts.move(g.ID, tokens[v.ToMove], v.Legal[0], ply); code != 200 {
			t.Fatalf("ply %d: %d %s", ply, code, ec)
		}
	}
	var first [moves][]byte
	for i, conn := range viewers {
		for ply := range moves {
			_, data := next(t, conn)
			if i == 0 {
				first[ply] = data
			} else if !bytes.Equal(data, first[ply]) {
				t.Errorf("viewer %d, move %d: %s, the first viewer was sent %s", i, ply, data, first[ply])
			}
		}
	}
	if n := ts.srv.events.encoded.Load(); n != moves {
		t.Errorf("%d events encoded for %d moves watched by %d sockets, want one each", n, moves, len(viewers))
	}
}

// TestRequestsRead: the bodies of POST /api/games and /api/seeks read
// every field of the wire into what the hall and the lobby take, and
// refuse the fields the transport adds itself.
func TestRequestsRead(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	read := func(body string, v any) *apiError {
		r := httptest.NewRequest("POST", "/api/games", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		return ts.srv.decode(httptest.NewRecorder(), r, v)
	}
	var game newGameRequest
	if err := read(`{"game":"pommel","options":{"swap":"on"},"seats":["human","ai:level=2"],"names":["ann",""],`+
		`"clock":"5m+3s","days":2,"fen":"W:W1:B2","rated":true,"takebacks":false}`, &game); err != nil {
		t.Fatal(err)
	}
	wantGame := hall.NewGame{Game: "pommel", Options: map[string]string{"swap": "on"}, Seats: []string{"human", "ai:level=2"},
		Names: []string{"ann", ""}, Clock: "5m+3s", Days: 2, FEN: "W:W1:B2", Rated: true, NoTakebacks: true}
	if got := game.game(); !reflect.DeepEqual(got, wantGame) {
		t.Errorf("game read as %+v, want %+v", got, wantGame)
	}
	var seek seekRequest
	if err := read(`{"game":"eximo","options":{},"rated":true,"clock":{"initial":300,"increment":3,"days":0},"to":"bob","takebacks":false}`, &seek); err != nil {
		t.Fatal(err)
	}
	wantSeek := lobby.SeekRequest{Game: "eximo", Options: map[string]string{}, Rated: true,
		Clock: &lobby.SeekControl{Initial: 300, Increment: 3}, To: "bob", NoTakebacks: true}
	if got := seek.seek(); !reflect.DeepEqual(got, wantSeek) {
		t.Errorf("seek read as %+v, want %+v", got, wantSeek)
	}
	if got := (seekRequest{Game: "eximo"}).seek(); got.Clock != nil || got.NoTakebacks {
		t.Errorf("a seek without a clock nor takebacks read as %+v: want no clock, take-backs allowed", got)
	}
	for _, body := range []string{`{"game":"pommel","accounts":[]}`, `{"game":"pommel","client":"x"}`} {
		if err := read(body, &newGameRequest{}); err == nil || err.Code != codeBadRequest {
			t.Errorf("%s: %v, want %s", body, err, codeBadRequest)
		}
	}
}
