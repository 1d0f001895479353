-- The service layer: a revision per tournament (bumped by every write),
-- tournament staff (co-directors, referees), the audit of user administration.
-- (SQLite stores instants as UTC text; PostgreSQL's twin uses TIMESTAMPTZ.)
ALTER TABLE tournaments ADD COLUMN revision BIGINT NOT NULL DEFAULT 0;

CREATE TABLE tournament_staff (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role TEXT NOT NULL CHECK (role IN ('director', 'referee')),
    added_by BIGINT REFERENCES users (id),
    added_at TIMESTAMP NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_staff_user ON tournament_staff (user_id);

CREATE TABLE user_audit (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    subject_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    action TEXT NOT NULL,
    before_value TEXT,
    after_value TEXT,
    user_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    at TIMESTAMP NOT NULL
);
