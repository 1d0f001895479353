//! One limiter for every door: logins, pair codes and table-code lookups
//! (crates.io's `rate_limiter` is the model). Each target has a token
//! bucket in `rate_limits`: `burst` attempts at once, then one more every
//! `every`. An attempt is **taken before anything is checked**, by one
//! statement that refills, takes and returns the bucket atomically
//! (`INSERT … ON CONFLICT DO UPDATE … RETURNING`, on both backends), so N
//! concurrent guesses get at most the allowance checked, whichever instance
//! they reach; only then does the caller look at the password or the code.
//!
//! Targets are SHA-256 hashes of what the attempt is about (the account and
//! the client address, the address alone, the table code and the address),
//! never what the client sent. Instants are milliseconds since 1970, passed
//! in (`now`), so the arithmetic is the same integer arithmetic on SQLite
//! and PostgreSQL and the tests need no sleeps. A row whose bucket is full
//! again expires (`expires_at`), and the table is kept under a bound.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Integer, Text};
use sha2::{Digest, Sha256};

use super::DbConn;

/// What an attempt is at; each action has its own allowance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Action {
    /// A password for one account from one client address.
    Login,
    /// Any password from one client address (more lenient: a club's staff
    /// may share an address).
    LoginAddress,
    /// A pair code at one table from one client address.
    PairCode,
    /// A table code that names no table, from one client address.
    TableLookup,
    /// An entry from the public form, from one client address (issue 36).
    Entry,
}

impl Action {
    pub const ALL: [Action; 5] = [
        Action::Login,
        Action::LoginAddress,
        Action::PairCode,
        Action::TableLookup,
        Action::Entry,
    ];

    /// The stored name (`rate_limits.action`).
    pub fn code(self) -> &'static str {
        match self {
            Action::Login => "login",
            Action::LoginAddress => "login_address",
            Action::PairCode => "pair_code",
            Action::TableLookup => "table_lookup",
            Action::Entry => "entry",
        }
    }
}

/// How many attempts a target gets: `burst` at once, then one more each
/// `every` (a token bucket).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Allowance {
    pub burst: u32,
    pub every: Duration,
}

impl Allowance {
    fn burst(self) -> i64 {
        i64::from(self.burst.max(1))
    }

    fn every_ms(self) -> i64 {
        i64::try_from(self.every.as_millis())
            .unwrap_or(i64::MAX / 4)
            .max(1)
    }

    /// Attempts in a span of `d` from a full bucket (the tests' bound).
    pub fn within(self, d: Duration) -> u64 {
        let every = u64::try_from(self.every_ms()).unwrap_or(u64::MAX);
        u64::from(self.burst.max(1)) + u64::try_from(d.as_millis()).unwrap_or(u64::MAX) / every
    }
}

/// The allowance of each action and the table's bound: data, not literals
/// in the code that uses them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// One account from one address: 5 at once, then one every 4 minutes
    /// (about 15 an hour).
    pub login: Allowance,
    /// One address, whatever the account: 30 at once, then one a minute.
    pub login_address: Allowance,
    /// One table from one address: 10 at once, then one a minute (a table
    /// needs two or three codes a round).
    pub pair_code: Allowance,
    /// Unknown table codes from one address: 60 at once, then one every 10 s.
    /// A code that names a table gives its attempt back, so a hall behind
    /// one address never runs out.
    pub table_lookup: Allowance,
    /// Entries from one address: 60 at once, then one every 20 s. Every
    /// entry counts, taken or refused: a club entering its thirty pairs
    /// from one address gets them all in, a script flooding the form stops.
    pub entry: Allowance,
    /// The most rows the table keeps; the buckets closest to full go first.
    pub max_rows: i64,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            login: Allowance {
                burst: 5,
                every: Duration::from_secs(4 * 60),
            },
            login_address: Allowance {
                burst: 30,
                every: Duration::from_secs(60),
            },
            pair_code: Allowance {
                burst: 10,
                every: Duration::from_secs(60),
            },
            table_lookup: Allowance {
                burst: 60,
                every: Duration::from_secs(10),
            },
            entry: Allowance {
                burst: 60,
                every: Duration::from_secs(20),
            },
            max_rows: 50_000,
        }
    }
}

