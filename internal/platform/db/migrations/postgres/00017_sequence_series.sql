-- +goose Up
-- sequence: how many times the appointment was rescheduled or cancelled by
-- the owner; its invite's SEQUENCE (RFC 5545), so calendars move or cancel
-- the event instead of adding one. series_id: the weekly (or other)
-- series an appointment belongs to, if any.
ALTER TABLE appointments ADD COLUMN sequence INTEGER NOT NULL DEFAULT 0;
ALTER TABLE appointments ADD COLUMN series_id TEXT;
CREATE INDEX appointments_series ON appointments (user_id, series_id, appointment_date) WHERE series_id IS NOT NULL;

-- +goose Down
DROP INDEX appointments_series;
ALTER TABLE appointments DROP COLUMN series_id;
ALTER TABLE appointments DROP COLUMN sequence;
