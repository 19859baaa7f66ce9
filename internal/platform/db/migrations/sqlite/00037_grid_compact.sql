-- +goose Up
-- Issue 25, the grid's speed: grid_items.item becomes a compact record.
-- The object of 00029 repeated its nineteen keys, its date and its
-- professional's id in every appointment: half of a grid's bytes, which the
-- database pages through, the driver steps, the server writes and the page
-- reads. The grid now sends a day's appointments of one professional
-- together (the date and professional once), each as a JSON array in the
-- order of api/openapi.yaml's GridItem:
--   [id, professionalName, serviceId, serviceName, duration, bufferBefore,
--    bufferAfter, priceCents, clientName, clientEmail, clientPhone, notes,
--    time, status, createdAt, seriesId, answer]
-- The triggers of 00033 again, writing that array; every row is rewritten.
DROP TRIGGER appointments_grid_insert;
DROP TRIGGER appointments_grid_update;
-- +goose StatementBegin
CREATE TRIGGER appointments_grid_insert AFTER INSERT ON appointments
BEGIN
    INSERT INTO grid_items (user_id, grid_date, professional_id, appointment_id, professional_name, item)
    VALUES (NEW.user_id, NEW.appointment_date, coalesce(NEW.professional_id, ''), NEW.id, NEW.professional_name,
        json_array(NEW.id, NEW.professional_name, NEW.service_id, NEW.service_name, NEW.duration, NEW.buffer_before, NEW.buffer_after, NEW.price_cents,
        NEW.client_name, NEW.client_email, NEW.client_phone, NEW.notes, NEW.appointment_time, NEW.status, strftime('%Y-%m-%dT%H:%M:%SZ', NEW.created_at),
        NEW.series_id, NEW.client_answer));
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER appointments_grid_update AFTER UPDATE OF user_id, professional_id, professional_name, service_id, service_name, duration, buffer_before, buffer_after, price_cents, client_name, client_email, client_phone, notes, appointment_date, appointment_time, status, created_at, series_id, client_answer ON appointments
BEGIN
    DELETE FROM grid_items WHERE user_id = OLD.user_id AND grid_date = OLD.appointment_date AND professional_id = coalesce(OLD.professional_id, '') AND appointment_id = OLD.id;
    INSERT INTO grid_items (user_id, grid_date, professional_id, appointment_id, professional_name, item)
    VALUES (NEW.user_id, NEW.appointment_date, coalesce(NEW.professional_id, ''), NEW.id, NEW.professional_name,
        json_array(NEW.id, NEW.professional_name, NEW.service_id, NEW.service_name, NEW.duration, NEW.buffer_before, NEW.buffer_after, NEW.price_cents,
        NEW.client_name, NEW.client_email, NEW.client_phone, NEW.notes, NEW.appointment_time, NEW.status, strftime('%Y-%m-%dT%H:%M:%SZ', NEW.created_at),
        NEW.series_id, NEW.client_answer));
END;
-- +goose StatementEnd

DELETE FROM grid_items;
INSERT INTO grid_items (user_id, grid_date, professional_id, appointment_id, professional_name, item)
SELECT user_id, appointment_date, coalesce(professional_id, ''), id, professional_name,
        json_array(id, professional_name, service_id, service_name, duration, buffer_before, buffer_after, price_cents,
        client_name, client_email, client_phone, notes, appointment_time, status, strftime('%Y-%m-%dT%H:%M:%SZ', created_at),
        series_id, client_answer)
FROM appointments;

-- +goose Down
DROP TRIGGER appointments_grid_insert;
DROP TRIGGER appointments_grid_update;
-- +goose StatementBegin
CREATE TRIGGER appointments_grid_insert AFTER INSERT ON appointments
BEGIN
    INSERT INTO grid_items (user_id, grid_date, professional_id, appointment_id, professional_name, item)
    VALUES (NEW.user_id, NEW.appointment_date, coalesce(NEW.professional_id, ''), NEW.id, NEW.professional_name,
        json_object('id', NEW.id, 'professionalId', coalesce(NEW.professional_id, ''), 'professionalName', NEW.professional_name,
        'serviceId', NEW.service_id, 'serviceName', NEW.service_name, 'duration', NEW.duration, 'bufferBefore', NEW.buffer_before,
        'bufferAfter', NEW.buffer_after, 'priceCents', NEW.price_cents, 'clientName', NEW.client_name, 'clientEmail', NEW.client_email,
        'clientPhone', NEW.client_phone, 'notes', NEW.notes, 'date', NEW.appointment_date, 'time', NEW.appointment_time, 'status', NEW.status,
        'createdAt', strftime('%Y-%m-%dT%H:%M:%SZ', NEW.created_at), 'seriesId', NEW.series_id, 'answer', NEW.client_answer));
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER appointments_grid_update AFTER UPDATE OF user_id, professional_id, professional_name, service_id, service_name, duration, buffer_before, buffer_after, price_cents, client_name, client_email, client_phone, notes, appointment_date, appointment_time, status, created_at, series_id, client_answer ON appointments
BEGIN
    DELETE FROM grid_items WHERE user_id = OLD.user_id AND grid_date = OLD.appointment_date AND professional_id = coalesce(OLD.professional_id, '') AND appointment_id = OLD.id;
    INSERT INTO grid_items (user_id, grid_date, professional_id, appointment_id, professional_name, item)
    VALUES (NEW.user_id, NEW.appointment_date, coalesce(NEW.professional_id, ''), NEW.id, NEW.professional_name,
        json_object('id', NEW.id, 'professionalId', coalesce(NEW.professional_id, ''), 'professionalName', NEW.professional_name,
        'serviceId', NEW.service_id, 'serviceName', NEW.service_name, 'duration', NEW.duration, 'bufferBefore', NEW.buffer_before,
        'bufferAfter', NEW.buffer_after, 'priceCents', NEW.price_cents, 'clientName', NEW.client_name, 'clientEmail', NEW.client_email,
        'clientPhone', NEW.client_phone, 'notes', NEW.notes, 'date', NEW.appointment_date, 'time', NEW.appointment_time, 'status', NEW.status,
        'createdAt', strftime('%Y-%m-%dT%H:%M:%SZ', NEW.created_at), 'seriesId', NEW.series_id, 'answer', NEW.client_answer));
END;
-- +goose StatementEnd

DELETE FROM grid_items;
INSERT INTO grid_items (user_id, grid_date, professional_id, appointment_id, professional_name, item)
SELECT user_id, appointment_date, coalesce(professional_id, ''), id, professional_name,
        json_object('id', id, 'professionalId', coalesce(professional_id, ''), 'professionalName', professional_name,
        'serviceId', service_id, 'serviceName', service_name, 'duration', duration, 'bufferBefore', buffer_before,
        'bufferAfter', buffer_after, 'priceCents', price_cents, 'clientName', client_name, 'clientEmail', client_email,
        'clientPhone', client_phone, 'notes', notes, 'date', appointment_date, 'time', appointment_time, 'status', status,
        'createdAt', strftime('%Y-%m-%dT%H:%M:%SZ', created_at), 'seriesId', series_id, 'answer', client_answer)
FROM appointments;
