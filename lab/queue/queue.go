// Package queue plays a lab run's games as jobs of a River job queue
// (github.com/riverqueue/river), so that any number of machines share
// one run: the coordinator (Queue.Run) puts the games its folder lacks on
// the queue and collects each finished game into the folder as it comes
// back; workers (Queue.Work) play queued games until they are stopped.
//
// The queue is a PostgreSQL database (for many machines) or an SQLite
// file (for one). Besides River's own tables it keeps two of its own:
// arbiter_lab_game, the finished games by (run, game index), written
// idempotently so that a job played twice (a worker killed mid-game, its
// job rescued) stores its game once; and arbiter_lab_refusal, the jobs a
// worker could not play (an unknown game or job version, a malformed
// manifest), which stop the coordinator with the worker's reason.
//
// A run is named by a hash of its manifest (every field that decides the
// games), so a coordinator started again, or a folder made anew, finds the
// games already played.
package queue

import (
	"context"
	"database/sql"
	"log/slog"

	"github.com/riverqueue/river"

	"github.com/arbiter-games/arbiter/internal/riverdb"
)

// Limits on what a queue's address may be (riverdb's).
const (
	MaxURL         = riverdb.MaxURL
	ConnectTimeout = riverdb.ConnectTimeout
)

// Target is where a queue lives: a PostgreSQL URL or an SQLite file.
type Target = riverdb.Target

// ParseTarget reads --queue: a postgres:// or postgresql:// URL, or the
// path of an SQLite file (riverdb.ParseTarget).
func ParseTarget(text string) (Target, error) { return riverdb.ParseTarget(text) }

// client is what the queue uses of a River client, whatever its driver.
type client = riverdb.Client

// Queue is an open queue: River's tables and the lab's, migrated.
type Queue struct {
	target Target
	// db reaches the lab's own tables (through the same pool as River).
	db        *sql.DB
	newClient func(*river.Config) (client, error)
	sql       func(string) string
	close     func()
}

// Open reaches the queue's database, within ConnectTimeout, and brings
// River's tables and the lab's up to date (idempotent: every command on
// the queue does it). An SQLite file that does not exist is made only
// when create is set (the coordinator's): a worker given a wrong path
// would otherwise wait on an empty queue.
func Open(ctx context.Context, t Target, create bool) (*Queue, error) {
	db, err := riverdb.Open(ctx, t, riverdb.Options{Create: create,
		Missing: "start the run first (arbiter lab GAME ... --queue FILE), or give its path"}, createGames, createRefusals)
	if err != nil {
		return nil, err
	}
	return &Queue{target: t, db: db.SQL, newClient: db.NewClient, sql: db.Rebind, close: db.Close}, nil
}

// Close closes the database.
func (q *Queue) Close() { q.close() }

// The lab's own tables. ON CONFLICT DO NOTHING keeps the first copy of a
// game played twice; both databases know it.
const (
	createGames = `CREATE TABLE IF NOT EXISTS arbiter_lab_game (
	run TEXT NOT NULL, idx INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (run, idx))`
	createRefusals = `CREATE TABLE IF NOT EXISTS arbiter_lab_refusal (
	run TEXT NOT NULL, idx INTEGER NOT NULL, reason TEXT NOT NULL, PRIMARY KEY (run, idx))`
)

// quietLogger keeps River's own log to warnings and errors.
func quietLogger() *slog.Logger { return riverdb.QuietLogger() }
