DROP TABLE individual_byes;
DROP INDEX pairs_individual;
ALTER TABLE pairs DROP COLUMN ind_p2;
ALTER TABLE pairs DROP COLUMN ind_p1;
DELETE FROM rounds WHERE movement = 'draw';
ALTER TABLE rounds DROP CONSTRAINT rounds_movement_check;
ALTER TABLE rounds ADD CONSTRAINT rounds_movement_check
    CHECK (movement IN ('mitchell', 'danish', 'danish_modified', 'danish_groups', 'danish_groups_modified', 'round_robin'));
