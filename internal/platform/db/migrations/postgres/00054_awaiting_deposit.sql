-- +goose Up
-- 'awaiting_deposit' ("Aguardando sinal", issue 39): a booking whose deposit
-- (Pix sinal) is still unpaid is not confirmed. It holds its time like a
-- confirmed one (busy_days, booking.HoldingStatuses) but counts nowhere a
-- confirmed appointment counts (metrics, "Receita agendada", reminders,
-- reports); "Sinal recebido" turns it 'confirmed', its expiry 'cancelled'.
ALTER TABLE appointments DROP CONSTRAINT appointments_status_check;
ALTER TABLE appointments ADD CONSTRAINT appointments_status_check
    CHECK (status IN ('confirmed', 'awaiting_deposit', 'cancelled', 'completed', 'no_show'));

-- +goose StatementBegin
CREATE OR REPLACE FUNCTION refresh_busy_day(pro TEXT, day TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF pro IS NULL THEN
        RETURN;
    END IF;
    DELETE FROM busy_days WHERE professional_id = pro AND busy_date = day;
    INSERT INTO busy_days (professional_id, busy_date, list)
    SELECT professional_id, appointment_date, string_agg(appointment_time || ' ' || duration || ' ' || buffer_before || ' ' || buffer_after, ',')
    FROM appointments WHERE professional_id = pro AND appointment_date = day AND status IN ('confirmed', 'awaiting_deposit', 'completed', 'no_show')
    GROUP BY professional_id, appointment_date;
END
$$;
-- +goose StatementEnd

-- The holds standing today: confirmed with their deposit still pending.
UPDATE appointments SET status = 'awaiting_deposit'
WHERE status = 'confirmed' AND id IN (SELECT appointment_id FROM deposits WHERE state = 'pending');

-- +goose Down
UPDATE appointments SET status = 'confirmed' WHERE status = 'awaiting_deposit';
ALTER TABLE appointments DROP CONSTRAINT appointments_status_check;
ALTER TABLE appointments ADD CONSTRAINT appointments_status_check CHECK (status IN ('confirmed', 'cancelled', 'completed', 'no_show'));
-- +goose StatementBegin
CREATE OR REPLACE FUNCTION refresh_busy_day(pro TEXT, day TEXT) RETURNS void LANGUAGE plpgsql AS $$
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
