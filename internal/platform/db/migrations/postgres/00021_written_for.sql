-- +goose Up
-- Whose a job or a notification is, by reference, so that an LGPD erase
-- reaches exactly one client of one owner and never searches free text
-- (issue 24). A job keeps its owner, the appointment it was written for and
-- that client's key (phone, else e-mail, as appointments.client_key); a
-- notification keeps the client's key beside its appointment_id, so one
-- about a client without an appointment (a correction of their contacts)
-- is found too, and one whose appointment is gone still is. The keys
-- follow the client when the owner corrects their contacts. No foreign
-- keys: the queue never reads these columns; they are what an erase
-- selects by.
ALTER TABLE jobs ADD COLUMN user_id TEXT;
ALTER TABLE jobs ADD COLUMN appointment_id TEXT;
ALTER TABLE jobs ADD COLUMN client_key TEXT;
ALTER TABLE notifications ADD COLUMN client_key TEXT;
CREATE INDEX jobs_owner_client ON jobs (user_id, client_key) WHERE user_id IS NOT NULL;
CREATE INDEX jobs_appointment ON jobs (appointment_id) WHERE appointment_id IS NOT NULL;
CREATE INDEX notifications_owner_client ON notifications (user_id, client_key) WHERE client_key IS NOT NULL;

-- What can be told from the rows already there: a notification's client
-- from its appointment; a reminder's appointment from its payload.
UPDATE notifications SET client_key = (SELECT a.client_key FROM appointments a WHERE a.id = notifications.appointment_id)
WHERE appointment_id IS NOT NULL;
UPDATE jobs SET appointment_id = payload::jsonb ->> 'appointmentId' WHERE kind = 'booking.reminder';
UPDATE jobs SET user_id = (SELECT a.user_id FROM appointments a WHERE a.id = jobs.appointment_id),
    client_key = (SELECT a.client_key FROM appointments a WHERE a.id = jobs.appointment_id)
WHERE appointment_id IS NOT NULL;
-- Older e-mails name no owner or client for an erase to find them by:
-- those already sent (or given up) keep nothing of their message.
UPDATE jobs SET payload = '{}', last_error = '' WHERE user_id IS NULL AND (done_at IS NOT NULL OR attempts >= max_attempts);

-- +goose Down
DROP INDEX notifications_owner_client;
DROP INDEX jobs_appointment;
DROP INDEX jobs_owner_client;
ALTER TABLE notifications DROP COLUMN client_key;
ALTER TABLE jobs DROP COLUMN client_key;
ALTER TABLE jobs DROP COLUMN appointment_id;
ALTER TABLE jobs DROP COLUMN user_id;
