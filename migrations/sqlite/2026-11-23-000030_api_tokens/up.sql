-- Personal API tokens (SQLite): a staff member's credential for
-- `Authorization: Bearer …`. Only the SHA-256 of the token is kept (the
-- token itself is shown once); revoking deletes the row, the account audit
-- keeps the record. `last_used_at` is refreshed at most once a minute.
CREATE TABLE api_tokens (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    label TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created_at TIMESTAMP NOT NULL,
    last_used_at TIMESTAMP
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);
