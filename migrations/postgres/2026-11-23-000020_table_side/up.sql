-- Table-side scoring (PostgreSQL): a table code per table and a private pair code
-- per pair (created at the start, never exported), the state of each table's
-- entry (entered, confirmed, disputed; only `sheets` counts in the
-- standings), the brake on wrong pair codes, and the director's setting.
ALTER TABLE tournaments ADD COLUMN table_entry BOOLEAN NOT NULL DEFAULT TRUE;

ALTER TABLE pairs ADD COLUMN code TEXT;
CREATE UNIQUE INDEX pairs_code ON pairs (tournament_id, code);

CREATE TABLE table_codes (
    code TEXT PRIMARY KEY NOT NULL,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    table_no INTEGER NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    UNIQUE (tournament_id, table_no)
);

CREATE TABLE sheet_entries (
    seating_id BIGINT PRIMARY KEY NOT NULL REFERENCES seatings (id) ON DELETE CASCADE,
    status TEXT NOT NULL CHECK (status IN ('entered', 'confirmed', 'disputed')),
    entered_by TEXT NOT NULL CHECK (entered_by IN ('ns', 'ew', 'desk')),
    -- The sheet as `rules check-sheet` reads it (null: an adjusted score at the desk).
    sheet TEXT,
    note TEXT NOT NULL DEFAULT '',
    version INTEGER NOT NULL,
    entered_at TIMESTAMPTZ NOT NULL,
    decided_by TEXT CHECK (decided_by IN ('ns', 'ew', 'desk')),
    decided_at TIMESTAMPTZ
);

-- Wrong pair codes per hashed (table code, client address).
CREATE TABLE score_throttle (
    key TEXT PRIMARY KEY NOT NULL,
    failures INTEGER NOT NULL,
    first_failure_at TIMESTAMPTZ NOT NULL,
    last_failure_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX score_throttle_last_failure ON score_throttle (last_failure_at);
