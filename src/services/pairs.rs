//! Pairs: register, edit, check in, withdraw or reinstate, delete or mark
//! no-show before the start, import.
//!
//! Entries (RULES.md §10): a registration deleted, marked no-show or
//! withdrawn before the start, or not checked in when the tournament starts,
//! is not an entry. The players of a withdrawn or no-show pair are free: they
//! may register again (a new registration with the next number, a late pair
//! once the tournament runs). The old registration stays on the record; it
//! cannot be reinstated while its players are in another pair.

use crate::ids::PairId;
use crate::ids::TournamentId;
use crate::services::Refusal;
use chrono::NaiveDateTime;
use serde_json::{Map, Value};

use super::audit::{self, Action, Entry};
use super::rounds::{mitchell_plan, roster_changes};
use super::{lock, Actor, Conflict, Loaded, Need, ServiceError};
use crate::db::pairs::PairError;
use crate::db::{Db, DbConn};
use crate::movement::{self, RosterChange};
use crate::services::view::Pair;
use crate::tournament::pairs::PairEntry;
use crate::tournament::{FieldProblem, Status};

fn pair_values(p: &PairEntry) -> Map<String, Value> {
    match serde_json::to_value(p.to_form()) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    }
}

fn pair_error(e: PairError) -> ServiceError {
    match e {
        PairError::PlayerTaken { player, number } => {
            ServiceError::Invalid(vec![FieldProblem::new(
                "p1_surname",
                "pairs.error.player_taken",
            )
            .with("player", player)
            .with("number", number)])
        }
        PairError::NotFound => ServiceError::NotFound,
        PairError::Db(e) => e.into(),
    }
}

fn find_pair(l: &Loaded, pid: PairId) -> Result<&Pair, ServiceError> {
    l.pair(Some(pid)).ok_or(ServiceError::NotFound)
}

/// Locks a pairs tournament for a registration's change: a team
/// tournament's pairs are its line-ups (issue 25), never registered,
/// edited or withdrawn one by one.
fn lock_pairs(c: &mut DbConn, actor: &Actor, tid: TournamentId) -> Result<Loaded, ServiceError> {
    let l = lock(c, actor, tid, Need::Direct)?;
    if l.t.is_teams() {
        return Err(ServiceError::refused(Refusal::TeamsNoPairs));
    }
    if l.t.is_individual() {
        return Err(ServiceError::refused(Refusal::IndividualNoPairs));
    }
    Ok(l)
}

/// A write to a pairs tournament's registrations: locked (`lock_pairs`),
/// checked by `check` (not finished, not started…), then `f` with the
/// connection, the tournament and the time of the write.
async fn write_pairs<T: Send + 'static>(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    check: fn(&Loaded) -> Result<(), ServiceError>,
    f: impl FnOnce(&mut DbConn, &Loaded, NaiveDateTime) -> Result<T, ServiceError> + Send + 'static,
) -> Result<T, ServiceError> {
    db.write_at(move |c, now| {
        let l = lock_pairs(c, &actor, tid)?;
        check(&l)?;
        f(c, &l, now)
    })
    .await
}

/// Registers a pair with the next number. After the draw it is a late pair
/// from the next round on, and the Mitchell movement must have a seat for it.
pub async fn register(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    entry: PairEntry,
) -> Result<i32, ServiceError> {
    write_pairs(db, actor, tid, not_finished, move |c, l, now| {
        let joined = (l.status() == Status::Running).then(|| l.next_round());
        if let (Some(round), Some(layout)) = (joined, l.t.layout()) {
            let round_no = u32::try_from(round).unwrap_or(u32::MAX);
            if round_no <= l.settings.mitchell_rounds {
                let next_no = l.pairs.iter().map(Pair::pair_no).max().unwrap_or(0) + 1;
                let mut changes = roster_changes(l);
                changes.push(RosterChange::Joined {
                    pair: next_no,
                    from_round: round_no,
                });
                movement::round_seating(&layout, &mitchell_plan(l, &layout), round_no, &changes)
                    .map_err(|e| ServiceError::Conflict(Conflict::Movement(e)))?;
            }
        }
        let (_, number) =
            crate::db::pairs::add_pair(c, tid, &entry, joined, now).map_err(pair_error)?;
        // A pair added to a running tournament gets its pair code now.
        super::entries::ensure_codes(c, tid, now)?;
        let mut after = pair_values(&entry);
        after.insert("number".into(), Value::from(number));
        let mut e = Entry::new(Action::PairAdded).after(after);
        if let Some(r) = joined {
            e = e.round(r);
        }
        audit::record(c, tid, &actor, e, now)?;
        Ok(number)
    })
    .await
}

