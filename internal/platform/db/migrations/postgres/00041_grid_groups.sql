-- +goose Up
-- Issue 25, the grid's speed: the grid reads a day's appointments of one
-- professional as one row. grid_items (00029, 00037) keeps one row per
-- appointment, and the grid joined each date-and-professional group of
-- them at every read (string_agg … GROUP BY): ~137 heap fetches a busy
-- day, scattered in booking order, most of a PostgreSQL grid's time.
-- grid_groups keeps each group joined already: one row per (owner, date,
-- professional), its items the group's arrays joined by commas. A trigger
-- on grid_items keeps it in the writer's transaction: a write joins its
-- own group again (~14 items), so a booking costs the same on a full
-- agenda. A group left empty keeps its row, with no items (the grid skips
-- it).
--
-- Two transactions writing one group at once must not lose each other's
-- item: each takes the group row's lock first (inserting it when new), and
-- only then joins the items, in a statement of its own — under READ
-- COMMITTED a new snapshot, which sees every write whose transaction held
-- the lock before. The row is never deleted, so the lock is always on the
-- row the next writer joins into. A deadlock between two writers of two
-- groups is retried by db.InTx, as any other.
CREATE TABLE grid_groups (
    user_id           TEXT NOT NULL,
    grid_date         TEXT NOT NULL,
    professional_id   TEXT NOT NULL,
    professional_name TEXT NOT NULL,
    items             TEXT NOT NULL,
    PRIMARY KEY (user_id, grid_date, professional_id)
);
-- A group is read whole at every grid: kept as it is, inline up to a
-- page, rather than compressed from 2 kB on (a busy day's ~3 kB, ~1.4 kB
-- compressed, cost a decompression per column per read); a group past a
-- page goes to the TOAST table, uncompressed.
ALTER TABLE grid_groups SET (toast_tuple_target = 8160);
ALTER TABLE grid_groups ALTER COLUMN items SET STORAGE EXTERNAL;

INSERT INTO grid_groups (user_id, grid_date, professional_id, professional_name, items)
SELECT user_id, grid_date, professional_id, min(professional_name), string_agg(item, ',')
FROM grid_items GROUP BY user_id, grid_date, professional_id;

-- +goose StatementBegin
CREATE FUNCTION grid_group_join(u text, d text, p text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO grid_groups (user_id, grid_date, professional_id, professional_name, items)
    VALUES (u, d, p, '', '') ON CONFLICT DO NOTHING;
    PERFORM 1 FROM grid_groups WHERE user_id = u AND grid_date = d AND professional_id = p FOR UPDATE;
    UPDATE grid_groups g SET professional_name = coalesce(s.name, ''), items = coalesce(s.items, '')
    FROM (SELECT min(professional_name) AS name, string_agg(item, ',') AS items FROM grid_items
          WHERE user_id = u AND grid_date = d AND professional_id = p) s
    WHERE g.user_id = u AND g.grid_date = d AND g.professional_id = p;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION grid_items_group() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        PERFORM grid_group_join(OLD.user_id, OLD.grid_date, OLD.professional_id);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        PERFORM grid_group_join(NEW.user_id, NEW.grid_date, NEW.professional_id);
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER grid_items_group AFTER INSERT OR DELETE OR UPDATE ON grid_items FOR EACH ROW EXECUTE FUNCTION grid_items_group();

-- +goose Down
DROP TRIGGER grid_items_group ON grid_items;
DROP FUNCTION grid_items_group();
DROP FUNCTION grid_group_join(text, text, text);
DROP TABLE grid_groups;
