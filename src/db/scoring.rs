//! Score sheets (and adjusted scores), penalties and the audit log. Every
//! write is one transaction and leaves an audit entry; nothing is deleted.

use crate::ids::RoundId;
use crate::ids::SeatingId;
use crate::ids::TournamentId;
use crate::ids::UserId;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};

use super::schema::{seatings, sheets};
use super::DbConn;

#[derive(Debug, Clone, Queryable, Selectable, serde::Serialize)]
#[diesel(table_name = sheets)]
pub struct SheetRow {
    pub id: i64,
    pub seating_id: SeatingId,
    pub sheet: Option<String>,
    pub adjusted_ns_vp: Option<i32>,
    pub adjusted_ew_vp: Option<i32>,
    pub adjusted_ns_mp_diff: Option<i64>,
    pub adjusted_ew_mp_diff: Option<i64>,
    pub ns_total: i64,
    pub ew_total: i64,
    pub ns_vp: i32,
    pub ew_vp: i32,
    pub accepted_mismatch: bool,
    pub note: String,
    pub version: i32,
    pub updated_by: Option<UserId>,
    pub updated_at: NaiveDateTime,
}

impl SheetRow {
    pub fn is_adjusted(&self) -> bool {
        self.sheet.is_none()
    }

    /// The stored sheet (None for an adjusted score); a sheet that no longer
    /// reads is an error naming the row.
    pub fn score_sheet(&self) -> Result<Option<crate::rules::ScoreSheet>, DieselError> {
        self.sheet
            .as_deref()
            .map(|s| {
                serde_json::from_str(s).map_err(|e| {
                    super::unreadable(format!(
                        "sheet {} (seating {}): {e}",
                        self.id, self.seating_id
                    ))
                })
            })
            .transpose()
    }

    /// What the audit log keeps of a version of the sheet.
    fn audit_value(&self) -> String {
        match &self.sheet {
            Some(s) => s.clone(),
            None => serde_json::json!({"adjusted": {
                "ns_vp": self.adjusted_ns_vp, "ew_vp": self.adjusted_ew_vp,
                "ns_mp_diff": self.adjusted_ns_mp_diff, "ew_mp_diff": self.adjusted_ew_mp_diff,
            }})
            .to_string(),
        }
    }
}

/// What a save writes (already checked by the rules engine). `adjusted`
/// is (NS VP, EW VP, NS MP difference, EW MP difference).
#[derive(Debug, Clone)]
pub struct SheetWrite {
    pub sheet: Option<String>,
    pub adjusted: Option<(i32, i32, Option<i64>, Option<i64>)>,
    pub ns_total: i64,
    pub ew_total: i64,
    pub ns_vp: i32,
    pub ew_vp: i32,
    pub accepted_mismatch: bool,
    pub note: String,
}

/// The columns a save writes, once for inserts, updates and imports.
#[derive(Insertable, AsChangeset)]
#[diesel(table_name = sheets, treat_none_as_null = true)]
struct SheetValues<'a> {
    sheet: Option<&'a str>,
    adjusted_ns_vp: Option<i32>,
    adjusted_ew_vp: Option<i32>,
    adjusted_ns_mp_diff: Option<i64>,
    adjusted_ew_mp_diff: Option<i64>,
    ns_total: i64,
    ew_total: i64,
    ns_vp: i32,
    ew_vp: i32,
    accepted_mismatch: bool,
    note: &'a str,
    updated_by: Option<UserId>,
    updated_at: NaiveDateTime,
}

impl SheetWrite {
    fn values(&self, user_id: UserId, at: NaiveDateTime) -> SheetValues<'_> {
        SheetValues {
            sheet: self.sheet.as_deref(),
            adjusted_ns_vp: self.adjusted.map(|a| a.0),
            adjusted_ew_vp: self.adjusted.map(|a| a.1),
            adjusted_ns_mp_diff: self.adjusted.and_then(|a| a.2),
            adjusted_ew_mp_diff: self.adjusted.and_then(|a| a.3),
            ns_total: self.ns_total,
            ew_total: self.ew_total,
            ns_vp: self.ns_vp,
            ew_vp: self.ew_vp,
            accepted_mismatch: self.accepted_mismatch,
            note: &self.note,
            updated_by: Some(user_id),
            updated_at: at,
        }
    }
}

