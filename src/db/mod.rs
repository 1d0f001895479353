//! The database: one diesel schema over SQLite (default, a file) and
//! PostgreSQL (when the URL says `postgres://`), one code path through
//! [`DbConn`], an r2d2 pool, and migrations embedded per backend.

pub mod audit;
mod autocommit;
pub mod backup;
pub mod circuits;
mod clock;
pub mod directory;
pub mod export;
mod group;
pub mod import;
pub mod import_teams;
pub mod individual;
mod lazy;
pub mod members;
pub mod online_entries;
pub mod outbox;
pub mod pairs;
pub mod penalties;
pub mod people;
pub mod rate_limits;
mod revision_conns;
pub mod revisions;
pub mod rounds;
pub mod schema;
pub mod scoring;
pub mod settings;
pub mod staff;
pub mod table_side;
pub mod teams;
pub mod tokens;
pub mod tournaments;
pub mod types;
mod url;
pub mod users;

pub use clock::Clock;
pub use lazy::Lazy;
pub use url::DbUrl;

use crate::ids::TournamentId;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use diesel::connection::SimpleConnection;
use diesel::pg::PgConnection;
use diesel::r2d2::{self, ManageConnection, R2D2Connection};
use diesel::sqlite::SqliteConnection;
use diesel::Connection;
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};

/// Migrations for each backend; the folders carry the same names (a test checks).
pub const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");
pub const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");

/// A connection to either backend; every query in `src/db` goes through it.
#[derive(diesel::MultiConnection)]
pub enum DbConn {
    Postgres(PgConnection),
    Sqlite(SqliteConnection),
}

/// SQLite settings applied to every pooled connection. WAL is a property of
/// the file: it is switched on once, before the pool opens (see [`build_pool`]),
/// because switching it from several new connections at once fails with
/// "database is locked".
///
/// `mmap_size`: reads go through memory-mapped pages rather than a `pread`
/// per page. Every write empties the other connections' page caches, so
/// the first public page after a change reads the whole tournament cold
/// (a megabyte of sheets for 300 pairs × 8 rounds); mapped, that read took
/// 1.2 ms instead of 2.8 ms (the address space is reserved, not memory).
const SQLITE_PRAGMAS: &str = "PRAGMA busy_timeout = 10000; \
     PRAGMA foreign_keys = ON; \
     PRAGMA synchronous = NORMAL; \
     PRAGMA mmap_size = 268435456;";

/// Opens connections for the pool, choosing the backend from the URL (never by
/// trial: a PostgreSQL URL that does not answer must not become a SQLite file).
#[derive(Debug, Clone)]
pub struct DbManager {
    url: DbUrl,
}

impl DbManager {
    pub fn new(url: DbUrl) -> Self {
        DbManager { url }
    }
}

impl ManageConnection for DbManager {
    type Connection = DbConn;
    type Error = r2d2::Error;

    fn connect(&self) -> Result<DbConn, r2d2::Error> {
        match &self.url {
            DbUrl::Postgres(url) => {
                let mut conn =
                    PgConnection::establish(url).map_err(r2d2::Error::ConnectionError)?;
                // Instants are TIMESTAMPTZ and the code speaks UTC: the
                // session's zone must not depend on the server's settings.
                conn.batch_execute("SET TIME ZONE 'UTC'")
                    .map_err(r2d2::Error::QueryError)?;
                Ok(DbConn::Postgres(conn))
            }
            DbUrl::Sqlite(path) => {
                let mut conn =
                    SqliteConnection::establish(path).map_err(r2d2::Error::ConnectionError)?;
                conn.batch_execute(SQLITE_PRAGMAS)
                    .map_err(r2d2::Error::QueryError)?;
                Ok(DbConn::Sqlite(conn))
            }
        }
    }

    fn is_valid(&self, conn: &mut DbConn) -> Result<(), r2d2::Error> {
        conn.ping().map(|_| ()).map_err(r2d2::Error::QueryError)
    }

    fn has_broken(&self, conn: &mut DbConn) -> bool {
        conn.is_broken()
    }
}

pub type Pool = r2d2::Pool<DbManager>;
pub type PooledConn = r2d2::PooledConnection<DbManager>;

