package store

import (
	"embed"
	"fmt"
	"path"
	"strconv"
	"strings"
)

// The schema lives in migrations/*.sql, embedded in the binary and applied
// when a store opens. A file named NNNN_name.sql applies to every
// database; NNNN_name.DIALECT.sql to that dialect only (SQLite's events
// table, which PostgreSQL replaces with NOTIFY). Versions are numbered
// across dialects, never reused, and never edited once released: a change
// is a new file.
//
// The stores apply them with a small runner of their own rather than
// goose: they need one table of applied versions, forward-only steps, each
// step and its record in one transaction, and (on PostgreSQL) an advisory
// lock so that servers starting together migrate once. That is a few
// lines over each driver's own transactions, where goose would bring a
// database/sql adapter for pgx and a dependency tree for no more.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// The dialects migrations are written for.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// Migration is one step of the schema.
type Migration struct {
	Version int
	Name    string // the file name, for messages
	SQL     string
}

// Pending gives, in order, the migrations for dialect after version
// applied (0 for a new database). A database migrated past the newest
// version this binary knows is an error: an older arbiter must not write
// into a schema it does not understand.
func Pending(dialect string, applied int) ([]Migration, error) {
	all, err := migrations(dialect)
	if err != nil {
		return nil, err
	}
	if latest := all[len(all)-1].Version; applied > latest {
		return nil, fmt.Errorf("the database's schema is at version %d, newer than this arbiter knows (%d): run a newer arbiter", applied, latest)
	}
	var pending []Migration
	for _, m := range all {
		if m.Version > applied {
			pending = append(pending, m)
		}
	}
	return pending, nil
}

// migrations reads the embedded files for dialect, in version order.
func migrations(dialect string) ([]Migration, error) {
	if dialect != SQLite && dialect != Postgres {
		return nil, fmt.Errorf("no migrations for dialect %q; want %q or %q", dialect, SQLite, Postgres)
	}
	entries, err := migrationFiles.ReadDir("migrations")
	if err != nil {
		return nil, err
	}
	var all []Migration
	for _, e := range entries { // ReadDir sorts by name, so by version
		version, forDialect, err := parseMigrationName(e.Name())
		if err != nil {
			return nil, err
		}
		if forDialect != "" && forDialect != dialect {
			continue
		}
		if n := len(all); n > 0 && all[n-1].Version >= version {
			return nil, fmt.Errorf("migration %s: version %d repeats or goes back", e.Name(), version)
		}
		sql, err := migrationFiles.ReadFile(path.Join("migrations", e.Name()))
		if err != nil {
			return nil, err
		}
		all = append(all, Migration{Version: version, Name: e.Name(), SQL: string(sql)})
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("no migrations embedded for %s", dialect)
	}
	return all, nil
}

// parseMigrationName reads "0001_games.sql" (every dialect) or
// "0002_events.sqlite.sql" (one).
func parseMigrationName(name string) (version int, dialect string, err error) {
	base, ok := strings.CutSuffix(name, ".sql")
	num, rest, ok2 := strings.Cut(base, "_")
	if !ok || !ok2 || rest == "" {
		return 0, "", fmt.Errorf("migration file %q: want NNNN_name.sql or NNNN_name.DIALECT.sql", name)
	}
	version, err = strconv.Atoi(num)
	if err != nil || version <= 0 {
		return 0, "", fmt.Errorf("migration file %q: the version %q is not a positive number", name, num)
	}
	if _, d, ok := strings.Cut(rest, "."); ok {
		dialect = d
	}
	return version, dialect, nil
}
