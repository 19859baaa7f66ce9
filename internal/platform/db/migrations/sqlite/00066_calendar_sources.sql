-- +goose Up
-- A professional's own calendar that Agendei reads busy time from (issue
-- 42): today an iCal address (kind 'ics'); CalDAV and Google next, one row
-- per professional and kind. The address is an owner's secret (whoever has
-- it reads the calendar): sealed at rest (secretbox), only its host shown.
-- What the last reads found — the busy time itself is busy_imported — and
-- when the next is due. Read live by the card, the dashboard and the
-- reader: no answer is cached from it, so it bumps no data version.
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
    last_read_at    TIMESTAMP,                      -- the last read that worked (a 304 too)
    last_parsed_at  TIMESTAMP,                      -- the last read that parsed the file (200)
    last_error      TEXT NOT NULL DEFAULT '', -- why the last read failed, pt-BR; '' after one that worked
    last_error_at   TIMESTAMP,
    failing_since   TIMESTAMP,                      -- the first failed read since the last that worked
    events          INTEGER NOT NULL DEFAULT 0,
    next_read_at    TIMESTAMP NOT NULL,
    created_at      TIMESTAMP NOT NULL,
    updated_at      TIMESTAMP NOT NULL,
    UNIQUE (professional_id, kind)
);
CREATE INDEX calendar_sources_owner ON calendar_sources (user_id);
CREATE INDEX calendar_sources_due ON calendar_sources (next_read_at);

-- +goose Down
DROP TABLE calendar_sources;
