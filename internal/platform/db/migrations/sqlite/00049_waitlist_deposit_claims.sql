-- +goose Up
-- A waitlist claim of a service with a deposit (issue 38): the entry keeps
-- its place, "claimed, awaiting deposit", until the deposit is paid; if it
-- expires, the entry waits again (before, the claim took the client off
-- the list at once, and an expired deposit left them neither the time nor
-- their place).
ALTER TABLE waitlist_entries ADD COLUMN deposit_appointment_id TEXT REFERENCES appointments(id) ON DELETE SET NULL;
CREATE INDEX waitlist_entries_deposit ON waitlist_entries (deposit_appointment_id);

-- +goose Down
DROP INDEX waitlist_entries_deposit;
ALTER TABLE waitlist_entries DROP COLUMN deposit_appointment_id;
