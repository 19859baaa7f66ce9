-- +goose Up
-- SQLite's 00025 gives the agenda grid's read an index that carries every
-- column it shows. PostgreSQL needs none: the table's pages stay in its
-- shared buffers, so the narrow (user_id, appointment_date,
-- appointment_time) index serves the grid, and an index entry here is
-- limited to about 2.7 kB, which free-text notes could pass.
SELECT 1;

-- +goose Down
SELECT 1;
