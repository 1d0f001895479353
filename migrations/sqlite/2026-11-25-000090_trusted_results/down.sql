DROP TABLE idempotency_keys;
ALTER TABLE tournaments DROP COLUMN sheet_mode;
