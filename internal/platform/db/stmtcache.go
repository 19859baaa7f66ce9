package db

import (
	"context"
	"database/sql"
	"sync"
)

// stmtCache keeps a pool's prepared statement of each query text. The
// SQLite driver prepares (parses and plans) every query anew: that cost a
// tenth of a busy public read, and a fifth of a booking's time on the one
// writer, where a statement that fires triggers compiles them too.
// PostgreSQL's driver keeps its own cache, so there the pool is nil and
// nothing is kept. Bounded: past maxStmts query texts (lists of
// placeholders vary), the rest run unprepared.
type stmtCache struct {
	pool *sql.DB
	mu   sync.Mutex
	m    map[string]*sql.Stmt
}

const maxStmts = 256

// kept is q's prepared statement, or nil when there is none yet.
func (c *stmtCache) kept(q string) *sql.Stmt {
	if c.pool == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[q]
}

// get is q's prepared statement, prepared now if it was not yet; nil to run
// q directly (no cache, the cache is full, or q failed to prepare: running
// it then reports the error as usual). Preparing takes one of the pool's
// connections: never call it holding the writer's only one.
func (c *stmtCache) get(ctx context.Context, q string) *sql.Stmt {
	if c.pool == nil {
		return nil
	}
	c.mu.Lock()
	st, ok := c.m[q]
	full := len(c.m) >= maxStmts
	c.mu.Unlock()
	if ok || full {
		return st
	}
	st, err := c.pool.PrepareContext(ctx, q)
	if err != nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if other, ok := c.m[q]; ok {
		st.Close()
		return other
	}
	if c.m == nil {
		c.m = map[string]*sql.Stmt{}
	}
	c.m[q] = st
	return st
}

func (c *stmtCache) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, st := range c.m {
		st.Close()
	}
	c.m = nil
}
