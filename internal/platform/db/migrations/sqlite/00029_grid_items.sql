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
CREATE TABLE grid_items (
    user_id           TEXT NOT NULL,
    grid_date         TEXT NOT NULL,
    professional_id   TEXT NOT NULL,
    appointment_id    TEXT NOT NULL,
    professional_name TEXT NOT NULL,
    item              TEXT NOT NULL,
    PRIMARY KEY (user_id, grid_date, professional_id, appointment_id)
) WITHOUT ROWID;

INSERT INTO grid_items (user_id, grid_date, professional_id, appointment_id, professional_name, item)
SELECT user_id, appointment_date, coalesce(professional_id, ''), id, professional_name,
    json_object('id', id, 'professionalId', coalesce(professional_id, ''), 'professionalName', professional_name,
        'serviceId', service_id, 'serviceName', service_name, 'duration', duration, 'bufferBefore', buffer_before,
        'bufferAfter', buffer_after, 'priceCents', price_cents, 'clientName', client_name, 'clientEmail', client_email,
        'clientPhone', client_phone, 'notes', notes, 'date', appointment_date, 'time', appointment_time, 'status', status,
        'createdAt', strftime('%Y-%m-%dT%H:%M:%SZ', created_at), 'seriesId', series_id)
FROM appointments;

-- +goose StatementBegin
CREATE TRIGGER appointments_grid_insert AFTER INSERT ON appointments
BEGIN
    INSERT INTO grid_items (user_id, grid_date, professional_id, appointment_id, professional_name, item)
    VALUES (NEW.user_id, NEW.appointment_date, coalesce(NEW.professional_id, ''), NEW.id, NEW.professional_name,
        json_object('id', NEW.id, 'professionalId', coalesce(NEW.professional_id, ''), 'professionalName', NEW.professional_name,
        'serviceId', NEW.service_id, 'serviceName', NEW.service_name, 'duration', NEW.duration, 'bufferBefore', NEW.buffer_before,
        'bufferAfter', NEW.buffer_after, 'priceCents', NEW.price_cents, 'clientName', NEW.client_name, 'clientEmail', NEW.client_email,
        'clientPhone', NEW.client_phone, 'notes', NEW.notes, 'date', NEW.appointment_date, 'time', NEW.appointment_time, 'status', NEW.status,
        'createdAt', strftime('%Y-%m-%dT%H:%M:%SZ', NEW.created_at), 'seriesId', NEW.series_id));
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER appointments_grid_update AFTER UPDATE OF user_id, professional_id, professional_name, service_id, service_name, duration, buffer_before, buffer_after, price_cents, client_name, client_email, client_phone, notes, appointment_date, appointment_time, status, created_at, series_id ON appointments
BEGIN
    DELETE FROM grid_items WHERE user_id = OLD.user_id AND grid_date = OLD.appointment_date AND professional_id = coalesce(OLD.professional_id, '') AND appointment_id = OLD.id;
    INSERT INTO grid_items (user_id, grid_date, professional_id, appointment_id, professional_name, item)
    VALUES (NEW.user_id, NEW.appointment_date, coalesce(NEW.professional_id, ''), NEW.id, NEW.professional_name,
        json_object('id', NEW.id, 'professionalId', coalesce(NEW.professional_id, ''), 'professionalName', NEW.professional_name,
        'serviceId', NEW.service_id, 'serviceName', NEW.service_name, 'duration', NEW.duration, 'bufferBefore', NEW.buffer_before,
        'bufferAfter', NEW.buffer_after, 'priceCents', NEW.price_cents, 'clientName', NEW.client_name, 'clientEmail', NEW.client_email,
        'clientPhone', NEW.client_phone, 'notes', NEW.notes, 'date', NEW.appointment_date, 'time', NEW.appointment_time, 'status', NEW.status,
        'createdAt', strftime('%Y-%m-%dT%H:%M:%SZ', NEW.created_at), 'seriesId', NEW.series_id));
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER appointments_grid_delete AFTER DELETE ON appointments
BEGIN
    DELETE FROM grid_items WHERE user_id = OLD.user_id AND grid_date = OLD.appointment_date AND professional_id = coalesce(OLD.professional_id, '') AND appointment_id = OLD.id;
END;
-- +goose StatementEnd

-- The covering index of 00025 served the grid's read of appointments,
-- which grid_items replaces: it goes, and the narrow index it replaced
-- comes back.
CREATE INDEX appointments_owner_day ON appointments (user_id, appointment_date, appointment_time);
DROP INDEX appointments_owner_grid;

-- +goose Down
CREATE INDEX appointments_owner_grid ON appointments (user_id, appointment_date, appointment_time, id, professional_id, status,
    duration, buffer_before, buffer_after, price_cents, service_id, series_id, created_at,
    professional_name, service_name, client_name, client_email, client_phone, notes);
DROP INDEX appointments_owner_day;
DROP TRIGGER appointments_grid_delete;
DROP TRIGGER appointments_grid_update;
DROP TRIGGER appointments_grid_insert;
DROP TABLE grid_items;
