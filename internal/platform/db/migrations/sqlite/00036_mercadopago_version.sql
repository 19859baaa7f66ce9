-- +goose Up
-- Connecting or removing Mercado Pago changes whether a booking asks for a
-- deposit (the owner has a charger), which the public profile states and
-- the answer cache keeps: the connection bumps the owner's data version.
-- (mercadopago_payments.outcome may also be 'ignored': an approved payment
-- whose deposit no longer exists, recorded so it is not tried again.)

-- +goose StatementBegin
CREATE TRIGGER mercadopago_accounts_version_insert AFTER INSERT ON mercadopago_accounts
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER mercadopago_accounts_version_update AFTER UPDATE ON mercadopago_accounts
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (NEW.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER mercadopago_accounts_version_delete AFTER DELETE ON mercadopago_accounts
BEGIN
    INSERT INTO data_versions (user_id, version) VALUES (OLD.user_id, 1)
    ON CONFLICT (user_id) DO UPDATE SET version = version + 1;
END;
-- +goose StatementEnd

-- +goose Down
DROP TRIGGER mercadopago_accounts_version_delete;
DROP TRIGGER mercadopago_accounts_version_update;
DROP TRIGGER mercadopago_accounts_version_insert;
