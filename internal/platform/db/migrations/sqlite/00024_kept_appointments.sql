-- +goose Up
-- The confirmed appointments a block or a day off was saved over and left in
-- place by the owner's choice (their ids, comma-separated): the agenda shows
-- them over the shading, and nothing is stranded without the owner saying so.
ALTER TABLE blocks ADD COLUMN kept TEXT NOT NULL DEFAULT '';
ALTER TABLE days_off ADD COLUMN kept TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE days_off DROP COLUMN kept;
ALTER TABLE blocks DROP COLUMN kept;
