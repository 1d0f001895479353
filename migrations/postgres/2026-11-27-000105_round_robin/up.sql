-- A team tournament's rounds are round robin or Danish (issue 25): the
-- movement's CHECK takes `round_robin`.
ALTER TABLE rounds DROP CONSTRAINT rounds_movement_check;
ALTER TABLE rounds ADD CONSTRAINT rounds_movement_check
    CHECK (movement IN ('mitchell', 'danish', 'danish_modified', 'round_robin'));
