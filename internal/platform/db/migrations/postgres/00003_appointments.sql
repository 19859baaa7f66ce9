-- +goose Up
-- Appointments keep snapshots of what was booked (service name, duration,
-- price; professional name) so later edits never rewrite history, and the
-- client's phone in its own field.
CREATE TABLE appointments (
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
    starts_at         TIMESTAMPTZ NOT NULL,            -- the same instant in UTC
    status            TEXT NOT NULL DEFAULT 'confirmed' CHECK (status IN ('confirmed', 'cancelled', 'completed')),
    cancel_token_hash TEXT NOT NULL UNIQUE,          -- SHA-256 of the client's private cancel link
    created_at        TIMESTAMPTZ NOT NULL,
    updated_at        TIMESTAMPTZ NOT NULL
);
CREATE INDEX appointments_professional_day ON appointments (professional_id, appointment_date);
CREATE INDEX appointments_owner_day ON appointments (user_id, appointment_date, appointment_time);

-- +goose Down
DROP TABLE appointments;
