// One schema for both backends: only types that SQLite and PostgreSQL share
// (BigInt, Text, Bool, Timestamp). Money is BigInt cents, timestamps are UTC:
// TIMESTAMPTZ on PostgreSQL (each connection's zone is UTC, so diesel's
// Timestamp binds and reads the instant unchanged), UTC text on SQLite.

diesel::table! {
    users (id) {
        id -> BigInt,
        username -> Text,
        password_hash -> Text,
        role -> Text,
        active -> Bool,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    sessions (id) {
        id -> Text,
        user_id -> BigInt,
        created_at -> Timestamp,
        last_seen_at -> Timestamp,
    }
}

diesel::table! {
    app_settings (key) {
        key -> Text,
        value -> Text,
    }
}

diesel::table! {
    tournaments (id) {
        id -> BigInt,
        name -> Text,
        starts_at -> Timestamp,
        venue -> Text,
        profile -> Text,
        planned_rounds -> Integer,
        hands_per_round -> Integer,
        vp_scale -> Text,
        minutes_per_round -> Integer,
        mitchell_rounds -> Integer,
        danish_modified -> Bool,
        mitchell_advance -> Integer,
        allow_repeats -> Bool,
        bye_vp -> Integer,
        entry_fee_cents -> BigInt,
        prize_share_percent -> Text,
        guaranteed_pool_cents -> BigInt,
        payout -> Text,
        suit_order -> Text,
        status -> Text,
        draw_seed -> Nullable<BigInt>,
        layout -> Nullable<Text>,
        created_by -> Nullable<BigInt>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        revision -> BigInt,
        table_entry -> Bool,
        sheet_mode -> Text,
        kind -> Text,
        separate_clubs -> Bool,
        groups -> Text,
        level -> Text,
    }
}

diesel::table! {
    idempotency_keys (key) {
        key -> Text,
        answer -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    tournament_staff (tournament_id, user_id) {
        tournament_id -> BigInt,
        user_id -> BigInt,
        role -> Text,
        added_by -> Nullable<BigInt>,
        added_at -> Timestamp,
    }
}

diesel::table! {
    user_audit (id) {
        id -> BigInt,
        subject_id -> Nullable<BigInt>,
        action -> Text,
        before_value -> Nullable<Text>,
        after_value -> Nullable<Text>,
        user_id -> Nullable<BigInt>,
        at -> Timestamp,
    }
}

diesel::table! {
    pairs (id) {
        id -> BigInt,
        tournament_id -> BigInt,
        number -> Integer,
        p1_surname -> Text,
        p1_name -> Text,
        p1_card -> Text,
        p1_club -> Text,
        p2_surname -> Text,
        p2_name -> Text,
        p2_card -> Text,
        p2_club -> Text,
        checked_in -> Bool,
        joined_from_round -> Nullable<Integer>,
        withdrawn_from_round -> Nullable<Integer>,
        created_at -> Timestamp,
        code -> Nullable<Text>,
        no_show -> Bool,
        p1_person_id -> Nullable<BigInt>,
        p2_person_id -> Nullable<BigInt>,
        team_id -> Nullable<BigInt>,
        team_p1 -> Nullable<Integer>,
        team_p2 -> Nullable<Integer>,
        group_label -> Nullable<Text>,
        ind_p1 -> Nullable<BigInt>,
        ind_p2 -> Nullable<BigInt>,
    }
}

diesel::table! {
    rounds (id) {
        id -> BigInt,
        tournament_id -> BigInt,
        number -> Integer,
        movement -> Text,
        started_at -> Nullable<Timestamp>,
        time_out_at -> Nullable<Timestamp>,
        created_at -> Timestamp,
        paused_at -> Nullable<Timestamp>,
        paused_seconds -> Integer,
    }
}

diesel::table! {
    seatings (id) {
        id -> BigInt,
        round_id -> BigInt,
        table_no -> Integer,
        ns_pair -> Nullable<BigInt>,
        ew_pair -> Nullable<BigInt>,
    }
}

diesel::table! {
    byes (round_id, pair_id) {
        round_id -> BigInt,
        pair_id -> BigInt,
    }
}

diesel::table! {
    sheets (id) {
        id -> BigInt,
        seating_id -> BigInt,
        sheet -> Nullable<Text>,
        adjusted_ns_vp -> Nullable<Integer>,
        adjusted_ew_vp -> Nullable<Integer>,
        adjusted_ns_mp_diff -> Nullable<BigInt>,
        adjusted_ew_mp_diff -> Nullable<BigInt>,
        ns_total -> BigInt,
        ew_total -> BigInt,
        ns_vp -> Integer,
        ew_vp -> Integer,
        accepted_mismatch -> Bool,
        note -> Text,
        version -> Integer,
        updated_by -> Nullable<BigInt>,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    penalties (id) {
        id -> BigInt,
        tournament_id -> BigInt,
        round_no -> Integer,
        pair_id -> BigInt,
        table_no -> Nullable<Integer>,
        kind -> Text,
        amount -> Nullable<BigInt>,
        reason -> Text,
        given_by -> Nullable<BigInt>,
        given_at -> Timestamp,
        withdrawn_by -> Nullable<BigInt>,
        withdrawn_at -> Nullable<Timestamp>,
        withdrawn_reason -> Text,
        reinstated_by -> Nullable<BigInt>,
        reinstated_at -> Nullable<Timestamp>,
        reinstated_reason -> Text,
    }
}

diesel::table! {
    audit_log (id) {
        id -> BigInt,
        tournament_id -> BigInt,
        round_no -> Nullable<Integer>,
        table_no -> Nullable<Integer>,
        action -> Text,
        before_value -> Nullable<Text>,
        after_value -> Nullable<Text>,
        reason -> Text,
        user_id -> Nullable<BigInt>,
        at -> Timestamp,
    }
}

diesel::table! {
    api_tokens (id) {
        id -> BigInt,
        user_id -> BigInt,
        label -> Text,
        token_hash -> Text,
        created_at -> Timestamp,
        last_used_at -> Nullable<Timestamp>,
    }
}

diesel::joinable!(sessions -> users (user_id));
diesel::joinable!(api_tokens -> users (user_id));
diesel::joinable!(tournament_staff -> users (user_id));
diesel::joinable!(sheets -> seatings (seating_id));
diesel::joinable!(penalties -> pairs (pair_id));
diesel::joinable!(audit_log -> users (user_id));
diesel::joinable!(pairs -> tournaments (tournament_id));
diesel::joinable!(rounds -> tournaments (tournament_id));
diesel::joinable!(seatings -> rounds (round_id));
diesel::joinable!(byes -> rounds (round_id));
diesel::joinable!(byes -> pairs (pair_id));
diesel::allow_tables_to_appear_in_same_query!(
    users,
    individual_players,
    individual_byes,
    individual_penalties,
    sessions,
    api_tokens,
    app_settings,
    tournaments,
    pairs,
    rounds,
    seatings,
    byes,
    sheets,
    penalties,
    audit_log,
    tournament_staff,
    user_audit,
    table_codes,
    sheet_entries,
    people,
    people_audit,
    circuits,
    circuit_stages,
    teams,
    team_players,
    team_byes,
    team_settings
);

diesel::table! {
    /// One limiter for every door (`db::rate_limits`): a token bucket per
    /// action and hashed target; instants in milliseconds since 1970.
    rate_limits (action, key) {
        action -> Text,
        key -> Text,
        tokens -> BigInt,
        refilled_at -> BigInt,
        granted -> Integer,
        expires_at -> BigInt,
    }
}

diesel::table! {
    table_codes (code) {
        code -> Text,
        tournament_id -> BigInt,
        table_no -> Integer,
        created_at -> Timestamp,
    }
}

diesel::table! {
    sheet_entries (seating_id) {
        seating_id -> BigInt,
        status -> Text,
        entered_by -> Text,
        sheet -> Nullable<Text>,
        note -> Text,
        version -> Integer,
        entered_at -> Timestamp,
        decided_by -> Nullable<Text>,
        decided_at -> Nullable<Timestamp>,
    }
}

diesel::joinable!(sheet_entries -> seatings (seating_id));
diesel::joinable!(table_codes -> tournaments (tournament_id));

diesel::table! {
    /// The player directory's people (issue 24): who a seat is across
    /// tournaments; `merged_into` is followed to the person that stays.
    people (id) {
        id -> BigInt,
        surname -> Text,
        name -> Text,
        card -> Nullable<Text>,
        name_key -> Text,
        merged_into -> Nullable<BigInt>,
        merged_by -> Nullable<BigInt>,
        merged_at -> Nullable<Timestamp>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// Every merge and split of the directory's people.
    people_audit (id) {
        id -> BigInt,
        action -> Text,
        kept_id -> BigInt,
        other_id -> BigInt,
        user_id -> Nullable<BigInt>,
        at -> Timestamp,
    }
}

diesel::table! {
    /// A circuit (RULES.md §11): its settings as the circuit@1 document.
    circuits (id) {
        id -> BigInt,
        owner_id -> Nullable<BigInt>,
        spec -> Text,
        revision -> BigInt,
        created_at -> Timestamp,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    circuit_stages (circuit_id, tournament_id) {
        circuit_id -> BigInt,
        tournament_id -> BigInt,
        position -> Integer,
    }
}

diesel::joinable!(circuit_stages -> circuits (circuit_id));
diesel::joinable!(circuit_stages -> tournaments (tournament_id));

diesel::table! {
    /// A team of a team tournament (issue 25; RULES.md §12).
    teams (id) {
        id -> BigInt,
        tournament_id -> BigInt,
        number -> Integer,
        name -> Text,
        code -> Nullable<Text>,
        group_name -> Nullable<Text>,
        checked_in -> Bool,
        withdrawn_from_round -> Nullable<Integer>,
        no_show -> Bool,
        created_at -> Timestamp,
    }
}

diesel::table! {
    /// A team tournament's settings beside the pairs' ones.
    team_settings (tournament_id) {
        tournament_id -> BigInt,
        team_scoring -> Text,
        team_bye_vp -> Nullable<Integer>,
        team_groups -> Integer,
        round_robin_rounds -> Nullable<Integer>,
    }
}

diesel::table! {
    /// A team's players by position (0-based).
    team_players (team_id, position) {
        team_id -> BigInt,
        position -> Integer,
        surname -> Text,
        name -> Text,
        card -> Text,
        club -> Text,
        person_id -> Nullable<BigInt>,
    }
}

diesel::table! {
    /// The teams resting in a round.
    team_byes (round_id, team_id) {
        round_id -> BigInt,
        team_id -> BigInt,
    }
}

diesel::table! {
    /// A tournament's switches for entries online (issue 36).
    tournament_online (tournament_id) {
        tournament_id -> BigInt,
        online_entries -> Bool,
        capacity -> Nullable<BigInt>,
        entries_close_at -> Nullable<Timestamp>,
        member_check -> Bool,
    }
}

diesel::table! {
    /// Entries from the public form (issue 36).
    online_entries (id) {
        id -> BigInt,
        tournament_id -> BigInt,
        token -> Text,
        status -> Text,
        queue -> BigInt,
        pair_id -> Nullable<BigInt>,
        players -> Text,
        email -> Text,
        phone -> Text,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        team_name -> Text,
        team_id -> Nullable<BigInt>,
        player_id -> Nullable<BigInt>,
    }
}

diesel::table! {
    /// The member list (issue 36): valid_until as `YYYY-MM-DD`.
    members (card) {
        card -> Text,
        surname -> Text,
        name -> Text,
        valid_until -> Text,
        card_type -> Text,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    /// The entries' e-mails waiting for the mail server (issue 36).
    mail_outbox (id) {
        id -> BigInt,
        tournament_id -> BigInt,
        email -> Text,
        token -> Text,
        kind -> Text,
        tournament_name -> Text,
        tries -> Integer,
        next_try_at -> Timestamp,
        sent_at -> Nullable<Timestamp>,
        last_error -> Text,
        created_at -> Timestamp,
    }
}

diesel::joinable!(teams -> tournaments (tournament_id));
diesel::joinable!(team_settings -> tournaments (tournament_id));
diesel::joinable!(team_players -> teams (team_id));
diesel::joinable!(team_byes -> rounds (round_id));
diesel::joinable!(team_byes -> teams (team_id));
diesel::joinable!(pairs -> teams (team_id));

diesel::table! {
    /// The players of an individual tournament (issue 35).
    individual_players (id) {
        id -> BigInt,
        tournament_id -> BigInt,
        number -> Integer,
        surname -> Text,
        name -> Text,
        card -> Text,
        club -> Text,
        person_id -> Nullable<BigInt>,
        code -> Nullable<Text>,
        checked_in -> Bool,
        withdrawn_from_round -> Nullable<Integer>,
        no_show -> Bool,
        created_at -> Timestamp,
    }
}

diesel::joinable!(individual_players -> tournaments (tournament_id));

diesel::table! {
    /// The players resting in a round of an individual tournament.
    individual_byes (round_id, player_id) {
        round_id -> BigInt,
        player_id -> BigInt,
    }
}

diesel::joinable!(individual_byes -> rounds (round_id));

diesel::table! {
    /// The player a penalty of an individual tournament names.
    individual_penalties (penalty_id) {
        penalty_id -> BigInt,
        player_id -> BigInt,
    }
}

diesel::joinable!(individual_penalties -> penalties (penalty_id));
