//! Group commit for SQLite: one writer thread runs the writes queued while
//! it was busy one after the other in one transaction, each in a savepoint
//! of its own, commits once and only then answers each of them.
//!
//! SQLite takes one writer at a time anyway. Handing its lock from thread
//! to thread for each write cost more than the writes: 300 tables entering
//! at once were 600 transactions in a row, each waiting for the next
//! thread to be woken and scheduled on a busy machine. Now a batch runs on
//! one thread without a hand-over between writes, and commits once.
//!
//! Nothing a write decides changes: each runs exactly as in a transaction
//! of its own (it sees every write queued before it, committed or in the
//! batch, and nothing after), a refusal (`Err`) rolls back its savepoint
//! only, and no writer hears back before the commit that makes its write
//! durable (a failed commit answers every write of the batch with the
//! error: none of them was saved).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use diesel::connection::SimpleConnection;
use diesel::Connection;

use super::{revisions, DbConn, DbError, Pool};

/// The most writes one transaction takes.
const MAX_BATCH: usize = 256;

/// What a write left once it ran in the batch: whether its savepoint
/// stands, and how to answer its writer once the batch's fate is known
/// (`None`: committed; `Some(why)`: nothing was saved).
pub(super) struct Ran {
    ok: bool,
    answer: Answer,
}

/// Answers a writer: `None` when its batch committed, else why not.
type Answer = Box<dyn FnOnce(Option<&str>) + Send>;

type Job = Box<dyn FnOnce(&mut DbConn) -> Ran + Send>;

/// The queue of one database's writes (SQLite).
pub(super) struct GroupWriter {
    queue: Mutex<mpsc::Sender<Job>>,
}

impl GroupWriter {
    /// Starts the writer thread; it ends when the last handle is dropped.
    /// `lock` is the process's writer lock, taken around each batch so
    /// that `Db::write_blocking` (the command line, a few synchronous
    /// callers) and the batches take turns without SQLite's busy waits.
    pub(super) fn start(pool: Pool, lock: Arc<Mutex<()>>) -> GroupWriter {
        let (tx, rx) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || run(rx, pool, lock))
            .expect("the SQLite writer thread starts");
        GroupWriter {
            queue: Mutex::new(tx),
        }
    }

    /// Runs `f` in the next batch; answers after its commit.
    pub(super) async fn write<T, E>(
        &self,
        revisions: Arc<revisions::Revisions>,
        f: impl FnOnce(&mut DbConn) -> Result<T, E> + Send + 'static,
    ) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
    {
        let (tx, rx) = tokio::sync::oneshot::channel::<Result<T, E>>();
        let job: Job = Box::new(move |c: &mut DbConn| {
            revisions::take_pending();
            let result = catch_unwind(AssertUnwindSafe(|| f(c)));
            let bumped = revisions::take_pending();
            match result {
                Ok(Ok(value)) => Ran {
                    ok: true,
                    answer: Box::new(move |failed: Option<&str>| {
                        let out = match failed {
                            None => {
                                // Published before the writer hears back.
                                for (tid, rev) in bumped {
                                    revisions.observe(tid, rev);
                                }
                                Ok(value)
                            }
                            Some(why) => Err(E::from(DbError::Task(format!(
                                "the write was not saved: {why}"
                            )))),
                        };
                        let _ = tx.send(out);
                    }),
                },
                Ok(Err(e)) => Ran {
                    ok: false,
                    answer: Box::new(move |_| {
                        let _ = tx.send(Err(e));
                    }),
                },
                Err(_) => Ran {
                    ok: false,
                    answer: Box::new(move |_| {
                        let _ = tx.send(Err(E::from(DbError::Task("a write panicked".into()))));
                    }),
                },
            }
        });
        let sent = self
            .queue
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .send(job);
        if sent.is_err() {
            return Err(E::from(DbError::Task("the SQLite writer stopped".into())));
        }
        rx.await
            .unwrap_or_else(|_| Err(E::from(DbError::Task("the SQLite writer stopped".into()))))
    }
}

fn run(rx: mpsc::Receiver<Job>, pool: Pool, lock: Arc<Mutex<()>>) {
    while let Ok(first) = rx.recv() {
        let mut jobs = vec![first];
        while jobs.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(j) => jobs.push(j),
                Err(_) => break,
            }
        }
        let _guard = lock.lock().unwrap_or_else(|p| p.into_inner());
        batch(&pool, jobs);
    }
}

