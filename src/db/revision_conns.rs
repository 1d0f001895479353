//! The connections of the revision reads (PostgreSQL, see
//! `Db::read_revision`): not pinged at checkout, and one whose read failed
//! is dropped when it goes back to its pool.

use diesel::r2d2::{self, ManageConnection};

use super::{DbConn, DbManager};

/// Marks the revision connection about to go back to its pool on this
/// thread as failed: [`RevisionManager`] drops it.
pub(super) fn mark_failed() {
    FAILED_HERE.with(|f| f.set(true));
}

thread_local! {
    /// Set just before a revision connection whose read failed goes back to
    /// its pool (on the same thread): [`RevisionManager`] then drops it.
    static FAILED_HERE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The revision reads' connections: not pinged at checkout; one whose read
/// failed is dropped on its return (a dead one would otherwise stay).
#[derive(Debug)]
pub struct RevisionManager(pub(super) DbManager);

impl ManageConnection for RevisionManager {
    type Connection = DbConn;
    type Error = r2d2::Error;

    fn connect(&self) -> Result<DbConn, r2d2::Error> {
        self.0.connect()
    }

    fn is_valid(&self, conn: &mut DbConn) -> Result<(), r2d2::Error> {
        self.0.is_valid(conn)
    }

    fn has_broken(&self, conn: &mut DbConn) -> bool {
        FAILED_HERE.with(|f| f.replace(false)) || self.0.has_broken(conn)
    }
}

/// Connections for the revision reads of one process (PostgreSQL): at most
/// one read per tournament runs at a time.
pub(super) const POOL_SIZE: u32 = 4;
