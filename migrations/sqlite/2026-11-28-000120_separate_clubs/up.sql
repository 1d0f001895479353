-- Club separation in the first draw (RULES.md §13): pairs of one club on
-- the same line of the Mitchell. Off for every tournament made before.
ALTER TABLE tournaments ADD COLUMN separate_clubs BOOLEAN NOT NULL DEFAULT 0;
