package server

import (
	"context"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/arbiter-games/arbiter/store/postgres"
	"github.com/arbiter-games/arbiter/store/postgres/pgtest"
	"github.com/coder/websocket"
)

// pg is the test binary's PostgreSQL, started by TestMain and only read
// afterwards; nil when its binaries are missing or under -short without
// ARBITER_TEST_STORE=postgres, and noPG then says why.
var (
	pg   *pgtest.Server
	noPG error
)

func TestMain(m *testing.M) {
	flag.Parse() // for testing.Short
	pg, noPG = pgtest.StartIfWanted()
	if noPG != nil && !pgtest.Skip(noPG) {
		fmt.Fprintln(os.Stderr, noPG)
		os.Exit(1)
	}
	code := m.Run()
	sharedChromium.close()
	if pg != nil {
		if err := pg.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			code = 1
		}
	}
	os.Exit(code)
}

// newDatabase gives the URL of an empty PostgreSQL database, or skips the
// test when PostgreSQL is not installed (.ci/run installs it) or under
// -short without ARBITER_TEST_STORE=postgres.
func newDatabase(t *testing.T) string {
	t.Helper()
	if pg == nil {
		t.Skip(noPG)
	}
	return pg.NewDatabase(t)
}

// TestTwoServersOnePostgres: two servers on one PostgreSQL database, as
// two `serve` processes behind a load balancer: a game created through
// one is played through the other, and each move reaches the websocket
// viewers of both (LISTEN/NOTIFY), with the versions in order. Of two
// moves raced for one ply through the two servers, exactly one is stored.
func TestTwoServersOnePostgres(t *testing.T) {
	url := newDatabase(t)
	open := func() *testServer {
		st, err := postgres.Open(context.Background(), url)
		if err != nil {
			t.Fatal(err)
		}
		return newTestServer(t, siteConfig{Store: st})
	}
	a, b := open(), open()
	g := a.twoHumans()
	viewA, err := a.dial(g.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	viewB, err := b.dial(g.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	viewers := []*websocket.Conn{viewA, viewB}
	for _, conn := range viewers {
		next(t, conn) // the game as it is
	}
	tokens := []string{g.Seats[0].Token, g.Seats[1].Token}
	servers := []*testServer{b, a}
	for ply := range 4 {
		via := servers[ply%2]
		v := via.game(g.ID)
		if v.Ply != ply {
			t.Fatalf("server %d sees ply %d, want %d", ply%2, v.Ply, ply)
		}
		if code, ec := via.move(g.ID, tokens[v.ToMove], v.Legal[0], ply); code != 200 {
			t.Fatalf("ply %d through server %d: %d %s", ply, ply%2, code, ec)
		}
		for i, conn := range viewers {
			ev, _ := next(t, conn)
			if ev.Version != int64(ply+2) || ev.Game.Ply != ply+1 {
				t.Fatalf("viewer %d after ply %d: %+v", i, ply, ev)
			}
		}
	}

	// A race for ply 4 through both servers: one stored, one 409.
	v := a.game(g.ID)
	codes := make(chan int, 2)
	for i, srv := range []*testServer{a, b} {
		go func() {
			code, _ := srv.move(g.ID, tokens[v.ToMove], v.Legal[i], 4)
			codes <- code
		}()
	}
	c1, c2 := <-codes, <-codes
	if min(c1, c2) != 200 || max(c1, c2) != 409 {
		t.Errorf("two moves raced for one ply through two servers: %d and %d, want 200 and 409", c1, c2)
	}
	if got := b.game(g.ID); got.Ply != 5 || len(got.Moves) != 5 {
		t.Errorf("after the race: ply %d, %d moves", got.Ply, len(got.Moves))
	}
}
