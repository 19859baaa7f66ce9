-- +goose Up
-- The operator's WhatsApp number (issue 41 §1). Its credentials are in the
-- server's configuration, never here.
--
-- via says which number a message goes from: the owner's own ('own') or
-- the operator's ('operator'). An operator's message gets its row when it
-- is queued ('queued'), in the transaction that queues it under the owner's
-- lock, so the monthly allowance is counted from these rows and two
-- bookings at once cannot both take its last message.
ALTER TABLE whatsapp_messages ADD COLUMN via TEXT NOT NULL DEFAULT 'own';
CREATE INDEX whatsapp_messages_via ON whatsapp_messages (user_id, via, created_at);

-- Owners who turned the operator's number on (the card's switch).
CREATE TABLE whatsapp_operator_owners (
    user_id    TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    enabled_at TIMESTAMP NOT NULL
);

-- Agendei's templates in the operator's account and Meta's review status.
CREATE TABLE whatsapp_operator_templates (
    kind       TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    language   TEXT NOT NULL,
    status     TEXT NOT NULL,
    checked_at TIMESTAMP NOT NULL
);

-- The month ("YYYY-MM", the owner's time zone) an owner was told that the
-- allowance ran out: told once a month.
CREATE TABLE whatsapp_allowance_notices (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    month   TEXT NOT NULL,
    told_at TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, month)
);

-- +goose Down
DROP TABLE whatsapp_allowance_notices;
DROP TABLE whatsapp_operator_templates;
DROP TABLE whatsapp_operator_owners;
DROP INDEX whatsapp_messages_via;
ALTER TABLE whatsapp_messages DROP COLUMN via;
