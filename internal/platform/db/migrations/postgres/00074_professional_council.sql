-- +goose Up
-- Issue 43: a health professional's council registration (CRP, CRN,
-- CREFITO, CRO, CREF, CRM…), shown on the public page as the councils'
-- codes of ethics require, signed under each record entry and printed on
-- receipts. Empty when the professional has none. team.CouncilLabel is
-- how the three read as one line ("CRP 06/12345").
ALTER TABLE professionals ADD COLUMN council TEXT NOT NULL DEFAULT '';
ALTER TABLE professionals ADD COLUMN council_uf TEXT NOT NULL DEFAULT '';
ALTER TABLE professionals ADD COLUMN council_number TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE professionals DROP COLUMN council_number;
ALTER TABLE professionals DROP COLUMN council_uf;
ALTER TABLE professionals DROP COLUMN council;