/// One transaction of queued writes, each in its savepoint.
fn batch(pool: &Pool, jobs: Vec<Job>) {
    let mut conn = match pool.get() {
        Ok(c) => c,
        Err(e) => {
            let why = DbError::from(e).to_string();
            for job in jobs {
                // Not run: answered with the error (their writers' `E`
                // comes from the job itself, so it runs on nothing).
                fail_unrun(job, &why);
            }
            return;
        }
    };
    let mut ran: Vec<(Ran, Option<String>)> = Vec::with_capacity(jobs.len());
    let mut pending = jobs.into_iter();
    let committed = conn.transaction::<(), diesel::result::Error, _>(|c| {
        // A write as the first statement takes SQLite's write lock now
        // (waiting up to busy_timeout), before anything is read.
        c.batch_execute("UPDATE app_settings SET value = value WHERE 0 = 1")?;
        for job in pending.by_ref() {
            let mut out = None;
            let saved = c.transaction::<(), diesel::result::Error, _>(|c| {
                let r = job(c);
                let ok = r.ok;
                out = Some(r);
                if ok {
                    Ok(())
                } else {
                    Err(diesel::result::Error::RollbackTransaction)
                }
            });
            let Some(r) = out else { continue };
            let own = match saved {
                Err(e) if r.ok => Some(e.to_string()),
                _ => None,
            };
            ran.push((r, own));
        }
        Ok(())
    });
    let failed = committed.err().map(|e| e.to_string());
    for (r, own) in ran {
        let why = own.as_deref().or(failed.as_deref());
        (r.answer)(why);
    }
    // Jobs never reached (the batch failed before them) are answered too.
    if let Some(why) = &failed {
        for job in pending {
            fail_unrun(job, why);
        }
    }
}

/// Answers a write that never ran with `why`, without a connection: its
/// closure is dropped, which drops its answer channel, and its writer
/// hears that the writer stopped.
fn fail_unrun(job: Job, why: &str) {
    tracing::warn!(error = why, "a queued SQLite write was not run");
    drop(job);
}

#[cfg(test)]
mod tests {
    use super::super::{build_pool, run_migrations, Db, DbError, DbUrl};
    use diesel::prelude::*;

    use crate::db::schema::app_settings;

    fn put(c: &mut super::DbConn, key: &str) -> Result<(), DbError> {
        diesel::insert_into(app_settings::table)
            .values((app_settings::key.eq(key), app_settings::value.eq("x")))
            .execute(c)?;
        Ok(())
    }

    /// Writes queued together share a transaction but not their fate: a
    /// refusal undoes its own writes only, a panic is answered as an error
    /// and the writer goes on, and every writer hears back after the
    /// commit (its row is there to read).
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn a_batch_keeps_each_write_apart() {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let path = std::env::temp_dir().join(format!("group-{}-{nanos}.db", std::process::id()));
        let url = DbUrl::Sqlite(path.to_string_lossy().into_owned());
        let pool = build_pool(&url, 4).unwrap();
        run_migrations(&mut pool.get().unwrap()).unwrap();
        let db = Db::new(pool, &url);
        let mut jobs = Vec::new();
        for i in 0..90 {
            let db = db.clone();
            jobs.push(tokio::spawn(async move {
                let key = format!("group.test.{i}");
                let k = key.clone();
                let r = db
                    .write(move |c| -> Result<(), DbError> {
                        put(c, &k)?;
                        match i % 3 {
                            0 => Ok(()),
                            1 => Err(DbError::Task("refused".into())),
                            _ if i % 9 == 2 => panic!("a write panics"),
                            _ => Ok(()),
                        }
                    })
                    .await;
                // Answered after the commit: a read sees the row at once.
                let there = db
                    .read(move |c| -> Result<bool, DbError> {
                        Ok(app_settings::table
                            .find(&key)
                            .count()
                            .get_result::<i64>(c)?
                            == 1)
                    })
                    .await
                    .unwrap();
                (i, r.is_ok(), there)
            }));
        }
        for j in jobs {
            let (i, ok, there) = j.await.unwrap();
            let kept = i % 3 == 0 || (i % 3 == 2 && i % 9 != 2);
            assert_eq!(ok, kept, "write {i}");
            assert_eq!(there, kept, "write {i}'s row");
        }
        drop(db);
        let _ = std::fs::remove_file(&path);
    }
}
