package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

const (
	// checkpointWrites and checkpointEvery say when the background
	// checkpoint runs: once that many writes were committed since the
	// last one, and at that interval whenever anything was written. (A
	// move adds a few pages to the WAL, so 512 writes stay near SQLite's
	// own automatic checkpoint of 1000 pages.)
	checkpointWrites = 512
	checkpointEvery  = time.Second
	// walLimit is the WAL's length in frames (pages) past which the
	// checkpointer catches up with the writer (see checkpointLoop):
	// SQLite's own automatic checkpoint's 1000 pages.
	walLimit = 1000
	// closeCheckpointWait bounds how long Close's final checkpoint waits
	// for another Store's readers and writer on the same file.
	closeCheckpointWait = time.Second
)

// checkpointLoop copies the WAL back into the database file, off the
// commit path: the writer runs with wal_autocheckpoint=0, so no commit
// ever pays for a checkpoint, and this goroutine checkpoints on a
// connection of its own. PASSIVE never waits for the writer or the
// readers; what it cannot copy yet it copies next time. An error (another
// Store checkpointing the same file) is left to the next round.
//
// SQLite starts the WAL over from its beginning only when a write begins
// after a checkpoint copied all of it; under steady writes the batches
// committed while a checkpoint runs are always left, and the WAL grows
// without end (300 MB in ten seconds of 64 writers). So once the WAL is
// past walLimit frames, the checkpointer holds the writer between two
// batches for a second PASSIVE checkpoint, which copies only what the
// first could not reach (about 2 ms where the first took 3 to 20), after
// which the next batch starts the WAL over.
func (s *Store) checkpointLoop(ctx context.Context) {
	defer s.polled.Done()
	tick := time.NewTicker(checkpointEvery)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-s.checkpointNow:
		}
		if s.sinceCheckpoint.Swap(0) == 0 {
			continue
		}
		s.checkpointRound(ctx)
	}
}

// checkpointRound runs one background checkpoint, catching up with the
// writer when the WAL is past walLimit.
func (s *Store) checkpointRound(ctx context.Context) {
	_, logged, err := s.checkpoint(ctx, s.cp, "PASSIVE")
	if err != nil || logged < walLimit {
		return
	}
	s.batching.Lock()
	defer s.batching.Unlock()
	_, _, _ = s.checkpoint(ctx, s.cp, "PASSIVE")
}

// queryer is a *sql.DB or one of its *sql.Conn.
type queryer interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// checkpoint runs a checkpoint of mode on db. It says whether it copied
// the whole WAL (not when readers or a writer held part of it) and the
// WAL's length in frames.
func (s *Store) checkpoint(ctx context.Context, db queryer, mode string) (done bool, logged int, err error) {
	var busy, copied int
	err = db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(`+mode+`)`).Scan(&busy, &logged, &copied)
	if err != nil {
		return false, 0, fmt.Errorf("sqlite: checkpoint %s: %w", mode, err)
	}
	return busy == 0 && copied == logged, logged, nil
}

// finalCheckpoint copies the whole WAL into the database file and empties
// it (TRUNCATE) once the writer has stopped, so that a closed data folder
// is one file. It waits at most closeCheckpointWait for other Stores on
// the file, then leaves the rest to whoever closes last (SQLite
// checkpoints when its last connection closes).
func (s *Store) finalCheckpoint() error {
	ctx := context.Background()
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return fmt.Errorf("sqlite: checkpoint at close: %w", err)
	}
	defer conn.Close()
	wait := fmt.Sprintf(`PRAGMA busy_timeout = %d`, closeCheckpointWait.Milliseconds())
	if _, err := conn.ExecContext(ctx, wait); err != nil {
		return fmt.Errorf("sqlite: checkpoint at close: %w", err)
	}
	_, _, err = s.checkpoint(ctx, conn, "TRUNCATE")
	return err
}
