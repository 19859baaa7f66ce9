-- +goose Up
-- Waitlist offers by WhatsApp (issue 28, point 2): a WhatsApp message is
-- about an appointment or about a waitlist offer (the claim link of a
-- freed time), so that an offer's message has the same idempotency key,
-- lease, retries, statuses and monthly count as every other. SQLite cannot
-- drop a NOT NULL: the table is rebuilt (nothing references it).
CREATE TABLE whatsapp_messages_new (
    id             TEXT PRIMARY KEY,
    idem_key       TEXT NOT NULL UNIQUE,
    user_id        TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    appointment_id TEXT REFERENCES appointments(id) ON DELETE CASCADE,
    offer_id       TEXT REFERENCES waitlist_offers(id) ON DELETE CASCADE,
    kind           TEXT NOT NULL,
    state          TEXT NOT NULL,
    wamid          TEXT UNIQUE,
    ref_hash       TEXT UNIQUE,
    attempts       INTEGER NOT NULL DEFAULT 0,
    locked_until   TIMESTAMP,
    status_at      TIMESTAMP,
    error          TEXT NOT NULL DEFAULT '',
    emailed        BOOLEAN NOT NULL DEFAULT FALSE,
    created_at     TIMESTAMP NOT NULL,
    sent_at        TIMESTAMP
);
INSERT INTO whatsapp_messages_new (id, idem_key, user_id, appointment_id, kind, state, wamid, ref_hash, attempts, locked_until, status_at, error, emailed, created_at, sent_at)
    SELECT id, idem_key, user_id, appointment_id, kind, state, wamid, ref_hash, attempts, locked_until, status_at, error, emailed, created_at, sent_at FROM whatsapp_messages;
DROP TABLE whatsapp_messages;
ALTER TABLE whatsapp_messages_new RENAME TO whatsapp_messages;
CREATE INDEX whatsapp_messages_appointment ON whatsapp_messages (appointment_id, created_at);
CREATE INDEX whatsapp_messages_sent ON whatsapp_messages (user_id, sent_at);
CREATE INDEX whatsapp_messages_offer ON whatsapp_messages (offer_id) WHERE offer_id IS NOT NULL;

-- +goose Down
CREATE TABLE whatsapp_messages_old (
    id             TEXT PRIMARY KEY,
    idem_key       TEXT NOT NULL UNIQUE,
    user_id        TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    appointment_id TEXT NOT NULL REFERENCES appointments(id) ON DELETE CASCADE,
    kind           TEXT NOT NULL,
    state          TEXT NOT NULL,
    wamid          TEXT UNIQUE,
    ref_hash       TEXT UNIQUE,
    attempts       INTEGER NOT NULL DEFAULT 0,
    locked_until   TIMESTAMP,
    status_at      TIMESTAMP,
    error          TEXT NOT NULL DEFAULT '',
    emailed        BOOLEAN NOT NULL DEFAULT FALSE,
    created_at     TIMESTAMP NOT NULL,
    sent_at        TIMESTAMP
);
INSERT INTO whatsapp_messages_old SELECT id, idem_key, user_id, appointment_id, kind, state, wamid, ref_hash, attempts, locked_until, status_at, error, emailed, created_at, sent_at
    FROM whatsapp_messages WHERE appointment_id IS NOT NULL;
DROP TABLE whatsapp_messages;
ALTER TABLE whatsapp_messages_old RENAME TO whatsapp_messages;
CREATE INDEX whatsapp_messages_appointment ON whatsapp_messages (appointment_id, created_at);
CREATE INDEX whatsapp_messages_sent ON whatsapp_messages (user_id, sent_at);
