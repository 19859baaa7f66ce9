-- +goose Up
-- Private calendar feeds: an iCalendar address an owner subscribes to in
-- Google, Apple or Outlook calendars, for the whole practice or one
-- professional. Only the token's SHA-256 is kept; a new link for the same
-- scope replaces the old one, and deleting the row revokes it.
CREATE TABLE calendar_feeds (
    id              TEXT PRIMARY KEY,
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    professional_id TEXT REFERENCES professionals(id) ON DELETE CASCADE, -- NULL: the whole practice
    token_hash      TEXT NOT NULL UNIQUE,
    created_at      TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX calendar_feeds_scope ON calendar_feeds (user_id, COALESCE(professional_id, ''));

-- +goose Down
DROP TABLE calendar_feeds;
