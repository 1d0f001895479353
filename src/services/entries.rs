//! A table's entries as the desk sees them: a pair's pending entry (the referee settles a dispute with it in view), the desk's confirmation of what it saw, a desk save that becomes the table's entry, and the codes tables and pairs type. Shared by the desk (`scoring`) and the tables (`table_side`).

use super::{Actor, Loaded, Need, ServiceError};
use crate::db::scoring::{self as sdb, SaveError, SheetWrite, TablePlace};
use crate::db::table_side::{self as tsdb, EntryRow};
use crate::db::tournaments::{self as tdb};
use crate::db::types::{EntrySide, EntryStatus};
use crate::db::{Db, DbConn};
use crate::ids::SeatingId;
use crate::ids::TournamentId;
use crate::rules::{Line, ScoreSheet, SheetReport};
use crate::services::Refusal;
use crate::tournament::Status;
use chrono::NaiveDateTime;

pub(super) fn parse_stored(
    text: Option<&str>,
    what: &str,
) -> Result<Option<ScoreSheet>, ServiceError> {
    text.map(|s| {
        serde_json::from_str::<ScoreSheet>(s)
            .map_err(|e| ServiceError::corrupt(format!("{what}: {e}")))
    })
    .transpose()
}

pub(super) fn check(l: &Loaded, sheet: &ScoreSheet) -> SheetReport {
    crate::rules::check(
        sheet,
        l.settings.profile,
        l.settings.hands_per_round as usize,
        &l.settings.vp_scale,
    )
}

// ---- the desk ----

/// A pair's entry that does not count yet (entered, or disputed), as the
/// desk reads it: the referee settles a dispute with this sheet in view.
#[derive(Debug, Clone)]
pub struct Pending {
    /// The entry's version (the desk's Confirm names it).
    pub version: i32,
    pub entered_by: Line,
    /// The other pair disputed it, with this note.
    pub disputed_by: Option<Line>,
    pub note: String,
    pub sheet: ScoreSheet,
    pub report: SheetReport,
}

/// The pending entry of a seating, if any (a desk's entry always counts).
pub fn pending_of(
    c: &mut DbConn,
    l: &Loaded,
    seating_id: SeatingId,
) -> Result<Option<Pending>, ServiceError> {
    let Some(e) = tsdb::entry_for(c, seating_id)? else {
        return Ok(None);
    };
    let (Some(entered_by), EntryStatus::Entered | EntryStatus::Disputed) =
        (e.entered_by.line(), e.status)
    else {
        return Ok(None);
    };
    let Some(sheet) = parse_stored(e.sheet.as_deref(), &format!("entry {seating_id}"))? else {
        return Ok(None);
    };
    let report = check(l, &sheet);
    Ok(Some(Pending {
        version: e.version,
        entered_by,
        disputed_by: (e.status == EntryStatus::Disputed)
            .then(|| e.decided_by.and_then(EntrySide::line))
            .flatten(),
        note: e.note,
        sheet,
        report,
    }))
}

/// Called by every save at the desk (sheet or adjusted score, inside its
/// transaction): the table's entry becomes the desk's, confirmed.
pub fn record_desk_save(
    c: &mut DbConn,
    seating_id: SeatingId,
    sheet: Option<&str>,
    now: NaiveDateTime,
) -> Result<(), ServiceError> {
    for _ in 0..3 {
        let existing = tsdb::entry_for(c, seating_id)?;
        let put = tsdb::put_entry(
            c,
            seating_id,
            existing.as_ref(),
            EntryStatus::Confirmed,
            EntrySide::Desk,
            sheet,
            true,
            now,
        )?;
        if let Some(v) = put {
            tsdb::decide(
                c,
                seating_id,
                v,
                EntryStatus::Confirmed,
                EntrySide::Desk,
                "",
                now,
            )?;
            return Ok(());
        }
    }
    Err(ServiceError::refused(Refusal::SheetChanged))
}

/// What a sheet that passed the rules writes: the sheet, its totals and VP
/// (`accepted`: a wrong written total a referee accepted, `note` its reason).
pub fn counted_write(
    sheet: &ScoreSheet,
    report: &SheetReport,
    accepted: bool,
    note: String,
) -> Result<SheetWrite, ServiceError> {
    Ok(SheetWrite {
        sheet: Some(
            serde_json::to_string(sheet)
                .map_err(|e| ServiceError::corrupt(format!("sheet: {e}")))?,
        ),
        adjusted: None,
        ns_total: report.totals.ns,
        ew_total: report.totals.ew,
        ns_vp: i32::from(report.vp.ns),
        ew_vp: i32::from(report.vp.ew),
        accepted_mismatch: accepted,
        note,
    })
}

