DROP TABLE team_byes;
DROP INDEX pairs_team;
ALTER TABLE pairs DROP COLUMN team_p2;
ALTER TABLE pairs DROP COLUMN team_p1;
ALTER TABLE pairs DROP COLUMN team_id;
DROP TABLE team_players;
DROP TABLE teams;
DROP TABLE team_settings;
ALTER TABLE tournaments DROP COLUMN kind;
