//! Where a tournament's current revision comes from, cheaply.
//!
//! Every write locks its tournament with `services::lock`, which bumps
//! `tournaments.revision` in the write's transaction and notes the new value
//! here ([`note_bump`]). [`Db::write`](super::Db::write) publishes the noted
//! values once the transaction has committed (and drops them on a rollback),
//! so this process knows every revision it wrote before it answers the
//! writer. Readers ask [`Revisions::known`] first.
//!
//! Several processes may share one PostgreSQL database, and a write through
//! another instance never reaches this memory: on PostgreSQL the revision is
//! therefore read from the database on every request (one primary-key read,
//! see `Db::revision`); on SQLite (one server per file) the memory is the
//! source, filled from the database on first use.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::RwLock;

thread_local! {
    /// Bumps made by the transaction running on this thread, not yet committed.
    static PENDING: RefCell<Vec<(i64, i64)>> = const { RefCell::new(Vec::new()) };
}

/// Notes that the transaction running on this thread moved tournament `tid`
/// to `revision` (called by `services::lock`, inside the transaction).
pub fn note_bump(tid: i64, revision: i64) {
    PENDING.with(|p| p.borrow_mut().push((tid, revision)));
}

/// Takes the bumps noted on this thread (after a commit, or to drop them).
pub(super) fn take_pending() -> Vec<(i64, i64)> {
    PENDING.with(|p| std::mem::take(&mut *p.borrow_mut()))
}

/// The revisions this process knows, per tournament; they only go up.
#[derive(Debug, Default)]
pub struct Revisions {
    known: RwLock<HashMap<i64, i64>>,
}

impl Revisions {
    /// The revision of `tid` this process last saw, if any.
    pub fn known(&self, tid: i64) -> Option<i64> {
        self.known
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .get(&tid)
            .copied()
    }

    /// Records a revision seen (read or written); an older one never wins.
    pub fn observe(&self, tid: i64, revision: i64) -> i64 {
        let mut known = self.known.write().unwrap_or_else(|p| p.into_inner());
        let slot = known.entry(tid).or_insert(revision);
        *slot = (*slot).max(revision);
        *slot
    }
}
