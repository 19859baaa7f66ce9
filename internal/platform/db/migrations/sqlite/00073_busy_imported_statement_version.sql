-- +goose Up
-- Issue 42: PostgreSQL's busy_imported bumps the data version once per
-- statement from now on (its file says why). SQLite has no statement
-- triggers, and its row triggers cost an import little (one writer, no
-- row versions): nothing changes here.
SELECT 1;

-- +goose Down
SELECT 1;
