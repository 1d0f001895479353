-- Entries online for team tournaments (issue 36): the team's name as
-- entered, and the team it became once confirmed (pair_id stays the
-- pair's).
ALTER TABLE online_entries ADD COLUMN team_name TEXT NOT NULL DEFAULT '';
ALTER TABLE online_entries ADD COLUMN team_id BIGINT;
