// One schema for both backends: only types that SQLite and PostgreSQL share
// (BigInt, Text, Bool, Timestamp). Money is BigInt cents, timestamps are UTC.

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

diesel::joinable!(sessions -> users (user_id));
diesel::allow_tables_to_appear_in_same_query!(users, sessions, app_settings);
