-- +goose Up
-- 'no_show' ('Não compareceu') is a fourth status: the client did not come.
-- It keeps holding its time (a no-show never frees a past slot).
ALTER TABLE appointments DROP CONSTRAINT appointments_status_check;
ALTER TABLE appointments ADD CONSTRAINT appointments_status_check CHECK (status IN ('confirmed', 'cancelled', 'completed', 'no_show'));

-- +goose Down
UPDATE appointments SET status = 'completed' WHERE status = 'no_show';
ALTER TABLE appointments DROP CONSTRAINT appointments_status_check;
ALTER TABLE appointments ADD CONSTRAINT appointments_status_check CHECK (status IN ('confirmed', 'cancelled', 'completed'));
