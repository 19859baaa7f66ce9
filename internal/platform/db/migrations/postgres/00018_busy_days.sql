-- +goose Up
-- busy_days: each professional's time held on each date, one row instead
-- of one per appointment, so the public page's free times and bookable days
-- read a month as ~31 rows. list is "HH:MM duration before after" of every
-- appointment whose status holds time (confirmed, completed, no_show — the
-- booking package's statusesThatHold), comma-separated, in no order. Kept by
-- a trigger on every write to appointments, in the writer's transaction; it
-- only shows what is free: a booking always re-checks appointments itself
-- under the professional's lock (booking.Hold).
--
-- Concurrent writers of one owner's appointments are serialised by the
-- data_versions row their appointments_version trigger upserts; this
-- trigger is named to fire after it (PostgreSQL fires them in name order),
-- so each statement below sees what the previous writer committed.
CREATE TABLE busy_days (
    professional_id TEXT NOT NULL,
    busy_date       TEXT NOT NULL,
    list            TEXT NOT NULL,
    PRIMARY KEY (professional_id, busy_date)
);

INSERT INTO busy_days (professional_id, busy_date, list)
SELECT professional_id, appointment_date, string_agg(appointment_time || ' ' || duration || ' ' || buffer_before || ' ' || buffer_after, ',')
FROM appointments WHERE professional_id IS NOT NULL AND status IN ('confirmed', 'completed', 'no_show')
GROUP BY professional_id, appointment_date;

-- +goose StatementBegin
CREATE FUNCTION refresh_busy_day(pro TEXT, day TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF pro IS NULL THEN
        RETURN;
    END IF;
    DELETE FROM busy_days WHERE professional_id = pro AND busy_date = day;
    INSERT INTO busy_days (professional_id, busy_date, list)
    SELECT professional_id, appointment_date, string_agg(appointment_time || ' ' || duration || ' ' || buffer_before || ' ' || buffer_after, ',')
    FROM appointments WHERE professional_id = pro AND appointment_date = day AND status IN ('confirmed', 'completed', 'no_show')
    GROUP BY professional_id, appointment_date;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION appointments_busy_days() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        PERFORM refresh_busy_day(OLD.professional_id, OLD.appointment_date);
    END IF;
    IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND (OLD.professional_id IS DISTINCT FROM NEW.professional_id OR OLD.appointment_date IS DISTINCT FROM NEW.appointment_date)) THEN
        PERFORM refresh_busy_day(NEW.professional_id, NEW.appointment_date);
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER appointments_zz_busy_days
AFTER INSERT OR DELETE OR UPDATE OF professional_id, appointment_date, appointment_time, duration, buffer_before, buffer_after, status ON appointments
FOR EACH ROW EXECUTE FUNCTION appointments_busy_days();

-- +goose Down
DROP TRIGGER appointments_zz_busy_days ON appointments;
DROP FUNCTION appointments_busy_days();
DROP FUNCTION refresh_busy_day(TEXT, TEXT);
DROP TABLE busy_days;
