-- +goose Up
-- grid_items: the agenda grid's answer kept ready (issue 25). One row per
-- appointment, keyed by owner, date and professional ('' for appointments
-- whose professional was deleted): item is the appointment as the JSON
-- object of the API's GridAppointment, professional_name the name it keeps
-- of its professional. A day of a busy practice is over a hundred
-- appointments of eighteen fields: reading each field through the driver
-- and encoding it again in Go was nearly all of a grid's time; the grid now
-- reads one text per appointment, in key order (a day's are together), and
-- sends it as it is. Kept by triggers on every write to appointments that
-- changes a field the grid shows, in the writer's transaction: each write
-- touches its own row only, so a booking costs the same on a full day as on
-- an empty one. A rebuild of appointments must create these triggers
-- again. The grid's tests compare these rows with the appointments
-- themselves after every kind of write.
--
-- Named to fire after appointments_version (PostgreSQL fires row triggers
-- in name order), as busy_days's is.
CREATE TABLE grid_items (
    user_id           TEXT NOT NULL,
    grid_date         TEXT NOT NULL,
    professional_id   TEXT NOT NULL,
    appointment_id    TEXT NOT NULL,
    professional_name TEXT NOT NULL,
    item              TEXT NOT NULL,
    PRIMARY KEY (user_id, grid_date, professional_id, appointment_id)
);

INSERT INTO grid_items (user_id, grid_date, professional_id, appointment_id, professional_name, item)
SELECT user_id, appointment_date, coalesce(professional_id, ''), id, professional_name,
    json_build_object('id', id, 'professionalId', coalesce(professional_id, ''), 'professionalName', professional_name,
        'serviceId', service_id, 'serviceName', service_name, 'duration', duration, 'bufferBefore', buffer_before,
        'bufferAfter', buffer_after, 'priceCents', price_cents, 'clientName', client_name, 'clientEmail', client_email,
        'clientPhone', client_phone, 'notes', notes, 'date', appointment_date, 'time', appointment_time, 'status', status,
        'createdAt', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 'seriesId', series_id)::text
FROM appointments;

-- +goose StatementBegin
CREATE FUNCTION appointments_grid_items() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        DELETE FROM grid_items WHERE user_id = OLD.user_id AND grid_date = OLD.appointment_date AND professional_id = coalesce(OLD.professional_id, '') AND appointment_id = OLD.id;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        INSERT INTO grid_items (user_id, grid_date, professional_id, appointment_id, professional_name, item)
    VALUES (NEW.user_id, NEW.appointment_date, coalesce(NEW.professional_id, ''), NEW.id, NEW.professional_name,
        json_build_object('id', NEW.id, 'professionalId', coalesce(NEW.professional_id, ''), 'professionalName', NEW.professional_name,
        'serviceId', NEW.service_id, 'serviceName', NEW.service_name, 'duration', NEW.duration, 'bufferBefore', NEW.buffer_before,
        'bufferAfter', NEW.buffer_after, 'priceCents', NEW.price_cents, 'clientName', NEW.client_name, 'clientEmail', NEW.client_email,
        'clientPhone', NEW.client_phone, 'notes', NEW.notes, 'date', NEW.appointment_date, 'time', NEW.appointment_time, 'status', NEW.status,
        'createdAt', to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 'seriesId', NEW.series_id)::text);
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER appointments_zz_grid_items
AFTER INSERT OR DELETE OR UPDATE OF user_id, professional_id, professional_name, service_id, service_name, duration, buffer_before, buffer_after, price_cents, client_name, client_email, client_phone, notes, appointment_date, appointment_time, status, created_at, series_id ON appointments
FOR EACH ROW EXECUTE FUNCTION appointments_grid_items();

-- +goose Down
DROP TRIGGER appointments_zz_grid_items ON appointments;
DROP FUNCTION appointments_grid_items();
DROP TABLE grid_items;
