//! Who acts at a table: the code of a pair seated there, found after the brake, and the tournament's lock taken before the table's rows are written.

use std::net::IpAddr;

use super::{load_for_table, round_over, table_history, PairCode, TableCode};
use crate::db::rate_limits::Verdict;
use crate::db::table_side as tsdb;
use crate::db::tournaments as tdb;
use crate::db::{Db, DbConn};
use crate::rules::Line;
use crate::services::view::{Pair, Round, Seating};
use crate::services::{Loaded, Refusal, ServiceError};
use crate::tournament::Status;

// ---- entering and confirming ----

/// The table, the pair that a code names there and the round it plays.
pub(super) struct Seat {
    pub(super) l: Loaded,
    pub(super) table_no: i32,
    pub(super) round: Round,
    pub(super) seating: Seating,
    pub(super) pair: Pair,
    pub(super) line: Line,
}

/// Finds the pair of `pair_code` at the table of `table_code` (in round
/// `round` when the client names it, else in the last round the pair sat
/// there); the brake took its attempt before. A read: [`with_seat`] checks
/// it again under the tournament's lock.
pub(super) fn seat(
    c: &mut DbConn,
    table_code: &TableCode,
    pair_code: &PairCode,
    round: Option<i32>,
) -> Result<Seat, ServiceError> {
    let (tid, table_no) = tsdb::find_table(c, table_code.as_str())?
        .ok_or(ServiceError::refused(Refusal::TableNotFound))?;
    let t = tdb::find(c, tid)?.ok_or(ServiceError::refused(Refusal::TableNotFound))?;
    let round_rows = crate::db::rounds::list_rounds(c, tid)?;
    let rounds = crate::services::view::rounds(&round_rows)?;
    if pair_code.is_empty() {
        return Err(ServiceError::refused(Refusal::PairCodeWrong));
    }
    // A pair's own code, or in a team tournament the team's code: the
    // team's pair seated at this table (issue 25); in an individual one a
    // player's personal code: the player's partnership here (issue 35).
    let ids: Vec<crate::ids::PairId> = match tsdb::pair_with_code(c, tid, pair_code.as_str())? {
        Some(id) => vec![id],
        None => match crate::db::teams::team_with_code(c, tid, pair_code.as_str())? {
            Some(team) => crate::db::teams::pairs_of_team(c, team)?,
            None => crate::db::individual::lines_of_code(c, tid, pair_code.as_str())?,
        },
    };
    let holds = |p: Option<crate::ids::PairId>| p.is_some_and(|p| ids.contains(&p));
    let history = table_history(c, tid, &rounds, table_no)?;
    let mine: Vec<&(Round, Seating)> = history
        .iter()
        .filter(|(_, s)| holds(s.ns_pair) || holds(s.ew_pair))
        .collect();
    let found = match round {
        Some(n) => mine.iter().find(|(r, _)| r.number == n),
        None => mine.last(),
    };
    let Some((round, seating)) = found.map(|x| (*x).clone()) else {
        return Err(ServiceError::refused(Refusal::PairCodeWrong));
    };
    let (line, pair_id) = match (seating.ns_pair, seating.ew_pair) {
        (Some(p), _) if holds(Some(p)) => (Line::Ns, p),
        (_, Some(p)) => (Line::Ew, p),
        _ => return Err(ServiceError::refused(Refusal::PairCodeWrong)),
    };
    let l = load_for_table(c, t, round_rows, &seating)?;
    let pair = l
        .pair(Some(pair_id))
        .cloned()
        .ok_or(ServiceError::refused(Refusal::PairCodeWrong))?;
    let s = Seat {
        l,
        table_no,
        round,
        seating,
        pair,
        line,
    };
    ensure_open(&s)?;
    Ok(s)
}

/// The round still takes entries from the table.
pub(super) fn ensure_open(s: &Seat) -> Result<(), ServiceError> {
    // A round drawn again is another round.
    let same_round = s.l.round(s.round.number).map(|r| r.id) == Some(s.round.id);
    if !same_round || round_over(&s.l, &s.round) || s.l.status() != Status::Running {
        return Err(ServiceError::refused(Refusal::RoundClosed));
    }
    if !s.l.settings.table_entry {
        return Err(ServiceError::refused(Refusal::TableEntryOff));
    }
    Ok(())
}

/// How a table-side write locks its tournament.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Lock {
    /// A result changes (a confirmation): the revision goes up, under the
    /// tournament's row lock (PostgreSQL), like every use case that
    /// changes results.
    Revision,
    /// Nothing that counts changes (an entry, a dispute): a shared lock on
    /// the tournament's row (PostgreSQL), so that entries at different
    /// tables do not wait for one another, while a new round, a close or a
    /// redraw (which take the row lock) waits for them, and they for it.
    Shared,
}

