//! What the services hand the web: typed views of a tournament and its
//! pairs, rounds and tables, made from the database's rows at the door
//! (issue 23: the web names no row and no query). A value that does not
//! decode (an unknown status, a layout that no longer reads) is an error
//! naming the row, never a default.

use crate::ids::PairId;
use crate::ids::PenaltyId;
use crate::ids::RoundId;
use crate::ids::SeatingId;
use crate::ids::TournamentId;
use crate::ids::UserId;
use chrono::NaiveDateTime;

use super::ServiceError;
use crate::db::pairs::PairRow;
use crate::db::rounds::{RoundRow, SeatingRow};
use crate::db::tournaments::TournamentRow;
use crate::movement::{Layout, PairNo};
use crate::tournament::pairs::{PairEntry, Player};
use crate::tournament::{RoundMovement, Status};

/// A tournament as pages and services read it (its settings are parsed
/// apart: `Loaded::settings`).
#[derive(Debug, Clone)]
pub struct Tournament {
    pub id: TournamentId,
    pub name: String,
    /// UTC.
    pub starts_at: NaiveDateTime,
    pub venue: String,
    pub status: Status,
    pub draw_seed: Option<i64>,
    /// Round 1's draw (tables and lines), once drawn.
    pub layout: Option<Layout>,
    pub created_by: Option<UserId>,
    /// Goes up with every write to the tournament.
    pub revision: i64,
    /// Pairs or teams (issue 25).
    pub kind: crate::tournament_file::FileKind,
}

impl Tournament {
    /// The status's catalog label.
    pub fn status_label_key(&self) -> &'static str {
        self.status.label_key()
    }

    /// The tournament is closed (its forms are read-only).
    pub fn finished(&self) -> bool {
        self.status == Status::Finished
    }

    /// A team tournament (issue 25).
    pub fn is_teams(&self) -> bool {
        self.kind == crate::tournament_file::FileKind::Teams
    }

    /// An individual tournament (issue 35).
    pub fn is_individual(&self) -> bool {
        self.kind == crate::tournament_file::FileKind::Individual
    }

    /// Round 1's draw, once drawn.
    pub fn layout(&self) -> Option<Layout> {
        self.layout.clone()
    }

    pub fn of(row: &TournamentRow) -> Result<Tournament, ServiceError> {
        let status = row.status;
        let layout = row
            .layout
            .as_deref()
            .map(|j| {
                serde_json::from_str::<Layout>(j).map_err(|e| {
                    ServiceError::corrupt(format!("tournament {}: layout: {e}", row.id))
                })
            })
            .transpose()?;
        Ok(Tournament {
            id: row.id,
            name: row.name.clone(),
            starts_at: row.starts_at,
            venue: row.venue.clone(),
            status,
            draw_seed: row.draw_seed,
            layout,
            created_by: row.created_by,
            revision: row.revision,
            kind: row.kind,
        })
    }
}

/// A registered pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pair {
    pub id: PairId,
    pub number: i32,
    pub p1_surname: String,
    pub p1_name: String,
    pub p1_card: String,
    pub p1_club: String,
    pub p2_surname: String,
    pub p2_name: String,
    pub p2_card: String,
    pub p2_club: String,
    pub checked_in: bool,
    pub joined_from_round: Option<i32>,
    pub withdrawn_from_round: Option<i32>,
    /// Registered but never played: not an entry (RULES.md §10).
    pub no_show: bool,
    /// A team tournament's pair: its team, "6 Fiume" (issue 25).
    pub team: Option<String>,
    /// A team tournament's pair: its team's number.
    pub team_number: Option<i32>,
    /// The pair's group once the field is cut (RULES.md §13).
    pub group: Option<String>,
}

impl From<&PairRow> for Pair {
    fn from(r: &PairRow) -> Pair {
        Pair {
            id: r.id,
            number: r.number,
            p1_surname: r.p1_surname.clone(),
            p1_name: r.p1_name.clone(),
            p1_card: r.p1_card.clone(),
            p1_club: r.p1_club.clone(),
            p2_surname: r.p2_surname.clone(),
            p2_name: r.p2_name.clone(),
            p2_card: r.p2_card.clone(),
            p2_club: r.p2_club.clone(),
            checked_in: r.checked_in,
            joined_from_round: r.joined_from_round,
            withdrawn_from_round: r.withdrawn_from_round,
            no_show: r.no_show,
            team: None,
            team_number: None,
            group: r.group_label.clone(),
        }
    }
}

impl Pair {
    pub fn entry(&self) -> PairEntry {
        PairEntry {
            players: [
                Player::from_stored(
                    &self.p1_surname,
                    &self.p1_name,
                    &self.p1_card,
                    &self.p1_club,
                ),
                Player::from_stored(
                    &self.p2_surname,
                    &self.p2_name,
                    &self.p2_card,
                    &self.p2_club,
                ),
            ],
        }
    }

    pub fn pair_no(&self) -> PairNo {
        u32::try_from(self.number).unwrap_or(0)
    }

