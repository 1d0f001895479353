-- The brake on password guessing, shared by every instance: one row per
-- hashed key (SHA-256 of the account and client address, or of the address
-- alone; never what the client sent). Rows expire and are capped in number.
CREATE TABLE login_throttle (
    key TEXT PRIMARY KEY NOT NULL,
    failures INTEGER NOT NULL,
    last_failure_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX login_throttle_last_failure ON login_throttle (last_failure_at);
