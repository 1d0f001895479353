//! The time a server takes its decisions at.

use std::sync::Arc;
use std::time::Duration;

/// The clock of one server: the system's time plus an offset that only
/// tests move ([`Clock::advance`]); a server never does.
#[derive(Clone, Default, Debug)]
pub struct Clock {
    offset_ms: Arc<std::sync::atomic::AtomicI64>,
}

impl Clock {
    /// UTC now, truncated to microseconds (what both backends keep).
    pub fn now(&self) -> chrono::NaiveDateTime {
        system_now() + chrono::Duration::milliseconds(self.offset())
    }

    /// Milliseconds since 1970.
    pub fn now_ms(&self) -> i64 {
        chrono::Utc::now().timestamp_millis() + self.offset()
    }

    /// Moves this clock forward by `by` (tests: no sleeps).
    pub fn advance(&self, by: Duration) {
        let ms = i64::try_from(by.as_millis()).unwrap_or(i64::MAX);
        self.offset_ms
            .fetch_add(ms, std::sync::atomic::Ordering::SeqCst);
    }

    fn offset(&self) -> i64 {
        self.offset_ms.load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// The system's UTC time, truncated to microseconds (what both backends
/// keep). Read only through a [`Clock`], so that tests can move it.
fn system_now() -> chrono::NaiveDateTime {
    let now = chrono::Utc::now();
    chrono::DateTime::from_timestamp_micros(now.timestamp_micros())
        .unwrap_or(now)
        .naive_utc()
}
