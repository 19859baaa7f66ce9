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
-- The trigger function of 00033 again, writing that array (built by
-- hand: json_build_array puts a space after every comma); every row is rewritten.
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION appointments_grid_items() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        DELETE FROM grid_items WHERE user_id = OLD.user_id AND grid_date = OLD.appointment_date AND professional_id = coalesce(OLD.professional_id, '') AND appointment_id = OLD.id;
    END IF;
    IF TG_OP <> 'DELETE' THEN
        INSERT INTO grid_items (user_id, grid_date, professional_id, appointment_id, professional_name, item)
        VALUES (NEW.user_id, NEW.appointment_date, coalesce(NEW.professional_id, ''), NEW.id, NEW.professional_name,
            '[' || concat_ws(',', to_json(NEW.id), to_json(NEW.professional_name), coalesce(to_json(NEW.service_id)::text, 'null'), to_json(NEW.service_name), NEW.duration, NEW.buffer_before, NEW.buffer_after,
            NEW.price_cents, to_json(NEW.client_name), to_json(NEW.client_email), to_json(NEW.client_phone), to_json(NEW.notes), to_json(NEW.appointment_time), to_json(NEW.status),
            to_json(to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')), coalesce(to_json(NEW.series_id)::text, 'null'), to_json(NEW.client_answer)) || ']');
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

DELETE FROM grid_items;
INSERT INTO grid_items (user_id, grid_date, professional_id, appointment_id, professional_name, item)
SELECT user_id, appointment_date, coalesce(professional_id, ''), id, professional_name,
            '[' || concat_ws(',', to_json(id), to_json(professional_name), coalesce(to_json(service_id)::text, 'null'), to_json(service_name), duration, buffer_before, buffer_after,
            price_cents, to_json(client_name), to_json(client_email), to_json(client_phone), to_json(notes), to_json(appointment_time), to_json(status),
            to_json(to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')), coalesce(to_json(series_id)::text, 'null'), to_json(client_answer)) || ']'
FROM appointments;

-- +goose Down
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION appointments_grid_items() RETURNS trigger LANGUAGE plpgsql AS $$
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
        'createdAt', to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 'seriesId', NEW.series_id, 'answer', NEW.client_answer)::text);
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

DELETE FROM grid_items;
INSERT INTO grid_items (user_id, grid_date, professional_id, appointment_id, professional_name, item)
SELECT user_id, appointment_date, coalesce(professional_id, ''), id, professional_name,
            json_build_object('id', id, 'professionalId', coalesce(professional_id, ''), 'professionalName', professional_name,
        'serviceId', service_id, 'serviceName', service_name, 'duration', duration, 'bufferBefore', buffer_before,
        'bufferAfter', buffer_after, 'priceCents', price_cents, 'clientName', client_name, 'clientEmail', client_email,
        'clientPhone', client_phone, 'notes', notes, 'date', appointment_date, 'time', appointment_time, 'status', status,
        'createdAt', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 'seriesId', series_id, 'answer', client_answer)::text
FROM appointments;
