-- Seasons (issue 24): players as people, circuits of tournaments.
-- A person of the player directory: who a registration's seat is across
-- tournaments (RULES.md §11). `card` is the normalised federation card
-- (NULL without one), `name_key` the normalised "surname name". A person
-- merged into another keeps its row with `merged_into` set (the merge can
-- be split again); every reader follows it to the person that stays.
CREATE TABLE people (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    surname TEXT NOT NULL,
    name TEXT NOT NULL,
    card TEXT,
    name_key TEXT NOT NULL,
    merged_into BIGINT REFERENCES people (id),
    merged_by BIGINT REFERENCES users (id) ON DELETE SET NULL,
    merged_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX people_card ON people (card);
CREATE INDEX people_name_key ON people (name_key);
CREATE INDEX people_merged_into ON people (merged_into);
-- Every merge and split of the directory, on the record: who, when, which
-- two people (`action`: merge or split).
CREATE TABLE people_audit (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    action TEXT NOT NULL,
    kept_id BIGINT NOT NULL REFERENCES people (id),
    other_id BIGINT NOT NULL REFERENCES people (id),
    user_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    at TIMESTAMP NOT NULL
);
-- Each seat of a registration points at its person (set when the pair is
-- registered or edited; rows older than this migration are linked when the
-- server starts).
ALTER TABLE pairs ADD COLUMN p1_person_id BIGINT REFERENCES people (id);
ALTER TABLE pairs ADD COLUMN p2_person_id BIGINT REFERENCES people (id);
CREATE INDEX pairs_p1_person ON pairs (p1_person_id);
CREATE INDEX pairs_p2_person ON pairs (p2_person_id);
-- A circuit: its settings as the circuit@1 document (FORMAT.md), checked by
-- the core on every write and read. `revision` goes up with every change of
-- the circuit itself.
CREATE TABLE circuits (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    owner_id BIGINT REFERENCES users (id) ON DELETE SET NULL,
    spec TEXT NOT NULL,
    revision BIGINT NOT NULL DEFAULT 1,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
-- Its stages, in order (1, 2, 3…).
CREATE TABLE circuit_stages (
    circuit_id BIGINT NOT NULL REFERENCES circuits (id) ON DELETE CASCADE,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    PRIMARY KEY (circuit_id, tournament_id)
);
CREATE INDEX circuit_stages_tournament ON circuit_stages (tournament_id);
