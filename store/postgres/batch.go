package postgres

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/arbiter-games/arbiter/store"
)

// Moves are committed in groups. A transaction that sends NOTIFY takes
// PostgreSQL's lock on the notification queue from its commit until its
// WAL flush, so that the moves of one store, each with its notification,
// commit one at a time, each waiting for its own flush: with fsync on
// that capped a server at about a thousand moves a second, whatever the
// pool (one flush, 1 ms or so, a move). The move writers send the moves
// waiting together as one pipeline, one implicit transaction: one round
// trip, one commit and one flush for the group.
const (
	// maxMoveBatch bounds the moves of one transaction, so that one
	// commit never holds the moves behind it for long.
	maxMoveBatch = 128
	// moveQueue is how many moves may wait for a writer before a caller
	// blocks in the queue (still answering its context).
	moveQueue = 4 * maxMoveBatch
	// moveWriters is how many groups may be in flight at once: one is
	// gathered while another commits.
	moveWriters = 2
	// moveWait bounds one group's round trip, so that a database that no
	// longer answers fails the moves rather than hold them for ever.
	moveWait = time.Minute
)

// moveWrite is one move waiting for a writer: moveStatement's arguments,
// and its answer.
type moveWrite struct {
	game  string
	args  []any
	state atomic.Int32 // queued, then taken by a writer or abandoned by its caller
	done  chan moveAnswer
}

// moveAnswer is what moveStatement answered for one move: 1 when the
// header matched and the move was stored, 0 when not, or the error.
type moveAnswer struct {
	matched int
	err     error
}

// The states of a moveWrite: a writer stores only a move it took from
// queued, and a caller gives up only on a move it took from queued, so a
// move is either stored and answered, or neither.
const (
	queued int32 = iota
	taken
	abandoned
)

// moveWriterSet is the store's move writers and their queue.
type moveWriterSet struct {
	queue chan *moveWrite
	// admit keeps Close from closing the queue while a caller puts a
	// move in it.
	admit  sync.RWMutex
	closed bool
	wg     sync.WaitGroup
}

// startMoveWriters starts the writers of s.
func (s *Store) startMoveWriters() {
	s.writers.queue = make(chan *moveWrite, moveQueue)
	for range moveWriters {
		s.writers.wg.Go(s.writeMoves)
	}
}

// stopMoveWriters closes the queue and waits until every move queued was
// answered.
func (s *Store) stopMoveWriters() {
	s.writers.admit.Lock()
	if !s.writers.closed {
		s.writers.closed = true
		close(s.writers.queue)
	}
	s.writers.admit.Unlock()
	s.writers.wg.Wait()
}

// submitMove queues a move for the writers and waits for its answer. A
// context that ends while the move waits in the queue is answered at
// once and the move is never stored; once a writer took it, the caller
// waits for the commit, whose outcome is then the truth.
func (s *Store) submitMove(ctx context.Context, game string, args []any) moveAnswer {
	if err := ctx.Err(); err != nil {
		return moveAnswer{err: err}
	}
	w := &moveWrite{game: game, args: args, done: make(chan moveAnswer, 1)}
	if err := s.enqueueMove(ctx, w); err != nil {
		return moveAnswer{err: err}
	}
	select {
	case a := <-w.done:
		return a
	case <-ctx.Done():
		if w.state.CompareAndSwap(queued, abandoned) {
			return moveAnswer{err: ctx.Err()}
		}
		return <-w.done
	}
}

