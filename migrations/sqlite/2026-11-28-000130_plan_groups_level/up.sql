-- The plan of a big field (RULES.md §13): its rounds in groups as one JSON
-- value read by the core ({"rounds": 3, "modified": true, "plan":
-- {"tables": [7, 9, 9]}, "prizes": [...]}; empty: no groups). The
-- tournament's level (§15). A pair's group once cut (NULL: no group).
ALTER TABLE tournaments ADD COLUMN groups TEXT NOT NULL DEFAULT '';
ALTER TABLE tournaments ADD COLUMN level TEXT NOT NULL DEFAULT 'club';
ALTER TABLE pairs ADD COLUMN group_label TEXT;
