-- +goose Up
-- Each owner's data version: bumped, in the same transaction, by every write
-- to what the owner's screens and public pages are computed from. Cached
-- answers are stored with the version they were computed at and served only
-- while it is unchanged, on every instance (internal/platform/memo). No
-- foreign key: rows are bumped while an account's rows are being deleted.
CREATE TABLE data_versions (
    user_id TEXT PRIMARY KEY,
    version BIGINT NOT NULL
);

-- +goose StatementBegin
CREATE FUNCTION bump_data_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    uid TEXT;
BEGIN
    IF TG_OP = 'DELETE' THEN
        uid := to_jsonb(OLD) ->> TG_ARGV[0];
    ELSE
        uid := to_jsonb(NEW) ->> TG_ARGV[0];
    END IF;
    IF TG_ARGV[0] = 'service_id' THEN
        SELECT user_id INTO uid FROM services WHERE id = uid;
    END IF;
    IF uid IS NOT NULL THEN
        INSERT INTO data_versions (user_id, version) VALUES (uid, 1)
        ON CONFLICT (user_id) DO UPDATE SET version = data_versions.version + 1;
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd
CREATE TRIGGER appointments_version AFTER INSERT OR UPDATE OR DELETE ON appointments FOR EACH ROW EXECUTE FUNCTION bump_data_version('user_id');
CREATE TRIGGER services_version AFTER INSERT OR UPDATE OR DELETE ON services FOR EACH ROW EXECUTE FUNCTION bump_data_version('user_id');
CREATE TRIGGER professionals_version AFTER INSERT OR UPDATE OR DELETE ON professionals FOR EACH ROW EXECUTE FUNCTION bump_data_version('user_id');
CREATE TRIGGER availability_version AFTER INSERT OR UPDATE OR DELETE ON availability FOR EACH ROW EXECUTE FUNCTION bump_data_version('user_id');
CREATE TRIGGER profiles_version AFTER INSERT OR UPDATE OR DELETE ON profiles FOR EACH ROW EXECUTE FUNCTION bump_data_version('id');
CREATE TRIGGER subscriptions_version AFTER INSERT OR UPDATE OR DELETE ON subscriptions FOR EACH ROW EXECUTE FUNCTION bump_data_version('user_id');
CREATE TRIGGER service_professionals_version AFTER INSERT OR UPDATE OR DELETE ON service_professionals FOR EACH ROW EXECUTE FUNCTION bump_data_version('service_id');

-- +goose Down
DROP TRIGGER appointments_version ON appointments;
DROP TRIGGER services_version ON services;
DROP TRIGGER professionals_version ON professionals;
DROP TRIGGER availability_version ON availability;
DROP TRIGGER profiles_version ON profiles;
DROP TRIGGER subscriptions_version ON subscriptions;
DROP TRIGGER service_professionals_version ON service_professionals;
DROP FUNCTION bump_data_version();
DROP TABLE data_versions;
