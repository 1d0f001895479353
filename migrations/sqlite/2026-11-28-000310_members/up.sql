-- The member list (issue 36, RULES.md §15): one row per card (stored
-- trimmed and upper case), its holder, the last day it is valid and its
-- type when known (ordinaria, ridotta, juniores; '' unknown).
CREATE TABLE members (
    card TEXT PRIMARY KEY,
    surname TEXT NOT NULL,
    name TEXT NOT NULL,
    valid_until TEXT NOT NULL,
    card_type TEXT NOT NULL DEFAULT '',
    updated_at TIMESTAMP NOT NULL
);
