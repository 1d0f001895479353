ALTER TABLE online_entries DROP COLUMN player_id;
ALTER TABLE online_entries DROP COLUMN team_id;
ALTER TABLE online_entries DROP COLUMN team_name;
