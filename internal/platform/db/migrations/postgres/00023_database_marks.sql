-- +goose Up
-- What has used this database: 'demo' once `agendei demo` has filled it with
-- the demo practice (whose password is public), 'served' once `agendei serve`
-- has run on it. The demo refuses a served database, so it never lands in a
-- real practice's data; serve on a demo database warns at start and the app
-- shows a banner (GET /api/config's demo). A database the demo filled before
-- these marks existed is known by the demo's account.
CREATE TABLE database_marks (
    mark      TEXT PRIMARY KEY, -- 'demo' or 'served'
    marked_at TIMESTAMPTZ NOT NULL
);
INSERT INTO database_marks (mark, marked_at) SELECT 'demo', CURRENT_TIMESTAMP FROM users WHERE email = 'demo@agendei.app';

-- +goose Down
DROP TABLE database_marks;
