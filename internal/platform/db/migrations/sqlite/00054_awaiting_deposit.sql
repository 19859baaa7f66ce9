-- +goose NO TRANSACTION
-- +goose Up
-- 'awaiting_deposit' ("Aguardando sinal", issue 39): a booking whose deposit
-- (Pix sinal) is still unpaid is not confirmed. It holds its time like a
-- confirmed one (busy_days, booking.HoldingStatuses) but counts nowhere a
-- confirmed appointment counts (metrics, "Receita agendada", reminders,
-- reports); "Sinal recebido" turns it 'confirmed', its expiry 'cancelled'.
-- SQLite cannot change a CHECK constraint in place, so the table is rebuilt
-- as 00016 did, with every column, index and trigger it has gathered since
-- (busy_days with the new status, grid_items, deposits' date, versions).
PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE appointments_new (
    id                TEXT PRIMARY KEY,
    user_id           TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    professional_id   TEXT REFERENCES professionals(id) ON DELETE SET NULL,
    service_id        TEXT REFERENCES services(id) ON DELETE SET NULL,
    professional_name TEXT NOT NULL,
    service_name      TEXT NOT NULL,
    duration          INTEGER NOT NULL CHECK (duration >= 1),
    price_cents       INTEGER NOT NULL CHECK (price_cents >= 0),
    client_name       TEXT NOT NULL,
    client_email      TEXT NOT NULL DEFAULT '',
    client_phone      TEXT NOT NULL DEFAULT '',
    notes             TEXT NOT NULL DEFAULT '',
    appointment_date  TEXT NOT NULL,                 -- YYYY-MM-DD in the owner's zone
    appointment_time  TEXT NOT NULL,                 -- HH:MM in the owner's zone
    starts_at         TIMESTAMP NOT NULL,            -- the same instant in UTC
    status            TEXT NOT NULL DEFAULT 'confirmed' CHECK (status IN ('confirmed', 'awaiting_deposit', 'cancelled', 'completed', 'no_show')),
    cancel_token_hash TEXT NOT NULL UNIQUE,          -- SHA-256 of the client's private cancel link
    created_at        TIMESTAMP NOT NULL,
    updated_at        TIMESTAMP NOT NULL,
    search_key        TEXT NOT NULL DEFAULT '',
    client_key        TEXT NOT NULL DEFAULT '',
    buffer_before     INTEGER NOT NULL DEFAULT 0,
    buffer_after      INTEGER NOT NULL DEFAULT 0
    , sequence INTEGER NOT NULL DEFAULT 0, series_id TEXT, client_answer TEXT NOT NULL DEFAULT '', client_answer_at TIMESTAMP, client_answer_channel TEXT NOT NULL DEFAULT '', remind BOOLEAN NOT NULL DEFAULT FALSE);
INSERT INTO appointments_new (id, user_id, professional_id, service_id, professional_name, service_name, duration, price_cents, client_name, client_email, client_phone, notes, appointment_date, appointment_time, starts_at, status, cancel_token_hash, created_at, updated_at, search_key, client_key, buffer_before, buffer_after, sequence, series_id, client_answer, client_answer_at, client_answer_channel, remind)
SELECT id, user_id, professional_id, service_id, professional_name, service_name, duration, price_cents, client_name, client_email, client_phone, notes, appointment_date, appointment_time, starts_at, status, cancel_token_hash, created_at, updated_at, search_key, client_key, buffer_before, buffer_after, sequence, series_id, client_answer, client_answer_at, client_answer_channel, remind FROM appointments;
DROP TABLE appointments;
ALTER TABLE appointments_new RENAME TO appointments;
CREATE INDEX appointments_owner_client ON appointments (user_id, client_key, appointment_date, appointment_time, status, price_cents);
CREATE INDEX appointments_owner_day ON appointments (user_id, appointment_date, appointment_time);
CREATE INDEX appointments_owner_search ON appointments (user_id, client_key, search_key, client_phone);
CREATE INDEX appointments_owner_status ON appointments (user_id, status, appointment_date);
CREATE INDEX appointments_owner_window ON appointments (user_id, appointment_date, status, price_cents, client_email);
CREATE INDEX appointments_professional_busy ON appointments (professional_id, appointment_date, status, appointment_time, duration, buffer_before, buffer_after, id);
CREATE INDEX appointments_series ON appointments (user_id, series_id, appointment_date) WHERE series_id IS NOT NULL;
-- +goose StatementBegin
CREATE TRIGGER appointments_busy_delete AFTER DELETE ON appointments
WHEN OLD.professional_id IS NOT NULL
BEGIN
    DELETE FROM busy_days WHERE professional_id = OLD.professional_id AND busy_date = OLD.appointment_date;
    INSERT INTO busy_days (professional_id, busy_date, list)
    SELECT professional_id, appointment_date, string_agg(appointment_time || ' ' || duration || ' ' || buffer_before || ' ' || buffer_after, ',')
    FROM appointments WHERE professional_id = OLD.professional_id AND appointment_date = OLD.appointment_date AND status IN ('confirmed', 'awaiting_deposit', 'completed', 'no_show')
    GROUP BY professional_id, appointment_date;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER appointments_busy_insert AFTER INSERT ON appointments
WHEN NEW.professional_id IS NOT NULL
BEGIN
    DELETE FROM busy_days WHERE professional_id = NEW.professional_id AND busy_date = NEW.appointment_date;
    INSERT INTO busy_days (professional_id, busy_date, list)
    SELECT professional_id, appointment_date, string_agg(appointment_time || ' ' || duration || ' ' || buffer_before || ' ' || buffer_after, ',')
    FROM appointments WHERE professional_id = NEW.professional_id AND appointment_date = NEW.appointment_date AND status IN ('confirmed', 'awaiting_deposit', 'completed', 'no_show')
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
    FROM appointments WHERE professional_id = NEW.professional_id AND appointment_date = NEW.appointment_date AND status IN ('confirmed', 'awaiting_deposit', 'completed', 'no_show')
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
    FROM appointments WHERE professional_id = OLD.professional_id AND appointment_date = OLD.appointment_date AND status IN ('confirmed', 'awaiting_deposit', 'completed', 'no_show')
    GROUP BY professional_id, appointment_date;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER appointments_deposit_date AFTER UPDATE OF appointment_date ON appointments
WHEN NEW.appointment_date <> OLD.appointment_date
BEGIN
    UPDATE deposits SET appointment_date = NEW.appointment_date WHERE appointment_id = NEW.id;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER appointments_grid_delete AFTER DELETE ON appointments
BEGIN
    DELETE FROM grid_items WHERE user_id = OLD.user_id AND grid_date = OLD.appointment_date AND professional_id = coalesce(OLD.professional_id, '') AND appointment_id = OLD.id;
END;
-- +goose StatementEnd
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
-- +goose StatementBegin
CREATE TRIGGER appointments_version_delete AFTER DELETE ON appointments
WHEN OLD.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (OLD.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER appointments_version_insert AFTER INSERT ON appointments
WHEN NEW.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd
-- +goose StatementBegin
CREATE TRIGGER appointments_version_update AFTER UPDATE ON appointments
WHEN NEW.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd
-- The holds standing today: confirmed with their deposit still pending.
UPDATE appointments SET status = 'awaiting_deposit'
WHERE status = 'confirmed' AND id IN (SELECT appointment_id FROM deposits WHERE state = 'pending');
PRAGMA foreign_key_check;
COMMIT;
PRAGMA foreign_keys = ON;

-- +goose Down
-- The holds read as the older code wrote them (confirmed with a pending
-- deposit); the wider CHECK and the busy triggers' extra status stay, which
-- allow nothing the older code writes.
UPDATE appointments SET status = 'confirmed' WHERE status = 'awaiting_deposit';
