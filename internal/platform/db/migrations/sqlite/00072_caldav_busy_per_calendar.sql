-- +goose Up
-- A CalDAV account's busy time is kept per chosen calendar from now on
-- (busy_imported.source 'caldav:<path>' instead of one 'caldav' for the
-- account), so a read replaces only the calendars that changed. Forgetting
-- the calendars' states makes each account's next read read every calendar
-- once, which writes them under their own sources and drops the old
-- 'caldav' rows in the same read (until then they keep counting).
UPDATE calendar_sources SET sync = '{}' WHERE kind = 'caldav';

-- +goose Down
-- The code before reads into 'caldav' alone: the per-calendar rows go, and
-- each account's next read reads every calendar again.
DELETE FROM busy_imported WHERE source LIKE 'caldav:%';
UPDATE calendar_sources SET sync = '{}' WHERE kind = 'caldav';
