-- +goose Up
-- When the owner was told the trial ends in 3 days (set once, by whichever
-- instance's sweep claims it first).
ALTER TABLE profiles ADD COLUMN trial_notice_at TIMESTAMPTZ;

-- +goose Down
ALTER TABLE profiles DROP COLUMN trial_notice_at;
