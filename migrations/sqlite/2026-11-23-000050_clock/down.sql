ALTER TABLE rounds DROP COLUMN paused_seconds;
ALTER TABLE rounds DROP COLUMN paused_at;
