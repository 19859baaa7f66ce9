-- +goose Up
-- More private links per appointment. The client's first link is the
-- appointment's cancel_token_hash (it works as long as the appointment
-- exists); the links issued later (the owner's WhatsApp message with
-- {link_cliente}, the e-mail of a move) are rows here, each the SHA-256 of
-- its token, valid until the appointment ends. They go with the
-- appointment (and its owner's account), and a client's erase deletes them.
CREATE TABLE appointment_links (
    token_hash     TEXT PRIMARY KEY,
    appointment_id TEXT NOT NULL REFERENCES appointments(id) ON DELETE CASCADE,
    user_id        TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at     TIMESTAMP NOT NULL
);
CREATE INDEX appointment_links_appointment ON appointment_links (appointment_id, created_at);

-- +goose Down
DROP TABLE appointment_links;
