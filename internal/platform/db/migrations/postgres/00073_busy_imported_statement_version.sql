-- +goose Up
-- Issue 42: an import writes its intervals a few hundred rows a statement,
-- and busy_imported's version trigger was one row's: a first import of
-- 5,000 intervals ran bump_data_version 5,000 times, each an UPDATE of the
-- owner's one data_versions row (a new row version each), most of the
-- ~1 s it held the owner's lock. Now one bump per statement, for each
-- owner whose rows it wrote (from the statement's transition tables; a
-- statement that wrote nothing bumps nothing). PostgreSQL takes a
-- transition table only on a trigger of one event: three triggers.
-- +goose StatementBegin
CREATE FUNCTION bump_data_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        INSERT INTO data_versions (user_id, version)
        SELECT user_id, 1 FROM (SELECT user_id FROM changed UNION SELECT user_id FROM before_change) o WHERE user_id IS NOT NULL
        ON CONFLICT (user_id) DO UPDATE SET version = data_versions.version + 1;
    ELSE
        INSERT INTO data_versions (user_id, version)
        SELECT DISTINCT user_id, 1 FROM changed WHERE user_id IS NOT NULL
        ON CONFLICT (user_id) DO UPDATE SET version = data_versions.version + 1;
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
DROP TRIGGER busy_imported_version ON busy_imported;
CREATE TRIGGER busy_imported_version_insert AFTER INSERT ON busy_imported REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_data_versions();
CREATE TRIGGER busy_imported_version_update AFTER UPDATE ON busy_imported REFERENCING OLD TABLE AS before_change NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_data_versions();
CREATE TRIGGER busy_imported_version_delete AFTER DELETE ON busy_imported REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_data_versions();

-- +goose Down
DROP TRIGGER busy_imported_version_insert ON busy_imported;
DROP TRIGGER busy_imported_version_update ON busy_imported;
DROP TRIGGER busy_imported_version_delete ON busy_imported;
DROP FUNCTION bump_data_versions();
CREATE TRIGGER busy_imported_version AFTER INSERT OR UPDATE OR DELETE ON busy_imported FOR EACH ROW EXECUTE FUNCTION bump_data_version('user_id');
