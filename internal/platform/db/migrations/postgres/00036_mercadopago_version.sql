-- +goose Up
-- Connecting or removing Mercado Pago changes whether a booking asks for a
-- deposit (the owner has a charger), which the public profile states and
-- the answer cache keeps: the connection bumps the owner's data version.
-- (mercadopago_payments.outcome may also be 'ignored': an approved payment
-- whose deposit no longer exists, recorded so it is not tried again.)
CREATE TRIGGER mercadopago_accounts_version AFTER INSERT OR UPDATE OR DELETE ON mercadopago_accounts FOR EACH ROW EXECUTE FUNCTION bump_data_version('user_id');

-- +goose Down
DROP TRIGGER mercadopago_accounts_version ON mercadopago_accounts;
