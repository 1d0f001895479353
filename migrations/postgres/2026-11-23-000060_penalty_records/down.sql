ALTER TABLE penalties DROP COLUMN reinstated_reason;
ALTER TABLE penalties DROP COLUMN reinstated_at;
ALTER TABLE penalties DROP COLUMN reinstated_by;
ALTER TABLE penalties DROP COLUMN withdrawn_reason;
