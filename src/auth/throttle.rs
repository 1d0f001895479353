//! The brake on password guessing, built so that it never locks out the real
//! user. Failed logins are counted per (account, client address) and per
//! client address, never per account alone: an attacker hammering the
//! administrator's account from one address slows down only that address,
//! and the administrator, from her own address, still gets in at once. After
//! a tier's free failures each further attempt must wait, doubling each time
//! up to a ceiling; the per-address tier is more lenient (a whole club may sit
//! behind one address).
//!
//! The counts live in the database (`login_throttle`), so every instance
//! sees them; keys are SHA-256 hashes (of the lower-cased username and the
//! address), never what the client sent; old rows expire and the table is
//! capped in size. Failures are recorded in their own short write
//! transaction (`Db::write`).

use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::time::Duration;

use chrono::NaiveDateTime;
use diesel::QueryResult;
use sha2::{Digest, Sha256};

use crate::db::{login_throttle, DbConn};

/// One tier of the brake.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tier {
    /// Failures allowed before any wait.
    pub free_failures: u32,
    /// The first wait; doubles with each further failure.
    pub base_delay: Duration,
    /// The longest wait.
    pub max_delay: Duration,
}

impl Tier {
    /// How long after its last failure a key with `failures` must wait.
    pub fn delay(&self, failures: u32) -> Option<Duration> {
        if failures < self.free_failures {
            return None;
        }
        let extra = failures - self.free_failures;
        let factor = 1u32.checked_shl(extra.min(20)).unwrap_or(u32::MAX);
        Some(self.base_delay.saturating_mul(factor).min(self.max_delay))
    }
}

/// How hard the brake is; data, not literals in code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThrottlePolicy {
    /// Failures for one account from one address.
    pub per_account_address: Tier,
    /// Failures from one address, whatever the account (more lenient: a
    /// club's staff may share one address).
    pub per_address: Tier,
    /// Failures older than this are forgotten (and their rows deleted).
    pub window: Duration,
    /// The most rows the table keeps; the oldest go first.
    pub max_rows: i64,
}

impl Default for ThrottlePolicy {
    fn default() -> Self {
        ThrottlePolicy {
            per_account_address: Tier {
                free_failures: 5,
                base_delay: Duration::from_secs(2),
                max_delay: Duration::from_secs(5 * 60),
            },
            per_address: Tier {
                free_failures: 30,
                base_delay: Duration::from_secs(2),
                max_delay: Duration::from_secs(5 * 60),
            },
            window: Duration::from_secs(15 * 60),
            max_rows: 10_000,
        }
    }
}

/// The address a login comes from: the connection's peer, or, only when the
/// `trust_forwarded_for` setting says a reverse proxy sets it, the last entry
/// of `X-Forwarded-For` (the one the proxy added; earlier entries are
/// whatever the client claimed). IPv6 addresses count by their /64 network,
/// which one client can change at will.
pub fn client_ip(
    peer: Option<SocketAddr>,
    forwarded_for: Option<&str>,
    trust_forwarded_for: bool,
) -> Option<IpAddr> {
    let forwarded = trust_forwarded_for
        .then(|| {
            forwarded_for?
                .rsplit(',')
                .next()?
                .trim()
                .parse::<IpAddr>()
                .ok()
        })
        .flatten();
    forwarded.or(peer.map(|p| p.ip())).map(network)
}

fn network(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// The two hashed keys of a login attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoginKeys {
    account_address: String,
    address: String,
}

fn hash(parts: &[&str]) -> String {
    let mut h = Sha256::new();
    h.update(b"burraco-td login throttle v1");
    for p in parts {
        // Length-prefixed, so that no two different inputs hash alike.
        h.update((p.len() as u64).to_be_bytes());
        h.update(p.as_bytes());
    }
    hex::encode(h.finalize())
}

impl LoginKeys {
    /// Keys for `username` (trimmed, lower-cased as at login) from `addr`.
    pub fn new(username: &str, addr: Option<IpAddr>) -> LoginKeys {
        let addr = addr.map_or_else(|| "unknown".to_string(), |a| a.to_string());
        let user = username.trim().to_ascii_lowercase();
        LoginKeys {
            account_address: hash(&["account+address", &user, &addr]),
            address: hash(&["address", &addr]),
        }
    }
}

fn to_chrono(d: Duration) -> chrono::Duration {
    chrono::Duration::from_std(d).unwrap_or(chrono::Duration::MAX)
}

/// The brake: a policy applied to the rows in the database.
#[derive(Debug, Clone, Default)]
pub struct LoginThrottle {
    policy: ThrottlePolicy,
}

