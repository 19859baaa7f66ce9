-- +goose Up
-- A calendar feed is read by a third party (Google, Apple, Microsoft), so it
-- carries the client's name, the service and the professional; the client's
-- phone only when the owner ticks it for that feed; the notes never (they may
-- be health data, sensitive under LGPD art. 11). Feeds made before this keep
-- working, without the phone until the owner asks for it.
ALTER TABLE calendar_feeds ADD COLUMN include_phone BOOLEAN NOT NULL DEFAULT FALSE;

-- +goose Down
ALTER TABLE calendar_feeds DROP COLUMN include_phone;
