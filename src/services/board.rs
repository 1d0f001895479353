//! The desk's control room: every table of a round in one of the states a
//! referee acts on, read in one go.

use super::{read, Actor, Loaded, Need, ServiceError};
use crate::db::scoring::SheetRow;
use crate::db::table_side::EntryRow;
use crate::db::types::{EntrySide, EntryStatus};
use crate::db::Db;
use crate::ids::TournamentId;
use crate::services::view::Seating;

/// Where a table of the round stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeskState {
    /// Nothing entered, nothing counted.
    Missing,
    /// A pair entered its sheet; the other pair has not confirmed yet.
    Entered,
    /// The other pair disagrees: a referee settles it.
    Disputed,
    /// Confirmed at the table by the other pair: it counts.
    Confirmed,
    /// Entered (or overridden) at the desk: it counts.
    Desk,
    /// A referee's adjusted score: it counts.
    Adjusted,
}

impl DeskState {
    pub const ALL: [DeskState; 6] = [
        DeskState::Missing,
        DeskState::Entered,
        DeskState::Disputed,
        DeskState::Confirmed,
        DeskState::Desk,
        DeskState::Adjusted,
    ];

    pub fn code(self) -> &'static str {
        match self {
            DeskState::Missing => "missing",
            DeskState::Entered => "entered",
            DeskState::Disputed => "disputed",
            DeskState::Confirmed => "confirmed",
            DeskState::Desk => "desk",
            DeskState::Adjusted => "adjusted",
        }
    }

    pub fn label_key(self) -> &'static str {
        match self {
            DeskState::Missing => "board.state.missing",
            DeskState::Entered => "board.state.entered",
            DeskState::Disputed => "board.state.disputed",
            DeskState::Confirmed => "board.state.confirmed",
            DeskState::Desk => "board.state.desk",
            DeskState::Adjusted => "board.state.adjusted",
        }
    }

    /// Whether the table has a result that counts in the standings.
    pub fn counts(self) -> bool {
        matches!(
            self,
            DeskState::Confirmed | DeskState::Desk | DeskState::Adjusted
        )
    }

    /// The state of a table from its counted sheet (if any) and its
    /// table-side entry (if any).
    pub fn of(sheet: Option<&SheetRow>, entry: Option<&EntryRow>) -> DeskState {
        match (sheet, entry) {
            (Some(s), _) if s.is_adjusted() => DeskState::Adjusted,
            (Some(_), Some(e))
                if e.entered_by != EntrySide::Desk && e.decided_by != Some(EntrySide::Desk) =>
            {
                DeskState::Confirmed
            }
            (Some(_), _) => DeskState::Desk,
            (None, Some(e)) if e.status == EntryStatus::Disputed => DeskState::Disputed,
            (None, Some(e)) if e.status == EntryStatus::Entered => DeskState::Entered,
            (None, _) => DeskState::Missing,
        }
    }
}

/// A table of the round at the desk.
#[derive(Debug, Clone)]
pub struct BoardTable {
    pub seating: Seating,
    pub sheet: Option<crate::services::view::Sheet>,
    pub entry: Option<crate::services::view::Entry>,
    pub state: DeskState,
    /// The result as the standings count it, when `mp` penalties change
    /// the sheet's (RULES.md §9); `None` when the sheet counts as written.
    pub counted: Option<Counted>,
}

/// A line's MP penalty that counts at a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinePenalty {
    /// The pair's number.
    pub pair: u32,
    /// Its MP as written on the sheet, and after the penalty.
    pub before: i64,
    pub after: i64,
    pub amount: i64,
}

/// A table's result after its `mp` penalties, from the one standings
/// computation (the VP of both lines follow the penalised difference).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counted {
    pub ns_mp: i64,
    pub ew_mp: i64,
    pub ns_vp: i64,
    pub ew_vp: i64,
    pub penalties: Vec<LinePenalty>,
}