/// Inserts the first version of a table's sheet (no audit entry: callers add theirs).
pub fn insert_sheet(
    conn: &mut DbConn,
    seating_id: SeatingId,
    write: &SheetWrite,
    user_id: UserId,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::insert_into(sheets::table)
        .values((
            write.values(user_id, now),
            sheets::seating_id.eq(seating_id),
            sheets::version.eq(1),
        ))
        .execute(conn)
}

/// Where a sheet belongs (for the audit log).
#[derive(Debug, Clone, Copy)]
pub struct TablePlace {
    pub tournament_id: TournamentId,
    pub round_no: i32,
    pub table_no: i32,
    pub seating_id: SeatingId,
}

#[derive(Debug, thiserror::Error)]
pub enum SaveError {
    /// Someone else saved the sheet meanwhile: here is the current version.
    #[error("the sheet changed meanwhile")]
    Conflict { current: Option<Box<SheetRow>> },
    #[error(transparent)]
    Db(#[from] DieselError),
}

pub fn sheet_for(conn: &mut DbConn, seating_id: SeatingId) -> QueryResult<Option<SheetRow>> {
    sheets::table
        .filter(sheets::seating_id.eq(seating_id))
        .select(SheetRow::as_select())
        .first(conn)
        .optional()
}

/// Every sheet of a round (by seating id).
pub fn sheets_of_round(conn: &mut DbConn, round_id: RoundId) -> QueryResult<Vec<SheetRow>> {
    sheets::table
        .inner_join(seatings::table)
        .filter(seatings::round_id.eq(round_id))
        .select(SheetRow::as_select())
        .load(conn)
}

/// Saves a sheet: a new one (`expected_version` None) or a correction of
/// the version the editor saw. A concurrent change is a conflict, never a
/// lost update.
pub fn save_sheet(
    conn: &mut DbConn,
    place: TablePlace,
    expected_version: Option<i32>,
    write: &SheetWrite,
    user_id: UserId,
    reason: &str,
    now: NaiveDateTime,
) -> Result<i32, SaveError> {
    conn.transaction(|conn| {
        let existing = sheet_for(conn, place.seating_id)?;
        let t = now;
        let (version, before, action) = match (&existing, expected_version) {
            (None, None) => {
                // A savepoint: on PostgreSQL a failed insert would otherwise
                // abort the whole transaction before the conflict is read.
                let inserted =
                    conn.transaction(|c| insert_sheet(c, place.seating_id, write, user_id, now));
                match inserted {
                    Ok(_) => {}
                    Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => {
                        return Err(SaveError::Conflict {
                            current: sheet_for(conn, place.seating_id)?.map(Box::new),
                        })
                    }
                    Err(e) => return Err(e.into()),
                }
                let action = if write.adjusted.is_some() {
                    "adjusted.created"
                } else {
                    "sheet.created"
                };
                (1, None, action)
            }
            (Some(current), Some(v)) if current.version == v => {
                let n = diesel::update(
                    sheets::table
                        .filter(sheets::id.eq(current.id))
                        .filter(sheets::version.eq(v)),
                )
                .set((write.values(user_id, t), sheets::version.eq(v + 1)))
                .execute(conn)?;
                if n == 0 {
                    return Err(SaveError::Conflict {
                        current: sheet_for(conn, place.seating_id)?.map(Box::new),
                    });
                }
                let action = if write.adjusted.is_some() {
                    "adjusted.corrected"
                } else {
                    "sheet.corrected"
                };
                (v + 1, Some(current.audit_value()), action)
            }
            _ => {
                return Err(SaveError::Conflict {
                    current: existing.map(Box::new),
                })
            }
        };
        let after = match &write.sheet {
            Some(s) => s.clone(),
            None => serde_json::json!({"adjusted": write.adjusted}).to_string(),
        };
        super::audit::audit_by(
            conn,
            place.tournament_id,
            Some(place.round_no),
            Some(place.table_no),
            action,
            before,
            Some(after),
            reason,
            Some(user_id),
            now,
        )?;
        Ok(version)
    })
}
