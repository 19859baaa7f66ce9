-- +goose Up
-- Issue 38 (PostgreSQL's lock order is its own file's; SQLite's writes
-- already run one at a time): rows of accounts deleted before — grid
-- groups, kept empty by the grid's trigger as an account's appointments
-- went, and version rows — have no foreign key to the account.
DELETE FROM grid_groups WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = grid_groups.user_id);
DELETE FROM data_versions WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = data_versions.user_id);

-- +goose Down
SELECT 1;