impl LoginThrottle {
    pub fn new(policy: ThrottlePolicy) -> Self {
        LoginThrottle { policy }
    }

    pub fn policy(&self) -> &ThrottlePolicy {
        &self.policy
    }

    fn since(&self, now: NaiveDateTime) -> NaiveDateTime {
        now - to_chrono(self.policy.window)
    }

    /// How long the attempt must still wait (the longer of its two keys), or
    /// `None` when it may try now. A read: run it with `Db::read`.
    pub fn wait(
        &self,
        conn: &mut DbConn,
        keys: &LoginKeys,
        now: NaiveDateTime,
    ) -> QueryResult<Option<Duration>> {
        let rows = login_throttle::find(
            conn,
            &[&keys.account_address, &keys.address],
            self.since(now),
        )?;
        Ok(rows
            .iter()
            .filter_map(|row| {
                let tier = if row.key == keys.account_address {
                    self.policy.per_account_address
                } else {
                    self.policy.per_address
                };
                let delay = tier.delay(u32::try_from(row.failures).unwrap_or(0))?;
                let until = row.last_failure_at + to_chrono(delay);
                (until > now).then(|| (until - now).to_std().ok()).flatten()
            })
            .max())
    }

    /// Counts a failed attempt on both keys and keeps the table bounded.
    /// Run it in its own short write transaction (`Db::write`).
    pub fn record_failure(
        &self,
        conn: &mut DbConn,
        keys: &LoginKeys,
        now: NaiveDateTime,
    ) -> QueryResult<()> {
        let since = self.since(now);
        login_throttle::record_failure(conn, &keys.account_address, now, since)?;
        login_throttle::record_failure(conn, &keys.address, now, since)?;
        login_throttle::prune(conn, since, self.policy.max_rows)?;
        Ok(())
    }

    /// A successful login clears its account-and-address key, not the
    /// address's: one good password must not reset a guesser working through
    /// many accounts.
    pub fn record_success(&self, conn: &mut DbConn, keys: &LoginKeys) -> QueryResult<()> {
        login_throttle::forget(conn, &keys.account_address)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_grow_after_the_free_failures_up_to_the_ceiling() {
        let tier = ThrottlePolicy::default().per_account_address;
        assert_eq!(tier.delay(4), None);
        assert_eq!(tier.delay(5), Some(Duration::from_secs(2)));
        assert_eq!(tier.delay(6), Some(Duration::from_secs(4)));
        assert_eq!(tier.delay(7), Some(Duration::from_secs(8)));
        assert_eq!(tier.delay(40), Some(Duration::from_secs(300)));
        assert_eq!(tier.delay(u32::MAX), Some(Duration::from_secs(300)));
    }

    #[test]
    fn keys_are_hashes_and_separate_accounts_and_addresses() {
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let k = LoginKeys::new(" Admin ", Some(a));
        assert_eq!(k, LoginKeys::new("admin", Some(a)));
        assert_ne!(
            k.account_address,
            LoginKeys::new("admin", Some(b)).account_address
        );
        assert_ne!(
            k.account_address,
            LoginKeys::new("anna", Some(a)).account_address
        );
        assert_eq!(k.address, LoginKeys::new("anna", Some(a)).address);
        for key in [&k.account_address, &k.address] {
            assert_eq!(key.len(), 64);
            assert!(!key.contains("admin") && !key.contains("10.0.0.1"));
        }
    }

    #[test]
    fn the_forwarded_address_counts_only_when_trusted() {
        let peer: SocketAddr = "127.0.0.1:5000".parse().unwrap();
        let xff = Some("203.0.113.9, 198.51.100.7");
        assert_eq!(
            client_ip(Some(peer), xff, false),
            Some("127.0.0.1".parse().unwrap())
        );
        assert_eq!(
            client_ip(Some(peer), xff, true),
            Some("198.51.100.7".parse().unwrap())
        );
        assert_eq!(
            client_ip(Some(peer), Some("garbage"), true),
            Some("127.0.0.1".parse().unwrap())
        );
        // One IPv6 client owns a /64; a v4-mapped address is the v4 one.
        let v6: SocketAddr = "[2001:db8:1:2:3:4:5:6]:443".parse().unwrap();
        assert_eq!(
            client_ip(Some(v6), None, false),
            Some("2001:db8:1:2::".parse().unwrap())
        );
        let mapped: SocketAddr = "[::ffff:192.0.2.1]:443".parse().unwrap();
        assert_eq!(
            client_ip(Some(mapped), None, false),
            Some("192.0.2.1".parse().unwrap())
        );
    }
}
