-- +goose Up
-- Where an appointment happens (issue 27, point 5): the practice's address
-- (street, number, complement, neighbourhood, city, UF and CEP, each ''
-- when unset) and the owner's fixed video-call room; a service marked online
-- happens at its own link, or else at that room, instead of the address.
ALTER TABLE profiles ADD COLUMN address_street TEXT NOT NULL DEFAULT '';
ALTER TABLE profiles ADD COLUMN address_number TEXT NOT NULL DEFAULT '';
ALTER TABLE profiles ADD COLUMN address_complement TEXT NOT NULL DEFAULT '';
ALTER TABLE profiles ADD COLUMN address_district TEXT NOT NULL DEFAULT '';
ALTER TABLE profiles ADD COLUMN address_city TEXT NOT NULL DEFAULT '';
ALTER TABLE profiles ADD COLUMN address_state TEXT NOT NULL DEFAULT '';
ALTER TABLE profiles ADD COLUMN address_cep TEXT NOT NULL DEFAULT '';
ALTER TABLE profiles ADD COLUMN room_link TEXT NOT NULL DEFAULT '';
ALTER TABLE services ADD COLUMN online BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE services ADD COLUMN online_link TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE services DROP COLUMN online_link;
ALTER TABLE services DROP COLUMN online;
ALTER TABLE profiles DROP COLUMN room_link;
ALTER TABLE profiles DROP COLUMN address_cep;
ALTER TABLE profiles DROP COLUMN address_state;
ALTER TABLE profiles DROP COLUMN address_city;
ALTER TABLE profiles DROP COLUMN address_district;
ALTER TABLE profiles DROP COLUMN address_complement;
ALTER TABLE profiles DROP COLUMN address_number;
ALTER TABLE profiles DROP COLUMN address_street;
