package server

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/coder/websocket"
)

// answerTo reads a socket until the answer to a command (an ack, an
// auth or an error), passing over the game's events.
func answerTo(t *testing.T, conn *websocket.Conn) event {
	t.Helper()
	for {
		ev, data := next(t, conn)
		if ev.Type != "game" {
			if ev.Type == "error" && ev.Error == nil {
				t.Fatalf("an error event without its error: %s", data)
			}
			return ev
		}
	}
}

// moveCmd is a socket's move message with its id and, when token is not
// "", a seat's token of its own.
func moveCmd(id, token, move string, ply int) map[string]any {
	cmd := map[string]any{"type": "move", "id": id, "move": move, "ply": ply}
	if token != "" {
		cmd["token"] = token
	}
	return cmd
}

// wantRefusal checks that ev refuses the move id with code and status.
func wantRefusal(t *testing.T, what string, ev event, id, code string, status int) {
	t.Helper()
	if ev.Type != "error" || ev.Error == nil || ev.Error.Code != code || ev.Status != status || ev.ID != id || ev.Error.Message == "" {
		t.Errorf("%s: %+v (error %+v), want error %s %d for id %q", what, ev, ev.Error, code, status, id)
	}
}

// TestSocketPlaysAWholeGame plays a short game over one socket that
// never authenticates: every move carries its seat's token and an id,
// each ack comes once the move is stored, and the refusals are POST's,
// with their statuses.
func TestSocketPlaysAWholeGame(t *testing.T) {
	const plies = 6
	ts := newTestServer(t, siteConfig{})
	g := ts.create(map[string]any{"game": "pommel", "seats": []string{"human", "human"}, "options": map[string]string{"maxplies": "6"}})
	tokens := []string{g.Seats[0].Token, g.Seats[1].Token}
	conn, err := ts.dial(g.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	first, _ := next(t, conn)
	v := *first.Game
	for ply := range plies {
		if ply == 2 {
			socketRefusals(t, ts, conn, g.ID, tokens, v)
		}
		id := "m" + string(rune('0'+ply))
		send(t, conn, moveCmd(id, tokens[v.ToMove], v.Legal[0], ply))
		ack := answerTo(t, conn)
		if ack.Type != "ack" || ack.ID != id || ack.Ply == nil || *ack.Ply != ply+1 || ack.Version <= v.Version {
			t.Fatalf("ply %d: %+v, want the ack of %s at ply %d", ply, ack, id, ply+1)
		}
		stored, err := ts.store.Get(context.Background(), g.ID)
		if err != nil {
			t.Fatal(err)
		}
		if len(stored.Moves) != ply+1 || stored.Header.Version != ack.Version {
			t.Fatalf("ply %d acknowledged (version %d) with %d moves stored at version %d", ply, ack.Version, len(stored.Moves), stored.Header.Version)
		}
		v = gameViewOf(ts.game(g.ID))
	}
	if v.Result == nil {
		t.Fatalf("after %d plies of a maxplies=%d game: no result", plies, plies)
	}
	send(t, conn, moveCmd("late", tokens[0], "a1-a2", plies))
	wantRefusal(t, "a move after the end", answerTo(t, conn), "late", codeGameOver, http.StatusConflict)
}

// socketRefusals sends the refused moves at v (ply 2) and a resend of
// ply 1's move, which is acknowledged and changes nothing.
func socketRefusals(t *testing.T, ts *testServer, conn *websocket.Conn, id string, tokens []string, v gameView) {
	t.Helper()
	for _, tc := range []struct {
		what, token, move string
		ply               int
		code              string
		status            int
	}{
		{"the other seat's turn", tokens[1-v.ToMove], v.Legal[0], v.Ply, codeNotYourTurn, http.StatusConflict},
		{"an illegal move", tokens[v.ToMove], "a1-h8", v.Ply, codeIllegalMove, http.StatusUnprocessableEntity},
		{"a stale ply", tokens[v.ToMove], v.Legal[0], v.Ply - 2, codeWrongPly, http.StatusConflict},
		{"a wrong token", "nope", v.Legal[0], v.Ply, codeForbidden, http.StatusForbidden},
	} {
		send(t, conn, moveCmd("bad", tc.token, tc.move, tc.ply))
		wantRefusal(t, tc.what, answerTo(t, conn), "bad", tc.code, tc.status)
	}
	send(t, conn, map[string]any{"type": "move", "move": v.Legal[0], "ply": 0, "id": strings.Repeat("x", maxCommandID+1), "token": tokens[0]})
	wantRefusal(t, "an id too long", answerTo(t, conn), "", codeInvalid, http.StatusUnprocessableEntity)
	// A resend after a lost ack (a reconnect) is acknowledged at the
	// game's version, and plays nothing.
	last := v.Moves[len(v.Moves)-1]
	send(t, conn, moveCmd("again", tokens[1-v.ToMove], last, v.Ply-1))
	if ack := answerTo(t, conn); ack.Type != "ack" || ack.ID != "again" || ack.Version != v.Version || *ack.Ply != v.Ply {
		t.Errorf("a resend: %+v, want its ack at version %d", ack, v.Version)
	}
	if after := ts.game(id); after.Version != v.Version || after.Ply != v.Ply {
		t.Errorf("refusals and a resend changed the game: version %d ply %d, was %d %d", after.Version, after.Ply, v.Version, v.Ply)
	}
}

// TestSocketMovesOfAWatcherRefused: a socket that never authenticated,
// sending a move without a token, only watches.
func TestSocketMovesOfAWatcherRefused(t *testing.T) {
	ts := newTestServer(t, siteConfig{})
	g := ts.twoHumans()
	conn, err := ts.dial(g.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	next(t, conn)
	send(t, conn, moveCmd("w1", "", ts.game(g.ID).Legal[0], 0))
	wantRefusal(t, "a watcher's move", answerTo(t, conn), "w1", codeForbidden, http.StatusForbidden)
	if v := ts.game(g.ID); v.Ply != 0 {
		t.Errorf("a watcher's move was played: ply %d", v.Ply)
	}
}

// TestSocketMovesRateLimited: the socket's moves take from the client's
// move limit, the one its POSTs take from.
func TestSocketMovesRateLimited(t *testing.T) {
	ts := newTestServer(t, siteConfig{Limits: Limits{MovesPerSecond: 0.001, MoveBurst: 3}})
	g := ts.twoHumans()
	conn, err := ts.dial(g.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	next(t, conn)
	send(t, conn, map[string]any{"type": "auth", "token": g.Seats[0].Token})
	if ev := answerTo(t, conn); ev.Type != "auth" {
		t.Fatalf("auth: %+v", ev)
	}
	legal := ts.game(g.ID).Legal[0]
	send(t, conn, moveCmd("r1", "", legal, 0))
	if ev := answerTo(t, conn); ev.Type != "ack" || ev.ID != "r1" {
		t.Fatalf("the first move: %+v", ev)
	}
	// The auth and the move took two of three; a POST takes the last.
	v := ts.game(g.ID)
	if code, ec := ts.move(g.ID, g.Seats[1].Token, v.Legal[0], 1); code != http.StatusOK {
		t.Fatalf("a POST within the burst: %d %s", code, ec)
	}
	send(t, conn, moveCmd("r2", "", ts.game(g.ID).Legal[0], 2))
	wantRefusal(t, "a move over the limit", answerTo(t, conn), "r2", codeRateLimited, http.StatusTooManyRequests)
}
