-- +goose Up
-- A professional's calendar may also be a CalDAV account or a Google
-- account (issue 42 §2, §3), on the same row shape as the iCal address:
-- url_sealed is the CalDAV server's address (an ICS row's address; '' for
-- Google), account the user name or Google e-mail shown on the card,
-- secret_sealed the app password or Google's refresh token (secretbox, never
-- answered), calendars the JSON list of the account's calendars whose events
-- count as busy, write_calendar the one Agendei writes its appointments to
-- ('' writes nothing), sync the JSON of each calendar's last state
-- (getctag/sync-token, Google's syncToken) so an unchanged one is not read.
ALTER TABLE calendar_sources DROP CONSTRAINT calendar_sources_kind_check;
ALTER TABLE calendar_sources ADD CONSTRAINT calendar_sources_kind_check CHECK (kind IN ('ics', 'caldav', 'google'));
ALTER TABLE calendar_sources ADD COLUMN account TEXT NOT NULL DEFAULT '';
ALTER TABLE calendar_sources ADD COLUMN secret_sealed TEXT NOT NULL DEFAULT '';
ALTER TABLE calendar_sources ADD COLUMN calendars TEXT NOT NULL DEFAULT '[]';
ALTER TABLE calendar_sources ADD COLUMN write_calendar TEXT NOT NULL DEFAULT '';
ALTER TABLE calendar_sources ADD COLUMN sync TEXT NOT NULL DEFAULT '{}';

-- +goose Down
DELETE FROM calendar_sources WHERE kind <> 'ics';
ALTER TABLE calendar_sources DROP COLUMN account;
ALTER TABLE calendar_sources DROP COLUMN secret_sealed;
ALTER TABLE calendar_sources DROP COLUMN calendars;
ALTER TABLE calendar_sources DROP COLUMN write_calendar;
ALTER TABLE calendar_sources DROP COLUMN sync;
ALTER TABLE calendar_sources DROP CONSTRAINT calendar_sources_kind_check;
ALTER TABLE calendar_sources ADD CONSTRAINT calendar_sources_kind_check CHECK (kind IN ('ics'));
