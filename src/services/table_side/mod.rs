//! Table-side scoring: a pair enters its table's sheet from a phone (the
//! table code names the table, the pair code is the credential), the other
//! pair confirms it or disputes it with a note. Only a confirmed sheet
//! counts: confirming writes it into `sheets` (what the standings and the
//! exports read) in the same transaction. The desk can always enter,
//! confirm or override (`services::scoring`, [`desk_confirm`]).
//!
//! Every answer has a fixed precedence (issue 13's interface): an unknown
//! table code (404), then the brake on pair codes (429), then a wrong pair
//! code (403), then a round that is over (409 `round_closed`), then the
//! rest. Every pair code typed at a table is counted per (table code,
//! client address) by the one limiter (`services::brakes`), in a write of
//! its own that commits before the code is looked at, so that a burst of
//! guesses gets at most the allowance checked.

use super::{Loaded, ServiceError};
use crate::db::table_side::{self as tsdb};
use crate::db::{DbConn, DbError};
use crate::rules::api::InputError;
use crate::rules::{Line, SheetReport};
use crate::services::view::Pair;
use crate::services::view::{Round, Seating};
use crate::tournament::{FieldProblem, Status};

pub mod judge;
pub mod seat;
pub mod submit;
pub mod view;

/// Why a table-side request is refused.
#[derive(Debug, thiserror::Error)]
pub enum TableSideError {
    /// No table has this code (404).
    #[error("no such table")]
    NotFound,
    /// A code of neither pair at this table (403 `pair_code_wrong`).
    #[error("wrong pair code")]
    WrongCode,
    /// The pair that entered the sheet cannot confirm it (403 `same_pair`).
    #[error("the entering pair cannot confirm")]
    SamePair,
    /// Too many wrong codes from this address at this table (429).
    #[error("too many wrong codes")]
    Throttled { wait_seconds: u64 },
    /// Cannot happen now (409); `EntryChanged`: the other pair changed the
    /// entry at the same moment (read it again).
    #[error("conflict: {}", .0.code())]
    Conflict(TableConflict),
    /// The sheet breaks a rule (422): the engine's report; nothing stored.
    #[error("the sheet breaks the rules")]
    Sheet(Box<SheetReport>),
    /// The sheet cannot be read (422, the rules API's error).
    #[error("unreadable sheet: {0}")]
    Input(InputError),
    /// A field that does not fit (the dispute's note).
    #[error("invalid input: {0:?}")]
    Invalid(Vec<FieldProblem>),
    /// A twin submission with the same idempotency key stored its answer
    /// first (internal: the caller answers with the twin's answer).
    #[error("answered already")]
    Replay,
    #[error(transparent)]
    Service(#[from] ServiceError),
}

impl From<DbError> for TableSideError {
    fn from(e: DbError) -> Self {
        TableSideError::Service(ServiceError::Db(e))
    }
}

impl From<diesel::result::Error> for TableSideError {
    fn from(e: diesel::result::Error) -> Self {
        TableSideError::Service(e.into())
    }
}

impl TableSideError {
    /// The catalog key of the message (conflicts and refusals).
    pub fn message_key(&self) -> &'static str {
        match self {
            TableSideError::NotFound => "table.error.not_found",
            TableSideError::WrongCode => "table.error.pair_code_wrong",
            TableSideError::SamePair => "table.error.same_pair",
            TableSideError::Throttled { .. } => "table.error.throttled",
            TableSideError::Conflict(c) => c.message_key(),
            TableSideError::Sheet(_) => "table.error.sheet",
            TableSideError::Input(_) | TableSideError::Invalid(_) => "error.bad_request.message",
            TableSideError::Replay | TableSideError::Service(_) => "error.internal.message",
        }
    }
}

/// Why a table-side action cannot happen now (409).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableConflict {
    /// The round is over (a later round is drawn, or the tournament closed).
    RoundClosed,
    /// The director turned table-side entry off.
    TableEntryOff,
    /// The table's sheet counts already.
    AlreadyConfirmed,
    /// There is no entry to answer.
    NothingEntered,
    /// The entry changed since it was read (confirm what you saw).
    EntryChanged,
}

impl TableConflict {
    /// The stable code (API).
    pub fn code(self) -> &'static str {
        match self {
            TableConflict::RoundClosed => "round_closed",
            TableConflict::TableEntryOff => "table_entry_off",
            TableConflict::AlreadyConfirmed => "already_confirmed",
            TableConflict::NothingEntered => "nothing_entered",
            TableConflict::EntryChanged => "entry_changed",
        }
    }

    /// The catalog key of the message.
    pub fn message_key(self) -> &'static str {
        match self {
            TableConflict::RoundClosed => "table.error.round_closed",
            TableConflict::TableEntryOff => "table.error.table_entry_off",
            TableConflict::AlreadyConfirmed => "table.error.already_confirmed",
            TableConflict::NothingEntered => "table.error.nothing_entered",
            TableConflict::EntryChanged => "table.error.entry_changed",
        }
    }
}

/// Where a table's round stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TableStatus {
    /// Nothing entered yet.
    Open,
    /// Entered by a pair, waiting for the other pair.
    Entered,
    /// Counts in the standings (confirmed by the other pair, or saved at the desk).
    Confirmed,
    /// The other pair disagrees: a referee settles it.
    Disputed,
    /// The round is over (the next round exists, or the tournament is closed).
    Closed,
}

impl TableStatus {
    pub fn code(self) -> &'static str {
        match self {
            TableStatus::Open => "open",
            TableStatus::Entered => "entered",
            TableStatus::Confirmed => "confirmed",
            TableStatus::Disputed => "disputed",
            TableStatus::Closed => "closed",
        }
    }
}

/// "Pair 7, EW": who acted, for the audit log.
pub fn who(pair: &Pair, line: Line) -> String {
    format!("pair {}, {}", pair.number, line)
}

/// The seatings of one table number, round by round.
pub(super) fn table_history(
    c: &mut DbConn,
    l: &Loaded,
    table_no: i32,
) -> Result<Vec<(Round, Seating)>, ServiceError> {
    Ok(tsdb::seatings_of_table(c, l.t.id, table_no)?
        .into_iter()
        .filter_map(|(n, s)| Some((l.round(n)?.clone(), Seating::from(&s))))
        .collect())
}

/// The round is over: a later round exists, or the tournament is closed.
pub(super) fn round_over(l: &Loaded, round: &Round) -> bool {
    l.status() == Status::Finished || l.rounds.iter().any(|r| r.number > round.number)
}

/// A code as typed: trimmed, upper case, spaces and dashes dropped.
pub fn normalize_code(code: &str) -> String {
    tsdb::normalize_code(code)
}
