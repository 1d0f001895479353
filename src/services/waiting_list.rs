//! The director's waiting list of entries online (issue 36): every entry
//! with its state, and the decisions on a waiting one (confirm, refuse,
//! move up or down), each audited and re-checked under the tournament's
//! lock.

use chrono::NaiveDateTime;
use serde_json::Value;

use super::audit::{self, Action, Entry};
use super::online::{
    confirm_row, entrant_of, entrant_values, holder_numbers, position_in, state_of, status_of,
    waiting, Notice,
};
use super::{bump, check_access, load_state, Actor, Need, Refusal, ServiceError};
use crate::db::online_entries::{self as odb, EntryRow};
use crate::db::Db;
use crate::ids::TournamentId;
use crate::tournament::members::CardProblem;
use crate::tournament::online::EntryStatus;
use crate::tournament::pairs::Player;
use crate::tournament::Status;

/// An entry in the director's list.
#[derive(Debug, Clone)]
pub struct Listed {
    pub id: i64,
    pub status: EntryStatus,
    pub number: Option<i32>,
    pub position: Option<usize>,
    /// A team entry's name ('' for a pair).
    pub team_name: String,
    pub players: Vec<Player>,
    pub email: String,
    pub phone: String,
    /// UTC.
    pub created_at: NaiveDateTime,
    /// With the member check off: the players whose card the member list
    /// would not let in, and why (RULES.md §15).
    pub card_problems: Vec<(String, CardProblem)>,
}

/// A tournament's entries for its staff: the confirmed ones, then the
/// waiting list in order, then the rest.
pub async fn list(db: &Db, actor: Actor, tid: TournamentId) -> Result<Vec<Listed>, ServiceError> {
    db.read(move |c| {
        let l = super::read(c, &actor, tid, Need::Referee)?;
        let rows = odb::list(c, tid)?;
        let flag = super::members::flags_entries(c, &l)?;
        let numbers = holder_numbers(c, &l)?;
        let mut out = Vec::new();
        for r in &rows {
            let s = state_of(&l, &numbers, &rows, r)?;
            let card_problems = if flag && s.status.is_live() {
                super::members::problems(c, &l, &s.players)?
            } else {
                Vec::new()
            };
            out.push(Listed {
                id: r.id,
                status: s.status,
                number: s.number,
                position: s.position,
                team_name: s.team_name,
                players: s.players,
                email: r.email.clone(),
                phone: r.phone.clone(),
                created_at: r.created_at,
                card_problems,
            });
        }
        let rank = |s: EntryStatus| match s {
            EntryStatus::Confirmed => 0,
            EntryStatus::Waiting => 1,
            _ => 2,
        };
        out.sort_by_key(|e| (rank(e.status), e.number.unwrap_or(0)));
        Ok(out)
    })
    .await
}

/// What the director does with a waiting entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Confirmed now, whatever the capacity.
    Confirm,
    Refuse,
    /// One place up the list.
    Up,
    /// One place down the list.
    Down,
}

/// The director's decision on a waiting entry (audited).
pub async fn decide(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    entry_id: i64,
    decision: Decision,
) -> Result<Vec<Notice>, ServiceError> {
    let clock = db.clock().clone();
    db.write(move |c| {
        let now = clock.now();
        let t = bump(c, tid)?;
        check_access(c, &actor, &t, Need::Direct)?;
        let l = load_state(c, t)?;
        l.ensure_not_finished()?;
        if l.status() != Status::Draft {
            return Err(Refusal::EntriesStarted.into());
        }
        let rows = odb::list(c, tid)?;
        let row = rows
            .iter()
            .find(|r| r.id == entry_id)
            .ok_or(ServiceError::NotFound)?;
        if status_of(row)? != EntryStatus::Waiting {
            return Err(Refusal::EntryNotWaiting.into());
        }
        let mut notices = Vec::new();
        let action = match decision {
            Decision::Confirm => {
                notices = confirm_row(c, &l, row, now)?;
                Action::EntryConfirmed
            }
            Decision::Refuse => {
                odb::set_status(
                    c,
                    row.id,
                    EntryStatus::Refused.code(),
                    Default::default(),
                    now,
                )?;
                Action::EntryRefused
            }
            Decision::Up | Decision::Down => {
                let list: Vec<&EntryRow> = waiting(&rows).collect();
                let i = list.iter().position(|r| r.id == entry_id).unwrap_or(0);
                let j = if decision == Decision::Up {
                    i.checked_sub(1)
                } else {
                    Some(i + 1).filter(|j| *j < list.len())
                };
                if let Some(j) = j {
                    odb::set_queue(c, list[i].id, list[j].queue)?;
                    odb::set_queue(c, list[j].id, list[i].queue)?;
                }
                Action::EntryReordered
            }
        };
        let mut after = entrant_values(&entrant_of(row)?);
        after.insert("position".into(), Value::from(position_in(&rows, entry_id)));
        audit::record(c, tid, &actor, Entry::new(action).after(after), now)?;
        super::mail::queue(c, notices, now)
    })
    .await
}
