-- Team tournaments (issue 25; RULES.md §12). A tournament is `pairs` or
-- `teams`, chosen when it is created.
ALTER TABLE tournaments ADD COLUMN kind TEXT NOT NULL DEFAULT 'pairs';
-- A team tournament's settings beside the pairs' ones: the match scoring
-- (`team_scoring`, the team_scoring document of FORMAT.md), the team bye
-- award (NULL: the rules' default), the number of round-robin groups and
-- how many round-robin rounds come before the Danish ones (NULL: the whole
-- round robin).
CREATE TABLE team_settings (
    tournament_id BIGINT PRIMARY KEY REFERENCES tournaments (id) ON DELETE CASCADE,
    team_scoring TEXT NOT NULL DEFAULT '{"method":"tables"}',
    team_bye_vp INTEGER,
    team_groups INTEGER NOT NULL DEFAULT 1,
    round_robin_rounds INTEGER
);
-- A registered team: its number, name, private code (the captain's
-- credential for line-ups and at the tables, given at the start), its
-- round-robin group once drawn, and the same entry marks as a pair.
CREATE TABLE teams (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    name TEXT NOT NULL,
    code TEXT,
    group_name TEXT,
    checked_in BOOLEAN NOT NULL DEFAULT FALSE,
    withdrawn_from_round INTEGER,
    no_show BOOLEAN NOT NULL DEFAULT FALSE,
    created_at TIMESTAMPTZ NOT NULL,
    UNIQUE (tournament_id, number)
);
CREATE UNIQUE INDEX teams_code ON teams (tournament_id, code);
-- Its 4 to 6 players, by position (0-based, the file's player index).
CREATE TABLE team_players (
    team_id BIGINT NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    surname TEXT NOT NULL,
    name TEXT NOT NULL,
    card TEXT NOT NULL DEFAULT '',
    club TEXT NOT NULL DEFAULT '',
    person_id BIGINT REFERENCES people (id),
    PRIMARY KEY (team_id, position)
);
CREATE INDEX team_players_person ON team_players (person_id);
-- A pair of a team tournament is two players of one team sitting together
-- (positions `team_p1` < `team_p2`): the seatings, sheets and table entries
-- of a match are a pairs tournament's own. A team's line-up in a round is
-- the two of its pairs seated in that round's match.
ALTER TABLE pairs ADD COLUMN team_id BIGINT REFERENCES teams (id) ON DELETE CASCADE;
ALTER TABLE pairs ADD COLUMN team_p1 INTEGER;
ALTER TABLE pairs ADD COLUMN team_p2 INTEGER;
CREATE INDEX pairs_team ON pairs (team_id);
-- The teams resting in a round (odd numbers, per group).
CREATE TABLE team_byes (
    round_id BIGINT NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    team_id BIGINT NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    PRIMARY KEY (round_id, team_id)
);
