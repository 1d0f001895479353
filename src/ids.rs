//! Newtype ids (Lemmy's habit): a tournament's id cannot be handed where a
//! pair's, a circuit's or a user's is wanted. Stored as `BIGINT` through
//! `diesel-derive-newtype` (the same column type on both backends: no
//! hand-written `ToSql`/`FromSql`), read from paths and JSON as the plain
//! number (`serde(transparent)`), shown as the number.

macro_rules! id_type {
    ($(#[$meta:meta])* $name:ident) => {
        $(#[$meta])*
        #[derive(
            Debug,
            Clone,
            Copy,
            PartialEq,
            Eq,
            Hash,
            Default,
            PartialOrd,
            Ord,
            serde::Serialize,
            serde::Deserialize,
            diesel_derive_newtype::DieselNewType,
            utoipa::ToSchema,
        )]
        #[serde(transparent)]
        pub struct $name(pub i64);

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }

        impl std::str::FromStr for $name {
            type Err = std::num::ParseIntError;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                s.parse().map($name)
            }
        }
    };
}

id_type!(
    /// A tournament (`tournaments.id`).
    TournamentId
);

id_type!(
    /// A registered pair (`pairs.id`; not its number in the tournament).
    PairId
);

id_type!(
    /// A team of a team tournament (`teams.id`; not its number).
    TeamId
);

id_type!(
    /// A staff account (`users.id`).
    UserId
);

id_type!(
    /// A circuit (`circuits.id`).
    CircuitId
);

id_type!(
    /// A person of the player directory (`people.id`).
    PersonId
);

id_type!(
    /// A round of a tournament (`rounds.id`; not its number).
    RoundId
);

id_type!(
    /// A table of a round (`seatings.id`): a sheet and its entries hang on it.
    SeatingId
);

id_type!(
    /// A penalty on the record (`penalties.id`).
    PenaltyId
);

id_type!(
    /// A personal API token (`api_tokens.id`; never the secret).
    TokenId
);

id_type!(
    /// A player of an individual tournament (`individual_players.id`; not
    /// its number).
    IndividualPlayerId
);