func (s *Store) enqueueMove(ctx context.Context, w *moveWrite) error {
	s.writers.admit.RLock()
	defer s.writers.admit.RUnlock()
	if s.writers.closed {
		return store.ErrClosed
	}
	select {
	case s.writers.queue <- w:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// writeMoves is one writer: it takes the first move waiting and every
// other one already queued (up to maxMoveBatch), never waiting for more,
// and commits them together.
func (s *Store) writeMoves() {
	group := make([]*moveWrite, 0, maxMoveBatch)
	for w := range s.writers.queue {
		group = append(group[:0], w)
		group = gatherMoves(s.writers.queue, group)
		s.commitMoves(group)
		clear(group) // let the answered moves go
	}
}

// gatherMoves adds the moves waiting in queue to group, up to
// maxMoveBatch.
func gatherMoves(queue <-chan *moveWrite, group []*moveWrite) []*moveWrite {
	for len(group) < maxMoveBatch {
		select {
		case w, ok := <-queue:
			if !ok {
				return group
			}
			group = append(group, w)
		default:
			return group
		}
	}
	return group
}

// commitMoves stores the moves of group whose callers still wait, and
// answers each. When the group's transaction fails (one move's error
// rolls back all of them), each move is tried again alone, so that each
// gets its own answer.
func (s *Store) commitMoves(group []*moveWrite) {
	group = slices.DeleteFunc(group, func(w *moveWrite) bool { return !w.state.CompareAndSwap(queued, taken) })
	if len(group) == 0 {
		return
	}
	// The moves' own contexts no longer matter: a move a writer took is
	// finished, so that its caller learns the truth.
	ctx, cancel := context.WithTimeout(context.Background(), moveWait)
	defer cancel()
	if len(group) > 1 {
		// In the order of the games' rows, so that two groups (of two
		// writers, or two servers) that update the same games lock them
		// in the same order and never deadlock.
		slices.SortStableFunc(group, func(a, b *moveWrite) int { return cmp.Compare(a.game, b.game) })
		if answers, err := s.runMoves(ctx, group); err == nil {
			for i, w := range group {
				w.done <- answers[i]
			}
			return
		}
	}
	for _, w := range group {
		var a moveAnswer
		a.err = s.pool.QueryRow(ctx, moveStatement, w.args...).Scan(&a.matched)
		w.done <- a
	}
}

// runMoves sends group's statements as one pipeline, which PostgreSQL
// runs as one implicit transaction, committed at its end: the moves, then
// their notifications as one (or a few, each within PostgreSQL's 8000
// bytes), not one each: every notification is a message to every
// server's listener, which then had a thousand a second to read.
func (s *Store) runMoves(ctx context.Context, group []*moveWrite) ([]moveAnswer, error) {
	var b pgx.Batch
	for _, w := range group {
		b.Queue(groupMoveStatement, w.args[:len(w.args)-2]...)
	}
	notices := groupNotices(group)
	for _, n := range notices {
		b.Queue(groupNotify, Channel, n.ids, n.versions)
	}
	results := s.pool.SendBatch(ctx, &b)
	answers := make([]moveAnswer, len(group))
	for i := range group {
		if err := results.QueryRow().Scan(&answers[i].matched); err != nil {
			results.Close()
			return nil, err
		}
	}
	for range notices {
		if _, err := results.Exec(); err != nil {
			results.Close()
			return nil, err
		}
	}
	// Close reads up to the end of the pipeline: the commit's answer.
	if err := results.Close(); err != nil {
		return nil, err
	}
	return answers, nil
}

// maxNotice bounds one notification's payload, under PostgreSQL's 8000
// bytes.
const maxNotice = 7000

// notices are the games and versions one groupNotify statement names.
type notices struct {
	ids      []string
	versions []int64
}

// groupNotices splits the games and versions group's moves make into
// groupNotify's arguments, each naming at most maxNotice bytes of lines.
func groupNotices(group []*moveWrite) []notices {
	var out []notices
	size := maxNotice
	for _, w := range group {
		line := w.args[len(w.args)-1].(string)
		e, ok := parseNotice(line)
		if !ok {
			continue
		}
		if size+len(line)+1 > maxNotice {
			out = append(out, notices{})
			size = 0
		}
		n := &out[len(out)-1]
		n.ids, n.versions = append(n.ids, e.Game), append(n.versions, e.Version)
		size += len(line) + 1
	}
	return out
}
