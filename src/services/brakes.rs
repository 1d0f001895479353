//! The brakes on guessing, all over the one limiter (`db::rate_limits`):
//! which targets an attempt counts against, and the table-code lookups.
//!
//! Every attempt is taken from the allowance before anything is checked;
//! a right answer then gives back **the attempt it took, and only that**
//! (a bucket never fills past its burst), so that only wrong guesses use
//! the allowance, and someone who knows one right answer (her own pair
//! code, her own password) cannot interleave it to reset the count of her
//! wrong ones.
//!
//! - A login counts against its account from its client address and
//!   against the address, never against the account alone: an attacker
//!   hammering the administrator's account from one address is refused
//!   there, and the administrator, from her own address, still gets in.
//!   A successful login gives the address its attempt back and empties
//!   the account-and-address count (whoever knows that password has
//!   nothing left to guess there).
//!   Twenty correct logins at once from one address all get in: a login
//!   refused while other logins of the same account and address are still
//!   having their password checked in this process waits for them (at
//!   most [`LOGIN_WAIT`]) and tries again, since a right one gives its
//!   attempt back ([`LoginsInFlight`]). A burst of wrong ones still stops
//!   at the allowance: nothing is checked without an attempt taken.
//! - A pair code counts against its table from its address; a code that
//!   names a pair of the table takes nothing but is answered only when an
//!   attempt is left (also when the round is over: the code was right),
//!   checked in the transaction that answers it (`rate_limits::check`,
//!   what taking one and giving it back comes to, in one statement).
//! - A table-code lookup counts against its address, in one transaction
//!   with the lookup itself, and a code that names a table only checks
//!   that an attempt is left: a burst of guesses gets at most the
//!   allowance answered, found or not. A code this process has already
//!   found for an address is not counted again.

use crate::tournament::codes::TableCode;
use std::collections::{HashMap, HashSet};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::db::rate_limits::{self, Action, Key, Verdict};
use crate::db::table_side as tsdb;
use crate::db::{Db, DbConn, DbError};

fn address(client: Option<IpAddr>) -> String {
    client.map_or_else(|| "unknown".to_string(), |a| a.to_string())
}

/// The lower-cased, trimmed username, as at login.
fn account(username: &str) -> String {
    username.trim().to_ascii_lowercase()
}

/// What one login attempt counts against: the account from the address,
/// and the address.
pub fn login_keys(username: &str, client: Option<IpAddr>) -> Vec<Key> {
    vec![
        login_account_key(username, client),
        login_address_key(client),
    ]
}

pub fn login_account_key(username: &str, client: Option<IpAddr>) -> Key {
    Key::new(Action::Login, &[&account(username), &address(client)])
}

pub fn login_address_key(client: Option<IpAddr>) -> Key {
    Key::new(Action::LoginAddress, &[&address(client)])
}

/// What a pair code typed at a table counts against.
pub fn pair_code_key(table_code: &TableCode, client: Option<IpAddr>) -> Key {
    Key::new(Action::PairCode, &[table_code.as_str(), &address(client)])
}

pub fn entry_key(client: Option<IpAddr>) -> Key {
    Key::new(Action::Entry, &[&address(client)])
}

/// Takes one entry's attempt from its address (issue 36): before anything
/// is checked, in its own transaction, so that a refused entry counts too.
pub async fn take_entry(db: &Db, client: Option<IpAddr>) -> Result<(), super::ServiceError> {
    let limiter = db.limiter();
    let key = entry_key(client);
    let now = db.clock().now_ms();
    let verdict = db
        .write(move |c| -> Result<Verdict, DbError> {
            Ok(limiter.take_all(c, std::slice::from_ref(&key), now)?)
        })
        .await?;
    match verdict {
        Verdict::Refused { retry_after } => Err(super::ServiceError::Throttled {
            wait_seconds: wait_seconds(retry_after),
        }),
        _ => Ok(()),
    }
}

pub fn table_lookup_key(client: Option<IpAddr>) -> Key {
    Key::new(Action::TableLookup, &[&address(client)])
}

/// After a successful login, in its write transaction: the account's count
/// from this address starts again, and the address gets its attempt back.
pub fn login_succeeded(
    c: &mut DbConn,
    limiter: &rate_limits::Limiter,
    username: &str,
    client: Option<IpAddr>,
) -> Result<(), DbError> {
    rate_limits::forget(c, &login_account_key(username, client))?;
    Ok(limiter.give_back(c, &login_address_key(client))?)
}

/// How long a refused login looks for logins of the same account and
/// address granted with it before its refusal stands.
const SIBLINGS_GRACE: Duration = Duration::from_millis(250);

/// The longest a login refused by the brake waits for the logins of the
/// same account and address still being checked.
pub const LOGIN_WAIT: Duration = Duration::from_secs(10);

/// Logins whose password is being checked now in this process, per
/// account-and-address: their attempts may come back.
#[derive(Debug, Default)]
pub struct LoginsInFlight {
    counts: Mutex<HashMap<String, usize>>,
    settled: tokio::sync::Notify,
}

/// A login being checked; dropped when it is settled (its attempt given
/// back or kept), which wakes the logins waiting on the same brake.
pub struct InFlight {
    logins: Arc<LoginsInFlight>,
    key: String,
}

impl Drop for InFlight {
    fn drop(&mut self) {
        {
            let mut counts = self.logins.counts.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(n) = counts.get_mut(&self.key) {
                *n -= 1;
                if *n == 0 {
                    counts.remove(&self.key);
                }
            }
        }
        self.logins.settled.notify_waiters();
    }
}

impl LoginsInFlight {
    fn key(username: &str, client: Option<IpAddr>) -> String {
        format!("{}|{}", account(username), address(client))
    }

