-- A team tournament's rounds are round robin or Danish (issue 25): the
-- movement's CHECK takes `round_robin`. SQLite changes a CHECK only by
-- rebuilding the table: done with the foreign keys off (dropping the old
-- table must not cascade to the seatings and byes that point at it), in
-- one transaction of its own; every row keeps its id, so the rows that
-- point at a round still do.
PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE rounds_rebuilt (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    movement TEXT NOT NULL CHECK (movement IN ('mitchell', 'danish', 'danish_modified', 'round_robin')),
    started_at TIMESTAMP,
    time_out_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    paused_at TIMESTAMP,
    paused_seconds INTEGER NOT NULL DEFAULT 0,
    UNIQUE (tournament_id, number)
);
INSERT INTO rounds_rebuilt (id, tournament_id, number, movement, started_at, time_out_at, created_at, paused_at, paused_seconds)
    SELECT id, tournament_id, number, movement, started_at, time_out_at, created_at, paused_at, paused_seconds FROM rounds;
DROP TABLE rounds;
ALTER TABLE rounds_rebuilt RENAME TO rounds;
COMMIT;
PRAGMA foreign_keys = ON;
