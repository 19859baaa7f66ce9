-- +goose Up
-- What an owner sets up: services, team professionals (and which of them
-- perform each service), and weekly opening hours.
CREATE TABLE services (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    description TEXT,                                 -- NULL when empty
    duration    INTEGER NOT NULL CHECK (duration >= 1), -- minutes
    price_cents INTEGER NOT NULL CHECK (price_cents >= 0),
    active      BOOLEAN NOT NULL DEFAULT TRUE,
    created_at  TIMESTAMP NOT NULL,
    updated_at  TIMESTAMP NOT NULL
);
CREATE INDEX services_user ON services (user_id, created_at);

CREATE TABLE professionals (
    id             TEXT PRIMARY KEY,
    user_id        TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    name           TEXT NOT NULL,
    specialization TEXT NOT NULL,
    email          TEXT,                              -- NULL when empty
    photo_url      TEXT NOT NULL DEFAULT '',
    active         BOOLEAN NOT NULL DEFAULT TRUE,
    created_at     TIMESTAMP NOT NULL,
    updated_at     TIMESTAMP NOT NULL
);
CREATE INDEX professionals_user ON professionals (user_id, created_at);

CREATE TABLE service_professionals (
    service_id      TEXT NOT NULL REFERENCES services(id) ON DELETE CASCADE,
    professional_id TEXT NOT NULL REFERENCES professionals(id) ON DELETE CASCADE,
    PRIMARY KEY (service_id, professional_id)
);
CREATE INDEX service_professionals_professional ON service_professionals (professional_id);

CREATE TABLE availability (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    day_of_week INTEGER NOT NULL CHECK (day_of_week BETWEEN 0 AND 6), -- 0 Sunday … 6 Saturday
    start_time  TEXT NOT NULL,                                         -- HH:MM
    end_time    TEXT NOT NULL CHECK (end_time > start_time),
    active      BOOLEAN NOT NULL DEFAULT TRUE,
    UNIQUE (user_id, day_of_week)
);

-- +goose Down
DROP TABLE availability;
DROP TABLE service_professionals;
DROP TABLE professionals;
DROP TABLE services;