    /// Marks a login of `username` from `client` as being checked.
    pub fn enter(self: &Arc<Self>, username: &str, client: Option<IpAddr>) -> InFlight {
        let key = Self::key(username, client);
        *self
            .counts
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(key.clone())
            .or_default() += 1;
        InFlight {
            logins: self.clone(),
            key,
        }
    }

    fn busy(&self, key: &str) -> bool {
        self.counts
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains_key(key)
    }

    /// Waits until a login of `username` from `client` being checked is
    /// settled, at most until `until`: true when there was one to wait for
    /// (try the brake again), false when none is being checked (the
    /// refusal stands).
    pub async fn wait_for_others(
        &self,
        username: &str,
        client: Option<IpAddr>,
        until: tokio::time::Instant,
    ) -> bool {
        let key = Self::key(username, client);
        let mut settled = std::pin::pin!(self.settled.notified());
        // Registered before looking, so that a login settling in between
        // is not missed.
        settled.as_mut().enable();
        // The logins granted with this one may not have said so yet: on
        // SQLite the attempts committed together are answered at once
        // (`db::group`), and a granted login marks itself as being checked
        // only when its task runs again. Look again for a moment before
        // the refusal stands.
        let grace = tokio::time::Instant::now() + SIBLINGS_GRACE;
        while !self.busy(&key) {
            if tokio::time::Instant::now() >= grace.min(until) {
                return false;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        if tokio::time::Instant::now() >= until {
            return false;
        }
        tokio::time::timeout_at(until, settled).await.is_ok()
    }
}

/// Whole seconds to wait, at least one (`Retry-After`).
pub fn wait_seconds(retry_after: std::time::Duration) -> u64 {
    retry_after.as_secs_f64().ceil().max(1.0) as u64
}

/// Table codes found, per client address, by this process.
#[derive(Debug, Default)]
pub struct TableLookups {
    found: Mutex<HashSet<(Option<IpAddr>, String)>>,
}

/// The most (address, code) pairs remembered; then the memory starts again.
const MAX_REMEMBERED: usize = 20_000;

/// The outcome of a lookup through the brake.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookup {
    /// A table has this code (the attempt was given back).
    Found,
    /// No table has it (the attempt counted).
    Unknown,
    /// The address has no attempt left: nothing was looked up.
    Refused { wait_seconds: u64 },
}

impl TableLookups {
    fn remembered(&self, client: Option<IpAddr>, code: &str) -> bool {
        self.found
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains(&(client, code.to_string()))
    }

    fn remember(&self, client: Option<IpAddr>, code: String) {
        let mut found = self.found.lock().unwrap_or_else(|p| p.into_inner());
        if found.len() >= MAX_REMEMBERED {
            found.clear();
        }
        found.insert((client, code));
    }

    /// Looks `code` up through the brake of `client`'s address: the code
    /// is looked up, then a code that names no table takes an attempt and
    /// one that names a table only checks that one is left (taking one
    /// and giving it back, in one statement), both one statement that
    /// locks the address's bucket, so that the answers wait for one
    /// another there in turn and a burst gets at most the allowance
    /// answered, found or not. Nothing is answered before the bucket's
    /// verdict. On PostgreSQL the statement commits alone without waiting
    /// for the disk (`Db::autocommit`): a whole hall behind one address
    /// looks its codes up one after the other on that row, each holding
    /// it for one statement, and a crash forgets at most a few counts.
    pub async fn check(
        &self,
        db: &Db,
        code: &str,
        client: Option<IpAddr>,
    ) -> Result<Lookup, super::ServiceError> {
        let code = TableCode::parse(code).to_string();
        if self.remembered(client, &code) {
            return Ok(Lookup::Found);
        }
        let limiter = db.limiter();
        let key = table_lookup_key(client);
        let now = db.clock().now_ms();
        let c2 = code.clone();
        let outcome = db
            .autocommit(move |c| -> Result<Lookup, DbError> {
                let found = tsdb::find_table(c, &c2)?.is_some();
                let verdict = if found {
                    limiter.check(c, &key, now)?
                } else {
                    limiter.take_all(c, std::slice::from_ref(&key), now)?
                };
                Ok(match verdict {
                    Verdict::Refused { retry_after } => Lookup::Refused {
                        wait_seconds: wait_seconds(retry_after),
                    },
                    Verdict::Granted if found => Lookup::Found,
                    Verdict::Granted => Lookup::Unknown,
                })
            })
            .await?;
        db.prune_attempts_in_background();
        if outcome == Lookup::Found {
            self.remember(client, code);
        }
        Ok(outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_attempt_counts_against_its_targets() {
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        // The account as typed at login: case and spaces do not make another target.
        assert_eq!(login_keys(" Anna ", Some(a)), login_keys("anna", Some(a)));
        assert_ne!(
            login_account_key("anna", Some(a)),
            login_account_key("anna", Some(b))
        );
        assert_ne!(
            login_account_key("anna", Some(a)),
            login_account_key("bea", Some(a))
        );
        assert_eq!(login_address_key(Some(a)), login_keys("bea", Some(a))[1]);
        // A table code as typed on a phone.
        assert_eq!(
            pair_code_key(&TableCode::parse("kx7-mpa"), Some(a)),
            pair_code_key(&TableCode::parse("KX7MPA"), Some(a))
        );
        assert_ne!(
            pair_code_key(&TableCode::parse("KX7MPA"), Some(a)),
            pair_code_key(&TableCode::parse("KX7MPA"), Some(b))
        );
        assert_ne!(table_lookup_key(Some(a)), table_lookup_key(Some(b)));
        assert_eq!(wait_seconds(std::time::Duration::from_millis(1)), 1);
        assert_eq!(wait_seconds(std::time::Duration::from_millis(59_001)), 60);
    }
}
