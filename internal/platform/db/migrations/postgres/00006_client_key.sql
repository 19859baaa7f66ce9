-- +goose Up
-- A client is identified by phone, else by e-mail (SPEC §3). Storing that key
-- on each appointment lets clients and reports group on an index instead of
-- deriving it row by row.
ALTER TABLE appointments ADD COLUMN client_key TEXT NOT NULL DEFAULT '';
UPDATE appointments SET client_key = CASE WHEN client_phone <> '' THEN client_phone ELSE lower(client_email) END;
CREATE INDEX appointments_owner_client ON appointments (user_id, client_key, appointment_date, appointment_time);

-- +goose Down
DROP INDEX appointments_owner_client;
ALTER TABLE appointments DROP COLUMN client_key;
