package db

import (
	"context"
	"database/sql"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// A Read is one query of ReadAll and what is done with each of its rows
// (scan takes the row's columns, as sql.Rows.Scan does).
type Read struct {
	Query string
	Args  []any
	Row   func(scan func(dest ...any) error) error
}

// ReadAll runs reads in order, handing each row to its read's Row; the first
// error stops it. On PostgreSQL, when q is the database itself (not a
// transaction), they go in one round trip — one pipelined batch on one
// connection — instead of one each: for loads of several small tables at
// once, such as an owner's schedule setup.
func ReadAll(ctx context.Context, q Querier, reads ...Read) error {
	if d, ok := q.(*DB); ok && d.Dialect == Postgres && len(reads) > 1 {
		return d.readBatch(ctx, reads)
	}
	for _, r := range reads {
		if err := Each(ctx, q, r.Query, r.Args, func(rows *sql.Rows) error { return r.Row(rows.Scan) }); err != nil {
			return err
		}
	}
	return nil
}

func (d *DB) readBatch(ctx context.Context, reads []Read) error {
	conn, err := d.r.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		var batch pgx.Batch
		for _, r := range reads {
			batch.Queue(d.Rebind(r.Query), r.Args...)
		}
		br := dc.(*stdlib.Conn).Conn().SendBatch(ctx, &batch)
		for _, r := range reads {
			if err := readRows(br, r); err != nil {
				br.Close()
				return err
			}
		}
		return br.Close()
	})
}

func readRows(br pgx.BatchResults, r Read) error {
	rows, err := br.Query()
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := r.Row(rows.Scan); err != nil {
			return err
		}
	}
	return rows.Err()
}
