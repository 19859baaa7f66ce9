-- +goose Up
-- Issue 40 §2, the grid without hidden machinery: the agenda's grid reads
-- the range's appointments through appointments_owner_day (or
-- appointments_professional_day) and their deposits by primary key, and
-- encodes them once in Go from a typed struct. Measured on the bench's
-- busiest owner (10 professionals, 100,000 appointments), a day grid of
-- random owners at 200 reads a second answered within its target without
-- the copies (docs/measurements.md), so the derived tables that held each
-- appointment's grid JSON go, with their triggers and functions:
-- grid_items (00029, 00033, 00037, 00054), grid_groups (00041), and the
-- deposits' copy of their appointment's date (00040) that let the grid
-- find a range's deposits without a join.
DROP TRIGGER IF EXISTS appointments_zz_grid_items ON appointments;
DROP FUNCTION IF EXISTS appointments_grid_items();
DROP TABLE grid_items; -- and its trigger grid_items_group
DROP FUNCTION IF EXISTS grid_items_group();
DROP TABLE grid_groups;
DROP FUNCTION IF EXISTS grid_group_join(text, text, text);
DROP TRIGGER IF EXISTS appointments_deposit_date ON appointments;
DROP FUNCTION IF EXISTS appointments_deposit_date();
DROP INDEX deposits_owner_date;
ALTER TABLE deposits DROP COLUMN appointment_date;

-- +goose Down
-- Not reversible: the derived tables are not rebuilt. To go back past
-- this migration, restore a backup taken before it.
