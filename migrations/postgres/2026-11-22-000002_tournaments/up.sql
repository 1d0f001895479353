-- Tournaments, pairs, rounds and seating (PostgreSQL).
CREATE TABLE tournaments (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    starts_at TIMESTAMP NOT NULL,
    venue TEXT NOT NULL DEFAULT '',
    profile TEXT NOT NULL,
    planned_rounds INTEGER NOT NULL,
    hands_per_round INTEGER NOT NULL,
    vp_scale TEXT NOT NULL,
    minutes_per_round INTEGER NOT NULL,
    mitchell_rounds INTEGER NOT NULL,
    danish_modified BOOLEAN NOT NULL,
    mitchell_advance INTEGER NOT NULL,
    allow_repeats BOOLEAN NOT NULL,
    bye_vp INTEGER NOT NULL,
    entry_fee_cents BIGINT NOT NULL,
    prize_share_percent TEXT NOT NULL,
    guaranteed_pool_cents BIGINT NOT NULL,
    payout TEXT NOT NULL,
    suit_order TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('draft', 'running', 'finished')),
    draw_seed BIGINT,
    layout TEXT,
    created_by BIGINT REFERENCES users (id),
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL
);

CREATE TABLE pairs (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    p1_surname TEXT NOT NULL,
    p1_name TEXT NOT NULL,
    p1_card TEXT NOT NULL DEFAULT '',
    p1_club TEXT NOT NULL DEFAULT '',
    p2_surname TEXT NOT NULL,
    p2_name TEXT NOT NULL,
    p2_card TEXT NOT NULL DEFAULT '',
    p2_club TEXT NOT NULL DEFAULT '',
    checked_in BOOLEAN NOT NULL DEFAULT FALSE,
    joined_from_round INTEGER,
    withdrawn_from_round INTEGER,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (tournament_id, number)
);

CREATE TABLE rounds (
    id BIGSERIAL PRIMARY KEY,
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    movement TEXT NOT NULL CHECK (movement IN ('mitchell', 'danish', 'danish_modified')),
    started_at TIMESTAMP,
    time_out_at TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    UNIQUE (tournament_id, number)
);

CREATE TABLE seatings (
    id BIGSERIAL PRIMARY KEY,
    round_id BIGINT NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    table_no INTEGER NOT NULL,
    ns_pair BIGINT REFERENCES pairs (id),
    ew_pair BIGINT REFERENCES pairs (id),
    UNIQUE (round_id, table_no)
);

CREATE TABLE byes (
    round_id BIGINT NOT NULL REFERENCES rounds (id) ON DELETE CASCADE,
    pair_id BIGINT NOT NULL REFERENCES pairs (id),
    PRIMARY KEY (round_id, pair_id)
);
