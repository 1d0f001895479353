//! Pairs: register, edit, check in, withdraw or reinstate, import.

use serde_json::{Map, Value};

use super::audit::{self, Action, Entry};
use super::rounds::{mitchell_plan, roster_changes};
use super::{lock, Actor, Conflict, Loaded, Need, ServiceError};
use crate::db::tournaments::{self as tdb, PairError, PairRow};
use crate::db::Db;
use crate::movement::{self, RosterChange};
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

fn find_pair(l: &Loaded, pid: i64) -> Result<&PairRow, ServiceError> {
    l.pair(Some(pid)).ok_or(ServiceError::NotFound)
}

/// Registers a pair with the next number. After the draw it is a late pair
/// from the next round on, and the Mitchell movement must have a seat for it.
pub async fn register(
    db: &Db,
    actor: Actor,
    tid: i64,
    entry: PairEntry,
) -> Result<i32, ServiceError> {
    db.write(move |c| {
        let l = lock(c, &actor, tid, Need::Direct)?;
        l.ensure_not_finished()?;
        let joined = (l.status() == Status::Running).then(|| l.next_round());
        if let (Some(round), Some(layout)) = (joined, l.t.layout()) {
            let round_no = u32::try_from(round).unwrap_or(u32::MAX);
            if round_no <= l.settings.mitchell_rounds {
                let next_no = l.pairs.iter().map(PairRow::pair_no).max().unwrap_or(0) + 1;
                let mut changes = roster_changes(&l);
                changes.push(RosterChange::Joined {
                    pair: next_no,
                    from_round: round_no,
                });
                movement::round_seating(&layout, &mitchell_plan(&l, &layout), round_no, &changes)
                    .map_err(|e| ServiceError::Conflict(Conflict::Movement(e)))?;
            }
        }
        let (_, number) = tdb::add_pair(c, tid, &entry, joined).map_err(pair_error)?;
        // A pair added to a running tournament gets its pair code now.
        super::table_side::ensure_codes(c, tid)?;
        let mut after = pair_values(&entry);
        after.insert("number".into(), Value::from(number));
        let mut e = Entry::new(Action::PairAdded).after(after);
        if let Some(r) = joined {
            e = e.round(r);
        }
        audit::record(c, tid, &actor, e)?;
        Ok(number)
    })
    .await
}

/// Changes a pair's players.
pub async fn update(
    db: &Db,
    actor: Actor,
    tid: i64,
    pid: i64,
    entry: PairEntry,
) -> Result<(), ServiceError> {
    db.write(move |c| {
        let l = lock(c, &actor, tid, Need::Direct)?;
        l.ensure_not_finished()?;
        let before = find_pair(&l, pid)?.entry();
        tdb::update_pair(c, tid, pid, &entry).map_err(pair_error)?;
        audit::record(
            c,
            tid,
            &actor,
            Entry::new(Action::PairChanged)
                .before(pair_values(&before))
                .after(pair_values(&entry))
                .changes_only(),
        )
    })
    .await
}

/// Checks a pair in (or undoes it) before the draw.
pub async fn set_checked_in(
    db: &Db,
    actor: Actor,
    tid: i64,
    pid: i64,
    value: bool,
) -> Result<(), ServiceError> {
    db.write(move |c| {
        let l = lock(c, &actor, tid, Need::Direct)?;
        l.ensure_not_finished()?;
        let pair = find_pair(&l, pid)?;
        if pair.checked_in == value {
            return Ok(());
        }
        let number = pair.number;
        tdb::set_checked_in(c, tid, pid, value)?;
        let action = if value {
            Action::PairCheckedIn
        } else {
            Action::PairCheckInUndone
        };
        audit::record(
            c,
            tid,
            &actor,
            Entry::new(action).after(audit::values([("number", Value::from(number))])),
        )
    })
    .await
}

/// Withdraws a pair (from the next round on once the tournament runs) or
/// reinstates it. A pair that already missed rounds cannot come back: it is
/// registered again as a late pair.
pub async fn set_withdrawn(
    db: &Db,
    actor: Actor,
    tid: i64,
    pid: i64,
    withdraw: bool,
) -> Result<(), ServiceError> {
    db.write(move |c| {
        let l = lock(c, &actor, tid, Need::Direct)?;
        l.ensure_not_finished()?;
        let pair = find_pair(&l, pid)?;
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
        if from.is_none() && pair.withdrawn_by(l.next_round() - 1) && l.status() == Status::Running
        {
            return Err(ServiceError::conflict("pairs.error.reinstate_after_rounds"));
        }
        let number = pair.number;
        tdb::set_withdrawn(c, tid, pid, from)?;
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
        audit::record(c, tid, &actor, Entry::new(action).after(values))
    })
    .await
}

/// Registers the pairs of a checked CSV, all or nothing, before the draw.
pub async fn import(
    db: &Db,
    actor: Actor,
    tid: i64,
    entries: Vec<PairEntry>,
) -> Result<usize, ServiceError> {
    db.write(move |c| {
        let l = lock(c, &actor, tid, Need::Direct)?;
        if l.status() != Status::Draft {
            return Err(ServiceError::conflict("import.error.started"));
        }
        let n = tdb::import_pairs(c, tid, &entries).map_err(pair_error)?;
        audit::record(
            c,
            tid,
            &actor,
            Entry::new(Action::PairsImported).after(audit::values([("pairs", Value::from(n))])),
        )?;
        Ok(n)
    })
    .await
}
