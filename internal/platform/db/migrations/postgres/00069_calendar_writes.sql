-- +goose Up
-- Write-back of appointments to a professional's own calendar (issue 42 §2,
-- §3): every change of an appointment — on any path, the public booking,
-- the owner, a series, a move, a cancel, a status, a deposit's hold expiring,
-- an erasure, a deletion — leaves a pending write here by the trigger
-- below, in the same transaction as the change, so none can be missed or
-- lost; a job drains it (retried with back-off) and writes the appointment's
-- event, or deletes it, in each calendar written to. seq counts the changes
-- since the row was queued: a drain deletes the row only if no change came
-- meanwhile. Only ids: no names, no times (the drain reads the appointment).
-- No foreign keys: a deleted appointment must still leave its row.
CREATE TABLE calendar_writes (
    appointment_id TEXT PRIMARY KEY,
    user_id        TEXT NOT NULL,
    seq            INTEGER NOT NULL DEFAULT 1,
    attempts       INTEGER NOT NULL DEFAULT 0,
    next_at        TIMESTAMPTZ,             -- NULL: due now
    last_error     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX calendar_writes_due ON calendar_writes (next_at);

-- Where each appointment's event is now: per calendar source written to
-- (CalDAV, Google), the calendar that holds it. A move to another
-- professional or calendar deletes it there.
CREATE TABLE calendar_written (
    appointment_id TEXT NOT NULL,
    source_id      TEXT NOT NULL REFERENCES calendar_sources(id) ON DELETE CASCADE,
    user_id        TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    calendar       TEXT NOT NULL,
    written_at     TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (appointment_id, source_id)
);
CREATE INDEX calendar_written_user ON calendar_written (user_id);

-- +goose StatementBegin
CREATE FUNCTION appointments_calendar_write() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    r appointments%ROWTYPE;
BEGIN
    IF TG_OP = 'DELETE' THEN
        r := OLD;
    ELSE
        r := NEW;
    END IF;
    IF (TG_OP <> 'DELETE' AND EXISTS (SELECT 1 FROM calendar_sources c WHERE c.professional_id = r.professional_id AND c.write_calendar <> ''))
       OR (TG_OP <> 'INSERT' AND EXISTS (SELECT 1 FROM calendar_written w WHERE w.appointment_id = r.id)) THEN
        INSERT INTO calendar_writes (appointment_id, user_id) VALUES (r.id, r.user_id)
        ON CONFLICT (appointment_id) DO UPDATE SET seq = calendar_writes.seq + 1, attempts = 0, next_at = NULL;
    END IF;
    RETURN NULL;
END;
$$;
-- +goose StatementEnd
CREATE TRIGGER appointments_calendar_write_insert AFTER INSERT ON appointments
FOR EACH ROW EXECUTE FUNCTION appointments_calendar_write();
CREATE TRIGGER appointments_calendar_write_update
AFTER UPDATE OF professional_id, service_id, service_name, client_name, appointment_date, appointment_time, starts_at, duration, status ON appointments
FOR EACH ROW EXECUTE FUNCTION appointments_calendar_write();
CREATE TRIGGER appointments_calendar_write_delete AFTER DELETE ON appointments
FOR EACH ROW EXECUTE FUNCTION appointments_calendar_write();

-- +goose Down
DROP TRIGGER appointments_calendar_write_delete ON appointments;
DROP TRIGGER appointments_calendar_write_update ON appointments;
DROP TRIGGER appointments_calendar_write_insert ON appointments;
DROP FUNCTION appointments_calendar_write();
DROP TABLE calendar_written;
DROP TABLE calendar_writes;
