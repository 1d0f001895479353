-- Entries as directors count them (RULES.md §10): a registration marked
-- no-show (by the director before the start, or by the start itself for a
-- pair not checked in or withdrawn) never played and is not an entry.
ALTER TABLE pairs ADD COLUMN no_show BOOLEAN NOT NULL DEFAULT FALSE;
