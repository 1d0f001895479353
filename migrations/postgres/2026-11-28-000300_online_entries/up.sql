-- Entries online (issue 36). A tournament's switches beside its settings
-- (the tournaments table is at its column limit): entries online on or
-- off, the capacity (NULL: no limit), when entries close (UTC; NULL: at
-- the start) and whether cards are checked against the member list.
CREATE TABLE tournament_online (
    tournament_id BIGINT PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
    online_entries BOOLEAN NOT NULL DEFAULT FALSE,
    capacity BIGINT,
    entries_close_at TIMESTAMPTZ,
    member_check BOOLEAN NOT NULL DEFAULT FALSE
);
-- One entry from the public form: its private token, its state
-- (confirmed, waiting, withdrawn, refused, closed), its place in the
-- queue (arrival order, changed by the director's reordering), the pair
-- it became once confirmed, its players (JSON) and how to reach it.
CREATE TABLE online_entries (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    token TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL,
    queue BIGINT NOT NULL,
    pair_id BIGINT,
    players TEXT NOT NULL,
    email TEXT NOT NULL DEFAULT '',
    phone TEXT NOT NULL DEFAULT '',
    created_at TIMESTAMPTZ NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX online_entries_by_tournament ON online_entries (tournament_id, status, queue);
