-- A team tournament's round-robin rounds go, with what hangs on them
-- (deleted first: with the foreign keys off nothing cascades).
PRAGMA foreign_keys = OFF;
BEGIN;
DELETE FROM sheet_entries WHERE seating_id IN (SELECT s.id FROM seatings s JOIN rounds r ON r.id = s.round_id WHERE r.movement = 'round_robin');
DELETE FROM sheets WHERE seating_id IN (SELECT s.id FROM seatings s JOIN rounds r ON r.id = s.round_id WHERE r.movement = 'round_robin');
DELETE FROM seatings WHERE round_id IN (SELECT id FROM rounds WHERE movement = 'round_robin');
DELETE FROM byes WHERE round_id IN (SELECT id FROM rounds WHERE movement = 'round_robin');
CREATE TABLE rounds_rebuilt (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    movement TEXT NOT NULL CHECK (movement IN ('mitchell', 'danish', 'danish_modified')),
    started_at TIMESTAMP,
    time_out_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    paused_at TIMESTAMP,
    paused_seconds INTEGER NOT NULL DEFAULT 0,
    UNIQUE (tournament_id, number)
);
INSERT INTO rounds_rebuilt SELECT id, tournament_id, number, movement, started_at, time_out_at, created_at, paused_at, paused_seconds FROM rounds WHERE movement <> 'round_robin';
DROP TABLE rounds;
ALTER TABLE rounds_rebuilt RENAME TO rounds;
COMMIT;
PRAGMA foreign_keys = ON;