impl Policy {
    pub fn allowance(&self, action: Action) -> Allowance {
        match action {
            Action::Login => self.login,
            Action::LoginAddress => self.login_address,
            Action::PairCode => self.pair_code,
            Action::TableLookup => self.table_lookup,
            Action::Entry => self.entry,
        }
    }
}

/// A target: an action and the SHA-256 of what it is about.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    action: Action,
    hash: String,
}

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}…", self.action.code(), &self.hash[..8])
    }
}

impl Key {
    /// The key of `action` about `parts` (length-prefixed, so that no two
    /// different lists hash alike).
    pub fn new(action: Action, parts: &[&str]) -> Key {
        let mut h = Sha256::new();
        h.update(b"burraco-td rate limit v1\0");
        h.update(action.code().as_bytes());
        for p in parts {
            h.update((p.len() as u64).to_be_bytes());
            h.update(p.as_bytes());
        }
        Key {
            action,
            hash: hex::encode(h.finalize()),
        }
    }

    pub fn action(&self) -> Action {
        self.action
    }

    /// The stored hash (64 hex digits).
    pub fn hash(&self) -> &str {
        &self.hash
    }
}

/// What the limiter answers for an attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Taken from the allowance: go on and check.
    Granted,
    /// Nothing left: check nothing, answer 429 with this `Retry-After`.
    Refused { retry_after: Duration },
}

#[derive(Debug, QueryableByName)]
struct Bucket {
    #[diesel(sql_type = BigInt)]
    refilled_at: i64,
    #[diesel(sql_type = Integer)]
    granted: i32,
}

/// Refill, take, and remember when the bucket is full again, in one
/// statement. Parameters: $1 action, $2 key, $3 burst, $4 interval (ms),
/// $5 now (ms). In `DO UPDATE SET` every expression reads the row as it was
/// (both backends), and the conflicting row is locked while it runs.
const TAKE: &str = "\
INSERT INTO rate_limits (action, key, tokens, refilled_at, granted, expires_at) \
VALUES ($1, $2, $3 - 1, $5, 1, $5 + $4) \
ON CONFLICT (action, key) DO UPDATE SET \
  tokens = CASE WHEN {avail} > 0 THEN {avail} - 1 ELSE 0 END, \
  refilled_at = {refilled}, \
  granted = CASE WHEN {avail} > 0 THEN 1 ELSE 0 END, \
  expires_at = {refilled} + ($3 - CASE WHEN {avail} > 0 THEN {avail} - 1 ELSE 0 END) * $4 \
RETURNING refilled_at, granted";

/// [`TAKE`] for an attempt that is right: refill and answer whether an
/// attempt is left, taking none (what taking one and giving it back comes
/// to, in one statement that locks the bucket as a take does, so that it
/// waits for the takes before it and they for it). A new bucket is full
/// and expires at once. Same parameters.
const CHECK: &str = "\
INSERT INTO rate_limits (action, key, tokens, refilled_at, granted, expires_at) \
VALUES ($1, $2, $3, $5, 1, $5) \
ON CONFLICT (action, key) DO UPDATE SET \
  tokens = {avail}, \
  refilled_at = {refilled}, \
  granted = CASE WHEN {avail} > 0 THEN 1 ELSE 0 END, \
  expires_at = {refilled} + ($3 - {avail}) * $4 \
RETURNING refilled_at, granted";

/// Whole intervals since the last refill (never negative: two instances'
/// clocks may differ a little).
const GAINED: &str = "(CASE WHEN $5 > rate_limits.refilled_at \
     THEN ($5 - rate_limits.refilled_at) / $4 ELSE 0 END)";

/// A token back, never past the burst. $1 action, $2 key, $3 burst, $4 interval.
const GIVE_BACK: &str = "\
UPDATE rate_limits SET \
  tokens = CASE WHEN tokens + 1 > $3 THEN $3 ELSE tokens + 1 END, \
  expires_at = refilled_at + ($3 - CASE WHEN tokens + 1 > $3 THEN $3 ELSE tokens + 1 END) * $4 \
WHERE action = $1 AND key = $2";

fn take_sql() -> String {
    bucket_sql(TAKE)
}

