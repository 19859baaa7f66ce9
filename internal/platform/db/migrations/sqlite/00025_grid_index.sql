-- +goose Up
-- The agenda grid's read (issue 25): every appointment of an owner's dates,
-- with all the grid shows of each. A day's appointments were booked over
-- weeks, so each row the narrow index named lay on a page of its own, and
-- reading those pages was most of a grid's time. This index carries the
-- whole answer in the grid's order: a day is a few consecutive pages. It
-- replaces (user_id, appointment_date, appointment_time), its prefix, whose
-- every use it serves. PostgreSQL keeps the narrow one (its file of this
-- number says why).
CREATE INDEX appointments_owner_grid ON appointments (user_id, appointment_date, appointment_time, id, professional_id, status,
    duration, buffer_before, buffer_after, price_cents, service_id, series_id, created_at,
    professional_name, service_name, client_name, client_email, client_phone, notes);
DROP INDEX appointments_owner_day;

-- +goose Down
CREATE INDEX appointments_owner_day ON appointments (user_id, appointment_date, appointment_time);
DROP INDEX appointments_owner_grid;
