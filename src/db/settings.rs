//! Application settings kept in the database (the CSRF key).

use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use rand::RngCore;

use super::schema::app_settings;
use super::DbConn;

const CSRF_KEY: &str = "csrf_key";

pub fn get(conn: &mut DbConn, key: &str) -> QueryResult<Option<String>> {
    app_settings::table
        .find(key)
        .select(app_settings::value)
        .first(conn)
        .optional()
}

/// The server's CSRF key: made once, on first start, and kept so that forms
/// stay valid across restarts.
pub fn csrf_key(conn: &mut DbConn) -> QueryResult<Vec<u8>> {
    if let Some(v) = get(conn, CSRF_KEY)? {
        if let Ok(bytes) = hex::decode(v) {
            return Ok(bytes);
        }
    }
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    let inserted = diesel::insert_into(app_settings::table)
        .values((
            app_settings::key.eq(CSRF_KEY),
            app_settings::value.eq(hex::encode(bytes)),
        ))
        .execute(conn);
    match inserted {
        Ok(_) => Ok(bytes.to_vec()),
        // Another process made it first: use theirs.
        Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => {
            get(conn, CSRF_KEY)?
                .and_then(|v| hex::decode(v).ok())
                .ok_or(DieselError::NotFound)
        }
        Err(e) => Err(e),
    }
}

/// Sets an application setting (inserted when new).
pub fn set(conn: &mut DbConn, key: &str, value: &str) -> QueryResult<()> {
    let n = diesel::update(app_settings::table.find(key))
        .set(app_settings::value.eq(value))
        .execute(conn)?;
    if n == 0 {
        diesel::insert_into(app_settings::table)
            .values((app_settings::key.eq(key), app_settings::value.eq(value)))
            .execute(conn)?;
    }
    Ok(())
}
