-- +goose Up
-- An owner's WhatsApp Business Platform (Cloud API) connection (issue 28,
-- point 2). The access token and app secret are sealed by
-- platform/secretbox under a key from the server's configuration (never
-- stored here), bound to the owner and field. webhook_key is the owner's
-- path segment of the webhook URL (random, not the user id); verify_token
-- is what Meta echoes on the webhook's GET (the owner copies it there).
CREATE TABLE whatsapp_accounts (
    user_id              TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    waba_id              TEXT NOT NULL,
    phone_number_id      TEXT NOT NULL,
    display_phone_number TEXT NOT NULL,
    verified_name        TEXT NOT NULL,
    access_token_sealed  TEXT NOT NULL,
    app_secret_sealed    TEXT NOT NULL,
    verify_token         TEXT NOT NULL,
    webhook_key          TEXT NOT NULL UNIQUE,
    templates_checked_at TIMESTAMP,
    connected_at         TIMESTAMP NOT NULL,
    updated_at           TIMESTAMP NOT NULL
);

-- Agendei's templates in the owner's account and Meta's review status.
CREATE TABLE whatsapp_templates (
    user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind       TEXT NOT NULL,
    name       TEXT NOT NULL,
    language   TEXT NOT NULL,
    status     TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, kind)
);

-- One row per message Agendei sends (or tried to). idem_key is
-- (appointment, kind, the time it is about): claimed before the Graph call,
-- so a retry or a second instance never sends it twice. wamid is Meta's id
-- of the sent message (status webhooks name it); ref_hash is the SHA-256 of
-- the reference the quick-reply buttons carry (never the appointment id).
-- state: sending, retry, sent, delivered, read, failed, unknown; status_at
-- is Meta's time of the state, so an older status arriving late changes
-- nothing. No client data: the recipient is read from the appointment.
CREATE TABLE whatsapp_messages (
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
CREATE INDEX whatsapp_messages_appointment ON whatsapp_messages (appointment_id, created_at);
CREATE INDEX whatsapp_messages_sent ON whatsapp_messages (user_id, sent_at);

-- Clients' answers already acted on, by Meta's id of the inbound message:
-- a replayed webhook finds its id here and changes nothing.
CREATE TABLE whatsapp_inbound (
    wamid       TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    received_at TIMESTAMP NOT NULL
);

-- +goose Down
DROP TABLE whatsapp_inbound;
DROP TABLE whatsapp_messages;
DROP TABLE whatsapp_templates;
DROP TABLE whatsapp_accounts;
