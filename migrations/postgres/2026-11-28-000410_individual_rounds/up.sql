-- An individual tournament's rounds (issue 35; RULES.md §14). Its first
-- round is drawn at random: the movement's CHECK takes `draw`.
ALTER TABLE rounds DROP CONSTRAINT rounds_movement_check;
ALTER TABLE rounds ADD CONSTRAINT rounds_movement_check
    CHECK (movement IN ('mitchell', 'danish', 'danish_modified', 'danish_groups', 'danish_groups_modified', 'round_robin', 'draw'));
-- A partnership is a pair row of its two players (`ind_p1` < `ind_p2` by
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
