-- +goose Up
-- Issue 43 §1–2: the health record (prontuário). Every text a professional
-- writes about a client — the identification, each entry's body, a
-- correction's reason — is sealed with the owner's own data key
-- (record_keys, itself sealed by the server's key), so the database file or a
-- backup alone reveals nothing. Entries are append-only: a correction is a
-- new version of the entry; the triggers below refuse any UPDATE, and any
-- DELETE unless the record's destruction was signed (record_destructions).
-- Every read, export, share, print and write is in record_log, which no one
-- edits either.
ALTER TABLE profiles ADD COLUMN self_professional_id TEXT; -- the professional of the team the owner is ("Este profissional sou eu")

CREATE TABLE record_keys (
    owner_id   TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    sealed_key TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
);

-- A record: one client of one professional. professional_id has no foreign
-- key on purpose: the record outlives the professional (retention).
CREATE TABLE records (
    id              TEXT PRIMARY KEY,
    owner_id        TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    professional_id TEXT NOT NULL,
    client_key      TEXT NOT NULL,              -- the client as the agenda keys them; '' once the client was erased
    identity        TEXT NOT NULL,              -- sealed JSON: the client's identification
    client_copy     BOOLEAN NOT NULL DEFAULT FALSE, -- the client's private link may show the prontuário part
    last_entry_at   TIMESTAMPTZ,
    erased_at       TIMESTAMPTZ,                  -- the client's data was erased; the record is kept for its legal retention
    created_at      TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX records_client ON records (owner_id, professional_id, client_key) WHERE client_key <> '';
CREATE INDEX records_owner_professional ON records (owner_id, professional_id);

CREATE TABLE record_entries (
    id               TEXT PRIMARY KEY,            -- this version
    record_id        TEXT NOT NULL REFERENCES records(id) ON DELETE CASCADE,
    owner_id         TEXT NOT NULL,
    entry_id         TEXT NOT NULL,               -- the entry; its versions share it
    version          INTEGER NOT NULL,
    kind             TEXT NOT NULL CHECK (kind IN ('prontuario', 'sigiloso')),
    template         TEXT NOT NULL,
    session_date     TEXT NOT NULL,               -- YYYY-MM-DD: the session it is about
    appointment_id   TEXT,
    body             TEXT NOT NULL,               -- sealed
    reason           TEXT NOT NULL DEFAULT '',    -- sealed; a correction's reason
    author_account   TEXT NOT NULL,
    author_professional_id TEXT NOT NULL,
    author_name      TEXT NOT NULL,
    author_council   TEXT NOT NULL,
    created_at       TIMESTAMPTZ NOT NULL,
    UNIQUE (entry_id, version)
);
CREATE INDEX record_entries_record ON record_entries (record_id, session_date, created_at);

-- The signed destruction of a record after its retention: kept when the
-- record's entries go.
CREATE TABLE record_destructions (
    record_id   TEXT PRIMARY KEY,
    owner_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    by_account  TEXT NOT NULL,
    by_name     TEXT NOT NULL,
    by_council  TEXT NOT NULL,
    entries     INTEGER NOT NULL,
    destroyed_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE record_log (
    id          TEXT PRIMARY KEY,
    owner_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    record_id   TEXT NOT NULL,
    entry_id    TEXT NOT NULL DEFAULT '',
    actor_account TEXT NOT NULL,
    actor_name  TEXT NOT NULL,
    action      TEXT NOT NULL,                  -- read, write, correct, export, print, share, destroy
    at          TIMESTAMPTZ NOT NULL
);
CREATE INDEX record_log_record ON record_log (record_id, at);

CREATE TABLE record_templates (
    owner_id   TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    template   TEXT NOT NULL CHECK (template IN ('anamnese', 'evolucao', 'encerramento')),
    body       TEXT NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (owner_id, template)
);

-- +goose StatementBegin
CREATE FUNCTION records_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' AND EXISTS (SELECT 1 FROM record_destructions d WHERE d.record_id = OLD.record_id) THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION '% is append-only', TG_TABLE_NAME;
END $$;
-- +goose StatementEnd
CREATE TRIGGER record_entries_append_only BEFORE UPDATE OR DELETE ON record_entries FOR EACH ROW EXECUTE FUNCTION records_append_only();
CREATE TRIGGER record_log_append_only BEFORE UPDATE OR DELETE ON record_log FOR EACH ROW EXECUTE FUNCTION records_append_only();

-- +goose Down
DROP TABLE record_templates;
DROP TABLE record_log;
DROP TABLE record_destructions;
DROP TABLE record_entries;
DROP TABLE records;
DROP TABLE record_keys;
DROP FUNCTION records_append_only();
ALTER TABLE profiles DROP COLUMN self_professional_id;
