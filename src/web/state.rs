//! The state every handler shares: the database, the CSRF key, the
//! settings, the public pages' cache and the brakes.

use std::sync::Arc;

use crate::auth::csrf::CsrfKey;
use crate::auth::password::Hasher;
use crate::config::Settings;
use crate::db::Db;
use crate::services::accounts::LoginDoors;
use crate::services::brakes::{LoginsInFlight, TableLookups};
use crate::web::cache::PublicCache;

/// Shared by every handler.
pub struct AppState {
    /// The database: reads, and writes in one transaction each.
    pub db: Db,
    pub csrf_key: CsrfKey,
    pub settings: Settings,
    /// Public pages, rendered once per tournament revision.
    pub public: Arc<PublicCache>,
    /// The bound on password hashing (memory and CPU).
    pub hasher: Arc<Hasher>,
    /// The brake on table-code lookups (and the codes found per address).
    pub lookups: Arc<TableLookups>,
    /// The logins being checked now (the login brake's waiting room).
    pub logins: Arc<LoginsInFlight>,
    /// Wakes the e-mail sender (`web::mail`) after a commit that queued
    /// a message.
    pub mail: Arc<tokio::sync::Notify>,
}

impl AppState {
    /// What a login goes through: the hasher and the logins being checked.
    pub fn login_doors(&self) -> LoginDoors {
        LoginDoors {
            hasher: self.hasher.clone(),
            in_flight: self.logins.clone(),
        }
    }
}

impl AppState {
    /// The state for `settings`: the hasher's bound comes from them.
    pub fn new(
        db: Db,
        csrf_key: CsrfKey,
        settings: Settings,
        public: Arc<PublicCache>,
    ) -> AppState {
        AppState {
            db,
            csrf_key,
            hasher: Arc::new(Hasher::with_cost(
                settings.hash_concurrency,
                settings.hash_queue,
                settings.hash_cost,
            )),
            lookups: Arc::default(),
            logins: Arc::default(),
            mail: Arc::default(),
            settings,
            public,
        }
    }
}
