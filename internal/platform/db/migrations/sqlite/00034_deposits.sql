-- +goose Up
-- Deposits (sinal) at booking, issue 29.
--
-- A service's policy: deposit_kind 'none' (the default), 'fixed'
-- (deposit_value in centavos) or 'percent' (deposit_value in whole percent
-- of the price, 1–100); deposit_hold_minutes is how long an unpaid booking
-- holds its time (10–1440); whether the deposit is kept on a late
-- cancellation (past the owner's cutoff) and on a no-show. A timely
-- cancellation always has it returned.
ALTER TABLE services ADD COLUMN deposit_kind TEXT NOT NULL DEFAULT 'none';
ALTER TABLE services ADD COLUMN deposit_value BIGINT NOT NULL DEFAULT 0;
ALTER TABLE services ADD COLUMN deposit_hold_minutes INTEGER NOT NULL DEFAULT 30;
ALTER TABLE services ADD COLUMN deposit_keep_late BOOLEAN NOT NULL DEFAULT TRUE;
ALTER TABLE services ADD COLUMN deposit_keep_no_show BOOLEAN NOT NULL DEFAULT TRUE;

-- The owner's Pix: the key (normalised), its kind (cpf, cnpj, phone, email,
-- random), and the receiver's name and city as the BR Code carries them.
ALTER TABLE profiles ADD COLUMN pix_key TEXT NOT NULL DEFAULT '';
ALTER TABLE profiles ADD COLUMN pix_key_type TEXT NOT NULL DEFAULT '';
ALTER TABLE profiles ADD COLUMN pix_name TEXT NOT NULL DEFAULT '';
ALTER TABLE profiles ADD COLUMN pix_city TEXT NOT NULL DEFAULT '';

-- One deposit per appointment that asked for one. state: pending (the
-- appointment is "aguardando sinal" and holds its time until expires_at),
-- paid, expired (released unpaid), cancelled (the booking was cancelled
-- before payment), to_return (paid, then cancelled in time: the owner owes
-- it), returned, retained (kept: a no-show or a late cancellation).
-- reference is the txid of the charge (unique, ≤ 25 alphanumerics);
-- provider 'pix' is the static Pix from the owner's key; provider_ref is a
-- provider's own id of the payment; payload is the "Pix Copia e Cola" text.
-- keep_late / keep_no_show are the policy as it was when booked.
CREATE TABLE deposits (
    appointment_id TEXT PRIMARY KEY REFERENCES appointments(id) ON DELETE CASCADE,
    user_id        TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    amount_cents   BIGINT NOT NULL,
    state          TEXT NOT NULL,
    provider       TEXT NOT NULL DEFAULT 'pix',
    reference      TEXT NOT NULL UNIQUE,
    provider_ref   TEXT NOT NULL DEFAULT '',
    payload        TEXT NOT NULL DEFAULT '',
    receiver       TEXT NOT NULL DEFAULT '',
    keep_late      BOOLEAN NOT NULL DEFAULT TRUE,
    keep_no_show   BOOLEAN NOT NULL DEFAULT TRUE,
    late_payment   BOOLEAN NOT NULL DEFAULT FALSE,
    expires_at     TIMESTAMP NOT NULL,
    paid_at        TIMESTAMP,
    returned_at    TIMESTAMP,
    created_at     TIMESTAMP NOT NULL,
    updated_at     TIMESTAMP NOT NULL
);
CREATE INDEX deposits_owner_state ON deposits (user_id, state, expires_at);

-- Every change of a deposit's state: the appointment's history of it.
-- source says who made it (client, owner, job, a provider's name).
CREATE TABLE deposit_events (
    id             TEXT PRIMARY KEY,
    appointment_id TEXT NOT NULL REFERENCES appointments(id) ON DELETE CASCADE,
    user_id        TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    state          TEXT NOT NULL,
    source         TEXT NOT NULL,
    at             TIMESTAMP NOT NULL
);
CREATE INDEX deposit_events_appointment ON deposit_events (appointment_id, at);
CREATE INDEX deposit_events_owner ON deposit_events (user_id, at);

-- +goose StatementBegin
CREATE TRIGGER deposits_version_insert AFTER INSERT ON deposits
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER deposits_version_update AFTER UPDATE ON deposits
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER deposits_version_delete AFTER DELETE ON deposits
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (OLD.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TABLE deposit_events;
DROP TABLE deposits;
ALTER TABLE profiles DROP COLUMN pix_city;
ALTER TABLE profiles DROP COLUMN pix_name;
ALTER TABLE profiles DROP COLUMN pix_key_type;
ALTER TABLE profiles DROP COLUMN pix_key;
ALTER TABLE services DROP COLUMN deposit_keep_no_show;
ALTER TABLE services DROP COLUMN deposit_keep_late;
ALTER TABLE services DROP COLUMN deposit_hold_minutes;
ALTER TABLE services DROP COLUMN deposit_value;
ALTER TABLE services DROP COLUMN deposit_kind;
