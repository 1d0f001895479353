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
//! another instance never reaches this memory: on PostgreSQL every request
//! therefore takes the revision from a primary-key read that started after
//! it arrived, shared with the requests waiting with it ([`FreshReads`]);
//! on SQLite (one server per file) the memory is the source, filled from the
//! database on first use.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};

thread_local! {
    /// Bumps made by the transaction running on this thread, not yet committed.
    static PENDING: RefCell<Vec<(i64, i64)>> = const { RefCell::new(Vec::new()) };
}

/// Notes that the transaction running on this thread moved tournament `tid`
/// to `revision` (called by `services::lock`, inside the transaction).
pub fn note_bump(tid: crate::ids::TournamentId, revision: i64) {
    PENDING.with(|p| p.borrow_mut().push((tid.0, revision)));
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

/// Fresh reads of a revision shared by the requests that wait together.
///
/// A request must see every write acknowledged before it arrived, so it
/// needs a read of `tournaments.revision` that *started* after it arrived;
/// it need not run that read itself. Reads are numbered when they start
/// (under a lock): a request arriving when `started = n` needs read `n + 1`
/// or later. At most one read per tournament runs at a time; the requests
/// that arrive meanwhile share the next one. Under load this is one
/// primary-key read per round trip instead of one per request, with the
/// same guarantee.
#[derive(Default)]
pub struct FreshReads {
    tournaments: Mutex<HashMap<i64, Arc<Shared>>>,
}

struct Shared {
    state: Mutex<ReadState>,
    /// (number of the last read finished, its result).
    done: tokio::sync::watch::Sender<(u64, Result<Option<i64>, String>)>,
}

#[derive(Default)]
struct ReadState {
    started: u64,
    running: bool,
}

/// Ends a read even when its request goes away half-way: the next waiter
/// then starts another.
struct Running<'a>(&'a Shared);

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0
            .state
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .running = false;
        self.0.done.send_modify(|_| {});
    }
}

impl FreshReads {
    /// The revision of `tid` from a read that started after this call.
    pub async fn read<F, Fut>(&self, tid: i64, read: F) -> Result<Option<i64>, String>
    where
        F: Fn() -> Fut,
        Fut: std::future::Future<Output = Result<Option<i64>, String>>,
    {
        let shared = {
            let mut all = self.tournaments.lock().unwrap_or_else(|p| p.into_inner());
            all.entry(tid)
                .or_insert_with(|| {
                    Arc::new(Shared {
                        state: Mutex::new(ReadState::default()),
                        done: tokio::sync::watch::channel((0, Ok(None))).0,
                    })
                })
                .clone()
        };
        let mut rx = shared.done.subscribe();
        let need = shared
            .state
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .started
            + 1;
        loop {
            {
                let done = rx.borrow_and_update();
                if done.0 >= need {
                    return done.1.clone();
                }
            }
            let lead = {
                let mut st = shared.state.lock().unwrap_or_else(|p| p.into_inner());
                if st.running {
                    None
                } else {
                    st.running = true;
                    st.started += 1;
                    Some(st.started)
                }
            };
            match lead {
                Some(n) => {
                    let guard = Running(&shared);
                    let result = read().await;
                    let _previous = shared.done.send_replace((n, result));
                    drop(guard);
                }
                None => {
                    if rx.changed().await.is_err() {
                        return Err("revision reader gone".into());
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicI64, AtomicU32, Ordering};

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn requests_waiting_together_share_a_read_that_started_after_them() {
        let fresh = Arc::new(FreshReads::default());
        let value = Arc::new(AtomicI64::new(1));
        let reads = Arc::new(AtomicU32::new(0));
        let mut jobs = Vec::new();
        for _ in 0..200 {
            let (fresh, value, reads) = (fresh.clone(), value.clone(), reads.clone());
            jobs.push(tokio::spawn(async move {
                let seen_before = value.load(Ordering::SeqCst);
                let got = fresh
                    .read(7, || {
                        let (value, reads) = (value.clone(), reads.clone());
                        async move {
                            reads.fetch_add(1, Ordering::SeqCst);
                            let v = value.load(Ordering::SeqCst);
                            tokio::time::sleep(std::time::Duration::from_millis(2)).await;
                            Ok(Some(v))
                        }
                    })
                    .await
                    .unwrap()
                    .unwrap();
                // A "write" after some reads: later requests must see it.
                value.fetch_add(1, Ordering::SeqCst);
                assert!(
                    got >= seen_before,
                    "saw {got}, a write {seen_before} was done before"
                );
            }));
        }
        for j in jobs {
            j.await.unwrap();
        }
        let n = reads.load(Ordering::SeqCst);
        assert!(n < 200, "reads were shared: {n}");
    }
}
