-- Results the hall can trust (issue 21).
-- How the tables enter their sheets (and the desk's default): `full` or
-- `totals` (hand totals only).
ALTER TABLE tournaments ADD COLUMN sheet_mode TEXT NOT NULL DEFAULT 'full';
-- The first answer to each submission from a table (a phone that resends
-- after losing the network gets that answer again; nothing is stored
-- twice). `key` is the SHA-256 of the scope and the client's key; `answer`
-- the JSON of the first answer. Kept for a day.
CREATE TABLE idempotency_keys (
    key TEXT PRIMARY KEY NOT NULL,
    answer TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
