-- Entries online for team and individual tournaments (issue 36): a team
-- entry's name as entered, and the team or the player it became once
-- confirmed (pair_id stays the pair's).
ALTER TABLE online_entries ADD COLUMN team_name TEXT NOT NULL DEFAULT '';
ALTER TABLE online_entries ADD COLUMN team_id BIGINT;
ALTER TABLE online_entries ADD COLUMN player_id BIGINT;