/// The one way to reach the database. Reads run on any pooled connection;
/// every write runs in one transaction through [`Db::write`]. On SQLite the
/// writes of this process queue for one writer thread, which commits the
/// writes queued together in one transaction, each in its own savepoint
/// ([`group`]); each transaction takes the file's write lock with its
/// first statement (as `BEGIN IMMEDIATE` would), so a writer never fails
/// half-way with "database is locked".
/// PostgreSQL takes writes concurrently; use cases serialise on row locks
/// (see `services`).
#[derive(Clone)]
pub struct Db {
    pool: Pool,
    writer: Option<Arc<Mutex<()>>>,
    /// SQLite: the writer thread that commits queued writes together
    /// (see [`group`]).
    group: Option<Arc<group::GroupWriter>>,
    /// Revisions written by this process (see [`revisions`]).
    revisions: Arc<revisions::Revisions>,
    /// Shared fresh reads of revisions (PostgreSQL).
    fresh: Arc<revisions::FreshReads>,
    /// Shared fresh reads of circuits' revisions (both backends: a
    /// circuit's revision sums its stages', see [`circuits`]).
    fresh_circuits: Arc<revisions::FreshReads>,
    /// PostgreSQL: a few connections for those reads alone, not pinged on
    /// every checkout (see [`Db::read_revision`]).
    revision_pool: Option<r2d2::Pool<revision_conns::RevisionManager>>,
    /// PostgreSQL: connections for the brakes' single statements, each
    /// committing alone (see [`autocommit`]).
    autocommit_pool: Option<r2d2::Pool<autocommit::AutocommitManager>>,
    /// The sheets the public pages have read, by version (see
    /// [`export::SheetVersions`]).
    sheet_versions: Arc<export::SheetVersions>,
    /// The one limiter of every door (see [`rate_limits`]).
    limiter: Arc<rate_limits::Limiter>,
    /// The time decisions are taken at (sessions, the limiter, the round
    /// clock): the system's, moved forward by tests instead of sleeping.
    clock: Clock,
}

/// Why [`Db::take_attempts`] rolls its transaction back.
enum TakeFailed {
    Refused(rate_limits::Verdict),
    Db(DbError),
}

impl From<DbError> for TakeFailed {
    fn from(e: DbError) -> Self {
        TakeFailed::Db(e)
    }
}

impl From<diesel::result::Error> for TakeFailed {
    fn from(e: diesel::result::Error) -> Self {
        TakeFailed::Db(e.into())
    }
}

impl Db {
    pub fn new(pool: Pool, url: &DbUrl) -> Db {
        let writer = matches!(url, DbUrl::Sqlite(_)).then(|| Arc::new(Mutex::new(())));
        let revision_pool = matches!(url, DbUrl::Postgres(_)).then(|| {
            r2d2::Pool::builder()
                .max_size(revision_conns::POOL_SIZE)
                .min_idle(Some(1))
                .test_on_check_out(false)
                .connection_timeout(Duration::from_secs(10))
                // Opens its connections in the background: never fails here.
                .build_unchecked(revision_conns::RevisionManager(DbManager::new(url.clone())))
        });
        let autocommit_pool = matches!(url, DbUrl::Postgres(_)).then(|| {
            r2d2::Pool::builder()
                .max_size(autocommit::POOL_SIZE)
                .min_idle(Some(1))
                .connection_timeout(Duration::from_secs(10))
                .build_unchecked(autocommit::AutocommitManager(DbManager::new(url.clone())))
        });
        let group = writer
            .as_ref()
            .map(|lock| Arc::new(group::GroupWriter::start(pool.clone(), lock.clone())));
        Db {
            pool,
            writer,
            group,
            revisions: Arc::default(),
            fresh: Arc::default(),
            fresh_circuits: Arc::default(),
            revision_pool,
            autocommit_pool,
            sheet_versions: Arc::default(),
            limiter: Arc::default(),
            clock: Clock::default(),
        }
    }

    /// The clock decisions are taken at.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Now, by this database's clock.
    pub fn now(&self) -> chrono::NaiveDateTime {
        self.clock.now()
    }

    /// The same database with the limiter's allowances of `policy`.
    pub fn with_rate_policy(mut self, policy: rate_limits::Policy) -> Db {
        self.limiter = Arc::new(rate_limits::Limiter::new(policy));
        self
    }

    /// The limiter, for use cases that take an attempt inside a transaction
    /// of their own.
    pub fn limiter(&self) -> Arc<rate_limits::Limiter> {
        self.limiter.clone()
    }

