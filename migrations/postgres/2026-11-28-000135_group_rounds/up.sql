-- Rounds in groups (RULES.md §13): the movement's CHECK takes
-- `danish_groups` and `danish_groups_modified`.
ALTER TABLE rounds DROP CONSTRAINT rounds_movement_check;
ALTER TABLE rounds ADD CONSTRAINT rounds_movement_check
    CHECK (movement IN ('mitchell', 'danish', 'danish_modified', 'danish_groups', 'danish_groups_modified', 'round_robin'));
