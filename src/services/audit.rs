//! The audit log: every state change of a tournament (who, when, what,
//! before and after, why), written in the same transaction as the change.
//! Values are kept as flat JSON objects (`{"field": value}`) so that pages
//! can show them field by field in the reader's language.

use crate::ids::TournamentId;
use chrono::NaiveDateTime;
use serde_json::{Map, Value};

use super::{Actor, ServiceError};
use crate::db::DbConn;

/// What happened. Stored by its code; the catalog key is `audit.action.{code}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    TournamentCreated,
    SettingsChanged,
    TournamentClosed,
    TournamentReopened,
    TournamentImported,
    StaffAdded,
    StaffRemoved,
    PairAdded,
    PairChanged,
    PairCheckedIn,
    PairCheckInUndone,
    PairWithdrawn,
    PairReinstated,
    PairDeleted,
    PairNoShow,
    PairNoShowUndone,
    PairsImported,
    RoundDrawn,
    RoundGenerated,
    RoundUndone,
    ClockPaused,
    ClockResumed,
    PenaltyGiven,
    PenaltyWithdrawn,
    PenaltyReinstated,
    TeamAdded,
    TeamCheckedIn,
    TeamCheckInUndone,
    TeamWithdrawn,
    LineUpSet,
    PlayerAdded,
    PlayerChanged,
    PlayerCheckedIn,
    PlayerCheckInUndone,
    PlayerWithdrawn,
    PlayerDeleted,
    PlayersImported,
    EntryOnline,
    EntryMovedUp,
    EntryWithdrawn,
    EntryConfirmed,
    EntryRefused,
    EntryReordered,
}

impl Action {
    pub fn code(self) -> &'static str {
        match self {
            Action::TournamentCreated => "tournament.created",
            Action::SettingsChanged => "tournament.settings",
            Action::TournamentClosed => "tournament.closed",
            Action::TournamentReopened => "tournament.reopened",
            Action::TournamentImported => "tournament.imported",
            Action::StaffAdded => "staff.added",
            Action::StaffRemoved => "staff.removed",
            Action::PairAdded => "pair.added",
            Action::PairChanged => "pair.changed",
            Action::PairCheckedIn => "pair.checked_in",
            Action::PairCheckInUndone => "pair.check_in_undone",
            Action::PairWithdrawn => "pair.withdrawn",
            Action::PairReinstated => "pair.reinstated",
            Action::PairDeleted => "pair.deleted",
            Action::PairNoShow => "pair.no_show",
            Action::PairNoShowUndone => "pair.no_show_undone",
            Action::PairsImported => "pairs.imported",
            Action::RoundDrawn => "round.drawn",
            Action::RoundGenerated => "round.generated",
            Action::RoundUndone => "round.undone",
            Action::ClockPaused => "clock.paused",
            Action::ClockResumed => "clock.resumed",
            Action::PenaltyGiven => "penalty.given",
            Action::PenaltyWithdrawn => "penalty.withdrawn",
            Action::PenaltyReinstated => "penalty.reinstated",
            Action::TeamAdded => "team.added",
            Action::TeamCheckedIn => "team.checked_in",
            Action::TeamCheckInUndone => "team.check_in_undone",
            Action::TeamWithdrawn => "team.withdrawn",
            Action::LineUpSet => "team.lineup",
            Action::PlayerAdded => "player.added",
            Action::PlayerChanged => "player.changed",
            Action::PlayerCheckedIn => "player.checked_in",
            Action::PlayerCheckInUndone => "player.check_in_undone",
            Action::PlayerWithdrawn => "player.withdrawn",
            Action::PlayerDeleted => "player.deleted",
            Action::PlayersImported => "player.imported",
            Action::EntryOnline => "entry.online",
            Action::EntryMovedUp => "entry.moved_up",
            Action::EntryWithdrawn => "entry.withdrawn",
            Action::EntryConfirmed => "entry.confirmed",
            Action::EntryRefused => "entry.refused",
            Action::EntryReordered => "entry.reordered",
        }
    }
}

/// One audit entry, built by a service.
#[derive(Debug, Clone)]
pub struct Entry {
    pub action: Action,
    pub round: Option<i32>,
    pub table: Option<i32>,
    pub before: Option<Map<String, Value>>,
    pub after: Option<Map<String, Value>>,
    pub reason: String,
}

impl Entry {
    pub fn new(action: Action) -> Entry {
        Entry {
            action,
            round: None,
            table: None,
            before: None,
            after: None,
            reason: String::new(),
        }
    }

    pub fn round(mut self, n: i32) -> Entry {
        self.round = Some(n);
        self
    }

    pub fn table(mut self, table: Option<i32>) -> Entry {
        self.table = table;
        self
    }

    pub fn before(mut self, values: Map<String, Value>) -> Entry {
        self.before = Some(values);
        self
    }

    pub fn after(mut self, values: Map<String, Value>) -> Entry {
        self.after = Some(values);
        self
    }

    pub fn reason(mut self, reason: impl Into<String>) -> Entry {
        self.reason = reason.into();
        self
    }

    /// Keeps only the fields that differ between before and after.
    pub fn changes_only(mut self) -> Entry {
        if let (Some(b), Some(a)) = (&mut self.before, &mut self.after) {
            let same: Vec<String> = b
                .iter()
                .filter(|(k, v)| a.get(*k) == Some(*v))
                .map(|(k, _)| k.clone())
                .collect();
            for k in same {
                b.remove(&k);
                a.remove(&k);
            }
        }
        self
    }
}

/// A flat JSON object from `(field, value)` pairs.
pub fn values<const N: usize>(fields: [(&str, Value); N]) -> Map<String, Value> {
    fields
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
}

/// Appends the entry (inside the caller's transaction).
pub fn record(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    actor: &Actor,
    entry: Entry,
    now: NaiveDateTime,
) -> Result<(), ServiceError> {
    record_by(conn, tournament_id, Some(actor.user_id), entry, now)
}

/// An entry written by a player with a code, not a staff account (a
/// captain's line-up): no user on the record, who acted is in `after`.
pub fn record_anonymous(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    entry: Entry,
    now: NaiveDateTime,
) -> Result<(), ServiceError> {
    record_by(conn, tournament_id, None, entry, now)
}

fn record_by(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    user_id: Option<crate::ids::UserId>,
    entry: Entry,
    now: NaiveDateTime,
) -> Result<(), ServiceError> {
    let text = |m: Option<Map<String, Value>>| m.map(|m| Value::Object(m).to_string());
    crate::db::audit::audit_by(
        conn,
        tournament_id,
        entry.round,
        entry.table,
        entry.action.code(),
        text(entry.before),
        text(entry.after),
        &entry.reason,
        user_id,
        now,
    )?;
    Ok(())
}