/// Changes a pair's players.
pub async fn update(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    pid: PairId,
    entry: PairEntry,
) -> Result<(), ServiceError> {
    write_pairs(db, actor, tid, not_finished, move |c, l, now| {
        let before = find_pair(l, pid)?.entry();
        crate::db::pairs::update_pair(c, tid, pid, &entry, now).map_err(pair_error)?;
        audit::record(
            c,
            tid,
            &actor,
            Entry::new(Action::PairChanged)
                .before(pair_values(&before))
                .after(pair_values(&entry))
                .changes_only(),
            now,
        )
    })
    .await
}

/// Refuses a change once the tournament is finished.
fn not_finished(l: &Loaded) -> Result<(), ServiceError> {
    l.ensure_not_finished()
}

/// Refuses a change that needs the tournament not started yet (RULES.md §10:
/// deleting a registration or marking it no-show happens before the start).
fn ensure_not_started(l: &Loaded) -> Result<(), ServiceError> {
    match l.status() {
        Status::Draft => Ok(()),
        _ => Err(ServiceError::refused(Refusal::EntriesStarted)),
    }
}

/// Refuses an import once the tournament started.
fn ensure_import(l: &Loaded) -> Result<(), ServiceError> {
    match l.status() {
        Status::Draft => Ok(()),
        _ => Err(ServiceError::refused(Refusal::ImportStarted)),
    }
}

/// Deletes a registration before the start (a typing mistake, a double
/// registration). After the start the pair may have played: it is
/// withdrawn instead, never erased. The other pairs keep their numbers (the
/// next registration takes the highest number + 1).
pub async fn delete(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    pid: PairId,
) -> Result<i32, ServiceError> {
    // Checked inside the transaction: a draw that committed a moment ago
    // wins and the deletion is refused.
    write_pairs(db, actor, tid, ensure_not_started, move |c, l, now| {
        let pair = find_pair(l, pid)?;
        let (number, before) = (pair.number, pair_values(&pair.entry()));
        crate::db::pairs::delete_pair(c, tid, pid)?;
        let mut before = before;
        before.insert("number".into(), Value::from(number));
        audit::record(
            c,
            tid,
            &actor,
            Entry::new(Action::PairDeleted).before(before),
            now,
        )?;
        Ok(number)
    })
    .await
}

/// Marks a registration no-show (or undoes it) before the start. A no-show
/// is not checked in and not drawn; once the tournament starts it is not an
/// entry (RULES.md §10). Undoing it gives the players back to the pair,
/// unless they registered again in another pair meanwhile.
pub async fn set_no_show(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    pid: PairId,
    value: bool,
) -> Result<(), ServiceError> {
    write_pairs(db, actor, tid, ensure_not_started, move |c, l, now| {
        let pair = find_pair(l, pid)?;
        if pair.no_show == value {
            return Ok(());
        }
        let number = pair.number;
        if !value && pair.withdrawn_from_round.is_none() {
            crate::db::pairs::check_clash(c, tid, &pair.entry(), Some(pid)).map_err(pair_error)?;
        }
        if value && pair.checked_in {
            crate::db::pairs::set_checked_in(c, tid, pid, false)?;
        }
        crate::db::pairs::set_no_show(c, tid, pid, value)?;
        let action = if value {
            Action::PairNoShow
        } else {
            Action::PairNoShowUndone
        };
        audit::record(
            c,
            tid,
            &actor,
            Entry::new(action).after(audit::values([("number", Value::from(number))])),
            now,
        )
    })
    .await
}

/// Checks a pair in (or undoes it) before the draw.
pub async fn set_checked_in(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    pid: PairId,
    value: bool,
) -> Result<(), ServiceError> {
    write_pairs(db, actor, tid, not_finished, move |c, l, now| {
        check_in_one(c, l, &actor, pid, value, now)
    })
    .await
}

