//! Table-side scoring: a pair enters its table's sheet from a phone (the
//! table code names the table, the pair code is the credential), the other
//! pair confirms it or disputes it with a note. Only a confirmed sheet
//! counts: confirming writes it into `sheets` (what the standings and the
//! exports read) in the same transaction. The desk can always enter,
//! confirm or override (`services::scoring`, [`desk_confirm`]).
//!
//! Every answer has a fixed precedence (issue 13's interface): an unknown
//! table code (404 [`Refusal::TableNotFound`](crate::services::Refusal::TableNotFound)), then the brake on pair
//! codes (429 [`ServiceError::Throttled`]), then a wrong pair code (403
//! [`Refusal::PairCodeWrong`](crate::services::Refusal::PairCodeWrong)), then a round that is over (409
//! [`Refusal::RoundClosed`](crate::services::Refusal::RoundClosed)), then the rest. Every pair code typed at a table is counted per (table code,
//! client address) by the one limiter (`services::brakes`): nothing is
//! answered before the brake's verdict, a wrong code takes an attempt and
//! a right one checks that one is left (`seat::with_seat`), both locking
//! the bucket, so that a burst of guesses gets at most the allowance
//! answered.

use super::{Loaded, ServiceError};
use crate::db::table_side as tsdb;
use crate::db::DbConn;
use crate::rules::Line;
use crate::services::view::Pair;
use crate::services::view::{Round, Seating};
pub use crate::tournament::codes::{PairCode, TableCode};
use crate::tournament::Status;

pub mod judge;
pub mod seat;
pub mod submit;
pub mod view;

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
    tid: crate::ids::TournamentId,
    rounds: &[Round],
    table_no: i32,
) -> Result<Vec<(Round, Seating)>, ServiceError> {
    Ok(tsdb::seatings_of_table(c, tid, table_no)?
        .into_iter()
        .filter_map(|(n, s)| {
            let r = rounds.iter().find(|r| r.number == n)?;
            Some((r.clone(), Seating::from(&s)))
        })
        .collect())
}

/// A tournament's state as one table needs it: its settings, status and
/// rounds (as the caller read them: not read twice), and of its pairs only
/// the two of `seating` (in a team tournament with their teams). A
/// table-side request reads this rather than the whole field: 300 tables
/// at once each read 2 pairs, not 600.
pub(super) fn load_for_table(
    c: &mut DbConn,
    t: crate::db::tournaments::TournamentRow,
    rounds: Vec<crate::db::rounds::RoundRow>,
    seating: &Seating,
) -> Result<Loaded, ServiceError> {
    let ids: Vec<crate::ids::PairId> = [seating.ns_pair, seating.ew_pair]
        .into_iter()
        .flatten()
        .collect();
    let pairs = crate::db::pairs::pairs_by_ids(c, t.id, &ids)?;
    let teams = if t.kind == crate::tournament_file::FileKind::Teams {
        crate::db::teams::list_teams(c, t.id)?
    } else {
        Vec::new()
    };
    let online = crate::db::online_entries::switches(c, t.id)?;
    Loaded::of(&super::Rows {
        t,
        pairs,
        rounds,
        teams,
        online,
    })
}

/// The round is over: a later round exists, or the tournament is closed.
pub(super) fn round_over(l: &Loaded, round: &Round) -> bool {
    l.status() == Status::Finished || l.rounds.iter().any(|r| r.number > round.number)
}
