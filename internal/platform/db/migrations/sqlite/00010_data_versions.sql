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
CREATE TRIGGER appointments_version_insert AFTER INSERT ON appointments
WHEN NEW.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER appointments_version_update AFTER UPDATE ON appointments
WHEN NEW.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER appointments_version_delete AFTER DELETE ON appointments
WHEN OLD.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (OLD.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER services_version_insert AFTER INSERT ON services
WHEN NEW.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER services_version_update AFTER UPDATE ON services
WHEN NEW.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER services_version_delete AFTER DELETE ON services
WHEN OLD.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (OLD.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER professionals_version_insert AFTER INSERT ON professionals
WHEN NEW.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER professionals_version_update AFTER UPDATE ON professionals
WHEN NEW.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER professionals_version_delete AFTER DELETE ON professionals
WHEN OLD.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (OLD.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER availability_version_insert AFTER INSERT ON availability
WHEN NEW.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER availability_version_update AFTER UPDATE ON availability
WHEN NEW.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER availability_version_delete AFTER DELETE ON availability
WHEN OLD.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (OLD.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER profiles_version_insert AFTER INSERT ON profiles
WHEN NEW.id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER profiles_version_update AFTER UPDATE ON profiles
WHEN NEW.id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER profiles_version_delete AFTER DELETE ON profiles
WHEN OLD.id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (OLD.id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER subscriptions_version_insert AFTER INSERT ON subscriptions
WHEN NEW.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER subscriptions_version_update AFTER UPDATE ON subscriptions
WHEN NEW.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER subscriptions_version_delete AFTER DELETE ON subscriptions
WHEN OLD.user_id IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (OLD.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER service_professionals_version_insert AFTER INSERT ON service_professionals
WHEN (SELECT user_id FROM services WHERE id = NEW.service_id) IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES ((SELECT user_id FROM services WHERE id = NEW.service_id), 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER service_professionals_version_update AFTER UPDATE ON service_professionals
WHEN (SELECT user_id FROM services WHERE id = NEW.service_id) IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES ((SELECT user_id FROM services WHERE id = NEW.service_id), 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER service_professionals_version_delete AFTER DELETE ON service_professionals
WHEN (SELECT user_id FROM services WHERE id = OLD.service_id) IS NOT NULL
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES ((SELECT user_id FROM services WHERE id = OLD.service_id), 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER appointments_version_insert;
DROP TRIGGER appointments_version_update;
DROP TRIGGER appointments_version_delete;
DROP TRIGGER services_version_insert;
DROP TRIGGER services_version_update;
DROP TRIGGER services_version_delete;
DROP TRIGGER professionals_version_insert;
DROP TRIGGER professionals_version_update;
DROP TRIGGER professionals_version_delete;
DROP TRIGGER availability_version_insert;
DROP TRIGGER availability_version_update;
DROP TRIGGER availability_version_delete;
DROP TRIGGER profiles_version_insert;
DROP TRIGGER profiles_version_update;
DROP TRIGGER profiles_version_delete;
DROP TRIGGER subscriptions_version_insert;
DROP TRIGGER subscriptions_version_update;
DROP TRIGGER subscriptions_version_delete;
DROP TRIGGER service_professionals_version_insert;
DROP TRIGGER service_professionals_version_update;
DROP TRIGGER service_professionals_version_delete;
DROP TABLE data_versions;
