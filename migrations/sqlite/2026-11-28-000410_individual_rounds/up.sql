-- An individual tournament's rounds (issue 35; RULES.md §14). Its first
-- round is drawn at random: the movement's CHECK takes `draw`. SQLite
-- changes a CHECK only by rebuilding the table, as in
-- 2026-11-28-000135_group_rounds: foreign keys off, one transaction of its
-- own, every row keeping its id.
PRAGMA foreign_keys = OFF;
BEGIN;
CREATE TABLE rounds_rebuilt (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    movement TEXT NOT NULL CHECK (movement IN ('mitchell', 'danish', 'danish_modified', 'danish_groups', 'danish_groups_modified', 'round_robin', 'draw')),
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
-- A partnership is a pair row of its two players (`ind_p1` the lower
-- number), found or made when a round seats them: the seatings, sheets,
-- table entries and penalties of a round are a pairs tournament's own.
ALTER TABLE pairs ADD COLUMN ind_p1 BIGINT REFERENCES individual_players (id) ON DELETE CASCADE;
ALTER TABLE pairs ADD COLUMN ind_p2 BIGINT REFERENCES individual_players (id) ON DELETE CASCADE;
CREATE INDEX pairs_individual ON pairs (ind_p1, ind_p2);
-- The players resting in a round (1 to 3 when the field is not a
-- multiple of 4).
CREATE TABLE individual_byes (
    round_id BIGINT NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    player_id BIGINT NOT NULL REFERENCES individual_players (id) ON DELETE CASCADE,
    PRIMARY KEY (round_id, player_id)
);
COMMIT;
PRAGMA foreign_keys = ON;
