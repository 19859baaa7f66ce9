-- +goose NO TRANSACTION
-- +goose Up
-- A professional's calendar may also be a CalDAV account or a Google
-- account (issue 42 §2, §3), on the same row shape as the iCal address:
-- url_sealed is the CalDAV server's address (an ICS row's address; '' for
-- Google), account the user name or Google e-mail shown on the card,
-- secret_sealed the app password or Google's refresh token (secretbox, never
-- answered), calendars the JSON list of the account's calendars whose events
-- count as busy, write_calendar the one Agendei writes its appointments to
-- ('' writes nothing), sync the JSON of each calendar's last state
-- (getctag/sync-token, Google's syncToken) so an unchanged one is not read.
-- SQLite cannot change a CHECK in place: the table is rebuilt.
PRAGMA foreign_keys = OFF;
CREATE TABLE calendar_sources_new (
    id              TEXT PRIMARY KEY,
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    professional_id TEXT NOT NULL REFERENCES professionals(id) ON DELETE CASCADE,
    kind            TEXT NOT NULL CHECK (kind IN ('ics', 'caldav', 'google')),
    url_sealed      TEXT NOT NULL,
    host            TEXT NOT NULL,
    account         TEXT NOT NULL DEFAULT '',
    secret_sealed   TEXT NOT NULL DEFAULT '',
    calendars       TEXT NOT NULL DEFAULT '[]',
    write_calendar  TEXT NOT NULL DEFAULT '',
    sync            TEXT NOT NULL DEFAULT '{}',
    show_titles     BOOLEAN NOT NULL DEFAULT FALSE,
    all_day         TEXT NOT NULL DEFAULT 'busy' CHECK (all_day IN ('busy', 'ignore')),
    on_failure      TEXT NOT NULL DEFAULT 'keep' CHECK (on_failure IN ('keep', 'drop')),
    etag            TEXT NOT NULL DEFAULT '',
    last_modified   TEXT NOT NULL DEFAULT '',
    last_read_at    TIMESTAMP,
    last_parsed_at  TIMESTAMP,
    last_error      TEXT NOT NULL DEFAULT '',
    last_error_at   TIMESTAMP,
    failing_since   TIMESTAMP,
    events          INTEGER NOT NULL DEFAULT 0,
    next_read_at    TIMESTAMP NOT NULL,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL,
    UNIQUE (professional_id, kind)
);
INSERT INTO calendar_sources_new (id, user_id, professional_id, kind, url_sealed, host, show_titles, all_day, on_failure, etag, last_modified,
    last_read_at, last_parsed_at, last_error, last_error_at, failing_since, events, next_read_at, created_at, updated_at)
SELECT id, user_id, professional_id, kind, url_sealed, host, show_titles, all_day, on_failure, etag, last_modified,
    last_read_at, last_parsed_at, last_error, last_error_at, failing_since, events, next_read_at, created_at, updated_at
FROM calendar_sources;
DROP TABLE calendar_sources;
ALTER TABLE calendar_sources_new RENAME TO calendar_sources;
CREATE INDEX calendar_sources_owner ON calendar_sources (user_id);
CREATE INDEX calendar_sources_due ON calendar_sources (next_read_at);
PRAGMA foreign_keys = ON;

-- +goose Down
PRAGMA foreign_keys = OFF;
DELETE FROM calendar_sources WHERE kind <> 'ics';
CREATE TABLE calendar_sources_old AS SELECT id, user_id, professional_id, kind, url_sealed, host, show_titles, all_day, on_failure, etag, last_modified,
    last_read_at, last_parsed_at, last_error, last_error_at, failing_since, events, next_read_at, created_at, updated_at FROM calendar_sources;
DROP TABLE calendar_sources;
CREATE TABLE calendar_sources (
    id              TEXT PRIMARY KEY,
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    professional_id TEXT NOT NULL REFERENCES professionals(id) ON DELETE CASCADE,
    kind            TEXT NOT NULL CHECK (kind IN ('ics')),
    url_sealed      TEXT NOT NULL,
    host            TEXT NOT NULL,
    show_titles     BOOLEAN NOT NULL DEFAULT FALSE,
    all_day         TEXT NOT NULL DEFAULT 'busy' CHECK (all_day IN ('busy', 'ignore')),
    on_failure      TEXT NOT NULL DEFAULT 'keep' CHECK (on_failure IN ('keep', 'drop')),
    etag            TEXT NOT NULL DEFAULT '',
    last_modified   TEXT NOT NULL DEFAULT '',
    last_read_at    TIMESTAMP,
    last_parsed_at  TIMESTAMP,
    last_error      TEXT NOT NULL DEFAULT '',
    last_error_at   TIMESTAMP,
    failing_since   TIMESTAMP,
    events          INTEGER NOT NULL DEFAULT 0,
    next_read_at    TIMESTAMP NOT NULL,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL,
    UNIQUE (professional_id, kind)
);
INSERT INTO calendar_sources SELECT * FROM calendar_sources_old;
DROP TABLE calendar_sources_old;
CREATE INDEX calendar_sources_owner ON calendar_sources (user_id);
CREATE INDEX calendar_sources_due ON calendar_sources (next_read_at);
PRAGMA foreign_keys = ON;