    /// Takes one attempt from each key's allowance, in one write
    /// transaction, before the caller checks anything; when any key has
    /// nothing left the transaction is rolled back (a refused attempt
    /// takes nothing) and the answer says how long to wait.
    pub async fn take_attempts(
        &self,
        keys: Vec<rate_limits::Key>,
    ) -> Result<rate_limits::Verdict, DbError> {
        let limiter = self.limiter.clone();
        let now = self.clock.now_ms();
        let taken = self
            .write(move |c| {
                commit_lazily(c, Lazy::Forgettable)?;
                match limiter.take_all(c, &keys, now)? {
                    rate_limits::Verdict::Granted => Ok(rate_limits::Verdict::Granted),
                    refused => Err(TakeFailed::Refused(refused)),
                }
            })
            .await;
        self.prune_attempts_in_background();
        match taken {
            Ok(v) | Err(TakeFailed::Refused(v)) => Ok(v),
            Err(TakeFailed::Db(e)) => Err(e),
        }
    }

    /// Gives back the attempt `key` took (a right answer), in a write of
    /// its own.
    pub async fn give_back_attempt(&self, key: rate_limits::Key) -> Result<(), DbError> {
        let limiter = self.limiter.clone();
        self.write(move |c| -> Result<(), DbError> { Ok(limiter.give_back(c, &key)?) })
            .await
    }

    /// Forgets `key` (its allowance is whole again).
    pub async fn forget_attempts(&self, key: rate_limits::Key) -> Result<(), DbError> {
        self.write(move |c| -> Result<(), DbError> { Ok(rate_limits::forget(c, &key)?) })
            .await
    }

    /// Every so many attempts, the limiter's table is pruned in the
    /// background (the attempt that falls due does not wait for it).
    pub fn prune_attempts_in_background(&self) {
        if self.limiter.prune_due() {
            let this = self.clone();
            tokio::spawn(async move { this.prune_attempts().await });
        }
    }

    /// Prunes the limiter's table now, in a transaction of its own that
    /// does not wait for the disk (a crash only leaves rows for next time).
    async fn prune_attempts(&self) {
        let max_rows = self.limiter.policy().max_rows;
        let now = self.clock.now_ms();
        let pruned = self
            .write(move |c| -> Result<usize, DbError> {
                commit_lazily(c, Lazy::Forgettable)?;
                Ok(rate_limits::prune(c, now, max_rows)?)
            })
            .await;
        match pruned {
            Ok(n) => tracing::debug!(rows = n, "rate limits pruned"),
            Err(e) => tracing::warn!(error = %e, "rate limits not pruned"),
        }
    }

    /// The sheets this database's public pages have read, by version.
    pub fn sheet_versions(&self) -> Arc<export::SheetVersions> {
        self.sheet_versions.clone()
    }

    /// The current revision of tournament `tid` (`None`: no such
    /// tournament). SQLite: from this process's memory, read from the
    /// database on first use. PostgreSQL: from a primary-key read that
    /// started after this call, shared by the requests waiting together,
    /// because another instance may have written (see [`revisions`]).
    pub async fn revision(&self, tid: TournamentId) -> Result<Option<i64>, DbError> {
        if self.writer.is_some() {
            if let Some(r) = self.revisions.known(tid.0) {
                return Ok(Some(r));
            }
            let read = self.read_revision(tid).await?;
            return Ok(read.map(|r| self.revisions.observe(tid.0, r)));
        }
        self.fresh
            .read(tid.0, || async move {
                self.read_revision(tid).await.map_err(|e| e.to_string())
            })
            .await
            .map_err(DbError::Task)
    }

    /// The revision a circuit's public pages are cached by
    /// ([`circuits::revision`]), from a read that started after this call,
    /// shared by the requests that wait together (one read per round trip
    /// under load, as for tournaments on PostgreSQL).
    pub async fn circuit_revision(
        &self,
        cid: crate::ids::CircuitId,
    ) -> Result<Option<i64>, DbError> {
        self.fresh_circuits
            .read(cid.0, || async move {
                self.read(move |c| Ok::<_, DbError>(circuits::revision(c, cid)?))
                    .await
                    .map_err(|e| e.to_string())
            })
            .await
            .map_err(DbError::Task)
    }

