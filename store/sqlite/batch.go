package sqlite

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/arbiter-games/arbiter/store"
)

const (
	// maxBatch bounds the writes one transaction commits together, so
	// that one commit never holds the writes behind it for long.
	maxBatch = 256
	// queueLength is how many writes may wait for the writer before a
	// caller blocks in the queue (still answering its context).
	queueLength = 4 * maxBatch
)

// A write is one caller's change, waiting for the writer goroutine.
type write struct {
	// game and version name the event the change records; game is ""
	// for a write that is no game's (the health check).
	game    string
	version int64
	// apply makes the change inside the batch's transaction; a refusal
	// (store.ErrConflict, ...) leaves nothing behind (its savepoint is
	// rolled back).
	apply func(ctx context.Context, tx conn) error
	state atomic.Int32 // queued, then taken by the writer or abandoned by the caller
	done  chan error   // the answer; buffered, sent at most once
	// seq is the events row of a write stored with an event (set by the
	// writer goroutine; 0 otherwise).
	seq int64
}

// The states of a write: the writer stores only a write it took from
// queued, and a caller gives up only on a write it took from queued, so
// a write is either stored and answered, or neither.
const (
	queued int32 = iota
	taken
	abandoned
)

// submit queues w for the writer and waits for its answer. A context that
// ends while w waits in the queue is answered at once and w is never
// stored; once the writer has taken w, the caller waits for the commit,
// whose outcome is then the truth.
func (s *Store) submit(ctx context.Context, w *write) error {
	if s.closed.Load() {
		return store.ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	w.done = make(chan error, 1)
	if err := s.enqueue(ctx, w); err != nil {
		return err
	}
	select {
	case err := <-w.done:
		return err
	case <-ctx.Done():
		if w.state.CompareAndSwap(queued, abandoned) {
			return ctx.Err()
		}
		return <-w.done
	}
}

// enqueue puts w in the queue unless the store is closing. admit keeps
// Close from closing the queue while a caller is putting a write in it.
func (s *Store) enqueue(ctx context.Context, w *write) error {
	s.admit.RLock()
	defer s.admit.RUnlock()
	if s.closed.Load() {
		return store.ErrClosed
	}
	select {
	case s.queue <- w:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// writeLoop is the writer goroutine: it takes the first write waiting and
// every other one already queued (up to maxBatch), never waiting for more,
// and commits them in one transaction. It ends once Close closed the queue
// and every write queued before was answered.
func (s *Store) writeLoop() {
	defer s.wrote.Done()
	batch := make([]*write, 0, maxBatch)
	for w := range s.queue {
		batch = append(batch[:0], w)
		batch = gather(s.queue, batch)
		s.batching.Lock()
		s.commit(batch)
		s.batching.Unlock()
		clear(batch) // let the answered writes go
		s.stmts.prepareWanted(context.Background())
	}
}

// gather adds the writes waiting in queue to batch, up to maxBatch.
func gather(queue <-chan *write, batch []*write) []*write {
	for len(batch) < maxBatch {
		select {
		case w, ok := <-queue:
			if !ok {
				return batch
			}
			batch = append(batch, w)
		default:
			return batch
		}
	}
	return batch
}

// commit stores batch in one transaction and answers each write: with its
// own refusal, or nil once the transaction is durable. When the
// transaction fails, every write of the batch gets that error (a refusal
// too: it may have been decided on a write that is not stored).
func (s *Store) commit(batch []*write) {
	// The writes' own contexts no longer matter here: a write the writer
	// took is finished, so that its caller learns the truth.
	ctx := context.Background()
	answers, stored, err := s.runBatch(ctx, batch)
	if err != nil {
		for _, w := range batch {
			w.done <- err
		}
		return
	}
	if stored > 0 {
		s.afterCommit(withEvents(batch, answers), stored)
	}
	for i, w := range batch {
		if w.state.Load() == taken {
			w.done <- answers[i]
		}
	}
}

// publishOwn gives the hub the events of the batch just committed, before
// its writes are answered: a subscriber that subscribes after a write
// returned never hears of it, and one subscribed before hears of it
// without waiting for the poller. It can do so only when the batch's
// events directly follow the last one published (no other Store's event
// between them, unpublished yet, which must go out first); else it wakes
// the poller, which publishes them all in order.
func (s *Store) publishOwn(events []*write) {
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	for i, w := range events {
		if w.seq != s.published+1+int64(i) {
			select {
			case s.nudge <- struct{}{}:
			default: // a wake-up is already pending
			}
			return
		}
	}
	for _, w := range events {
		s.hub.Publish(store.Event{Game: w.game, Version: w.version})
		s.published = w.seq
	}
}

// runBatch applies the batch's writes in one transaction, each under a
// savepoint of its own, and commits it when any write stands. It gives
// each write's answer and how many were stored, or the error that failed
// the whole transaction.
func (s *Store) runBatch(ctx context.Context, batch []*write) ([]error, int, error) {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, 0, fmt.Errorf("sqlite: begin: %w", err)
	}
	defer tx.Rollback()
	answers := make([]error, len(batch))
	stored := 0
	wtx := newWriteTx(tx, s.stmts)
	for i, w := range batch {
		if !w.state.CompareAndSwap(queued, taken) {
			continue // its caller gave up while it was queued
		}
		if answers[i], err = s.applyOne(ctx, wtx, w); err != nil {
			return nil, 0, err
		}
		if answers[i] == nil {
			stored++
		}
	}
	if stored == 0 {
		return answers, 0, nil // only refusals: nothing to make durable
	}
	if err := tx.Commit(); err != nil {
		return nil, 0, fmt.Errorf("sqlite: commit: %w", err)
	}
	return answers, stored, nil
}

// applyOne makes one write and records its event under a savepoint, which
// it rolls back when the write is refused, so that a refusal undoes only
// its own write. The first error is the write's own answer; the second
// one spoils the transaction (the savepoint could not be kept or undone).
func (s *Store) applyOne(ctx context.Context, tx conn, w *write) (own, spoiled error) {
	if _, err := tx.ExecContext(ctx, `SAVEPOINT one_write`); err != nil {
		return nil, fmt.Errorf("sqlite: savepoint: %w", err)
	}
	own = w.apply(ctx, tx)
	if own == nil && w.game != "" {
		w.seq, own = addEvent(ctx, tx, w.game, w.version)
	}
	if own != nil {
		// When SQLite itself rolled the whole transaction back (a full
		// disk, an I/O error), the savepoint is gone and this fails: the
		// batch must not go on outside its transaction.
		if _, err := tx.ExecContext(ctx, `ROLLBACK TO one_write`); err != nil {
			return nil, fmt.Errorf("sqlite: %w (then undoing it: %v)", own, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `RELEASE one_write`); err != nil {
		return nil, fmt.Errorf("sqlite: release savepoint: %w", err)
	}
	return own, nil
}

// addEvent records the change of game to version for the pollers, and
// every 256 events prunes the oldest. It gives the event's seq.
func addEvent(ctx context.Context, tx conn, game string, version int64) (int64, error) {
	res, err := tx.ExecContext(ctx, `INSERT INTO events (game, version) VALUES (?, ?)`, game, version)
	if err != nil {
		return 0, err
	}
	seq, err := res.LastInsertId()
	if err != nil {
		return 0, err
	}
	if seq%256 == 0 {
		_, err = tx.ExecContext(ctx, `DELETE FROM events WHERE seq <= ?`, seq-keptEvents)
	}
	return seq, err
}

// withEvents gives the writes of a committed batch that stored an event.
func withEvents(batch []*write, answers []error) []*write {
	var list []*write
	for i, w := range batch {
		if w.state.Load() == taken && answers[i] == nil && w.seq != 0 {
			list = append(list, w)
		}
	}
	return list
}

// afterCommit publishes the events of a committed batch (the writes
// that stored one, in seq order) and wakes the checkpointer when enough
// writes went into the WAL.
func (s *Store) afterCommit(events []*write, stored int) {
	s.publishOwn(events)
	if s.sinceCheckpoint.Add(int64(stored)) >= checkpointWrites {
		select {
		case s.checkpointNow <- struct{}{}:
		default:
		}
	}
}
