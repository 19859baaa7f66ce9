-- +goose Up
-- The waitlist's bounds (issue 38): a phone or an e-mail gets one join
-- confirmation per practice per day, and the owner one notice per waited
-- date per day, however many join. Each such message is sent by the one
-- join that inserts its row (user_id, about, day); "about" is a SHA-256
-- (of the address, or of the date), never the address itself. Rows older
-- than two days are deleted by the waitlist's cleanup.
CREATE TABLE waitlist_notices (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    about   TEXT NOT NULL,
    day     TEXT NOT NULL,
    PRIMARY KEY (user_id, about, day)
);
-- A phone or an e-mail waits in a bounded number of entries per practice.
CREATE INDEX waitlist_entries_email ON waitlist_entries (user_id, client_email);
CREATE INDEX waitlist_entries_phone ON waitlist_entries (user_id, client_phone);

-- +goose Down
DROP INDEX waitlist_entries_phone;
DROP INDEX waitlist_entries_email;
DROP TABLE waitlist_notices;