fn bucket_sql(template: &str) -> String {
    let sum = format!("(rate_limits.tokens + {GAINED})");
    let avail = format!("(CASE WHEN {sum} > $3 THEN $3 ELSE {sum} END)");
    let refilled =
        format!("(CASE WHEN {sum} >= $3 THEN $5 ELSE rate_limits.refilled_at + {GAINED} * $4 END)");
    template
        .replace("{avail}", &avail)
        .replace("{refilled}", &refilled)
}

/// The statement in the connection's dialect: written with PostgreSQL's
/// `$n`, which SQLite reads as `?n` (numbered, in any order).
fn dialect(conn: &DbConn, sql: &str) -> String {
    match conn {
        DbConn::Postgres(_) => sql.to_string(),
        DbConn::Sqlite(_) => sql.replace('$', "?"),
    }
}

/// Takes one attempt from `key`'s bucket at `now`. Run it before anything
/// the attempt is about is read; a refused attempt takes nothing.
pub fn take(conn: &mut DbConn, key: &Key, a: Allowance, now: i64) -> QueryResult<Verdict> {
    run_bucket(conn, &take_sql(), key, a, now)
}

/// Whether `key` has an attempt left at `now`, taking none: for an
/// attempt already known to be right, where taking one and giving it back
/// would come to the same (see [`CHECK`]). Run in the transaction that
/// answers the attempt.
pub fn check(conn: &mut DbConn, key: &Key, a: Allowance, now: i64) -> QueryResult<Verdict> {
    run_bucket(conn, &bucket_sql(CHECK), key, a, now)
}

fn run_bucket(
    conn: &mut DbConn,
    sql: &str,
    key: &Key,
    a: Allowance,
    now: i64,
) -> QueryResult<Verdict> {
    let sql = dialect(conn, sql);
    macro_rules! run {
        ($c:expr) => {
            diesel::sql_query(sql)
                .bind::<Text, _>(key.action.code())
                .bind::<Text, _>(&key.hash)
                .bind::<BigInt, _>(a.burst())
                .bind::<BigInt, _>(a.every_ms())
                .bind::<BigInt, _>(now)
                .get_result::<Bucket>($c)
        };
    }
    let b = match conn {
        DbConn::Postgres(c) => run!(c)?,
        DbConn::Sqlite(c) => run!(c)?,
    };
    if b.granted != 0 {
        return Ok(Verdict::Granted);
    }
    let next = b.refilled_at.saturating_add(a.every_ms());
    let wait_ms = u64::try_from(next.saturating_sub(now)).unwrap_or(0);
    Ok(Verdict::Refused {
        retry_after: Duration::from_millis(wait_ms),
    })
}

/// Gives one attempt back to `key` (never past its burst).
pub fn give_back(conn: &mut DbConn, key: &Key, a: Allowance) -> QueryResult<()> {
    let sql = dialect(conn, GIVE_BACK);
    macro_rules! run {
        ($c:expr) => {
            diesel::sql_query(sql)
                .bind::<Text, _>(key.action.code())
                .bind::<Text, _>(&key.hash)
                .bind::<BigInt, _>(a.burst())
                .bind::<BigInt, _>(a.every_ms())
                .execute($c)
        };
    }
    match conn {
        DbConn::Postgres(c) => run!(c)?,
        DbConn::Sqlite(c) => run!(c)?,
    };
    Ok(())
}

/// Forgets `key`: its bucket is full again.
pub fn forget(conn: &mut DbConn, key: &Key) -> QueryResult<()> {
    use super::schema::rate_limits::dsl;
    diesel::delete(
        dsl::rate_limits
            .filter(dsl::action.eq(key.action.code()))
            .filter(dsl::key.eq(&key.hash)),
    )
    .execute(conn)
    .map(|_| ())
}

/// Keeps the table small: deletes the buckets full again at `now`, then,
/// past `max_rows`, those closest to full. On PostgreSQL rows another
/// transaction holds are skipped (never waited for: no deadlock with the
/// attempts being taken). Returns how many rows went.
pub fn prune(conn: &mut DbConn, now: i64, max_rows: i64) -> QueryResult<usize> {
    let lock = match conn {
        DbConn::Postgres(_) => " FOR UPDATE SKIP LOCKED",
        DbConn::Sqlite(_) => "",
    };
    let expired = dialect(
        conn,
        &format!(
            "DELETE FROM rate_limits WHERE (action, key) IN (SELECT action, key \
             FROM rate_limits WHERE expires_at <= $1 LIMIT 10000{lock})"
        ),
    );
    let mut deleted = diesel::sql_query(expired)
        .bind::<BigInt, _>(now)
        .execute(conn)?;
    let excess = count(conn)? - max_rows.max(0);
    if excess > 0 {
        let oldest = dialect(
            conn,
            &format!(
                "DELETE FROM rate_limits WHERE (action, key) IN (SELECT action, key \
                 FROM rate_limits ORDER BY expires_at LIMIT $1{lock})"
            ),
        );
        deleted += diesel::sql_query(oldest)
            .bind::<BigInt, _>(excess)
            .execute(conn)?;
    }
    Ok(deleted)
}

