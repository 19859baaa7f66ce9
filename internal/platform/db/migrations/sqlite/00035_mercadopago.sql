-- +goose Up
-- An owner's Mercado Pago connection (issue 29, point 4): Pix deposits
-- confirmed automatically. The access token and the webhook's secret
-- signature are sealed by platform/secretbox under a key from the server's
-- configuration (never stored here), bound to the owner and field.
-- webhook_key is the owner's path segment of the webhook URL (random, not
-- the user id); mp_user_id and nickname are the account as Mercado Pago
-- showed it when the token was checked.
CREATE TABLE mercadopago_accounts (
    user_id               TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    mp_user_id            TEXT NOT NULL,
    nickname              TEXT NOT NULL,
    access_token_sealed   TEXT NOT NULL,
    webhook_secret_sealed TEXT NOT NULL,
    webhook_key           TEXT NOT NULL UNIQUE,
    connected_at          TIMESTAMP NOT NULL,
    updated_at            TIMESTAMP NOT NULL
);

-- One Pix payment per deposit charge. idem_key is Agendei's
-- X-Idempotency-Key (claimed before the call, so a retry or a second
-- instance asks Mercado Pago for the same payment, never a new one);
-- payment_id is Mercado Pago's id (NULL until it answered); status its last
-- status read through the API. outcome is what an approved payment did:
-- '' (not yet), 'confirmed' (the booking confirmed, or it already was) or
-- 'refund' (paid after the hold expired and the time was taken: to be
-- returned); claimed_until keeps two deliveries of the webhook from acting
-- at once. No client data: the payer is read from the appointment.
CREATE TABLE mercadopago_payments (
    id                 TEXT PRIMARY KEY,
    user_id            TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    appointment_id     TEXT NOT NULL REFERENCES appointments(id) ON DELETE CASCADE,
    idem_key           TEXT NOT NULL UNIQUE,
    payment_id         TEXT UNIQUE,
    external_reference TEXT NOT NULL,
    amount_cents       INTEGER NOT NULL,
    status             TEXT NOT NULL,
    status_detail      TEXT NOT NULL DEFAULT '',
    qr_code            TEXT NOT NULL DEFAULT '',
    qr_code_base64     TEXT NOT NULL DEFAULT '',
    ticket_url         TEXT NOT NULL DEFAULT '',
    expires_at         TIMESTAMP NOT NULL,
    approved_at        TIMESTAMP,
    outcome            TEXT NOT NULL DEFAULT '',
    claimed_until      TIMESTAMP,
    created_at         TIMESTAMP NOT NULL,
    updated_at         TIMESTAMP NOT NULL
);
CREATE INDEX mercadopago_payments_appointment ON mercadopago_payments (appointment_id, created_at);

-- Notifications already taken, by their x-request-id: a delivery replayed
-- within the signature's window is answered without acting again.
CREATE TABLE mercadopago_notifications (
    request_id  TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    received_at TIMESTAMP NOT NULL
);

-- +goose Down
DROP TABLE mercadopago_notifications;
DROP TABLE mercadopago_payments;
DROP TABLE mercadopago_accounts;
