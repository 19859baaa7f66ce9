-- +goose Up
-- The slot engine's one read: a professional's holding appointments of a
-- range of dates, with their times, durations and buffers. This index
-- covers it (no table row is read), and replaces the narrower
-- (professional_id, appointment_date), whose every use it also serves.
CREATE INDEX appointments_professional_busy ON appointments (professional_id, appointment_date, status, appointment_time, duration, buffer_before, buffer_after, id);
DROP INDEX appointments_professional_day;

-- +goose Down
CREATE INDEX appointments_professional_day ON appointments (professional_id, appointment_date);
DROP INDEX appointments_professional_busy;
