-- +goose Up
-- remind: the client of this appointment is to be reminded — set when its
-- reminders are planned (a booking, an owner's appointment with "notify",
-- a deposit once paid), so that saving the reminder setting re-plans exactly
-- those, never an unpaid hold or an appointment the owner wrote in without
-- telling the client.
ALTER TABLE appointments ADD COLUMN remind BOOLEAN NOT NULL DEFAULT FALSE;
-- Before this column the re-plan took every confirmed appointment ahead:
-- keep that for them, less the holds still waiting for their deposit.
UPDATE appointments SET remind = TRUE
WHERE status = 'confirmed'
  AND NOT EXISTS (SELECT 1 FROM deposits d WHERE d.appointment_id = appointments.id AND d.state = 'pending');

-- +goose Down
ALTER TABLE appointments DROP COLUMN remind;
