-- +goose Up
-- Issue 43 §1: files attached to a health record (a scanned test, a report
-- received), under the upload rules of the profile's photo (5 MB, their kind
-- read from their bytes, a bounded number an hour). Each file's bytes are
-- sealed with the owner's data key before they reach the file store; its
-- name is sealed here. Append-only, like the entries.
CREATE TABLE record_files (
    id             TEXT PRIMARY KEY,
    record_id      TEXT NOT NULL REFERENCES records(id) ON DELETE CASCADE,
    owner_id       TEXT NOT NULL,
    name           TEXT NOT NULL,          -- sealed
    content_type   TEXT NOT NULL,
    size           INTEGER NOT NULL,
    store_key      TEXT NOT NULL,
    author_account TEXT NOT NULL,
    author_name    TEXT NOT NULL,
    author_council TEXT NOT NULL,
    created_at     TIMESTAMP NOT NULL
);
CREATE INDEX record_files_record ON record_files (record_id, created_at);
CREATE TRIGGER record_files_no_update BEFORE UPDATE ON record_files
BEGIN SELECT RAISE(ABORT, 'record files are append-only'); END;
CREATE TRIGGER record_files_no_delete BEFORE DELETE ON record_files
WHEN NOT EXISTS (SELECT 1 FROM record_destructions d WHERE d.record_id = OLD.record_id)
BEGIN SELECT RAISE(ABORT, 'record files are append-only'); END;

-- +goose Down
DROP TABLE record_files;
