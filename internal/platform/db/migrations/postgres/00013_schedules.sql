-- +goose Up
-- Schedules as practices keep them (issue 14). The weekly hours become
-- windows: any number a day (08:00–12:00 and 13:30–18:00; the gap between
-- two is a break), for the practice (professional_id NULL) or for a
-- professional who keeps their own week (professionals.own_hours). Days off
-- close a date range for the practice or one professional; Brazil's national
-- holidays are computed (internal/schedule) and closed unless the owner
-- re-opens one (open_holidays); the owner adds state or municipal ones
-- (custom_holidays, every year on that day). Services get buffers kept free
-- before and after, which each appointment keeps as booked; the practice
-- gets its slot step (0: the service's duration), minimum notice, booking
-- window and the client's cancellation cutoff. Every new table bumps the
-- owner's data version, as the tables cached answers depend on do.

CREATE TABLE availability_windows (
    id              TEXT PRIMARY KEY,
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    professional_id TEXT REFERENCES professionals(id) ON DELETE CASCADE, -- NULL: the practice's week
    day_of_week     INTEGER NOT NULL CHECK (day_of_week BETWEEN 0 AND 6), -- 0 Sunday … 6 Saturday
    start_time      TEXT NOT NULL,                                         -- HH:MM
    end_time        TEXT NOT NULL CHECK (end_time > start_time)
);
INSERT INTO availability_windows (id, user_id, professional_id, day_of_week, start_time, end_time)
    SELECT id, user_id, NULL, day_of_week, start_time, end_time FROM availability WHERE active = TRUE;
DROP TABLE availability;
ALTER TABLE availability_windows RENAME TO availability;
CREATE INDEX availability_owner ON availability (user_id, professional_id, day_of_week, start_time);

CREATE TABLE days_off (
    id              TEXT PRIMARY KEY,
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    professional_id TEXT REFERENCES professionals(id) ON DELETE CASCADE, -- NULL: the whole practice
    start_date      TEXT NOT NULL,                                       -- YYYY-MM-DD, owner's zone
    end_date        TEXT NOT NULL CHECK (end_date >= start_date),        -- inclusive
    reason          TEXT NOT NULL DEFAULT '',
    created_at      TIMESTAMPTZ NOT NULL
);
CREATE INDEX days_off_user ON days_off (user_id, end_date);

CREATE TABLE open_holidays (
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    holiday_key TEXT NOT NULL, -- a national holiday the practice works on, every year
    PRIMARY KEY (user_id, holiday_key)
);

CREATE TABLE custom_holidays (
    id      TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name    TEXT NOT NULL,
    month   INTEGER NOT NULL CHECK (month BETWEEN 1 AND 12),
    day     INTEGER NOT NULL CHECK (day BETWEEN 1 AND 31)
);
CREATE INDEX custom_holidays_user ON custom_holidays (user_id);

ALTER TABLE professionals ADD COLUMN own_hours BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE services ADD COLUMN buffer_before INTEGER NOT NULL DEFAULT 0;
ALTER TABLE services ADD COLUMN buffer_after INTEGER NOT NULL DEFAULT 0;
ALTER TABLE appointments ADD COLUMN buffer_before INTEGER NOT NULL DEFAULT 0;
ALTER TABLE appointments ADD COLUMN buffer_after INTEGER NOT NULL DEFAULT 0;
ALTER TABLE profiles ADD COLUMN slot_step INTEGER NOT NULL DEFAULT 30;           -- 15, 30, 60, or 0: the service's duration
ALTER TABLE profiles ADD COLUMN min_notice_minutes INTEGER NOT NULL DEFAULT 0;
ALTER TABLE profiles ADD COLUMN booking_window_days INTEGER NOT NULL DEFAULT 90;
ALTER TABLE profiles ADD COLUMN cancel_cutoff_hours INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER availability_version AFTER INSERT OR UPDATE OR DELETE ON availability FOR EACH ROW EXECUTE FUNCTION bump_data_version('user_id');
CREATE TRIGGER days_off_version AFTER INSERT OR UPDATE OR DELETE ON days_off FOR EACH ROW EXECUTE FUNCTION bump_data_version('user_id');
CREATE TRIGGER open_holidays_version AFTER INSERT OR UPDATE OR DELETE ON open_holidays FOR EACH ROW EXECUTE FUNCTION bump_data_version('user_id');
CREATE TRIGGER custom_holidays_version AFTER INSERT OR UPDATE OR DELETE ON custom_holidays FOR EACH ROW EXECUTE FUNCTION bump_data_version('user_id');

-- +goose Down
DROP TABLE custom_holidays;
DROP TABLE open_holidays;
DROP TABLE days_off;
ALTER TABLE profiles DROP COLUMN cancel_cutoff_hours;
ALTER TABLE profiles DROP COLUMN booking_window_days;
ALTER TABLE profiles DROP COLUMN min_notice_minutes;
ALTER TABLE profiles DROP COLUMN slot_step;
ALTER TABLE appointments DROP COLUMN buffer_after;
ALTER TABLE appointments DROP COLUMN buffer_before;
ALTER TABLE services DROP COLUMN buffer_after;
ALTER TABLE services DROP COLUMN buffer_before;
ALTER TABLE professionals DROP COLUMN own_hours;
CREATE TABLE availability_week (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    day_of_week INTEGER NOT NULL CHECK (day_of_week BETWEEN 0 AND 6),
    start_time  TEXT NOT NULL,
    end_time    TEXT NOT NULL CHECK (end_time > start_time),
    active      BOOLEAN NOT NULL DEFAULT TRUE,
    UNIQUE (user_id, day_of_week)
);
-- One window a day again: the day's first start to its last end.
INSERT INTO availability_week (id, user_id, day_of_week, start_time, end_time, active)
    SELECT MIN(id), user_id, day_of_week, MIN(start_time), MAX(end_time), TRUE FROM availability
    WHERE professional_id IS NULL GROUP BY user_id, day_of_week;
DROP TABLE availability;
ALTER TABLE availability_week RENAME TO availability;
CREATE TRIGGER availability_version AFTER INSERT OR UPDATE OR DELETE ON availability FOR EACH ROW EXECUTE FUNCTION bump_data_version('user_id');
