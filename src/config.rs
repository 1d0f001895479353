//! Settings, from the command line and the environment (clap reads both).

use std::time::Duration;

use crate::db::rate_limits::Policy;
use crate::db::DbUrl;

/// Everything the server needs to start.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Address to listen on: `[::]:8080` (the default) is every interface,
    /// IPv4 and IPv6; `127.0.0.1:8080` this computer only (`0` as port:
    /// any free one).
    pub bind: String,
    /// The address the server listens on, once bound.
    pub listening: Option<std::net::SocketAddr>,
    /// The command that restarts this server listening on every interface
    /// (shown when table cards would print an address no phone can open).
    pub restart_command: Option<String>,
    pub database_url: DbUrl,
    /// Mark cookies `Secure` (set when the server is reached over TLS).
    pub secure_cookies: bool,
    /// A session unused for this long is ended.
    pub session_idle: Duration,
    /// A session is ended this long after its login, however active.
    pub session_max: Duration,
    /// Take the client address of the brakes from the last entry of
    /// `X-Forwarded-For` (set this only behind a reverse proxy that sets it).
    pub trust_forwarded_for: bool,
    /// The address players reach the server at (`https://club.example`),
    /// for the QR codes on the table cards; None: the request's own host.
    pub public_url: Option<String>,
    /// The mail server of the entries' e-mails (`SMTP_URL`, `SMTP_FROM`:
    /// issue 36); None: nothing is sent.
    pub smtp: Option<(String, String)>,
    pub pool_size: u32,
    /// The time zone shown to people (storage is always UTC).
    pub timezone: chrono_tz::Tz,
    /// The allowances of the one limiter (logins, pair codes, table codes).
    pub rate_limits: Policy,
    /// Password hashes (argon2, 19 MiB each) running at most at once.
    pub hash_concurrency: usize,
    /// Logins that may wait for a hash; beyond them: 503.
    pub hash_queue: usize,
    /// What a new password hash costs (`Standard` but in test servers).
    pub hash_cost: crate::auth::password::HashCost,
    /// How long a request body may take to arrive (408 past it).
    pub body_deadline: BodyDeadline,
    /// Open connections at most (kept below the open-file limit).
    pub max_connections: usize,
    /// Open connections at most from one client address (not applied with
    /// `trust_forwarded_for`: behind a proxy every peer is the proxy).
    pub max_connections_per_address: usize,
}

impl Settings {
    pub const DEFAULT_BIND: &'static str = "[::]:8080";
    pub const DEFAULT_DATABASE: &'static str = "burraco.db";
    pub const DEFAULT_IDLE_MINUTES: u64 = 120;
    pub const DEFAULT_SESSION_MAX_HOURS: u64 = 12;
    pub const DEFAULT_TIMEZONE: &'static str = "Europe/Rome";
    pub const DEFAULT_MAX_CONNECTIONS: usize = 10_000;
    pub const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS: usize = 1024;
    pub const DEFAULT_HASH_QUEUE: usize = crate::auth::password::DEFAULT_QUEUE;
    pub const DEFAULT_BODY_TIMEOUT_SECS: u64 = 20;

    /// Defaults for a database URL (used by tests and the CLI).
    pub fn for_database(url: &str) -> Settings {
        let database_url = DbUrl::parse(url);
        let pool_size = match database_url {
            DbUrl::Sqlite(_) => 8,
            DbUrl::Postgres(_) => 16,
        };
        Settings {
            bind: Self::DEFAULT_BIND.to_string(),
            listening: None,
            restart_command: None,
            database_url,
            secure_cookies: false,
            session_idle: Duration::from_secs(Self::DEFAULT_IDLE_MINUTES * 60),
            session_max: Duration::from_secs(Self::DEFAULT_SESSION_MAX_HOURS * 3600),
            trust_forwarded_for: false,
            public_url: None,
            smtp: None,
            pool_size,
            timezone: chrono_tz::Europe::Rome,
            rate_limits: Policy::default(),
            hash_concurrency: crate::auth::password::default_concurrency(),
            hash_queue: Self::DEFAULT_HASH_QUEUE,
            hash_cost: crate::auth::password::HashCost::Standard,
            body_deadline: BodyDeadline::default(),
            max_connections: Self::DEFAULT_MAX_CONNECTIONS,
            max_connections_per_address: Self::DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
        }
    }
}

/// Parses a time-zone name such as `Europe/Rome`.
pub fn parse_timezone(name: &str) -> Result<chrono_tz::Tz, String> {
    name.parse::<chrono_tz::Tz>()
        .map_err(|_| format!("unknown time zone `{name}` (use a name such as Europe/Rome)"))
}

/// How long a body may take to arrive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyDeadline {
    /// Time for the whole body (from the moment its headers were read).
    pub base: Duration,
    /// Bytes per second that earn a body one more second.
    pub min_rate: u64,
}

impl Default for BodyDeadline {
    fn default() -> Self {
        BodyDeadline {
            base: Duration::from_secs(20),
            min_rate: 32 * 1024,
        }
    }
}

impl BodyDeadline {
    /// The time allowed once `received` bytes have arrived.
    pub fn allowed(&self, received: u64) -> Duration {
        let rate = self.min_rate.max(1);
        self.base + Duration::from_millis(received.saturating_mul(1000) / rate)
    }
}

/// The mail server of the entries' e-mails from the environment
/// (`SMTP_URL`, `SMTP_FROM`), when both are set.
pub fn smtp_from_env() -> Option<(String, String)> {
    let url = std::env::var("SMTP_URL").ok()?.trim().to_string();
    let from = std::env::var("SMTP_FROM").ok()?.trim().to_string();
    (!url.is_empty() && !from.is_empty()).then_some((url, from))
}
