DROP TABLE circuit_stages;
DROP TABLE circuits;
DROP INDEX pairs_p2_person;
DROP INDEX pairs_p1_person;
ALTER TABLE pairs DROP COLUMN p2_person_id;
ALTER TABLE pairs DROP COLUMN p1_person_id;
DROP TABLE people_audit;
DROP TABLE people;
