//! The desk's control room: every table of a round in one of the states a
//! referee acts on, read in one go.

use super::{read, Actor, Loaded, Need, ServiceError};
use crate::db::scoring::SheetRow;
use crate::db::table_side::EntryRow;
use crate::db::tournaments::SeatingRow;
use crate::db::Db;

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
                if e.entered_by != "desk" && e.decided_by.as_deref() != Some("desk") =>
            {
                DeskState::Confirmed
            }
            (Some(_), _) => DeskState::Desk,
            (None, Some(e)) if e.status == "disputed" => DeskState::Disputed,
            (None, Some(e)) if e.status == "entered" => DeskState::Entered,
            (None, _) => DeskState::Missing,
        }
    }
}

/// A table of the round at the desk.
#[derive(Debug, Clone)]
pub struct BoardTable {
    pub seating: SeatingRow,
    pub sheet: Option<SheetRow>,
    pub entry: Option<EntryRow>,
    pub state: DeskState,
}

/// Every table of round `n` with its state.
pub async fn round(
    db: &Db,
    actor: Actor,
    tid: i64,
    n: i32,
) -> Result<(Loaded, Vec<BoardTable>), ServiceError> {
    db.read(move |c| {
        let l = read(c, &actor, tid, Need::Referee)?;
        let round = l.round(n).ok_or(ServiceError::NotFound)?;
        let rows = crate::db::export::round_tables(c, round.id)?;
        let entries = crate::db::table_side::entries_of_round(c, round.id)?;
        let tables = rows
            .into_iter()
            .map(|(seating, sheet)| {
                let entry = entries.iter().find(|e| e.seating_id == seating.id).cloned();
                let state = DeskState::of(sheet.as_ref(), entry.as_ref());
                BoardTable {
                    seating,
                    sheet,
                    entry,
                    state,
                }
            })
            .collect();
        Ok((l, tables))
    })
    .await
}
