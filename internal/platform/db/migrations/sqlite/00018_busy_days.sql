-- +goose Up
-- busy_days: each professional's time held on each date, one row instead
-- of one per appointment, so the public page's free times and bookable days
-- read a month as ~31 rows. list is "HH:MM duration before after" of every
-- appointment whose status holds time (confirmed, completed, no_show — the
-- booking package's statusesThatHold), comma-separated, in no order. Kept by
-- triggers on every write to appointments, in the writer's transaction; it
-- only shows what is free: a booking always re-checks appointments itself
-- under the professional's lock (booking.Hold). A rebuild of appointments
-- must create these triggers again.
CREATE TABLE busy_days (
    professional_id TEXT NOT NULL,
    busy_date       TEXT NOT NULL,
    list            TEXT NOT NULL,
    PRIMARY KEY (professional_id, busy_date)
) WITHOUT ROWID;

INSERT INTO busy_days (professional_id, busy_date, list)
SELECT professional_id, appointment_date, string_agg(appointment_time || ' ' || duration || ' ' || buffer_before || ' ' || buffer_after, ',')
FROM appointments WHERE professional_id IS NOT NULL AND status IN ('confirmed', 'completed', 'no_show')
GROUP BY professional_id, appointment_date;

-- +goose StatementBegin
CREATE TRIGGER appointments_busy_insert AFTER INSERT ON appointments
WHEN NEW.professional_id IS NOT NULL
BEGIN
    DELETE FROM busy_days WHERE professional_id = NEW.professional_id AND busy_date = NEW.appointment_date;
    INSERT INTO busy_days (professional_id, busy_date, list)
    SELECT professional_id, appointment_date, string_agg(appointment_time || ' ' || duration || ' ' || buffer_before || ' ' || buffer_after, ',')
    FROM appointments WHERE professional_id = NEW.professional_id AND appointment_date = NEW.appointment_date AND status IN ('confirmed', 'completed', 'no_show')
    GROUP BY professional_id, appointment_date;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER appointments_busy_update_old AFTER UPDATE OF professional_id, appointment_date, appointment_time, duration, buffer_before, buffer_after, status ON appointments
WHEN OLD.professional_id IS NOT NULL
BEGIN
    DELETE FROM busy_days WHERE professional_id = OLD.professional_id AND busy_date = OLD.appointment_date;
    INSERT INTO busy_days (professional_id, busy_date, list)
    SELECT professional_id, appointment_date, string_agg(appointment_time || ' ' || duration || ' ' || buffer_before || ' ' || buffer_after, ',')
    FROM appointments WHERE professional_id = OLD.professional_id AND appointment_date = OLD.appointment_date AND status IN ('confirmed', 'completed', 'no_show')
    GROUP BY professional_id, appointment_date;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER appointments_busy_update_new AFTER UPDATE OF professional_id, appointment_date, appointment_time, duration, buffer_before, buffer_after, status ON appointments
WHEN NEW.professional_id IS NOT NULL
    AND (OLD.professional_id IS NOT NEW.professional_id OR OLD.appointment_date IS NOT NEW.appointment_date)
BEGIN
    DELETE FROM busy_days WHERE professional_id = NEW.professional_id AND busy_date = NEW.appointment_date;
    INSERT INTO busy_days (professional_id, busy_date, list)
    SELECT professional_id, appointment_date, string_agg(appointment_time || ' ' || duration || ' ' || buffer_before || ' ' || buffer_after, ',')
    FROM appointments WHERE professional_id = NEW.professional_id AND appointment_date = NEW.appointment_date AND status IN ('confirmed', 'completed', 'no_show')
    GROUP BY professional_id, appointment_date;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER appointments_busy_delete AFTER DELETE ON appointments
WHEN OLD.professional_id IS NOT NULL
BEGIN
    DELETE FROM busy_days WHERE professional_id = OLD.professional_id AND busy_date = OLD.appointment_date;
    INSERT INTO busy_days (professional_id, busy_date, list)
    SELECT professional_id, appointment_date, string_agg(appointment_time || ' ' || duration || ' ' || buffer_before || ' ' || buffer_after, ',')
    FROM appointments WHERE professional_id = OLD.professional_id AND appointment_date = OLD.appointment_date AND status IN ('confirmed', 'completed', 'no_show')
    GROUP BY professional_id, appointment_date;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER appointments_busy_delete;
DROP TRIGGER appointments_busy_update_new;
DROP TRIGGER appointments_busy_update_old;
DROP TRIGGER appointments_busy_insert;
DROP TABLE busy_days;
