-- +goose Up
-- Busy time imported from a calendar an owner already uses (issue 42): per
-- professional and source (an ICS address, later CalDAV and Google), each
-- busy interval as two instants (UTC) and the event's UID. The slot engine
-- counts them like blocks of that professional — the public pages through
-- the setup (kept per data version, hence the triggers), the hold by
-- reading them under the lock. An import replaces a source's rows by
-- difference, so one that changes nothing writes nothing and bumps nothing.
-- title is the event's title, stored only while the owner asks to see it.
CREATE TABLE busy_imported (
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    professional_id TEXT NOT NULL REFERENCES professionals(id) ON DELETE CASCADE,
    source          TEXT NOT NULL,
    uid             TEXT NOT NULL,
    starts_at       TIMESTAMP NOT NULL,
    ends_at         TIMESTAMP NOT NULL CHECK (ends_at > starts_at),
    title           TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (professional_id, source, uid, starts_at)
);
CREATE INDEX busy_imported_user ON busy_imported (user_id, starts_at);

-- +goose StatementBegin
CREATE TRIGGER busy_imported_version_insert AFTER INSERT ON busy_imported
WHEN NEW.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER busy_imported_version_update AFTER UPDATE ON busy_imported
WHEN NEW.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER busy_imported_version_delete AFTER DELETE ON busy_imported
WHEN OLD.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (OLD.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- The appointments an import found under an imported busy time, each told
-- to the owner once (the bell). The grid's mark is computed from
-- busy_imported itself; this only remembers who was told.
CREATE TABLE busy_flags (
    appointment_id TEXT PRIMARY KEY REFERENCES appointments(id) ON DELETE CASCADE,
    user_id        TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    flagged_at     TIMESTAMP NOT NULL
);

-- +goose Down
DROP TABLE busy_flags;
DROP TABLE busy_imported;