    /// "Rossi Maria – Bianchi Luca".
    pub fn names(&self) -> String {
        format!(
            "{} {} – {} {}",
            self.p1_surname, self.p1_name, self.p2_surname, self.p2_name
        )
    }

    /// "Rossi – Bianchi"; a team's pair: "6 Fiume: Rossi – Bianchi".
    pub fn label(&self) -> String {
        match &self.team {
            Some(team) => format!("{team}: {} – {}", self.p1_surname, self.p2_surname),
            None => format!("{} – {}", self.p1_surname, self.p2_surname),
        }
    }

    /// Withdrawn before it ever played: before the start (round 1), or a
    /// late pair withdrawn before its first round.
    pub fn withdrawn_unplayed(&self) -> bool {
        self.withdrawn_from_round
            .is_some_and(|w| w <= self.joined_from_round.unwrap_or(1))
    }

    /// An entry (RULES.md §10): not a no-show and not withdrawn before it
    /// ever played.
    pub fn is_entry(&self) -> bool {
        !self.no_show && !self.withdrawn_unplayed()
    }

    /// Its players are taken: a registration that is neither withdrawn nor
    /// a no-show.
    pub fn holds_players(&self) -> bool {
        !self.no_show && self.withdrawn_from_round.is_none()
    }

    /// Withdrawn before (or from) round `n`.
    pub fn withdrawn_by(&self, n: i32) -> bool {
        self.withdrawn_from_round.is_some_and(|w| w <= n)
    }
}

/// A round: its movement and its clock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    pub id: RoundId,
    pub number: i32,
    pub movement: RoundMovement,
    pub started_at: Option<NaiveDateTime>,
    pub time_out_at: Option<NaiveDateTime>,
    pub paused_at: Option<NaiveDateTime>,
    pub paused_seconds: i32,
    /// When it was drawn (stamped as its transaction ended).
    pub created_at: NaiveDateTime,
}

impl Round {
    pub fn of(r: &RoundRow) -> Result<Round, ServiceError> {
        let movement = RoundMovement::parse(&r.movement).ok_or_else(|| {
            ServiceError::corrupt(format!("round {}: movement {:?}", r.id, r.movement))
        })?;
        Ok(Round {
            id: r.id,
            number: r.number,
            movement,
            started_at: r.started_at,
            time_out_at: r.time_out_at,
            paused_at: r.paused_at,
            paused_seconds: r.paused_seconds,
            created_at: r.created_at,
        })
    }

    pub fn movement(&self) -> RoundMovement {
        self.movement
    }

    /// The round's clock as stored, for a round of `minutes`.
    pub fn clock_times(&self, minutes: u32) -> crate::tournament::clock::ClockTimes {
        crate::tournament::clock::ClockTimes {
            started_at: self.started_at,
            paused_at: self.paused_at,
            paused_seconds: i64::from(self.paused_seconds),
            time_out_at: self.time_out_at,
            minutes,
        }
    }
}

/// A table of a round: the pairs at it (ids).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Seating {
    pub id: SeatingId,
    pub round_id: RoundId,
    pub table_no: i32,
    pub ns_pair: Option<PairId>,
    pub ew_pair: Option<PairId>,
}

impl From<&SeatingRow> for Seating {
    fn from(r: &SeatingRow) -> Seating {
        Seating {
            id: r.id,
            round_id: r.round_id,
            table_no: r.table_no,
            ns_pair: r.ns_pair,
            ew_pair: r.ew_pair,
        }
    }
}

/// Rows to views, all or nothing.
/// The pairs, a team tournament's named with their team.
pub fn pairs(rows: &[PairRow], teams: &[crate::db::teams::TeamRow]) -> Vec<Pair> {
    rows.iter()
        .map(|r| {
            let team = r.team_id.and_then(|id| teams.iter().find(|t| t.id == id));
            Pair {
                team: team.map(|t| format!("{} {}", t.number, t.name)),
                team_number: team.map(|t| t.number),
                ..Pair::from(r)
            }
        })
        .collect()
}

pub fn rounds(rows: &[RoundRow]) -> Result<Vec<Round>, ServiceError> {
    rows.iter().map(Round::of).collect()
}

pub fn seatings(rows: &[SeatingRow]) -> Vec<Seating> {
    rows.iter().map(Seating::from).collect()
}

/// A table's counted sheet (or adjusted score), as the desk reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sheet {
    pub id: i64,
    pub seating_id: SeatingId,
    /// The sheet as entered; `None` for an adjusted score.
    pub sheet: Option<crate::rules::ScoreSheet>,
    pub adjusted_ns_vp: Option<i32>,
    pub adjusted_ew_vp: Option<i32>,
    pub adjusted_ns_mp_diff: Option<i64>,
    pub adjusted_ew_mp_diff: Option<i64>,
    pub ns_total: i64,
    pub ew_total: i64,
    pub ns_vp: i32,
    pub ew_vp: i32,
    pub accepted_mismatch: bool,
    pub note: String,
    pub version: i32,
    pub updated_at: NaiveDateTime,
}