    /// One primary-key read of a revision. On PostgreSQL, where every
    /// public request waits for one (shared, see [`revisions::FreshReads`]),
    /// it runs on connections of its own that are not pinged at checkout
    /// (r2d2's `SELECT 1` doubled its round trips); a connection found
    /// broken by the read itself is dropped and the read tried once more on
    /// another, so a database restart costs no error page.
    async fn read_revision(&self, tid: TournamentId) -> Result<Option<i64>, DbError> {
        fn query(c: &mut DbConn, tid: TournamentId) -> Result<Option<i64>, DbError> {
            use diesel::prelude::*;
            Ok(schema::tournaments::table
                .find(tid)
                .select(schema::tournaments::revision)
                .first::<i64>(c)
                .optional()?)
        }
        let Some(pool) = self.revision_pool.clone() else {
            return self.read(move |c| query(c, tid)).await;
        };
        tokio::task::spawn_blocking(move || {
            let mut result = Err(DbError::Task("revision read".into()));
            for _ in 0..2 {
                let mut conn = pool.get().map_err(DbError::from)?;
                result = query(&mut conn, tid);
                if result.is_ok() {
                    break;
                }
                // Returned now, on this thread: the pool drops it.
                revision_conns::mark_failed();
                drop(conn);
            }
            result
        })
        .await
        .map_err(|e| DbError::Task(e.to_string()))?
    }

    /// What this process knows of the revisions (tests, diagnostics).
    pub fn revisions(&self) -> &revisions::Revisions {
        &self.revisions
    }

    pub fn pool(&self) -> &Pool {
        &self.pool
    }

    /// Runs `f` on a pooled connection, off the async workers.
    pub async fn read<T, E>(
        &self,
        f: impl FnOnce(&mut DbConn) -> Result<T, E> + Send + 'static,
    ) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
    {
        let pool = self.pool.clone();
        tokio::task::spawn_blocking(move || {
            let mut conn = pool.get().map_err(DbError::from)?;
            f(&mut conn)
        })
        .await
        .map_err(|e| E::from(DbError::Task(e.to_string())))?
    }

    /// Runs `f` in one write transaction, off the async workers: committed
    /// when `f` returns `Ok`, rolled back (nothing saved) when it returns
    /// `Err`. On SQLite the transaction may hold other writes queued with
    /// it, each in its savepoint (see [`group`]); `f` hears back after the
    /// commit either way.
    pub async fn write<T, E>(
        &self,
        f: impl FnOnce(&mut DbConn) -> Result<T, E> + Send + 'static,
    ) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<DbError> + From<diesel::result::Error> + Send + 'static,
    {
        if let Some(group) = &self.group {
            return group.write(self.revisions.clone(), f).await;
        }
        let this = self.clone();
        tokio::task::spawn_blocking(move || this.write_blocking(f))
            .await
            .map_err(|e| E::from(DbError::Task(e.to_string())))?
    }

    /// [`Db::write`] with the time of the write by this database's clock
    /// (read inside the transaction).
    pub async fn write_at<T, E>(
        &self,
        f: impl FnOnce(&mut DbConn, chrono::NaiveDateTime) -> Result<T, E> + Send + 'static,
    ) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<DbError> + From<diesel::result::Error> + Send + 'static,
    {
        let clock = self.clock.clone();
        self.write(move |c| f(c, clock.now())).await
    }

    /// [`Db::write`] for callers that are not async (the command line).
    pub fn write_blocking<T, E>(&self, f: impl FnOnce(&mut DbConn) -> Result<T, E>) -> Result<T, E>
    where
        E: From<DbError> + From<diesel::result::Error>,
    {
        let _guard = self
            .writer
            .as_ref()
            .map(|m| m.lock().unwrap_or_else(|poisoned| poisoned.into_inner()));
        let mut conn = self.pool.get().map_err(DbError::from)?;
        let sqlite = matches!(*conn, DbConn::Sqlite(_));
        revisions::take_pending();
        lazy::take();
        let result = conn.transaction(|c| {
            if sqlite {
                // A write as the first statement takes SQLite's write lock now
                // (waiting up to busy_timeout), before anything is read.
                c.batch_execute("UPDATE app_settings SET value = value WHERE 0 = 1")?;
            }
            f(c)
        });
        // Committed: the revisions bumped are now everybody's (before the
        // writer hears back). Rolled back: they never happened.
        let bumped = revisions::take_pending();
        let lazy = lazy::take();
        if result.is_ok() && lazy == Lazy::FlushBeforeAnswer {
            // The commit did not wait for the disk: this one does, and
            // the log is written in order, so the write is durable before
            // its writer hears back. Many of these wait together (one
            // flush for all), none of them holding a lock. One statement
            // outside a transaction is a transaction of its own: given an
            // id, it commits, and the commit waits for the disk.
            conn.batch_execute("SELECT txid_current()")?;
        }
        if result.is_ok() {
            for (tid, rev) in bumped {
                self.revisions.observe(tid, rev);
            }
        }
        result
    }

