//! Logging with `tracing`. `RUST_LOG` is respected; the default is `info`.
//! Passwords, session tokens and CSRF tokens are never logged: request spans
//! carry the method and the path without its query string.

use tracing_subscriber::{fmt, EnvFilter};

/// Installs the global subscriber (once; later calls are ignored).
pub fn init(default_filter: &str) {
    let filter =
        EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(default_filter));
    let _ = fmt().with_env_filter(filter).with_target(true).try_init();
}
