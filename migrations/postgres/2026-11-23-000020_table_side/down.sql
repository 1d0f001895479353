DROP TABLE score_throttle;
DROP TABLE sheet_entries;
DROP TABLE table_codes;
DROP INDEX pairs_code;
ALTER TABLE pairs DROP COLUMN code;
ALTER TABLE tournaments DROP COLUMN table_entry;
