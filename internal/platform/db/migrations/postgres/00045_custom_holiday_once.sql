-- An owner's own holiday is one per date: the same one added again (a
-- second tap, a retried request) was kept as many times (issue 38, §3).
-- Copies made before go, the first of each date kept.

-- +goose Up
DELETE FROM custom_holidays WHERE id NOT IN (SELECT MIN(id) FROM custom_holidays GROUP BY user_id, month, day);
CREATE UNIQUE INDEX custom_holidays_once ON custom_holidays (user_id, month, day);

-- +goose Down
DROP INDEX custom_holidays_once;
