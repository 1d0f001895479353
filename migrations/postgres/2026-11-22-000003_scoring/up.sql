-- Score sheets, adjusted scores, penalties and the audit log (PostgreSQL).
CREATE TABLE sheets (
    id BIGSERIAL PRIMARY KEY,
    seating_id BIGINT NOT NULL UNIQUE REFERENCES seatings (id) ON DELETE CASCADE,
    -- The sheet exactly as `burraco-td rules check-sheet` reads it (hands, declared).
    sheet TEXT,
    -- A referee's adjusted score replaces the sheet: VP for both lines, MP differences.
    adjusted_ns_vp INTEGER,
    adjusted_ew_vp INTEGER,
    adjusted_ns_mp_diff BIGINT,
    adjusted_ew_mp_diff BIGINT,
    ns_total BIGINT NOT NULL,
    ew_total BIGINT NOT NULL,
    ns_vp INTEGER NOT NULL,
    ew_vp INTEGER NOT NULL,
    accepted_mismatch BOOLEAN NOT NULL DEFAULT FALSE,
    note TEXT NOT NULL DEFAULT '',
    version INTEGER NOT NULL,
    updated_by BIGINT REFERENCES users (id),
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE penalties (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round_no INTEGER NOT NULL,
    pair_id BIGINT NOT NULL REFERENCES pairs (id),
    table_no INTEGER,
    kind TEXT NOT NULL CHECK (kind IN ('warning', 'mp', 'vp')),
    amount BIGINT,
    reason TEXT NOT NULL,
    given_by BIGINT REFERENCES users (id),
    given_at TIMESTAMP NOT NULL,
    withdrawn_by BIGINT REFERENCES users (id),
    withdrawn_at TIMESTAMP
);
CREATE INDEX penalties_tournament ON penalties (tournament_id);

CREATE TABLE audit_log (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round_no INTEGER,
    table_no INTEGER,
    action TEXT NOT NULL,
    before_value TEXT,
    after_value TEXT,
    reason TEXT NOT NULL DEFAULT '',
    user_id BIGINT REFERENCES users (id),
    at TIMESTAMP NOT NULL
);
CREATE INDEX audit_log_tournament ON audit_log (tournament_id, id);
