package sqlite

import (
	"context"
	"database/sql"
	"sync"
)

// maxStmts bounds the writer's prepared statements. The store's SQL is a
// fixed set of texts, far fewer; a text past the bound is run unprepared.
const maxStmts = 256

// stmts are the writer's prepared statements, by their SQL text. SQLite
// parses a statement each time it is run unprepared: under load a move's
// five statements spent a tenth of the server's time in the parser.
//
// The writer has one connection, which its transaction holds, so a
// statement cannot be prepared on the database while one runs (it would
// wait for that connection for ever): a text met for the first time is
// run unprepared and wanted, and the writer prepares what it wants
// between its transactions (prepareWanted). A transaction then runs it
// on the same connection, where database/sql keeps it prepared.
type stmts struct {
	db     *sql.DB
	mu     sync.Mutex
	m      map[string]*sql.Stmt
	wanted map[string]bool
}

func newStmts(db *sql.DB) *stmts {
	return &stmts{db: db, m: map[string]*sql.Stmt{}, wanted: map[string]bool{}}
}

// get is query's prepared statement; false when it is not prepared yet
// (it is then wanted, if the cache has room).
func (c *stmts) get(query string) (*sql.Stmt, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if st, ok := c.m[query]; ok {
		return st, true
	}
	if len(c.m)+len(c.wanted) < maxStmts {
		c.wanted[query] = true
	}
	return nil, false
}

// prepareWanted prepares the wanted statements, while no transaction
// holds the writer's connection. A text that does not prepare is left
// unprepared: its caller meets its error when it runs.
func (c *stmts) prepareWanted(ctx context.Context) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for q := range c.wanted {
		delete(c.wanted, q)
		if st, err := c.db.PrepareContext(ctx, q); err == nil {
			c.m[q] = st
		}
	}
}

// close closes every statement, before the writer's database.
func (c *stmts) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var first error
	for q, st := range c.m {
		if err := st.Close(); err != nil && first == nil {
			first = err
		}
		delete(c.m, q)
	}
	return first
}

// writeTx is the writer's transaction running its statements prepared.
// Each statement is bound to the transaction once (database/sql makes a
// new Stmt for every binding), for all the writes of its batch.
type writeTx struct {
	tx    *sql.Tx
	stmts *stmts
	bound map[*sql.Stmt]*sql.Stmt
}

var _ conn = (*writeTx)(nil)

func newWriteTx(tx *sql.Tx, stmts *stmts) *writeTx {
	return &writeTx{tx: tx, stmts: stmts, bound: map[*sql.Stmt]*sql.Stmt{}}
}

// stmt is query's statement bound to the transaction; false when it is
// not prepared yet.
func (t *writeTx) stmt(ctx context.Context, query string) (*sql.Stmt, bool) {
	st, ok := t.stmts.get(query)
	if !ok {
		return nil, false
	}
	b, ok := t.bound[st]
	if !ok {
		b = t.tx.StmtContext(ctx, st)
		t.bound[st] = b
	}
	return b, true
}

func (t *writeTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st, ok := t.stmt(ctx, query); ok {
		return st.ExecContext(ctx, args...)
	}
	return t.tx.ExecContext(ctx, query, args...)
}

func (t *writeTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st, ok := t.stmt(ctx, query); ok {
		return st.QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, query, args...)
}

func (t *writeTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st, ok := t.stmt(ctx, query); ok {
		return st.QueryContext(ctx, args...)
	}
	return t.tx.QueryContext(ctx, query, args...)
}
