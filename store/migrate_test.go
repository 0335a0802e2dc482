package store

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestPendingPerDialect(t *testing.T) {
	versions := func(ms []Migration) []int {
		var v []int
		for _, m := range ms {
			v = append(v, m.Version)
		}
		return v
	}
	tests := []struct {
		dialect string
		applied int
		want    []int
	}{
		{SQLite, 0, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14}},
		{SQLite, 1, []int{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14}},
		{SQLite, 2, []int{3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14}},
		{SQLite, 4, []int{5, 6, 7, 8, 9, 10, 11, 12, 14}},
		{SQLite, 6, []int{7, 8, 9, 10, 11, 12, 14}},
		{SQLite, 7, []int{8, 9, 10, 11, 12, 14}},
		{SQLite, 8, []int{9, 10, 11, 12, 14}},
		{SQLite, 9, []int{10, 11, 12, 14}},
		{SQLite, 10, []int{11, 12, 14}},
		{SQLite, 11, []int{12, 14}},
		{SQLite, 12, []int{14}},
		{SQLite, 14, nil},
		{Postgres, 0, []int{1, 3, 4, 5, 6, 7, 9, 10, 11, 12, 14}},
		{Postgres, 1, []int{3, 4, 5, 6, 7, 9, 10, 11, 12, 14}},
		{Postgres, 7, []int{9, 10, 11, 12, 14}},
		{Postgres, 9, []int{10, 11, 12, 14}},
		{Postgres, 10, []int{11, 12, 14}},
		{Postgres, 11, []int{12, 14}},
		{Postgres, 12, []int{14}},
		{Postgres, 14, nil},
	}
	for _, tt := range tests {
		got, err := Pending(tt.dialect, tt.applied)
		if err != nil {
			t.Fatalf("Pending(%s, %d): %v", tt.dialect, tt.applied, err)
		}
		if !slices.Equal(versions(got), tt.want) {
			t.Errorf("Pending(%s, %d) = versions %v, want %v", tt.dialect, tt.applied, versions(got), tt.want)
		}
		for _, m := range got {
			if !strings.Contains(m.SQL, "CREATE ") && !strings.Contains(m.SQL, "ADD COLUMN ") {
				t.Errorf("migration %s creates or adds nothing: %q", m.Name, m.SQL)
			}
		}
	}
}

func TestPendingRefuses(t *testing.T) {
	if _, err := Pending("mysql", 0); err == nil || !strings.Contains(err.Error(), `no migrations for dialect "mysql"`) {
		t.Errorf("Pending(mysql, 0) = %v, want no migrations for mysql", err)
	}
	for _, dialect := range []string{SQLite, Postgres} {
		all, err := migrations(dialect)
		if err != nil {
			t.Fatal(err)
		}
		latest := all[len(all)-1].Version
		want := fmt.Sprintf("schema is at version %d, newer than this arbiter knows (%d)", latest+1, latest)
		if _, err := Pending(dialect, latest+1); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Pending(%s, %d) = %v, want an error containing %q", dialect, latest+1, err, want)
		}
		if pending, err := Pending(dialect, latest); err != nil || len(pending) != 0 {
			t.Errorf("Pending(%s, %d) = %v, %v, want nothing to apply", dialect, latest, pending, err)
		}
	}
}

func TestParseMigrationName(t *testing.T) {
	tests := []struct {
		name    string
		version int
		dialect string
		bad     bool
	}{
		{"0001_games.sql", 1, "", false},
		{"0002_events.sqlite.sql", 2, "sqlite", false},
		{"0003_x.postgres.sql", 3, "postgres", false},
		{"games.sql", 0, "", true},
		{"0001_.sql", 0, "", true},
		{"0000_zero.sql", 0, "", true},
		{"abcd_games.sql", 0, "", true},
		{"0001_games.txt", 0, "", true},
	}
	for _, tt := range tests {
		v, d, err := parseMigrationName(tt.name)
		if (err != nil) != tt.bad || v != tt.version || d != tt.dialect {
			t.Errorf("parseMigrationName(%q) = %d, %q, %v; want %d, %q, error %v", tt.name, v, d, err, tt.version, tt.dialect, tt.bad)
		}
	}
}
