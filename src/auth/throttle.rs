//! The brake on password guessing: after a few failed logins for the same
//! username or from the same client address, each further attempt must wait,
//! doubling each time up to a ceiling. Kept in memory (one server process).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How hard the brake is; data, not literals in code.
#[derive(Debug, Clone, Copy)]
pub struct ThrottlePolicy {
    /// Failures allowed before any wait.
    pub free_failures: u32,
    /// Failures older than this are forgotten.
    pub window: Duration,
    /// The first wait; doubles with each further failure.
    pub base_delay: Duration,
    /// The longest wait.
    pub max_delay: Duration,
}

impl Default for ThrottlePolicy {
    fn default() -> Self {
        ThrottlePolicy {
            free_failures: 5,
            window: Duration::from_secs(15 * 60),
            base_delay: Duration::from_secs(2),
            max_delay: Duration::from_secs(5 * 60),
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Record {
    failures: u32,
    last_failure: Instant,
}

/// Failed-login bookkeeping per key (`user:NAME`, `ip:ADDR`).
#[derive(Debug, Default)]
pub struct LoginThrottle {
    policy: ThrottlePolicy,
    records: Mutex<HashMap<String, Record>>,
}

impl LoginThrottle {
    pub fn new(policy: ThrottlePolicy) -> Self {
        LoginThrottle {
            policy,
            records: Mutex::new(HashMap::new()),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Record>> {
        match self.records.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    fn wait_for(&self, rec: &Record, now: Instant) -> Option<Duration> {
        if rec.failures < self.policy.free_failures {
            return None;
        }
        let extra = rec.failures - self.policy.free_failures;
        let factor = 1u32.checked_shl(extra.min(20)).unwrap_or(u32::MAX);
        let delay = self
            .policy
            .base_delay
            .saturating_mul(factor)
            .min(self.policy.max_delay);
        let until = rec.last_failure + delay;
        (until > now).then(|| until - now)
    }

    /// How long the caller must still wait before trying any of `keys`
    /// (the longest of them), or `None` when it may try now.
    pub fn check(&self, keys: &[String]) -> Option<Duration> {
        self.check_at(keys, Instant::now())
    }

    fn check_at(&self, keys: &[String], now: Instant) -> Option<Duration> {
        let mut records = self.lock();
        records.retain(|_, r| now.duration_since(r.last_failure) < self.policy.window);
        keys.iter()
            .filter_map(|k| records.get(k).and_then(|r| self.wait_for(r, now)))
            .max()
    }

    pub fn record_failure(&self, keys: &[String]) {
        self.record_failure_at(keys, Instant::now())
    }

    fn record_failure_at(&self, keys: &[String], now: Instant) {
        let mut records = self.lock();
        for k in keys {
            let rec = records.entry(k.clone()).or_insert(Record {
                failures: 0,
                last_failure: now,
            });
            rec.failures = rec.failures.saturating_add(1);
            rec.last_failure = now;
        }
    }

    /// A successful login clears the username's record (not the address's:
    /// one good password must not reset a guesser working through many names).
    pub fn record_success(&self, user_key: &str) {
        self.lock().remove(user_key);
    }
}

pub fn user_key(username: &str) -> String {
    format!("user:{}", username.trim().to_ascii_lowercase())
}

pub fn addr_key(addr: &str) -> String {
    format!("ip:{addr}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_grow_after_the_free_failures() {
        let t = LoginThrottle::new(ThrottlePolicy::default());
        let keys = vec![user_key("anna")];
        let now = Instant::now();
        for _ in 0..4 {
            t.record_failure_at(&keys, now);
        }
        assert_eq!(t.check_at(&keys, now), None);
        t.record_failure_at(&keys, now);
        assert_eq!(t.check_at(&keys, now), Some(Duration::from_secs(2)));
        t.record_failure_at(&keys, now);
        assert_eq!(t.check_at(&keys, now), Some(Duration::from_secs(4)));
        assert_eq!(t.check_at(&keys, now + Duration::from_secs(5)), None);
        for _ in 0..30 {
            t.record_failure_at(&keys, now);
        }
        assert_eq!(t.check_at(&keys, now), Some(Duration::from_secs(300)));
        t.record_success(&keys[0]);
        assert_eq!(t.check_at(&keys, now), None);
    }

    #[test]
    fn old_failures_are_forgotten() {
        let t = LoginThrottle::new(ThrottlePolicy::default());
        let keys = vec![addr_key("10.0.0.1")];
        let then = Instant::now();
        for _ in 0..10 {
            t.record_failure_at(&keys, then);
        }
        assert!(t.check_at(&keys, then).is_some());
        assert_eq!(t.check_at(&keys, then + Duration::from_secs(16 * 60)), None);
    }
}
