-- Back to the CHECK without `draw` (individual rounds are dropped).
PRAGMA foreign_keys = OFF;
BEGIN;
DROP TABLE individual_byes;
DROP INDEX pairs_individual;
ALTER TABLE pairs DROP COLUMN ind_p2;
ALTER TABLE pairs DROP COLUMN ind_p1;
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
    SELECT id, tournament_id, number, movement, started_at, time_out_at, created_at, paused_at, paused_seconds FROM rounds
    WHERE movement <> 'draw';
DROP TABLE rounds;
ALTER TABLE rounds_rebuilt RENAME TO rounds;
COMMIT;
PRAGMA foreign_keys = ON;
