-- +goose Up
-- Issue 25, the grid's speed: the grid reads a day's appointments of one
-- professional as one row. grid_items (00029, 00037) keeps one row per
-- appointment, and the grid joined each date-and-professional group of
-- them at every read (string_agg … GROUP BY): ~137 rows a busy day, whose
-- stepping and joining was most of a SQLite grid's read, and on PostgreSQL
-- ~137 heap fetches scattered in booking order. grid_groups keeps each
-- group joined already: one row per (owner, date, professional), its items
-- the group's arrays joined by commas, in key order. Triggers on
-- grid_items keep it in the writer's transaction: a write joins its own
-- group again (~14 items), so a booking costs the same on a full agenda. A
-- group left empty keeps its row, with no items (the grid skips it). A
-- rowid table with its key as a unique index, so that a busy group (a few
-- kB) sits in one page rather than in a chain of overflow pages.
CREATE TABLE grid_groups (
    user_id           TEXT NOT NULL,
    grid_date         TEXT NOT NULL,
    professional_id   TEXT NOT NULL,
    professional_name TEXT NOT NULL,
    items             TEXT NOT NULL
);
CREATE UNIQUE INDEX grid_groups_key ON grid_groups (user_id, grid_date, professional_id);

INSERT INTO grid_groups (user_id, grid_date, professional_id, professional_name, items)
SELECT user_id, grid_date, professional_id, min(professional_name), string_agg(item, ',')
FROM grid_items GROUP BY user_id, grid_date, professional_id;

-- +goose StatementBegin
CREATE TRIGGER grid_items_group_insert AFTER INSERT ON grid_items
BEGIN
    INSERT INTO grid_groups (user_id, grid_date, professional_id, professional_name, items)
    SELECT NEW.user_id, NEW.grid_date, NEW.professional_id, coalesce(min(professional_name), ''), coalesce(string_agg(item, ','), '')
    FROM grid_items WHERE user_id = NEW.user_id AND grid_date = NEW.grid_date AND professional_id = NEW.professional_id
    ON CONFLICT (user_id, grid_date, professional_id) DO UPDATE SET professional_name = excluded.professional_name, items = excluded.items;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER grid_items_group_delete AFTER DELETE ON grid_items
BEGIN
    INSERT INTO grid_groups (user_id, grid_date, professional_id, professional_name, items)
    SELECT OLD.user_id, OLD.grid_date, OLD.professional_id, coalesce(min(professional_name), ''), coalesce(string_agg(item, ','), '')
    FROM grid_items WHERE user_id = OLD.user_id AND grid_date = OLD.grid_date AND professional_id = OLD.professional_id
    ON CONFLICT (user_id, grid_date, professional_id) DO UPDATE SET professional_name = excluded.professional_name, items = excluded.items;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER grid_items_group_update AFTER UPDATE ON grid_items
BEGIN
    INSERT INTO grid_groups (user_id, grid_date, professional_id, professional_name, items)
    SELECT OLD.user_id, OLD.grid_date, OLD.professional_id, coalesce(min(professional_name), ''), coalesce(string_agg(item, ','), '')
    FROM grid_items WHERE user_id = OLD.user_id AND grid_date = OLD.grid_date AND professional_id = OLD.professional_id
    ON CONFLICT (user_id, grid_date, professional_id) DO UPDATE SET professional_name = excluded.professional_name, items = excluded.items;
    INSERT INTO grid_groups (user_id, grid_date, professional_id, professional_name, items)
    SELECT NEW.user_id, NEW.grid_date, NEW.professional_id, coalesce(min(professional_name), ''), coalesce(string_agg(item, ','), '')
    FROM grid_items WHERE user_id = NEW.user_id AND grid_date = NEW.grid_date AND professional_id = NEW.professional_id
    ON CONFLICT (user_id, grid_date, professional_id) DO UPDATE SET professional_name = excluded.professional_name, items = excluded.items;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER grid_items_group_update;
DROP TRIGGER grid_items_group_delete;
DROP TRIGGER grid_items_group_insert;
DROP TABLE grid_groups;