/// The counted result of every penalised table of round `n`, keyed by
/// table number, read from the standings of the tournament file.
fn counted_of_round(
    c: &mut crate::db::DbConn,
    tid: TournamentId,
    n: i32,
    tz: chrono_tz::Tz,
) -> Result<std::collections::HashMap<i32, Counted>, ServiceError> {
    use crate::rules::score_sheet::Line;
    use crate::standings::Outcome;
    // A team tournament's penalised tables are on its team pages; an
    // individual one's penalties are not recorded on its lines (issue 35).
    if super::teams::kind_on(c, tid)? != crate::tournament_file::FileKind::Pairs {
        return Ok(Default::default());
    }
    let file = super::files::file_of(c, tid, tz)?;
    let standings = match crate::standings::compute_file(&file, crate::i18n::Lang::En) {
        Ok(s) => s,
        // A sheet the engine refuses: the desk still opens so that a
        // referee can correct it; it shows the sheets as they are.
        Err(e) => {
            tracing::warn!(
                tournament_id = tid.0,
                code = e.code(),
                "desk: standings not computable"
            );
            return Ok(Default::default());
        }
    };
    let r = usize::try_from(n).unwrap_or(0).saturating_sub(1);
    let mut out: std::collections::HashMap<i32, Counted> = Default::default();
    for card in &standings.cards {
        let Some(cr) = card.rounds.get(r) else {
            continue;
        };
        if cr.outcome != Outcome::Played || cr.mp_penalty == 0 {
            continue;
        }
        let (Some(table), Some(line)) = (cr.table, cr.line) else {
            continue;
        };
        let own = cr.mp_for.unwrap_or(0);
        let other = cr.mp_against.unwrap_or(0);
        let (vp, ovp) = (cr.vp.unwrap_or(0), cr.opponent_vp.unwrap_or(0));
        let entry = out
            .entry(i32::try_from(table).unwrap_or(0))
            .or_insert_with(|| match line {
                Line::Ns => Counted {
                    ns_mp: own,
                    ew_mp: other,
                    ns_vp: vp,
                    ew_vp: ovp,
                    penalties: Vec::new(),
                },
                Line::Ew => Counted {
                    ns_mp: other,
                    ew_mp: own,
                    ns_vp: ovp,
                    ew_vp: vp,
                    penalties: Vec::new(),
                },
            });
        entry.penalties.push(LinePenalty {
            pair: card.number,
            before: own.saturating_add(cr.mp_penalty),
            after: own,
            amount: cr.mp_penalty,
        });
        entry.penalties.sort_by_key(|p| p.pair);
    }
    Ok(out)
}

/// Table `table_no` of round `n` as the standings count it, when `mp`
/// penalties change its sheet's result (the desk's single-table page says
/// so next to the saved sheet); `None` when the sheet counts as written.
pub async fn counted_table(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    n: i32,
    table_no: i32,
    tz: chrono_tz::Tz,
) -> Result<Option<Counted>, ServiceError> {
    db.read(move |c| {
        let l = read(c, &actor, tid, Need::Referee)?;
        l.round(n).ok_or(ServiceError::NotFound)?;
        Ok(counted_of_round(c, tid, n, tz)?.remove(&table_no))
    })
    .await
}

/// Every table of round `n` with its state; with `tz`, also each table's
/// result as the standings count it (after `mp` penalties).
pub async fn round(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    n: i32,
    tz: Option<chrono_tz::Tz>,
) -> Result<(Loaded, Vec<BoardTable>), ServiceError> {
    db.read(move |c| {
        let l = read(c, &actor, tid, Need::Referee)?;
        let round = l.round(n).ok_or(ServiceError::NotFound)?;
        let rows = crate::db::export::round_tables(c, round.id)?;
        let entries = crate::db::table_side::entries_of_round(c, round.id)?;
        let mut counted = match tz {
            Some(tz) => counted_of_round(c, tid, n, tz)?,
            None => Default::default(),
        };
        let tables = rows
            .into_iter()
            .map(|(seating, sheet)| {
                let entry = entries.iter().find(|e| e.seating_id == seating.id).cloned();
                let state = DeskState::of(sheet.as_ref(), entry.as_ref());
                let counted = sheet
                    .as_ref()
                    .filter(|s| !s.is_adjusted())
                    .and_then(|_| counted.remove(&seating.table_no));
                Ok(BoardTable {
                    seating: Seating::from(&seating),
                    sheet: crate::services::view::sheet(sheet.as_ref())?,
                    entry: entry
                        .as_ref()
                        .map(crate::services::view::Entry::of)
                        .transpose()?,
                    state,
                    counted,
                })
            })
            .collect::<Result<Vec<_>, ServiceError>>()?;
        Ok((l, tables))
    })
    .await
}
