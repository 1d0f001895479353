DROP TABLE user_audit;
DROP TABLE tournament_staff;
ALTER TABLE tournaments DROP COLUMN revision;
