-- One limiter for every door (db::rate_limits): a token bucket per action
-- and hashed target (SHA-256 of the account and client address, of the
-- address alone, of the table code and address; never what the client
-- sent). An attempt is taken from its bucket by one INSERT ... ON CONFLICT
-- DO UPDATE ... RETURNING before the password or code is looked at.
-- Instants are milliseconds since 1970 (integer arithmetic on both backends).
CREATE TABLE rate_limits (
    action TEXT NOT NULL,
    key TEXT NOT NULL,
    -- Attempts left after the last one taken.
    tokens BIGINT NOT NULL,
    -- When `tokens` was last refilled (whole refill intervals only).
    refilled_at BIGINT NOT NULL,
    -- Whether the last attempt was granted (1) or refused (0).
    granted INTEGER NOT NULL,
    -- When the bucket is full again: the row may go from then on.
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (action, key)
);
CREATE INDEX rate_limits_expires ON rate_limits (expires_at);

-- The brakes they replace (counted after the check, so a burst passed them).
DROP TABLE login_throttle;
DROP TABLE score_throttle;
