package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arbiter-games/arbiter/store"
)

// TestUpgradeKeepsGames opens a database made by the schema before
// accounts (versions 1 and 2) with a game in it: the game is read back
// unchanged, casual, and can be played on.
func TestUpgradeKeepsGames(t *testing.T) {
	dir := t.TempDir()
	db, err := sql.Open("sqlite", dsn(filepath.Join(dir, FileName), writer))
	if err != nil {
		t.Fatal(err)
	}
	old, err := store.Pending(store.SQLite, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied BIGINT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	for _, m := range old[:2] {
		if _, err := db.Exec(m.SQL); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO schema_migrations VALUES (?, ?, 0)`, m.Version, m.Name); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO games (id, game, options, start_fen, seats, clock, ply, version, result, draw_offer, open_seats, created, updated)
		VALUES ('old', 'pommel', '{}', '', '[{"player":"human","name":"Ada","open":false}]', NULL, 1, 2, NULL, -1, 0, 1000, 2000)`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`INSERT INTO moves VALUES ('old', 0, 'c3-d4', 2000)`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s := open(t, dir)
	g, err := s.Get(context.Background(), "old")
	if err != nil {
		t.Fatal(err)
	}
	if g.Rated || g.Ply != 1 || g.Version != 2 || len(g.Moves) != 1 || g.Seats[0].Name != "Ada" || g.Seats[0].Account != "" {
		t.Fatalf("the game after the upgrade: %+v", g)
	}
	var schema string
	if err := s.w.QueryRow(`SELECT sql FROM sqlite_master WHERE name = 'moves'`).Scan(&schema); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(schema, "WITHOUT ROWID") || !strings.Contains(schema, "REFERENCES games") {
		t.Errorf("the moves table after the upgrade: %s, want it clustered by its key, its foreign key kept", schema)
	}
	next := g.Header
	next.Ply, next.Version = 2, 3
	if err := s.AddMove(context.Background(), store.Move{Ply: 1, Text: "d6-c5"}, next); err != nil {
		t.Fatalf("playing on after the upgrade: %v", err)
	}
}

// TestUpgradeNamesAccountKinds opens a database of the schema before bot
// accounts (version 10), whose column bot marked the AI levels: a level
// reads back as an AI level, a person as a person, and neither as a bot.
func TestUpgradeNamesAccountKinds(t *testing.T) {
	dir := t.TempDir()
	db, err := sql.Open("sqlite", dsn(filepath.Join(dir, FileName), writer))
	if err != nil {
		t.Fatal(err)
	}
	old, err := store.Pending(store.SQLite, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied BIGINT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	for _, m := range old {
		if m.Version > 10 {
			break
		}
		if _, err := db.Exec(m.SQL); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(`INSERT INTO schema_migrations VALUES (?, ?, 0)`, m.Version, m.Name); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec(`INSERT INTO accounts (id, name, name_key, password, bot, deleted, created) VALUES
		('ai-level-1', 'ai-level-1', 'ai-level-1', '', 1, 0, 1000), ('u1', 'Ada', 'ada', 'hash', 0, 0, 1000)`); err != nil {
		t.Fatal(err)
	}
	db.Close()

	s := open(t, dir)
	for id, want := range map[string]store.AccountKind{"ai-level-1": store.AILevel, "u1": store.Person} {
		a, err := s.Account(context.Background(), id)
		if err != nil || a.Kind != want || a.IsBot() {
			t.Errorf("account %s after the upgrade: %+v, %v; want kind %s", id, a, err, want)
		}
	}
}