/// How many rows the table holds.
pub fn count(conn: &mut DbConn) -> QueryResult<i64> {
    use super::schema::rate_limits::dsl;
    dsl::rate_limits.count().get_result(conn)
}

/// The limiter of one process: the policy, and when to prune.
#[derive(Debug, Default)]
pub struct Limiter {
    policy: Policy,
    takes: AtomicU64,
}

/// Every this many attempts a process prunes the table (in a transaction
/// of its own).
const PRUNE_EVERY: u64 = 128;

impl Limiter {
    pub fn new(policy: Policy) -> Limiter {
        Limiter {
            policy,
            takes: AtomicU64::new(0),
        }
    }

    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// Takes one attempt from each key, in the caller's transaction, in one
    /// order (so that two transactions never wait for each other's rows).
    /// Refused when any key is: the caller must then roll back, so that a
    /// refused attempt takes nothing from the others. The longest wait wins.
    pub fn take_all(&self, c: &mut DbConn, keys: &[Key], now: i64) -> QueryResult<Verdict> {
        let mut sorted: Vec<&Key> = keys.iter().collect();
        sorted.sort();
        sorted.dedup();
        let mut verdict = Verdict::Granted;
        for key in sorted {
            if let Verdict::Refused { retry_after } =
                take(c, key, self.policy.allowance(key.action), now)?
            {
                verdict = match verdict {
                    Verdict::Refused { retry_after: w } if w >= retry_after => verdict,
                    _ => Verdict::Refused { retry_after },
                };
            }
        }
        Ok(verdict)
    }

    /// [`check`] with this limiter's allowance for the key.
    pub fn check(&self, c: &mut DbConn, key: &Key, now: i64) -> QueryResult<Verdict> {
        check(c, key, self.policy.allowance(key.action), now)
    }

    pub fn give_back(&self, c: &mut DbConn, key: &Key) -> QueryResult<()> {
        give_back(c, key, self.policy.allowance(key.action))
    }

