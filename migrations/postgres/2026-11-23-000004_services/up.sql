-- The service layer: a revision per tournament (bumped by every write, under
-- the tournament's row lock), tournament staff (co-directors, referees), the
-- audit of user administration, and UTC instants as TIMESTAMPTZ.
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
    id BIGSERIAL PRIMARY KEY,
    subject_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    action TEXT NOT NULL,
    before_value TEXT,
    after_value TEXT,
    user_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    at TIMESTAMP NOT NULL
);

-- Stored values were always UTC: keep the instant, say so in the type.
SET LOCAL TIME ZONE 'UTC';
ALTER TABLE users ALTER COLUMN created_at TYPE TIMESTAMPTZ, ALTER COLUMN updated_at TYPE TIMESTAMPTZ;
ALTER TABLE sessions ALTER COLUMN created_at TYPE TIMESTAMPTZ, ALTER COLUMN last_seen_at TYPE TIMESTAMPTZ;
ALTER TABLE tournaments ALTER COLUMN starts_at TYPE TIMESTAMPTZ, ALTER COLUMN created_at TYPE TIMESTAMPTZ, ALTER COLUMN updated_at TYPE TIMESTAMPTZ;
ALTER TABLE pairs ALTER COLUMN created_at TYPE TIMESTAMPTZ;
ALTER TABLE rounds ALTER COLUMN started_at TYPE TIMESTAMPTZ, ALTER COLUMN time_out_at TYPE TIMESTAMPTZ, ALTER COLUMN created_at TYPE TIMESTAMPTZ;
ALTER TABLE sheets ALTER COLUMN updated_at TYPE TIMESTAMPTZ;
ALTER TABLE penalties ALTER COLUMN given_at TYPE TIMESTAMPTZ, ALTER COLUMN withdrawn_at TYPE TIMESTAMPTZ;
ALTER TABLE audit_log ALTER COLUMN at TYPE TIMESTAMPTZ;
ALTER TABLE tournament_staff ALTER COLUMN added_at TYPE TIMESTAMPTZ;
ALTER TABLE user_audit ALTER COLUMN at TYPE TIMESTAMPTZ;
