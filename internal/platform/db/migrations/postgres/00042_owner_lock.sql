-- +goose Up
-- Issue 38: one lock order for every write of an owner's rows on
-- PostgreSQL. The owner's data_versions row first (every write's trigger
-- bumps it anyway), then professionals by id, then appointments; a write
-- transaction takes the first at its start (db.Tx.LockOwner), so one
-- owner's writers are serialised there and never wait for each other in
-- opposite orders further on. lock_owner takes it — inserting the row when
-- the owner has none yet — and then, in a statement of its own (a fresh
-- snapshot under READ COMMITTED, after any wait for the lock), tells
-- whether the owner still exists: a write that waited behind its account's
-- deletion finds it gone and stops (401), leaving nothing behind.
-- +goose StatementBegin
CREATE FUNCTION lock_owner(uid TEXT) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (uid, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = data_versions.version;
    RETURN EXISTS (SELECT 1 FROM users WHERE id = uid);
END
$$;
-- +goose StatementEnd

-- Rows of accounts deleted before: grid groups (kept empty by the grid's
-- trigger as an account's appointments went) and version rows have no
-- foreign key to the account.
DELETE FROM grid_groups g WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = g.user_id);
DELETE FROM data_versions v WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = v.user_id);

-- +goose Down
DROP FUNCTION lock_owner(TEXT);
