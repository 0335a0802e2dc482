package postgres

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/arbiter-games/arbiter/store"
)

// TestUpgradeKeepsGames opens a database made by the schema before
// accounts (version 1) with a game in it: the game is read back
// unchanged, casual, and can be played on.
func TestUpgradeKeepsGames(t *testing.T) {
	url := newDatabase(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	old, err := store.Pending(store.Postgres, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied BIGINT NOT NULL)`,
		old[0].SQL,
		`INSERT INTO schema_migrations VALUES (1, '` + old[0].Name + `', 0)`,
		`INSERT INTO games (id, game, options, start_fen, seats, clock, ply, version, result, draw_offer, open_seats, created, updated)
			VALUES ('old', 'pommel', '{}', '', '[{"player":"human","name":"Ada","open":false}]', NULL, 1, 2, NULL, -1, 0, 1000, 2000)`,
		`INSERT INTO moves VALUES ('old', 0, 'c3-d4', 2000)`,
	} {
		if _, err := conn.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	conn.Close(ctx)

	s := open(t, url)
	g, err := s.Get(ctx, "old")
	if err != nil {
		t.Fatal(err)
	}
	if g.Rated || g.Ply != 1 || g.Version != 2 || len(g.Moves) != 1 || g.Seats[0].Name != "Ada" || g.Seats[0].Account != "" {
		t.Fatalf("the game after the upgrade: %+v", g)
	}
	next := g.Header
	next.Ply, next.Version = 2, 3
	if err := s.AddMove(ctx, store.Move{Ply: 1, Text: "d6-c5"}, next); err != nil {
		t.Fatalf("playing on after the upgrade: %v", err)
	}
}

// TestUpgradeNamesAccountKinds opens a database of the schema before bot
// accounts (version 10), whose column bot marked the AI levels: a level
// reads back as an AI level, a person as a person, and neither as a bot.
func TestUpgradeNamesAccountKinds(t *testing.T) {
	url := newDatabase(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	old, err := store.Pending(store.Postgres, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied BIGINT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	for _, m := range old {
		if m.Version > 10 {
			break
		}
		if _, err := conn.Exec(ctx, m.SQL); err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(ctx, `INSERT INTO schema_migrations VALUES ($1, $2, 0)`, m.Version, m.Name); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := conn.Exec(ctx, `INSERT INTO accounts (id, name, name_key, password, bot, deleted, created) VALUES
		('ai-level-1', 'ai-level-1', 'ai-level-1', '', 1, 0, 1000), ('u1', 'Ada', 'ada', 'hash', 0, 0, 1000)`); err != nil {
		t.Fatal(err)
	}
	conn.Close(ctx)

	s := open(t, url)
	for id, want := range map[string]store.AccountKind{"ai-level-1": store.AILevel, "u1": store.Person} {
		a, err := s.Account(ctx, id)
		if err != nil || a.Kind != want || a.IsBot() {
			t.Errorf("account %s after the upgrade: %+v, %v; want kind %s", id, a, err, want)
		}
	}
}
