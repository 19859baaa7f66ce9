-- +goose Up
-- Issue 43 §1: a record's register of documents issued (date, purpose,
-- recipient: CFP 001/2009 art. 2 asks copies of the documents produced), a
-- summary its author chooses to show the practice's owner or a named
-- colleague, and a supervisor's co-signature of an entry (a teaching
-- clinic). Texts are sealed with the owner's data key, as the entries are.
-- Documents are append-only like the entries.
CREATE TABLE record_documents (
    id           TEXT PRIMARY KEY,
    record_id    TEXT NOT NULL REFERENCES records(id) ON DELETE CASCADE,
    owner_id     TEXT NOT NULL,
    issued_on    TEXT NOT NULL,          -- YYYY-MM-DD
    purpose      TEXT NOT NULL,          -- sealed
    recipient    TEXT NOT NULL,          -- sealed
    author_account TEXT NOT NULL,
    author_name  TEXT NOT NULL,
    author_council TEXT NOT NULL,
    created_at   TIMESTAMP NOT NULL
);
CREATE INDEX record_documents_record ON record_documents (record_id, issued_on);

-- One shared summary per record and reader: the owner ('owner') or a
-- colleague (a professional's id). Its author rewrites or withdraws it.
CREATE TABLE record_shares (
    record_id    TEXT NOT NULL REFERENCES records(id) ON DELETE CASCADE,
    owner_id     TEXT NOT NULL,
    reader       TEXT NOT NULL,
    summary      TEXT NOT NULL,          -- sealed
    updated_at   TIMESTAMP NOT NULL,
    PRIMARY KEY (record_id, reader)
);
CREATE INDEX record_shares_reader ON record_shares (owner_id, reader);

-- A supervisor asked to co-sign one version of an entry, and the signature.
CREATE TABLE record_cosigns (
    version_id    TEXT PRIMARY KEY REFERENCES record_entries(id) ON DELETE CASCADE,
    record_id     TEXT NOT NULL,
    owner_id      TEXT NOT NULL,
    supervisor_id TEXT NOT NULL,         -- a professional of the team
    requested_at  TIMESTAMP NOT NULL,
    signed_at     TIMESTAMP,
    signer_account TEXT NOT NULL DEFAULT '',
    signer_name   TEXT NOT NULL DEFAULT '',
    signer_council TEXT NOT NULL DEFAULT ''
);
CREATE INDEX record_cosigns_supervisor ON record_cosigns (owner_id, supervisor_id, signed_at);

CREATE TRIGGER record_documents_no_update BEFORE UPDATE ON record_documents
BEGIN SELECT RAISE(ABORT, 'record documents are append-only'); END;
CREATE TRIGGER record_documents_no_delete BEFORE DELETE ON record_documents
WHEN NOT EXISTS (SELECT 1 FROM record_destructions d WHERE d.record_id = OLD.record_id)
BEGIN SELECT RAISE(ABORT, 'record documents are append-only'); END;

-- +goose Down
DROP TABLE record_cosigns;
DROP TABLE record_shares;
DROP TABLE record_documents;