impl Sheet {
    pub fn of(r: &crate::db::scoring::SheetRow) -> Result<Sheet, ServiceError> {
        Ok(Sheet {
            id: r.id,
            seating_id: r.seating_id,
            sheet: r.score_sheet()?,
            adjusted_ns_vp: r.adjusted_ns_vp,
            adjusted_ew_vp: r.adjusted_ew_vp,
            adjusted_ns_mp_diff: r.adjusted_ns_mp_diff,
            adjusted_ew_mp_diff: r.adjusted_ew_mp_diff,
            ns_total: r.ns_total,
            ew_total: r.ew_total,
            ns_vp: r.ns_vp,
            ew_vp: r.ew_vp,
            accepted_mismatch: r.accepted_mismatch,
            note: r.note.clone(),
            version: r.version,
            updated_at: r.updated_at,
        })
    }

    pub fn is_adjusted(&self) -> bool {
        self.sheet.is_none()
    }

    /// The sheet entered in hand totals only (its burraco checks were not
    /// possible).
    pub fn is_totals(&self) -> bool {
        self.sheet
            .as_ref()
            .is_some_and(|s| s.mode == crate::rules::SheetMode::Totals)
    }
}

/// Rows to views; a sheet that no longer reads is an error naming it.
pub fn sheet(r: Option<&crate::db::scoring::SheetRow>) -> Result<Option<Sheet>, ServiceError> {
    r.map(Sheet::of).transpose()
}

/// An entry of a tournament's audit log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEntry {
    pub id: i64,
    pub round_no: Option<i32>,
    pub table_no: Option<i32>,
    pub action: String,
    pub before_value: Option<String>,
    pub after_value: Option<String>,
    pub reason: String,
    pub at: NaiveDateTime,
}

impl From<&crate::db::audit::AuditRow> for AuditEntry {
    fn from(r: &crate::db::audit::AuditRow) -> AuditEntry {
        AuditEntry {
            id: r.id,
            round_no: r.round_no,
            table_no: r.table_no,
            action: r.action.clone(),
            before_value: r.before_value.clone(),
            after_value: r.after_value.clone(),
            reason: r.reason.clone(),
            at: r.at,
        }
    }
}

/// A penalty on the record (RULES.md §9), with the names of who gave,
/// withdrew or reinstated it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Penalty {
    pub id: PenaltyId,
    pub round_no: i32,
    pub pair_id: PairId,
    pub table_no: Option<i32>,
    pub kind: crate::tournament::penalty::PenaltyKind,
    pub amount: Option<i64>,
    pub reason: String,
    pub given_at: NaiveDateTime,
    pub withdrawn_at: Option<NaiveDateTime>,
    pub withdrawn_reason: String,
    pub reinstated_at: Option<NaiveDateTime>,
    pub reinstated_reason: String,
    pub given_by: Option<String>,
    pub withdrawn_by: Option<String>,
    pub reinstated_by: Option<String>,
}

impl Penalty {
    pub fn of(
        r: &crate::db::penalties::PenaltyRow,
        names: &crate::db::penalties::PenaltyNames,
    ) -> Result<Penalty, ServiceError> {
        let kind = r.kind;
        Ok(Penalty {
            id: r.id,
            round_no: r.round_no,
            pair_id: r.pair_id,
            table_no: r.table_no,
            kind,
            amount: r.amount,
            reason: r.reason.clone(),
            given_at: r.given_at,
            withdrawn_at: r.withdrawn_at,
            withdrawn_reason: r.withdrawn_reason.clone(),
            reinstated_at: r.reinstated_at,
            reinstated_reason: r.reinstated_reason.clone(),
            given_by: names.given_by.clone(),
            withdrawn_by: names.withdrawn_by.clone(),
            reinstated_by: names.reinstated_by.clone(),
        })
    }

    pub fn withdrawn(&self) -> bool {
        self.withdrawn_at.is_some()
    }
}

pub use crate::db::types::{EntrySide, EntryStatus};

/// A table's entry (from a phone, or the desk's), as the desk's board reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub seating_id: SeatingId,
    pub status: EntryStatus,
    pub entered_by: EntrySide,
    pub sheet: Option<crate::rules::ScoreSheet>,
    pub note: String,
    pub version: i32,
}

impl Entry {
    pub fn of(r: &crate::db::table_side::EntryRow) -> Result<Entry, ServiceError> {
        let sheet =
            super::entries::parse_stored(r.sheet.as_deref(), &format!("entry {}", r.seating_id))?;
        Ok(Entry {
            seating_id: r.seating_id,
            status: r.status,
            entered_by: r.entered_by,
            sheet,
            note: r.note.clone(),
            version: r.version,
        })
    }
}

/// A staff account (no password hash).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
    pub id: UserId,
    pub username: String,
    pub role: crate::auth::Role,
    pub active: bool,
    pub created_at: NaiveDateTime,
}

impl User {
    pub fn of(r: &crate::db::users::UserRow) -> User {
        User {
            id: r.id,
            username: r.username.clone(),
            role: r.role,
            active: r.active,
            created_at: r.created_at,
        }
    }

    pub fn role(&self) -> crate::auth::Role {
        self.role
    }
}
