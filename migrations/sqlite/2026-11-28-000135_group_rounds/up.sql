-- Rounds in groups (RULES.md §13): the movement's CHECK takes
-- `danish_groups` and `danish_groups_modified`. SQLite changes a CHECK only
-- by rebuilding the table, as in 2026-11-27-000105_round_robin: foreign keys
-- off, one transaction of its own, every row keeping its id.
PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE rounds_rebuilt (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    movement TEXT NOT NULL CHECK (movement IN ('mitchell', 'danish', 'danish_modified', 'danish_groups', 'danish_groups_modified', 'round_robin')),
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
