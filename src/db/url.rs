//! Which database a URL names, and how it is shown in logs (no password).

use std::fmt;

/// Which backend a URL names: `postgres://` or `postgresql://` → PostgreSQL,
/// anything else is a SQLite path (or `sqlite://path`).
#[derive(Clone, PartialEq, Eq)]
pub enum DbUrl {
    Postgres(String),
    Sqlite(String),
}

impl DbUrl {
    pub fn parse(url: &str) -> DbUrl {
        let url = url.trim();
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            DbUrl::Postgres(url.to_string())
        } else {
            let path = url.strip_prefix("sqlite://").unwrap_or(url);
            DbUrl::Sqlite(path.to_string())
        }
    }

    pub fn backend_name(&self) -> &'static str {
        match self {
            DbUrl::Postgres(_) => "PostgreSQL",
            DbUrl::Sqlite(_) => "SQLite",
        }
    }

    /// The URL without any password, for logs.
    pub fn redacted(&self) -> String {
        match self {
            DbUrl::Sqlite(path) => path.clone(),
            DbUrl::Postgres(url) => redact_password(url),
        }
    }
}

impl fmt::Debug for DbUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.backend_name(), self.redacted())
    }
}

fn redact_password(url: &str) -> String {
    // postgres://user:secret@host/db → postgres://user:***@host/db; a
    // `?password=` parameter goes too.
    let url = &match url.split_once('?') {
        Some((base, query)) if query.to_ascii_lowercase().contains("password") => {
            let kept: Vec<String> = query
                .split('&')
                .map(|kv| match kv.split_once('=') {
                    Some((k, _)) if k.eq_ignore_ascii_case("password") => format!("{k}=***"),
                    _ => kv.to_string(),
                })
                .collect();
            format!("{base}?{}", kept.join("&"))
        }
        _ => url.to_string(),
    };
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    match rest.split_once('@') {
        Some((userinfo, host)) => match userinfo.split_once(':') {
            Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}