/// One pair's check-in, inside the caller's transaction.
fn check_in_one(
    c: &mut DbConn,
    l: &Loaded,
    actor: &Actor,
    pid: PairId,
    value: bool,
    now: NaiveDateTime,
) -> Result<(), ServiceError> {
    let pair = find_pair(l, pid)?;
    if pair.checked_in == value {
        return Ok(());
    }
    // A no-show is not here: the director undoes the mark first (which
    // checks its players are still free).
    if value && pair.no_show {
        return Err(ServiceError::refused(Refusal::EntriesIsNoShow));
    }
    // Once the tournament runs the draw was made from the check-ins: a pair
    // that stops playing is withdrawn, not unchecked.
    if !value && l.status() != Status::Draft {
        return Err(ServiceError::refused_with(
            Refusal::CheckInStarted,
            vec![("pair", pair.number.to_string())],
        ));
    }
    let number = pair.number;
    crate::db::pairs::set_checked_in(c, l.t.id, pid, value)?;
    let action = if value {
        Action::PairCheckedIn
    } else {
        Action::PairCheckInUndone
    };
    audit::record(
        c,
        l.t.id,
        actor,
        Entry::new(action).after(audit::values([("number", Value::from(number))])),
        now,
    )
}

/// Checks in several pairs at once (the ticked ones, or every pair still
/// to check in when `pids` is `None`): one transaction, one audit entry per
/// pair; no-shows and withdrawn pairs are left as they are.
pub async fn check_in_many(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    pids: Option<Vec<PairId>>,
) -> Result<usize, ServiceError> {
    write_pairs(db, actor, tid, not_finished, move |c, l, now| {
        let wanted: Vec<PairId> = match &pids {
            Some(ids) => {
                for id in ids {
                    find_pair(l, *id)?;
                }
                ids.clone()
            }
            None => l.not_checked_in().map(|p| p.id).collect(),
        };
        let mut n = 0;
        for id in wanted {
            let p = find_pair(l, id)?;
            if p.checked_in || p.no_show || p.withdrawn_from_round.is_some() {
                continue;
            }
            check_in_one(c, l, &actor, id, true, now)?;
            n += 1;
        }
        Ok(n)
    })
    .await
}

/// Withdraws a pair (from the next round on once the tournament runs) or
/// reinstates it. A pair that already missed rounds cannot come back: it is
/// registered again as a late pair.
pub async fn set_withdrawn(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    pid: PairId,
    withdraw: bool,
) -> Result<(), ServiceError> {
    write_pairs(db, actor, tid, not_finished, move |c, l, now| {
        let pair = find_pair(l, pid)?;
        let from = match (withdraw, l.status()) {
            // Already withdrawn: the round it left stays on the record.
            (true, _) if pair.withdrawn_from_round.is_some() => pair.withdrawn_from_round,
            (true, Status::Draft) => Some(1),
            (true, _) => Some(l.next_round()),
            (false, _) => None,
        };
        if from == pair.withdrawn_from_round {
            return Ok(());
        }
        // A no-show after the start never took a seat: there is nothing to
        // withdraw it from, nor to reinstate it to (it registers again).
        if pair.no_show && l.status() != Status::Draft {
            return Err(ServiceError::refused(Refusal::EntriesIsNoShow));
        }
        // Reinstated: its players must not have registered again meanwhile.
        if from.is_none() && !pair.no_show {
            crate::db::pairs::check_clash(c, tid, &pair.entry(), Some(pid)).map_err(pair_error)?;
        }
        if from.is_none() && pair.withdrawn_by(l.next_round() - 1) && l.status() == Status::Running
        {
            return Err(ServiceError::refused(Refusal::ReinstateAfterRounds));
        }
        let number = pair.number;
        crate::db::pairs::set_withdrawn(c, tid, pid, from)?;
        let (action, values) = match from {
            Some(r) => (
                Action::PairWithdrawn,
                audit::values([
                    ("number", Value::from(number)),
                    ("from_round", Value::from(r)),
                ]),
            ),
            None => (
                Action::PairReinstated,
                audit::values([("number", Value::from(number))]),
            ),
        };
        audit::record(c, tid, &actor, Entry::new(action).after(values), now)
    })
    .await
}

/// Registers the pairs of a checked CSV, all or nothing, before the draw.
pub async fn import(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    entries: Vec<PairEntry>,
) -> Result<usize, ServiceError> {
    write_pairs(db, actor, tid, ensure_import, move |c, _, now| {
        let n = crate::db::pairs::import_pairs(c, tid, &entries, now).map_err(pair_error)?;
        audit::record(
            c,
            tid,
            &actor,
            Entry::new(Action::PairsImported).after(audit::values([("pairs", Value::from(n))])),
            now,
        )?;
        Ok(n)
    })
    .await
}