/// The desk confirms a pair's entry (entered or disputed) as the referee
/// saw it (`seen`, the entry's version on the page that showed it): it
/// counts from now on, on the record under the referee's name. An entry
/// replaced since is a conflict (409) and nothing counts.
pub async fn desk_confirm(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    n: i32,
    table_no: i32,
    seen: i32,
) -> Result<(), ServiceError> {
    super::write_running(db, actor, tid, Need::Referee, move |c, l, now| {
        let round = l.round(n).ok_or(ServiceError::NotFound)?.clone();
        let (tables, _) = crate::db::rounds::seating_of(c, round.id)?;
        let seating = tables
            .into_iter()
            .find(|s| s.table_no == table_no)
            .ok_or(ServiceError::NotFound)?;
        let entry = tsdb::entry_for(c, seating.id)?
            .filter(|e| e.status != EntryStatus::Confirmed)
            .ok_or_else(|| ServiceError::refused(Refusal::NothingEntered))?;
        if entry.version != seen {
            return Err(ServiceError::refused(Refusal::SheetChanged));
        }
        let sheet = parse_stored(
            entry.sheet.as_deref(),
            &format!("entry {}", entry.seating_id),
        )?
        .ok_or_else(|| ServiceError::refused(Refusal::NothingEntered))?;
        let report = check(&l, &sheet);
        if report.has_violations() {
            return Err(ServiceError::Sheet(Box::new(super::SheetRejection {
                report,
                problems: Vec::new(),
            })));
        }
        let write = counted_write(&sheet, &report, false, String::new())?;
        let place = TablePlace {
            tournament_id: tid,
            round_no: n,
            table_no,
            seating_id: seating.id,
        };
        let reason = format!("entered by {}", entry.entered_by.as_str().to_uppercase());
        match sdb::save_sheet(c, place, None, &write, actor.user_id, &reason, now) {
            Ok(_) => {}
            Err(SaveError::Conflict { .. }) => {
                return Err(ServiceError::refused(Refusal::AlreadyConfirmed))
            }
            Err(SaveError::Db(e)) => return Err(e.into()),
        }
        if !tsdb::decide(
            c,
            seating.id,
            entry.version,
            EntryStatus::Confirmed,
            EntrySide::Desk,
            "",
            now,
        )? {
            return Err(ServiceError::refused(Refusal::SheetChanged));
        }
        Ok(())
    })
    .await
}

/// The entries of a round's tables by seating id (for the desk's round page).
pub async fn round_entries(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    n: i32,
) -> Result<Vec<EntryRow>, ServiceError> {
    db.read(move |c| {
        let l = super::read(c, &actor, tid, Need::Referee)?;
        let round = l.round(n).ok_or(ServiceError::NotFound)?;
        Ok(tsdb::entries_of_round(c, round.id)?)
    })
    .await
}

// ---- codes ----

/// Gives the tournament's tables (every table number its layout and its
/// rounds use) and pairs their codes, if they have none; existing codes
/// never change. Called inside the transactions that start a tournament,
/// import one, add a pair or make a round.
pub fn ensure_codes(
    c: &mut DbConn,
    tid: TournamentId,
    now: NaiveDateTime,
) -> Result<(), ServiceError> {
    let Some(t) = tdb::find(c, tid)? else {
        return Ok(());
    };
    if t.status == Status::Draft {
        return Ok(());
    }
    let mut tables = tsdb::table_numbers_of(c, tid)?;
    if let Some(layout) = t.layout() {
        tables.extend((1..=layout.tables).filter_map(|n| i32::try_from(n).ok()));
    }
    tsdb::ensure_codes(c, tid, &tables, now)?;
    Ok(())
}

/// The codes of a tournament for its printouts (staff only): table number →
/// table code, and pair number → pair code.
#[derive(Debug, Clone, Default)]
pub struct Codes {
    pub tables: Vec<(i32, String)>,
    pub pairs: Vec<(i32, String)>,
}

impl Codes {
    pub fn table(&self, table_no: i32) -> Option<&str> {
        self.tables
            .iter()
            .find(|(t, _)| *t == table_no)
            .map(|(_, c)| c.as_str())
    }
    pub fn pair(&self, number: i32) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| *n == number)
            .map(|(_, c)| c.as_str())
    }
}

pub async fn codes(db: &Db, actor: Actor, tid: TournamentId) -> Result<Codes, ServiceError> {
    db.read(move |c| {
        super::read(c, &actor, tid, Need::Direct)?;
        Ok(Codes {
            tables: tsdb::table_codes_of(c, tid)?,
            pairs: tsdb::pair_codes_of(c, tid)?
                .into_iter()
                .filter_map(|(_, n, code)| Some((n, code?)))
                .collect(),
        })
    })
    .await
}