    /// [`Db::read`] for callers that are not async.
    pub fn read_blocking<T, E>(&self, f: impl FnOnce(&mut DbConn) -> Result<T, E>) -> Result<T, E>
    where
        E: From<DbError>,
    {
        let mut conn = self.pool.get().map_err(DbError::from)?;
        f(&mut conn)
    }
}

/// Lets the write transaction running on this thread (inside
/// `Db::write`) commit without waiting for the disk (PostgreSQL's
/// `synchronous_commit = off`, for this transaction only; SQLite already
/// commits to its write-ahead log without a sync). Rolled back with the
/// savepoint it is set in.
pub fn commit_lazily(conn: &mut DbConn, how: Lazy) -> diesel::QueryResult<()> {
    if let DbConn::Postgres(_) = conn {
        conn.batch_execute("SET LOCAL synchronous_commit = off")?;
        lazy::note(how);
    }
    Ok(())
}

/// Builds the pool. SQLite gets a small pool (one writer at a time anyway).
pub fn build_pool(url: &DbUrl, max_size: u32) -> Result<Pool, r2d2::PoolError> {
    if let DbUrl::Sqlite(path) = url {
        // Best effort: if this fails, the pool's own error will say why.
        if let Ok(mut conn) = SqliteConnection::establish(path) {
            let _ = conn.batch_execute("PRAGMA busy_timeout = 10000; PRAGMA journal_mode = WAL;");
        }
    }
    r2d2::Pool::builder()
        .max_size(max_size)
        .min_idle(Some(1))
        .connection_timeout(Duration::from_secs(10))
        .build(DbManager::new(url.clone()))
}

/// The key of the PostgreSQL advisory lock held while migrating, so that
/// several instances starting together migrate one after the other.
const MIGRATION_LOCK_KEY: i64 = i64::from_be_bytes(*b"\0burraco");

/// Runs every pending migration of the connection's backend.
pub fn run_migrations(conn: &mut DbConn) -> anyhow::Result<usize> {
    let applied = match conn {
        DbConn::Postgres(c) => {
            c.batch_execute(&format!("SELECT pg_advisory_lock({MIGRATION_LOCK_KEY})"))?;
            let result = c
                .run_pending_migrations(POSTGRES_MIGRATIONS)
                .map(|v| v.len())
                .map_err(|e| anyhow::anyhow!("PostgreSQL migrations failed: {e}"));
            c.batch_execute(&format!("SELECT pg_advisory_unlock({MIGRATION_LOCK_KEY})"))?;
            result?
        }
        DbConn::Sqlite(c) => c
            .run_pending_migrations(SQLITE_MIGRATIONS)
            .map_err(|e| anyhow::anyhow!("SQLite migrations failed: {e}"))?
            .len(),
    };
    Ok(applied)
}

