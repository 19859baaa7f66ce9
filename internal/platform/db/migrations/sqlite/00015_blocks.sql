-- +goose Up
-- Blocks: time an owner takes out of a day (a meeting, an errand) for one
-- professional or, with no professional, the whole practice. Whole days off
-- are days_off; a block is a range within one date. Slots treat a block as
-- busy time, so the public page stops offering it and nothing is booked
-- over it (the same hold as every booking).
CREATE TABLE blocks (
    id              TEXT PRIMARY KEY,
    user_id         TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    professional_id TEXT REFERENCES professionals(id) ON DELETE CASCADE, -- NULL: the whole practice
    block_date      TEXT NOT NULL,                                       -- YYYY-MM-DD, owner's zone
    start_time      TEXT NOT NULL,                                       -- HH:MM
    end_time        TEXT NOT NULL CHECK (end_time > start_time),         -- HH:MM, exclusive
    reason          TEXT NOT NULL DEFAULT '',
    created_at      TIMESTAMP NOT NULL
);
CREATE INDEX blocks_user_date ON blocks (user_id, block_date);

-- +goose StatementBegin
CREATE TRIGGER blocks_version_insert AFTER INSERT ON blocks
WHEN NEW.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER blocks_version_update AFTER UPDATE ON blocks
WHEN NEW.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER blocks_version_delete AFTER DELETE ON blocks
WHEN OLD.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (OLD.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TABLE blocks;
