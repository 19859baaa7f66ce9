-- +goose Up
-- The client list's search (issue 26): which clients have an appointment
-- whose search key (name and e-mail, folded) or phone contains what the
-- owner typed. A containing match reads every one of the owner's entries
-- whatever the index; this one holds all the search reads, in client order,
-- so it is read alone instead of every appointment's row (SQLite, 100,000
-- appointments: about 500 ms through the table's rows). Keys and phones are
-- short (a name of 120 characters, an e-mail), well within an index entry.
CREATE INDEX appointments_owner_search ON appointments (user_id, client_key, search_key, client_phone);

-- +goose Down
DROP INDEX appointments_owner_search;