/// Errors of the data layer, mapped once to pages and JSON in `crate::error`.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("database unavailable: {0}")]
    Pool(#[from] r2d2::PoolError),
    #[error("database error: {0}")]
    Query(#[from] diesel::result::Error),
    #[error("a database task failed: {0}")]
    Task(String),
}

/// A stored row that cannot be read: an error that names it, never a
/// result quietly missing from the standings.
pub fn unreadable(what: impl std::fmt::Display) -> diesel::result::Error {
    diesel::result::Error::DeserializationError(
        format!("stored data cannot be read: {what}").into(),
    )
}

/// Whether the database answers a trivial query (the health check).
pub fn ping(conn: &mut DbConn) -> diesel::QueryResult<()> {
    use diesel::connection::SimpleConnection;
    conn.batch_execute("SELECT 1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_scheme_picks_the_backend() {
        assert!(matches!(
            DbUrl::parse("postgres://u@h/db"),
            DbUrl::Postgres(_)
        ));
        assert!(matches!(
            DbUrl::parse("postgresql://u@h/db"),
            DbUrl::Postgres(_)
        ));
        assert_eq!(
            DbUrl::parse("burraco.db"),
            DbUrl::Sqlite("burraco.db".into())
        );
        assert_eq!(
            DbUrl::parse("sqlite://x/y.db"),
            DbUrl::Sqlite("x/y.db".into())
        );
    }

    #[test]
    fn passwords_never_reach_the_logs() {
        let url = DbUrl::parse("postgres://td:s3cret@db.example:5432/burraco");
        assert_eq!(url.redacted(), "postgres://td:***@db.example:5432/burraco");
        assert!(!format!("{url:?}").contains("s3cret"));
        let url = DbUrl::parse("postgres://td@db/burraco?sslmode=require&password=s3cret");
        assert_eq!(
            url.redacted(),
            "postgres://td@db/burraco?sslmode=require&password=***"
        );
    }

    /// The team migrations go down and up again on SQLite (the rounds
    /// table rebuilt twice, outside diesel's transaction), keeping a round
    /// and what points at it.
    #[test]
    fn the_team_migrations_revert_and_run_again_on_sqlite() {
        use diesel::connection::SimpleConnection;
        use diesel::Connection;
        let mut c = diesel::SqliteConnection::establish(":memory:").unwrap();
        c.batch_execute("PRAGMA foreign_keys = ON;").unwrap();
        c.run_pending_migrations(SQLITE_MIGRATIONS).unwrap();
        c.batch_execute(
            "INSERT INTO tournaments (name, starts_at, venue, profile, planned_rounds, hands_per_round, \
             vp_scale, minutes_per_round, mitchell_rounds, danish_modified, mitchell_advance, allow_repeats, \
             bye_vp, entry_fee_cents, prize_share_percent, guaranteed_pool_cents, payout, suit_order, status, \
             created_at, updated_at) VALUES ('t', '2026-11-27 20:00:00', '', 'codice', 3, 3, '', 40, 3, 1, 1, 0, \
             14, 0, '0', 0, '1: 100', 'HDCS', 'running', '2026-11-27 20:00:00', '2026-11-27 20:00:00'); \
             INSERT INTO rounds (tournament_id, number, movement, created_at) VALUES (1, 1, 'mitchell', '2026-11-27 20:00:00'); \
             INSERT INTO seatings (round_id, table_no) VALUES (1, 1);",
        )
        .unwrap();
        c.revert_last_migration(SQLITE_MIGRATIONS).unwrap();
        c.revert_last_migration(SQLITE_MIGRATIONS).unwrap();
        c.run_pending_migrations(SQLITE_MIGRATIONS).unwrap();
        #[derive(diesel::QueryableByName)]
        struct N {
            #[diesel(sql_type = diesel::sql_types::BigInt)]
            n: i64,
        }
        let count = |c: &mut diesel::SqliteConnection, sql: &str| {
            diesel::RunQueryDsl::get_result::<N>(diesel::sql_query(sql), c)
                .unwrap()
                .n
        };
        assert_eq!(count(&mut c, "SELECT COUNT(*) AS n FROM rounds"), 1);
        assert_eq!(
            count(
                &mut c,
                "SELECT COUNT(*) AS n FROM seatings WHERE round_id = 1"
            ),
            1
        );
        // The rebuilt table takes a round-robin round and keeps its
        // foreign keys (a seating of no round is refused).
        c.batch_execute("INSERT INTO rounds (tournament_id, number, movement, created_at) VALUES (1, 2, 'round_robin', '2026-11-27 20:00:00');")
            .unwrap();
        assert!(c
            .batch_execute("INSERT INTO seatings (round_id, table_no) VALUES (99, 1);")
            .is_err());
    }

    #[test]
    fn migrations_have_the_same_names_on_both_backends() {
        let names = |dir: &str| {
            let mut v: Vec<String> = std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            v.sort();
            v
        };
        let root = env!("CARGO_MANIFEST_DIR");
        let sqlite = names(&format!("{root}/migrations/sqlite"));
        let pg = names(&format!("{root}/migrations/postgres"));
        assert!(!sqlite.is_empty());
        assert_eq!(sqlite, pg);
        for m in &sqlite {
            for f in ["up.sql", "down.sql"] {
                assert!(
                    std::path::Path::new(&format!("{root}/migrations/sqlite/{m}/{f}")).exists()
                );
                assert!(
                    std::path::Path::new(&format!("{root}/migrations/postgres/{m}/{f}")).exists()
                );
            }
        }
    }
}
