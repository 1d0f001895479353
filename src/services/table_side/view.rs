//! A table as its players see it: the round it plays, the two pairs, the entry and what the engine computes of it, where each pair plays next.

use super::{load_for_table, round_over, table_history, TableCode, TableStatus};
use crate::db::scoring as sdb;
use crate::db::table_side as tsdb;
use crate::db::tournaments as tdb;
use crate::db::types::{EntrySide, EntryStatus};
use crate::db::{Db, DbConn};
use crate::ids::PairId;
use crate::rules::{Line, ScoreSheet, SheetReport};
use crate::services::entries::{check, parse_stored};
use crate::services::{Loaded, Refusal, ServiceError};

/// A pair at a table, as its players read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatedPair {
    pub id: PairId,
    pub number: i32,
    /// "Rossi Maria – Bianchi Luca".
    pub names: String,
}

impl SeatedPair {
    fn of(p: &crate::services::view::Pair) -> SeatedPair {
        SeatedPair {
            id: p.id,
            number: p.number,
            names: p.names(),
        }
    }
}

/// A table as its players see it: the round it plays, the two pairs, and
/// the sheet entered or counted, with what the engine computes of it.
#[derive(Debug, Clone)]
pub struct TableView {
    pub l: Loaded,
    pub code: String,
    pub round: i32,
    pub table_no: i32,
    pub ns: Option<SeatedPair>,
    pub ew: Option<SeatedPair>,
    pub status: TableStatus,
    /// `ns`, `ew` or `desk`.
    pub entered_by: Option<EntrySide>,
    pub sheet: Option<ScoreSheet>,
    /// The engine's report on `sheet` (totals, VP, violations).
    pub report: Option<SheetReport>,
    /// The dispute's note.
    pub note: String,
    /// An adjusted score set at the desk (NS VP, EW VP).
    pub adjusted: Option<(i32, i32)>,
    /// The version of the entry shown (issue 21): a confirmation names it,
    /// so that only the entry the confirming pair saw can count. `None`
    /// when nothing is entered.
    pub entry_version: Option<i32>,
    /// Time-out was called in this round (an end of hand by time-out is
    /// possible only then).
    pub time_out_called: bool,
    /// The next round, once drawn, and where each pair of this table plays
    /// in it.
    pub next_round: Option<i32>,
    pub next: Vec<NextSeat>,
}

/// Where a pair of the table plays in the next round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NextSeat {
    pub pair: i32,
    /// The table and the line, or `None` when the pair rests (or no longer
    /// plays).
    pub seat: Option<(i32, Line)>,
}

impl TableView {
    pub fn table_entry(&self) -> bool {
        self.l.settings.table_entry
    }
}

/// The table's state on `c`: in round `round` when given (a pair's page
/// after its result counts stays on its round, to show where it plays
/// next), else the round of its last seating.
pub(super) fn view_on(
    c: &mut DbConn,
    code: &TableCode,
    round: Option<i32>,
) -> Result<TableView, ServiceError> {
    let (tid, table_no) =
        tsdb::find_table(c, code.as_str())?.ok_or(ServiceError::refused(Refusal::TableNotFound))?;
    let t = tdb::find(c, tid)?.ok_or(ServiceError::refused(Refusal::TableNotFound))?;
    let round_rows = crate::db::rounds::list_rounds(c, tid)?;
    let rounds = crate::services::view::rounds(&round_rows)?;
    let history = table_history(c, tid, &rounds, table_no)?;
    let chosen = round
        .and_then(|n| history.iter().find(|(r, _)| r.number == n))
        .or(history.last());
    let Some((round, seating)) = chosen.cloned() else {
        // A code made for a table that has not played yet.
        return Err(ServiceError::refused(Refusal::TableNotFound));
    };
    let l = load_for_table(c, t, round_rows, &seating)?;
    let counted = sdb::sheet_for(c, seating.id)?;
    let entry = tsdb::entry_for(c, seating.id)?;
    let mut v = TableView {
        ns: l.pair(seating.ns_pair).map(SeatedPair::of),
        ew: l.pair(seating.ew_pair).map(SeatedPair::of),
        code: code.to_string(),
        round: round.number,
        table_no,
        status: TableStatus::Open,
        entered_by: None,
        sheet: None,
        report: None,
        note: String::new(),
        adjusted: None,
        entry_version: entry
            .as_ref()
            .filter(|e| e.sheet.is_some())
            .map(|e| e.version),
        time_out_called: round.time_out_at.is_some(),
        next_round: None,
        next: Vec::new(),
        l,
    };
    if let Some(next) = v.l.round(round.number + 1) {
        let (tables, _) = crate::db::rounds::seating_of(c, next.id)?;
        v.next_round = Some(next.number);
        v.next = [&v.ns, &v.ew]
            .into_iter()
            .flatten()
            .map(|p| NextSeat {
                pair: p.number,
                seat: tables.iter().find_map(|s| {
                    if s.ns_pair == Some(p.id) {
                        Some((s.table_no, Line::Ns))
                    } else if s.ew_pair == Some(p.id) {
                        Some((s.table_no, Line::Ew))
                    } else {
                        None
                    }
                }),
            })
            .collect();
    }
    if let Some(row) = &counted {
        v.status = TableStatus::Confirmed;
        v.entered_by = Some(match &entry {
            Some(e) if e.status == EntryStatus::Confirmed => e.entered_by,
            _ => EntrySide::Desk,
        });
        v.sheet = row.score_sheet()?;
        if row.is_adjusted() {
            v.adjusted = Some((row.ns_vp, row.ew_vp));
        }
    } else if let Some(e) = &entry {
        v.status = if e.status == EntryStatus::Disputed {
            TableStatus::Disputed
        } else {
            TableStatus::Entered
        };
        v.entered_by = Some(e.entered_by);
        v.sheet = parse_stored(e.sheet.as_deref(), &format!("entry {}", e.seating_id))?;
        v.note = e.note.clone();
    }
    v.report = v.sheet.as_ref().map(|s| check(&v.l, s));
    if round_over(&v.l, &round) {
        v.status = TableStatus::Closed;
    }
    Ok(v)
}

/// What the player's page and `GET /api/v1/score/{code}` show.
pub async fn table_view(db: &Db, code: TableCode) -> Result<TableView, ServiceError> {
    table_view_of(db, code, None).await
}

/// The table in a given round (its latest when `round` is `None` or not
/// one of the table's rounds).
pub async fn table_view_of(
    db: &Db,
    code: TableCode,
    round: Option<i32>,
) -> Result<TableView, ServiceError> {
    db.read(move |c| view_on(c, &code, round)).await
}