    /// True once every [`PRUNE_EVERY`] attempts of this process.
    pub fn prune_due(&self) -> bool {
        self.takes.fetch_add(1, Ordering::Relaxed) % PRUNE_EVERY == PRUNE_EVERY - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_hashes_separated_by_action_and_parts() {
        let a = Key::new(Action::Login, &["anna", "10.0.0.1"]);
        assert_eq!(a, Key::new(Action::Login, &["anna", "10.0.0.1"]));
        assert_ne!(a, Key::new(Action::Login, &["anna", "10.0.0.2"]));
        assert_ne!(a, Key::new(Action::Login, &["anna10.0.0.1"]));
        assert_ne!(
            a.hash,
            Key::new(Action::PairCode, &["anna", "10.0.0.1"]).hash
        );
        assert_eq!(a.hash.len(), 64);
        assert!(!a.hash.contains("anna"));
        assert!(!format!("{a:?}").contains("anna"));
    }

    #[test]
    fn the_statement_speaks_both_dialects() {
        let sql = take_sql();
        assert!(sql.contains("ON CONFLICT (action, key) DO UPDATE"));
        assert!(sql.contains("RETURNING refilled_at, granted"));
        assert!(!sql.contains('{'), "every part filled in: {sql}");
        assert!(!sql.replace('$', "?").contains('$'));
    }

    #[test]
    fn allowance_over_a_span() {
        let a = Allowance {
            burst: 5,
            every: Duration::from_secs(60),
        };
        assert_eq!(a.within(Duration::ZERO), 5);
        assert_eq!(a.within(Duration::from_secs(59)), 5);
        assert_eq!(a.within(Duration::from_secs(600)), 15);
    }

    fn memory_db() -> DbConn {
        use diesel_migrations::MigrationHarness;
        let mut c = diesel::SqliteConnection::establish(":memory:").unwrap();
        c.run_pending_migrations(super::super::SQLITE_MIGRATIONS)
            .unwrap();
        DbConn::Sqlite(c)
    }

    const A: Allowance = Allowance {
        burst: 3,
        every: Duration::from_secs(10),
    };

    #[test]
    fn a_bucket_gives_its_burst_then_one_per_interval() {
        let mut c = memory_db();
        let k = Key::new(Action::PairCode, &["T1", "10.0.0.1"]);
        let t0 = 1_000_000;
        for _ in 0..3 {
            assert_eq!(take(&mut c, &k, A, t0).unwrap(), Verdict::Granted);
        }
        assert_eq!(
            take(&mut c, &k, A, t0 + 1_000).unwrap(),
            Verdict::Refused {
                retry_after: Duration::from_secs(9)
            }
        );
        // A refused attempt takes nothing: one more arrives on time.
        assert!(matches!(
            take(&mut c, &k, A, t0 + 9_999).unwrap(),
            Verdict::Refused { .. }
        ));
        assert_eq!(take(&mut c, &k, A, t0 + 10_000).unwrap(), Verdict::Granted);
        assert!(matches!(
            take(&mut c, &k, A, t0 + 10_001).unwrap(),
            Verdict::Refused { .. }
        ));
        // Long after, the bucket is full again, not fuller.
        let later = t0 + 3_600_000;
        for _ in 0..3 {
            assert_eq!(take(&mut c, &k, A, later).unwrap(), Verdict::Granted);
        }
        assert!(matches!(
            take(&mut c, &k, A, later).unwrap(),
            Verdict::Refused { .. }
        ));
        // Another key is another bucket.
        let other = Key::new(Action::PairCode, &["T1", "10.0.0.2"]);
        assert_eq!(take(&mut c, &other, A, later).unwrap(), Verdict::Granted);
    }

    #[test]
    fn given_back_attempts_never_pass_the_burst() {
        let mut c = memory_db();
        let k = Key::new(Action::TableLookup, &["10.0.0.1"]);
        let t0 = 5_000;
        assert_eq!(take(&mut c, &k, A, t0).unwrap(), Verdict::Granted);
        for _ in 0..5 {
            give_back(&mut c, &k, A).unwrap();
        }
        for _ in 0..3 {
            assert_eq!(take(&mut c, &k, A, t0).unwrap(), Verdict::Granted);
        }
        assert!(matches!(
            take(&mut c, &k, A, t0).unwrap(),
            Verdict::Refused { .. }
        ));
        forget(&mut c, &k).unwrap();
        assert_eq!(take(&mut c, &k, A, t0).unwrap(), Verdict::Granted);
    }

    #[test]
    fn a_multi_key_attempt_is_refused_by_its_tightest_key() {
        let mut c = memory_db();
        let limiter = Limiter::new(Policy {
            login: A,
            ..Policy::default()
        });
        let account = Key::new(Action::Login, &["anna", "10.0.0.1"]);
        let address = Key::new(Action::LoginAddress, &["10.0.0.1"]);
        let keys = [account.clone(), address.clone()];
        for _ in 0..3 {
            assert_eq!(
                limiter.take_all(&mut c, &keys, 0).unwrap(),
                Verdict::Granted
            );
        }
        assert!(matches!(
            limiter.take_all(&mut c, &keys, 0).unwrap(),
            Verdict::Refused { .. }
        ));
    }

    #[test]
    fn pruning_drops_full_buckets_then_keeps_the_bound() {
        let mut c = memory_db();
        let t0 = 0;
        for i in 0..20 {
            let k = Key::new(Action::TableLookup, &[&i.to_string()]);
            take(&mut c, &k, A, t0 + i).unwrap();
        }
        assert_eq!(count(&mut c).unwrap(), 20);
        // One token short each: full again 10 s after its attempt.
        assert_eq!(prune(&mut c, t0 + 10_004, 100).unwrap(), 5);
        assert_eq!(count(&mut c).unwrap(), 15);
        assert_eq!(prune(&mut c, t0 + 10_004, 10).unwrap(), 5);
        assert_eq!(count(&mut c).unwrap(), 10);
    }
}
