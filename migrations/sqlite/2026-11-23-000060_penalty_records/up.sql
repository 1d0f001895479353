-- Penalties on the record (RULES.md §9): why a penalty was withdrawn, and
-- who reinstated it, when and why (the audit log keeps every step; these
-- columns let the penalty list say its state without reading the log).
ALTER TABLE penalties ADD COLUMN withdrawn_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE penalties ADD COLUMN reinstated_by BIGINT REFERENCES users (id);
ALTER TABLE penalties ADD COLUMN reinstated_at TIMESTAMP;
ALTER TABLE penalties ADD COLUMN reinstated_reason TEXT NOT NULL DEFAULT '';
