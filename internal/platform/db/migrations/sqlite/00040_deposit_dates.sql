-- +goose Up
-- Issue 25, the grid's speed: the grid marks each appointment's deposit,
-- and found them by joining the range's appointments (or grid_items'
-- rows) to deposits — as much work as reading the grid itself, for
-- deposits most days do not have. A deposit now keeps its appointment's
-- date, so the grid reads the range's deposits by (owner, date): a seek
-- that finds nothing on a day without one. Written with the deposit
-- (deposits.Open) and kept when the appointment moves to another date, in
-- the mover's transaction.
ALTER TABLE deposits ADD COLUMN appointment_date TEXT NOT NULL DEFAULT '';
UPDATE deposits SET appointment_date = (SELECT a.appointment_date FROM appointments a WHERE a.id = deposits.appointment_id);
CREATE INDEX deposits_owner_date ON deposits (user_id, appointment_date, appointment_id, state);

-- +goose StatementBegin
CREATE TRIGGER appointments_deposit_date AFTER UPDATE OF appointment_date ON appointments
WHEN NEW.appointment_date <> OLD.appointment_date
BEGIN
    UPDATE deposits SET appointment_date = NEW.appointment_date WHERE appointment_id = NEW.id;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER appointments_deposit_date;
DROP INDEX deposits_owner_date;
ALTER TABLE deposits DROP COLUMN appointment_date;
