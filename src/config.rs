//! Settings, from the command line and the environment (clap reads both).

use std::time::Duration;

use crate::auth::throttle::ThrottlePolicy;
use crate::db::DbUrl;

/// Everything the server needs to start.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Address to listen on, e.g. `127.0.0.1:8080` (`0` as port: any free one).
    pub bind: String,
    pub database_url: DbUrl,
    /// Mark cookies `Secure` (set when the server is reached over TLS).
    pub secure_cookies: bool,
    /// A session unused for this long is ended.
    pub session_idle: Duration,
    /// A session is ended this long after its login, however active.
    pub session_max: Duration,
    /// Take the client address of the login brake from the last entry of
    /// `X-Forwarded-For` (set this only behind a reverse proxy that sets it).
    pub trust_forwarded_for: bool,
    /// The address players reach the server at (`https://club.example`),
    /// for the QR codes on the table cards; None: the request's own host.
    pub public_url: Option<String>,
    pub pool_size: u32,
    /// The time zone shown to people (storage is always UTC).
    pub timezone: chrono_tz::Tz,
    pub throttle: ThrottlePolicy,
}

impl Settings {
    pub const DEFAULT_BIND: &'static str = "127.0.0.1:8080";
    pub const DEFAULT_DATABASE: &'static str = "burraco.db";
    pub const DEFAULT_IDLE_MINUTES: u64 = 120;
    pub const DEFAULT_SESSION_MAX_HOURS: u64 = 12;
    pub const DEFAULT_TIMEZONE: &'static str = "Europe/Rome";

    /// Defaults for a database URL (used by tests and the CLI).
    pub fn for_database(url: &str) -> Settings {
        let database_url = DbUrl::parse(url);
        let pool_size = match database_url {
            DbUrl::Sqlite(_) => 8,
            DbUrl::Postgres(_) => 16,
        };
        Settings {
            bind: Self::DEFAULT_BIND.to_string(),
            database_url,
            secure_cookies: false,
            session_idle: Duration::from_secs(Self::DEFAULT_IDLE_MINUTES * 60),
            session_max: Duration::from_secs(Self::DEFAULT_SESSION_MAX_HOURS * 3600),
            trust_forwarded_for: false,
            public_url: None,
            pool_size,
            timezone: chrono_tz::Europe::Rome,
            throttle: ThrottlePolicy::default(),
        }
    }
}

/// Parses a time-zone name such as `Europe/Rome`.
pub fn parse_timezone(name: &str) -> Result<chrono_tz::Tz, String> {
    name.parse::<chrono_tz::Tz>()
        .map_err(|_| format!("unknown time zone `{name}` (use a name such as Europe/Rome)"))
}
