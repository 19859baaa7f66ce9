-- +goose Up
-- Issue 43 §4: receipts for the Receita Federal's Receita Saúde (IN RFB
-- 2.240/2024) and the Carnê-Leão Web's monthly import. The owner turns them
-- on ("Emitir recibos do Receita Saúde") with the payee's CPF or CNPJ
-- (digits, check digits validated) and the Carnê-Leão occupation code the
-- rendimentos are filed under (255 psicólogo, 225 médico…). Each
-- appointment keeps its payer's CPF (digits; '' when not given): personal
-- data, never logged, rewritten to '' by the client's erase like the name
-- and contacts.
ALTER TABLE profiles ADD COLUMN receipts_enabled BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE profiles ADD COLUMN payee_document TEXT NOT NULL DEFAULT '';
ALTER TABLE profiles ADD COLUMN payee_occupation TEXT NOT NULL DEFAULT '';
ALTER TABLE appointments ADD COLUMN payer_cpf TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE appointments DROP COLUMN payer_cpf;
ALTER TABLE profiles DROP COLUMN payee_occupation;
ALTER TABLE profiles DROP COLUMN payee_document;
ALTER TABLE profiles DROP COLUMN receipts_enabled;
