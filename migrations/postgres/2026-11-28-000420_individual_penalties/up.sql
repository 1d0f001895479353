-- A penalty of an individual tournament names a player (RULES.md §14):
-- recorded on the player's partnership at their table that round (a
-- penalties row as a pair's), and the player it names here.
CREATE TABLE individual_penalties (
    penalty_id BIGINT PRIMARY KEY REFERENCES penalties (id) ON DELETE CASCADE,
    player_id BIGINT NOT NULL REFERENCES individual_players (id) ON DELETE CASCADE
);
