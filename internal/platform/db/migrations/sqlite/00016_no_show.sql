-- +goose NO TRANSACTION
-- +goose Up
-- 'no_show' ('Não compareceu') is a fourth status: the client did not come.
-- It keeps holding its time (a no-show never frees a past slot). SQLite
-- cannot change a CHECK constraint in place, so the table is rebuilt the way
-- its documentation describes (foreign keys off while the table is swapped,
-- then checked), with its indexes and version triggers.
PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE appointments_new (
    id                TEXT PRIMARY KEY,
    user_id           TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    professional_id   TEXT REFERENCES professionals(id) ON DELETE SET NULL,
    service_id        TEXT REFERENCES services(id) ON DELETE SET NULL,
    professional_name TEXT NOT NULL,
    service_name      TEXT NOT NULL,
    duration          INTEGER NOT NULL CHECK (duration >= 1),
    price_cents       INTEGER NOT NULL CHECK (price_cents >= 0),
    client_name       TEXT NOT NULL,
    client_email      TEXT NOT NULL DEFAULT '',
    client_phone      TEXT NOT NULL DEFAULT '',
    notes             TEXT NOT NULL DEFAULT '',
    appointment_date  TEXT NOT NULL,                 -- YYYY-MM-DD in the owner's zone
    appointment_time  TEXT NOT NULL,                 -- HH:MM in the owner's zone
    starts_at         TIMESTAMP NOT NULL,            -- the same instant in UTC
    status            TEXT NOT NULL DEFAULT 'confirmed' CHECK (status IN ('confirmed', 'cancelled', 'completed', 'no_show')),
    cancel_token_hash TEXT NOT NULL UNIQUE,          -- SHA-256 of the client's private cancel link
    created_at        TIMESTAMP NOT NULL,
    updated_at        TIMESTAMP NOT NULL,
    search_key        TEXT NOT NULL DEFAULT '',
    client_key        TEXT NOT NULL DEFAULT '',
    buffer_before     INTEGER NOT NULL DEFAULT 0,
    buffer_after      INTEGER NOT NULL DEFAULT 0
);
INSERT INTO appointments_new (id, user_id, professional_id, service_id, professional_name, service_name, duration, price_cents, client_name,
    client_email, client_phone, notes, appointment_date, appointment_time, starts_at, status, cancel_token_hash, created_at, updated_at,
    search_key, client_key, buffer_before, buffer_after)
SELECT id, user_id, professional_id, service_id, professional_name, service_name, duration, price_cents, client_name,
    client_email, client_phone, notes, appointment_date, appointment_time, starts_at, status, cancel_token_hash, created_at, updated_at,
    search_key, client_key, buffer_before, buffer_after FROM appointments;
DROP TABLE appointments;
ALTER TABLE appointments_new RENAME TO appointments;
CREATE INDEX appointments_owner_day ON appointments (user_id, appointment_date, appointment_time);
CREATE INDEX appointments_owner_status ON appointments (user_id, status, appointment_date);
CREATE INDEX appointments_owner_client ON appointments (user_id, client_key, appointment_date, appointment_time, status, price_cents);
CREATE INDEX appointments_owner_window ON appointments (user_id, appointment_date, status, price_cents, client_email);
CREATE INDEX appointments_professional_busy ON appointments (professional_id, appointment_date, status, appointment_time, duration, buffer_before, buffer_after, id);
-- +goose StatementBegin
CREATE TRIGGER appointments_version_insert AFTER INSERT ON appointments
WHEN NEW.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER appointments_version_update AFTER UPDATE ON appointments
WHEN NEW.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER appointments_version_delete AFTER DELETE ON appointments
WHEN OLD.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (OLD.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd
PRAGMA foreign_key_check;
COMMIT;
PRAGMA foreign_keys = ON;

-- +goose Down
-- No-shows become completed (they held their time, as completed ones do);
-- the wider CHECK stays, which allows nothing the older code writes.
UPDATE appointments SET status = 'completed' WHERE status = 'no_show';
