DELETE FROM rounds WHERE movement IN ('danish_groups', 'danish_groups_modified');
ALTER TABLE rounds DROP CONSTRAINT rounds_movement_check;
ALTER TABLE rounds ADD CONSTRAINT rounds_movement_check
    CHECK (movement IN ('mitchell', 'danish', 'danish_modified', 'round_robin'));
