-- +goose Up
-- The waitlist (issue 28, point 3). An entry is a client waiting for a time
-- of one service, with one professional or any (professional_id NULL), on
-- the dates first_date..last_date (the owner's calendar, at most 14), in a
-- part of the day. The client's link to leave is the SHA-256 of its token.
-- client_key is the appointments' key of the same contacts: the LGPD
-- export and erase find the entries by it. Entries past their last date are
-- deleted by the waitlist's cleanup (and never matched before that).
CREATE TABLE waitlist_entries (
    id              TEXT PRIMARY KEY,
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    service_id      TEXT NOT NULL REFERENCES services(id) ON DELETE CASCADE,
    professional_id TEXT REFERENCES professionals(id) ON DELETE CASCADE,
    client_name     TEXT NOT NULL,
    client_email    TEXT NOT NULL DEFAULT '',
    client_phone    TEXT NOT NULL DEFAULT '',
    client_key      TEXT NOT NULL,
    first_date      TEXT NOT NULL,
    last_date       TEXT NOT NULL,
    part_of_day     TEXT NOT NULL,
    token_hash      TEXT NOT NULL UNIQUE,
    booked_at       TIMESTAMP,
    appointment_id  TEXT,
    created_at      TIMESTAMP NOT NULL
);
CREATE INDEX waitlist_entries_dates ON waitlist_entries (user_id, last_date, first_date, created_at);
CREATE INDEX waitlist_entries_client ON waitlist_entries (user_id, client_key);

-- An offer of one time to one entry: its claim link (the SHA-256 of its
-- token) books that time until expires_at, through the one booking path.
-- professional_id is the professional's id, or 'any'.
CREATE TABLE waitlist_offers (
    id              TEXT PRIMARY KEY,
    entry_id        TEXT NOT NULL REFERENCES waitlist_entries(id) ON DELETE CASCADE,
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    professional_id TEXT NOT NULL,
    offer_date      TEXT NOT NULL,
    offer_time      TEXT NOT NULL,
    token_hash      TEXT NOT NULL UNIQUE,
    by_owner        BOOLEAN NOT NULL DEFAULT FALSE,
    expires_at      TIMESTAMP NOT NULL,
    claimed_at      TIMESTAMP,
    appointment_id  TEXT,
    -- When the time it offers was freed (NULL: offered by the owner's hand);
    -- created_at - freed_at is how fast the waitlist answered (make bench).
    freed_at        TIMESTAMP,
    created_at      TIMESTAMP NOT NULL
);
CREATE INDEX waitlist_offers_entry ON waitlist_offers (entry_id, created_at);
CREATE INDEX waitlist_offers_time ON waitlist_offers (user_id, offer_date, offer_time);

-- How long an offer's claim link books the time, the owner's setting.
ALTER TABLE profiles ADD COLUMN waitlist_offer_minutes INTEGER NOT NULL DEFAULT 15;

-- +goose Down
ALTER TABLE profiles DROP COLUMN waitlist_offer_minutes;
DROP TABLE waitlist_offers;
DROP TABLE waitlist_entries;
