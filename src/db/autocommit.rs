//! PostgreSQL: a few connections whose statements each commit alone,
//! without waiting for the disk, for the brakes' bucket statements
//! (`rate_limits::take` and `check`): one statement refills, takes and
//! answers atomically, so it needs no transaction around it, and the
//! bucket's row is then locked for that statement only, not for the round
//! trip of a `COMMIT` after it. A hall behind one address looks its 300
//! table codes up on one bucket: one after the other, each a statement
//! long. A crash of the database may forget the last few counts, which
//! only gives a guesser those attempts back (as `Lazy::Forgettable`).

use diesel::connection::SimpleConnection;
use diesel::r2d2::{self, ManageConnection};

use super::{Db, DbConn, DbError, DbManager};

/// Opens connections with `synchronous_commit = off`.
#[derive(Debug)]
pub struct AutocommitManager(pub(super) DbManager);

impl ManageConnection for AutocommitManager {
    type Connection = DbConn;
    type Error = r2d2::Error;

    fn connect(&self) -> Result<DbConn, r2d2::Error> {
        let mut conn = self.0.connect()?;
        if let DbConn::Postgres(_) = conn {
            conn.batch_execute("SET synchronous_commit = off")
                .map_err(r2d2::Error::QueryError)?;
        }
        Ok(conn)
    }

    fn is_valid(&self, conn: &mut DbConn) -> Result<(), r2d2::Error> {
        self.0.is_valid(conn)
    }

    fn has_broken(&self, conn: &mut DbConn) -> bool {
        self.0.has_broken(conn)
    }
}

/// Connections of one process for the brakes' statements.
pub(super) const POOL_SIZE: u32 = 4;

impl Db {
    /// Runs `f`, made of statements that each stand alone (the brakes'
    /// bucket statements and reads): on PostgreSQL on a connection of its
    /// own outside any transaction, each statement committing without
    /// waiting for the disk (see this module); on SQLite as a write
    /// ([`Db::write`]).
    pub async fn autocommit<T, E>(
        &self,
        f: impl FnOnce(&mut DbConn) -> Result<T, E> + Send + 'static,
    ) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<DbError> + From<diesel::result::Error> + Send + 'static,
    {
        let Some(pool) = self.autocommit_pool.clone() else {
            return self.write(f).await;
        };
        tokio::task::spawn_blocking(move || {
            let mut conn = pool.get().map_err(DbError::from)?;
            f(&mut conn)
        })
        .await
        .map_err(|e| E::from(DbError::Task(e.to_string())))?
    }
}
