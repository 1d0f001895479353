DROP TABLE rate_limits;

CREATE TABLE login_throttle (
    key TEXT PRIMARY KEY NOT NULL,
    failures INTEGER NOT NULL,
    last_failure_at TIMESTAMP NOT NULL
);
CREATE INDEX login_throttle_last_failure ON login_throttle (last_failure_at);

CREATE TABLE score_throttle (
    key TEXT PRIMARY KEY NOT NULL,
    failures INTEGER NOT NULL,
    first_failure_at TIMESTAMP NOT NULL,
    last_failure_at TIMESTAMP NOT NULL
);
CREATE INDEX score_throttle_last_failure ON score_throttle (last_failure_at);