/// Takes the tournament's lock (on SQLite the file's write lock is already
/// held by `Db::write`) and re-reads what may have changed since [`seat`]
/// read it: the status and the settings (from the row the lock's own
/// statement returns) and, under [`Lock::Shared`], the rounds. A round
/// closed meanwhile rolls the write back. Under [`Lock::Revision`] (a
/// confirmation) the rounds are checked by the confirmation's write itself
/// (`table_side::decide_in_round`), one statement fewer under the lock.
pub(super) fn relock(c: &mut DbConn, s: &mut Seat, lock: Lock) -> Result<(), ServiceError> {
    let t = match lock {
        Lock::Revision => {
            // The row lock is held from here to the commit: the commit
            // does not wait for the disk under it (PostgreSQL), `Db::write`
            // waits for the disk after, before the pair hears back. 300
            // confirmations at once then wait for one another's few
            // statements, not for 300 flushes in a row.
            crate::db::commit_lazily(c, crate::db::Lazy::FlushBeforeAnswer)?;
            let t = tdb::bump_revision_returning(c, s.l.t.id)?
                .ok_or(ServiceError::refused(Refusal::TableNotFound))?;
            // Published by `Db::write` after the commit, as `services::lock`
            // does: without it this process kept serving the public pages of
            // the revision before the confirmation.
            crate::db::revisions::note_bump(t.id, t.revision);
            t
        }
        Lock::Shared => tdb::find_for_share(c, s.l.t.id)?
            .ok_or(ServiceError::refused(Refusal::TableNotFound))?,
    };
    s.l.settings = t
        .settings()
        .map_err(|e| ServiceError::corrupt(format!("tournament {}: settings: {e}", t.id)))?;
    if lock == Lock::Shared {
        s.l.rounds = crate::services::view::rounds(&crate::db::rounds::list_rounds(c, t.id)?)?;
    }
    s.l.t = crate::services::view::Tournament::of(&t)?;
    s.l.status = s.l.t.status;
    ensure_open(s)
}

/// Runs a table-side write in two steps: the table, the code and the
/// round are found with a read (many at once), then the write checks the
/// brake, reads the table's rows, takes the tournament's lock ([`relock`],
/// which checks the round again) and writes, so that the lock is held
/// briefly. Writes are also guarded row by row (entry versions, unique
/// keys).
///
/// The brake on pair codes (per table and address): nothing is answered
/// before its verdict. A wrong code takes an attempt (a write of its own,
/// committed); a right one only checks, in the transaction that answers
/// it, that an attempt is left, which is what taking one and giving it
/// back came to (`rate_limits::check`). Both lock the bucket, so the
/// guesses at one table from one address are answered in turn and a burst
/// gets at most the allowance answered, right or wrong, as before; the
/// right code's write no longer waits for a write of its own first.
pub(super) async fn with_seat<T: Send + 'static>(
    db: &Db,
    table_code: TableCode,
    pair_code: PairCode,
    round: Option<i32>,
    client: Option<IpAddr>,
    f: impl FnOnce(&mut DbConn, &mut Seat) -> Result<T, ServiceError> + Send + 'static,
) -> Result<T, ServiceError> {
    let key = crate::services::brakes::pair_code_key(&table_code, client);
    let throttled = |retry_after| ServiceError::Throttled {
        wait_seconds: crate::services::brakes::wait_seconds(retry_after),
    };
    let found = db
        .read(move |c| seat(c, &table_code, &pair_code, round))
        .await;
    let limiter = db.limiter();
    let now = db.clock().now_ms();
    let mut s = match found {
        Ok(s) => s,
        Err(e) if e.refusal() == Some(Refusal::TableNotFound) => return Err(e),
        Err(e) if e.refusal() == Some(Refusal::PairCodeWrong) => {
            return match db.take_attempts(vec![key]).await? {
                Verdict::Refused { retry_after } => Err(throttled(retry_after)),
                Verdict::Granted => Err(e),
            };
        }
        Err(e) => {
            // The code was right (the round is over, entry is off).
            let verdict = db
                .write(move |c| -> Result<Verdict, ServiceError> {
                    crate::db::commit_lazily(c, crate::db::Lazy::Forgettable)?;
                    Ok(limiter.check(c, &key, now)?)
                })
                .await?;
            return match verdict {
                Verdict::Refused { retry_after } => Err(throttled(retry_after)),
                Verdict::Granted => Err(e),
            };
        }
    };
    // `f` reads the table, calls `relock` and then writes: the tournament's
    // lock is taken before any row of the table is written (the order every
    // use case takes its locks in), and held only for the writes. A
    // refusal rolls the transaction back whole (the check changed nothing).
    db.write(move |c| -> Result<T, ServiceError> {
        if let Verdict::Refused { retry_after } = limiter.check(c, &key, now)? {
            return Err(throttled(retry_after));
        }
        f(c, &mut s)
    })
    .await
}
