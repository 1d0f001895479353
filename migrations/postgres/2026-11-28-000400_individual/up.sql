-- Individual tournaments (issue 35; RULES.md §14). A tournament's kind
-- (`tournaments.kind`, free text read as the core's FileKind) may now be
-- `individual`: its entrants are players alone.
-- A registered player: its number, names, card and club (linked to the
-- player directory as a pair's players are), its personal code (the
-- player's credential at the tables, given at the start) and the same
-- entry marks as a pair.
CREATE TABLE individual_players (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    surname TEXT NOT NULL,
    name TEXT NOT NULL,
    card TEXT NOT NULL DEFAULT '',
    club TEXT NOT NULL DEFAULT '',
    person_id BIGINT REFERENCES people (id),
    code TEXT,
    checked_in BOOLEAN NOT NULL DEFAULT FALSE,
    withdrawn_from_round INTEGER,
    no_show BOOLEAN NOT NULL DEFAULT FALSE,
    created_at TIMESTAMPTZ NOT NULL,
    UNIQUE (tournament_id, number)
);
CREATE UNIQUE INDEX individual_players_code ON individual_players (tournament_id, code);
CREATE INDEX individual_players_person ON individual_players (person_id);
