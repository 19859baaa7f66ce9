-- +goose Up
-- Issue 28, point 1: the client answers a reminder in one tap.
--
-- appointments.client_answer is the client's last answer about this
-- appointment: '' (sem resposta), 'confirmed' (confirmado pelo cliente),
-- 'reschedule' (pediu para remarcar) or 'cancelled' (cancelado pelo
-- cliente); client_answer_at when, client_answer_channel how ('email',
-- 'whatsapp', 'link'). The grid shows it, so grid_items' triggers write it.
ALTER TABLE appointments ADD COLUMN client_answer TEXT NOT NULL DEFAULT '';
ALTER TABLE appointments ADD COLUMN client_answer_at TIMESTAMPTZ;
ALTER TABLE appointments ADD COLUMN client_answer_channel TEXT NOT NULL DEFAULT '';

-- One-tap tokens: one per appointment, action and message (channel: the
-- message's, 'email' or 'whatsapp'), each the
-- SHA-256 of its token (as appointment_links), useless once the appointment
-- ends. They go with the appointment (and its owner's account), and a
-- client's erase deletes them.
CREATE TABLE answer_tokens (
    token_hash     TEXT PRIMARY KEY,
    appointment_id TEXT NOT NULL REFERENCES appointments(id) ON DELETE CASCADE,
    user_id        TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    action         TEXT NOT NULL,
    channel        TEXT NOT NULL,
    created_at     TIMESTAMPTZ NOT NULL
);
CREATE INDEX answer_tokens_appointment ON answer_tokens (appointment_id);

-- The owner's reminders: reminder_leads is the minutes before each
-- appointment a reminder goes ('1440,120': two; '': none); NULL for an owner
-- who never chose, who gets the server's AGENDEI_REMINDER_LEAD.
-- msg_reminder_email is the reminder e-mail's text ('' = the default).
ALTER TABLE profiles ADD COLUMN reminder_leads TEXT;
ALTER TABLE profiles ADD COLUMN msg_reminder_email TEXT NOT NULL DEFAULT '';

-- grid_items carry the answer: the triggers of 00029 again, with 'answer'.
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

DROP TRIGGER appointments_zz_grid_items ON appointments;
CREATE TRIGGER appointments_zz_grid_items
AFTER INSERT OR DELETE OR UPDATE OF user_id, professional_id, professional_name, service_id, service_name, duration, buffer_before, buffer_after, price_cents, client_name, client_email, client_phone, notes, appointment_date, appointment_time, status, created_at, series_id, client_answer ON appointments
FOR EACH ROW EXECUTE FUNCTION appointments_grid_items();

UPDATE grid_items SET item = (item::jsonb || '{"answer": ""}')::text;

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
        'createdAt', to_char(NEW.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'), 'seriesId', NEW.series_id)::text);
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

DROP TRIGGER appointments_zz_grid_items ON appointments;
CREATE TRIGGER appointments_zz_grid_items
AFTER INSERT OR DELETE OR UPDATE OF user_id, professional_id, professional_name, service_id, service_name, duration, buffer_before, buffer_after, price_cents, client_name, client_email, client_phone, notes, appointment_date, appointment_time, status, created_at, series_id ON appointments
FOR EACH ROW EXECUTE FUNCTION appointments_grid_items();

UPDATE grid_items SET item = (item::jsonb - 'answer')::text;
ALTER TABLE profiles DROP COLUMN msg_reminder_email;
ALTER TABLE profiles DROP COLUMN reminder_leads;
DROP TABLE answer_tokens;
ALTER TABLE appointments DROP COLUMN client_answer_channel;
ALTER TABLE appointments DROP COLUMN client_answer_at;
ALTER TABLE appointments DROP COLUMN client_answer;
