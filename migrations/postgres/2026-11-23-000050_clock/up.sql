-- The round clock can be paused (RULES.md §6): when the current pause began
-- and the seconds of the pauses that are over; the time left is computed
-- from these and started_at.
ALTER TABLE rounds ADD COLUMN paused_at TIMESTAMPTZ;
ALTER TABLE rounds ADD COLUMN paused_seconds INTEGER NOT NULL DEFAULT 0;
