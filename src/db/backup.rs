//! A consistent copy of a live SQLite database (`burraco-td backup`).
//!
//! `VACUUM INTO` writes the database as one read transaction sees it —
//! the main file and every committed page still in the WAL — into a new
//! file, while the server goes on writing. A `cp` of the live file copies
//! the main file only: rows acknowledged but not yet checkpointed are lost.
//! PostgreSQL has its own tool (`pg_dump`).

use diesel::connection::SimpleConnection;

use super::DbConn;

/// Why a backup cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    #[error("{0} exists already: choose a new file name")]
    Exists(String),
    #[error("the database is PostgreSQL: use pg_dump (see the README)")]
    Postgres,
    #[error(transparent)]
    Query(#[from] diesel::result::Error),
    #[error(transparent)]
    Db(#[from] super::DbError),
}

/// Copies the database into `target` (a new file).
pub fn sqlite_into(conn: &mut DbConn, target: &std::path::Path) -> Result<(), BackupError> {
    if target.exists() {
        return Err(BackupError::Exists(target.display().to_string()));
    }
    match conn {
        DbConn::Postgres(_) => Err(BackupError::Postgres),
        DbConn::Sqlite(c) => {
            // A string literal in SQL: quotes doubled.
            let path = target.display().to_string().replace('\'', "''");
            c.batch_execute(&format!("VACUUM INTO '{path}'"))?;
            Ok(())
        }
    }
}
