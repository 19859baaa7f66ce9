-- +goose Up
-- Search on client name or e-mail must ignore case and accents on both
-- engines; SQLite's lower() folds ASCII only, so the key is made in Go
-- (booking.SearchKey) when the appointment is written.
ALTER TABLE appointments ADD COLUMN search_key TEXT NOT NULL DEFAULT '';
UPDATE appointments SET search_key = lower(client_name || ' ' || client_email);
CREATE INDEX appointments_owner_status ON appointments (user_id, status, appointment_date);

-- +goose Down
DROP INDEX appointments_owner_status;
ALTER TABLE appointments DROP COLUMN search_key;
