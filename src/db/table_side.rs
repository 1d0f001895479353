//! Table-side scoring rows: the table and pair codes, each table's entry
//! (entered, confirmed, disputed) and the brake on wrong pair codes. No
//! business rule here: `services::table_side` decides.

pub use super::types::{EntrySide, EntryStatus};
use crate::ids::PairId;
use crate::ids::RoundId;
use crate::ids::SeatingId;
use crate::ids::TournamentId;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use rand::rngs::OsRng;
use rand::Rng;

use super::schema::{audit_log, pairs, rounds, seatings, sheet_entries, sheets};
use super::schema::{idempotency_keys, table_codes, tournaments};
use super::scoring::SheetWrite;
use super::DbConn;

/// Letters and digits that cannot be mistaken for one another (no B/8, G/6,
/// I/1/L, O/0/Q, S/5, Z/2).
pub const TABLE_CODE_ALPHABET: &[u8] = b"ACDEFHJKMNPRTUVWXY3479";
/// Characters of a table code.
pub const TABLE_CODE_LEN: usize = 6;
/// Digits of a pair code.
pub const PAIR_CODE_DIGITS: u32 = 6;

/// A new random table code (the operating system's generator).
pub fn new_table_code() -> String {
    let mut rng = OsRng;
    (0..TABLE_CODE_LEN)
        .map(|_| char::from(TABLE_CODE_ALPHABET[rng.gen_range(0..TABLE_CODE_ALPHABET.len())]))
        .collect()
}

/// A new random pair code: six digits (leading zeros kept).
pub fn new_pair_code() -> String {
    let n: u32 = OsRng.gen_range(0..10u32.pow(PAIR_CODE_DIGITS));
    format!("{n:0width$}", width = PAIR_CODE_DIGITS as usize)
}

/// A new pair code not in `taken` (pairs, teams and players alike), added
/// to it.
pub fn fresh_pair_code(taken: &mut std::collections::HashSet<String>) -> String {
    loop {
        let c = new_pair_code();
        if taken.insert(c.clone()) {
            return c;
        }
    }
}

/// The table codes of a tournament: (table number, code), by table.
pub fn table_codes_of(conn: &mut DbConn, tid: TournamentId) -> QueryResult<Vec<(i32, String)>> {
    table_codes::table
        .filter(table_codes::tournament_id.eq(tid))
        .order(table_codes::table_no.asc())
        .select((table_codes::table_no, table_codes::code))
        .load(conn)
}

/// The pair codes of a tournament: (pair id, pair number, code), by number.
pub fn pair_codes_of(
    conn: &mut DbConn,
    tid: TournamentId,
) -> QueryResult<Vec<(i64, i32, Option<String>)>> {
    // A team tournament's pairs have no code of their own: the team's
    // code names them at their tables (issue 25); nor an individual one's
    // partnerships: each player's personal code does (issue 35).
    pairs::table
        .filter(pairs::tournament_id.eq(tid))
        .filter(pairs::team_id.is_null())
        .filter(pairs::ind_p1.is_null())
        .order(pairs::number.asc())
        .select((pairs::id, pairs::number, pairs::code))
        .load(conn)
}

/// The tournament and table number of a table code.
pub fn find_table(conn: &mut DbConn, code: &str) -> QueryResult<Option<(TournamentId, i32)>> {
    table_codes::table
        .find(code)
        .select((table_codes::tournament_id, table_codes::table_no))
        .first(conn)
        .optional()
}

/// Gives every listed table number and every pair of the tournament a code
/// if it has none (existing codes never change). Codes are random; a
/// collision (the database's unique indexes say so) draws again.
pub fn ensure_codes(
    conn: &mut DbConn,
    tid: TournamentId,
    table_nos: &[i32],
    now: NaiveDateTime,
) -> QueryResult<()> {
    let have: Vec<i32> = table_codes_of(conn, tid)?
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    let mut wanted: Vec<i32> = table_nos
        .iter()
        .copied()
        .filter(|t| *t > 0 && !have.contains(t))
        .collect();
    wanted.sort_unstable();
    wanted.dedup();
    for table_no in wanted {
        let mut done = false;
        for _ in 0..20 {
            // A savepoint: on PostgreSQL a failed insert would abort the
            // whole transaction.
            let inserted = conn.transaction(|c| {
                diesel::insert_into(table_codes::table)
                    .values((
                        table_codes::code.eq(new_table_code()),
                        table_codes::tournament_id.eq(tid),
                        table_codes::table_no.eq(table_no),
                        table_codes::created_at.eq(now),
                    ))
                    .execute(c)
            });
            match inserted {
                Ok(_) => {
                    done = true;
                    break;
                }
                Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => {
                    let exists = table_codes::table
                        .filter(table_codes::tournament_id.eq(tid))
                        .filter(table_codes::table_no.eq(table_no))
                        .count()
                        .get_result::<i64>(conn)?;
                    if exists > 0 {
                        done = true;
                        break;
                    }
                }
                Err(e) => return Err(e),
            }
        }
        if !done {
            return Err(DieselError::RollbackTransaction);
        }
    }
    let pair_rows = pair_codes_of(conn, tid)?;
    let mut taken: std::collections::HashSet<String> =
        pair_rows.iter().filter_map(|(_, _, c)| c.clone()).collect();
    for (id, _, code) in pair_rows {
        if code.is_some() {
            continue;
        }
        let fresh = fresh_pair_code(&mut taken);
        diesel::update(pairs::table.find(id).filter(pairs::code.is_null()))
            .set(pairs::code.eq(fresh))
            .execute(conn)?;
    }
    Ok(())
}

/// The pair of a tournament with this pair code.
pub fn pair_with_code(
    conn: &mut DbConn,
    tid: TournamentId,
    code: &str,
) -> QueryResult<Option<PairId>> {
    pairs::table
        .filter(pairs::tournament_id.eq(tid))
        .filter(pairs::code.eq(code))
        .select(pairs::id)
        .first(conn)
        .optional()
}

/// The seatings of one table number, by round number (one query).
pub fn seatings_of_table(
    conn: &mut DbConn,
    tid: TournamentId,
    table_no: i32,
) -> QueryResult<Vec<(i32, super::rounds::SeatingRow)>> {
    seatings::table
        .inner_join(rounds::table)
        .filter(rounds::tournament_id.eq(tid))
        .filter(seatings::table_no.eq(table_no))
        .order(rounds::number.asc())
        .select((rounds::number, super::rounds::SeatingRow::as_select()))
        .load(conn)
}

/// The table numbers a tournament's seatings use (every round).
pub fn table_numbers_of(conn: &mut DbConn, tid: TournamentId) -> QueryResult<Vec<i32>> {
    seatings::table
        .inner_join(rounds::table)
        .filter(rounds::tournament_id.eq(tid))
        .select(seatings::table_no)
        .distinct()
        .load(conn)
}

// ---- entries ----

/// A table's entry: who entered it, and whether it was confirmed or disputed.
#[derive(Debug, Clone, Queryable, Selectable, serde::Serialize)]
#[diesel(table_name = sheet_entries)]
pub struct EntryRow {
    pub seating_id: SeatingId,
    pub status: EntryStatus,
    pub entered_by: EntrySide,
    pub sheet: Option<String>,
    pub note: String,
    pub version: i32,
    pub entered_at: NaiveDateTime,
    pub decided_by: Option<EntrySide>,
    pub decided_at: Option<NaiveDateTime>,
}

pub fn entry_for(conn: &mut DbConn, seating_id: SeatingId) -> QueryResult<Option<EntryRow>> {
    sheet_entries::table
        .find(seating_id)
        .select(EntryRow::as_select())
        .first(conn)
        .optional()
}

/// The entries of a round's tables.
pub fn entries_of_round(conn: &mut DbConn, round_id: RoundId) -> QueryResult<Vec<EntryRow>> {
    sheet_entries::table
        .inner_join(seatings::table)
        .filter(seatings::round_id.eq(round_id))
        .select(EntryRow::as_select())
        .load(conn)
}

/// Whether any table of the tournament has an entry.
pub fn any_entry(conn: &mut DbConn, tid: TournamentId) -> QueryResult<bool> {
    let n: i64 = sheet_entries::table
        .inner_join(seatings::table.inner_join(rounds::table))
        .filter(rounds::tournament_id.eq(tid))
        .count()
        .get_result(conn)?;
    Ok(n > 0)
}

/// Stores a table's entry (a first one, or one that replaces `existing`,
/// the entry read in the same transaction) and returns its version, or
/// `None` when someone changed the entry meanwhile (a concurrent entry,
/// answer or desk save: read it again and decide again). Only the desk
/// (`over_confirmed`) replaces a confirmed entry.
#[allow(clippy::too_many_arguments)]
pub fn put_entry(
    conn: &mut DbConn,
    seating_id: SeatingId,
    existing: Option<&EntryRow>,
    status: EntryStatus,
    entered_by: EntrySide,
    sheet: Option<&str>,
    over_confirmed: bool,
    now: NaiveDateTime,
) -> QueryResult<Option<i32>> {
    let t = now;
    match existing {
        Some(e) => {
            // No status is "-": the desk replaces any entry.
            let kept = if over_confirmed {
                "-"
            } else {
                EntryStatus::Confirmed.as_str()
            };
            let q = sheet_entries::table
                .filter(sheet_entries::seating_id.eq(seating_id))
                .filter(sheet_entries::version.eq(e.version))
                .filter(sheet_entries::status.ne(kept));
            let n = diesel::update(q)
                .set((
                    sheet_entries::status.eq(status),
                    sheet_entries::entered_by.eq(entered_by),
                    sheet_entries::sheet.eq(sheet),
                    sheet_entries::note.eq(""),
                    sheet_entries::version.eq(e.version + 1),
                    sheet_entries::entered_at.eq(t),
                    sheet_entries::decided_by.eq(None::<&str>),
                    sheet_entries::decided_at.eq(None::<NaiveDateTime>),
                ))
                .execute(conn)?;
            Ok((n == 1).then_some(e.version + 1))
        }
        None => {
            // A savepoint: on PostgreSQL a failed insert would abort the
            // whole transaction.
            let inserted = conn.transaction(|c| {
                diesel::insert_into(sheet_entries::table)
                    .values((
                        sheet_entries::seating_id.eq(seating_id),
                        sheet_entries::status.eq(status),
                        sheet_entries::entered_by.eq(entered_by),
                        sheet_entries::sheet.eq(sheet),
                        sheet_entries::note.eq(""),
                        sheet_entries::version.eq(1),
                        sheet_entries::entered_at.eq(t),
                    ))
                    .execute(c)
            });
            match inserted {
                Ok(_) => Ok(Some(1)),
                Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => Ok(None),
                Err(e) => Err(e),
            }
        }
    }
}

/// Records the other side's answer (or the desk's) on version `version` of
/// an entry; false when the entry changed meanwhile (or is confirmed, unless
/// the desk answers).
pub fn decide(
    conn: &mut DbConn,
    seating_id: SeatingId,
    version: i32,
    status: EntryStatus,
    decided_by: EntrySide,
    note: &str,
    now: NaiveDateTime,
) -> QueryResult<bool> {
    let kept = if decided_by == EntrySide::Desk {
        "-"
    } else {
        EntryStatus::Confirmed.as_str()
    };
    let q = sheet_entries::table
        .filter(sheet_entries::seating_id.eq(seating_id))
        .filter(sheet_entries::version.eq(version))
        .filter(sheet_entries::status.ne(kept));
    let n = diesel::update(q)
        .set((
            sheet_entries::status.eq(status),
            sheet_entries::note.eq(note),
            sheet_entries::decided_by.eq(Some(decided_by.as_str())),
            sheet_entries::decided_at.eq(Some(now)),
        ))
        .execute(conn)?;
    Ok(n == 1)
}

/// [`decide`] for a pair's confirmation, only while the round it was
/// entered in (`round_id`, number `round_no`) is still the tournament's
/// and no later round exists: the check of the round is the write's own
/// condition, read when the statement runs (under the tournament's lock:
/// after every round drawn before it), not a read of its own before it.
/// False when the entry changed, a sheet was confirmed or the round is
/// over: the caller reads again to say which.
#[allow(clippy::too_many_arguments)]
pub fn decide_in_round(
    conn: &mut DbConn,
    tid: TournamentId,
    round_id: RoundId,
    round_no: i32,
    seating_id: SeatingId,
    version: i32,
    decided_by: EntrySide,
    now: NaiveDateTime,
) -> QueryResult<bool> {
    use diesel::dsl::{exists, not};
    let same_round = exists(
        rounds::table
            .filter(rounds::id.eq(round_id))
            .filter(rounds::number.eq(round_no)),
    );
    let later_round = exists(
        rounds::table
            .filter(rounds::tournament_id.eq(tid))
            .filter(rounds::number.gt(round_no)),
    );
    let q = sheet_entries::table
        .filter(sheet_entries::seating_id.eq(seating_id))
        .filter(sheet_entries::version.eq(version))
        .filter(sheet_entries::status.ne(EntryStatus::Confirmed.as_str()))
        .filter(same_round)
        .filter(not(later_round));
    let n = diesel::update(q)
        .set((
            sheet_entries::status.eq(EntryStatus::Confirmed),
            sheet_entries::note.eq(""),
            sheet_entries::decided_by.eq(Some(decided_by.as_str())),
            sheet_entries::decided_at.eq(Some(now)),
        ))
        .execute(conn)?;
    Ok(n == 1)
}

/// Writes a confirmed sheet into `sheets` (what the standings read), with
/// no user: a pair confirmed it.
/// False when the table already has a counted sheet (a save committed
/// before the caller took the tournament's lock). No savepoint: on
/// PostgreSQL a false leaves the transaction failed, and the caller rolls
/// it back whole.
pub fn insert_counted_sheet(
    conn: &mut DbConn,
    seating_id: SeatingId,
    write: &SheetWrite,
    now: NaiveDateTime,
) -> QueryResult<bool> {
    let inserted = insert_sheet_row(conn, seating_id, write, now);
    match inserted {
        Ok(_) => Ok(true),
        Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => Ok(false),
        Err(e) => Err(e),
    }
}

fn insert_sheet_row(
    conn: &mut DbConn,
    seating_id: SeatingId,
    write: &SheetWrite,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::insert_into(sheets::table)
        .values((
            sheets::seating_id.eq(seating_id),
            sheets::sheet.eq(write.sheet.as_deref()),
            sheets::ns_total.eq(write.ns_total),
            sheets::ew_total.eq(write.ew_total),
            sheets::ns_vp.eq(write.ns_vp),
            sheets::ew_vp.eq(write.ew_vp),
            sheets::accepted_mismatch.eq(write.accepted_mismatch),
            sheets::note.eq(&write.note),
            sheets::version.eq(1),
            sheets::updated_by.eq(None::<i64>),
            sheets::updated_at.eq(now),
        ))
        .execute(conn)
}

/// An audit entry made by a pair at its table (no user: `reason` names the
/// pair, e.g. "pair 7, EW").
#[allow(clippy::too_many_arguments)]
pub fn audit_by_pair(
    conn: &mut DbConn,
    tid: TournamentId,
    round_no: i32,
    table_no: i32,
    action: &str,
    before: Option<String>,
    after: Option<String>,
    reason: &str,
    now: NaiveDateTime,
) -> QueryResult<()> {
    diesel::insert_into(audit_log::table)
        .values((
            audit_log::tournament_id.eq(tid),
            audit_log::round_no.eq(Some(round_no)),
            audit_log::table_no.eq(Some(table_no)),
            audit_log::action.eq(action),
            audit_log::before_value.eq(before),
            audit_log::after_value.eq(after),
            audit_log::reason.eq(reason),
            audit_log::user_id.eq(None::<i64>),
            audit_log::at.eq(now),
        ))
        .execute(conn)
        .map(|_| ())
}

/// Bumps a tournament's revision (a row lock on PostgreSQL) and says
/// whether it exists.
pub fn bump_revision(conn: &mut DbConn, tid: TournamentId) -> QueryResult<bool> {
    let n = diesel::update(tournaments::table.find(tid))
        .set(tournaments::revision.eq(tournaments::revision + 1))
        .execute(conn)?;
    Ok(n > 0)
}

// ---- one answer per submission ----

/// The answer stored under an idempotency key.
pub fn idempotent_answer(conn: &mut DbConn, key: &str) -> QueryResult<Option<String>> {
    idempotency_keys::table
        .find(key)
        .select(idempotency_keys::answer)
        .first(conn)
        .optional()
}

/// Stores an answer under its key; false when the key is taken (a twin
/// submission stored its answer first).
pub fn remember_answer(
    conn: &mut DbConn,
    key: &str,
    answer: &str,
    at: NaiveDateTime,
) -> QueryResult<bool> {
    // A savepoint: on PostgreSQL a failed insert would abort the whole
    // transaction.
    let inserted = conn.transaction(|c| {
        diesel::insert_into(idempotency_keys::table)
            .values((
                idempotency_keys::key.eq(key),
                idempotency_keys::answer.eq(answer),
                idempotency_keys::created_at.eq(at),
            ))
            .execute(c)
    });
    match inserted {
        Ok(_) => Ok(true),
        Err(DieselError::DatabaseError(DatabaseErrorKind::UniqueViolation, _)) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Forgets the answers stored before `before`.
pub fn forget_answers_before(conn: &mut DbConn, before: NaiveDateTime) -> QueryResult<usize> {
    diesel::delete(idempotency_keys::table.filter(idempotency_keys::created_at.lt(before)))
        .execute(conn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_have_their_shape() {
        for _ in 0..200 {
            let t = new_table_code();
            assert_eq!(t.len(), TABLE_CODE_LEN);
            assert!(t.bytes().all(|b| TABLE_CODE_ALPHABET.contains(&b)), "{t}");
            let p = new_pair_code();
            assert_eq!(p.len(), PAIR_CODE_DIGITS as usize);
            assert!(p.bytes().all(|b| b.is_ascii_digit()));
        }
        // No look-alikes in the alphabet.
        for c in b"B8G6I1LO0QS5Z2" {
            assert!(!TABLE_CODE_ALPHABET.contains(c));
        }
    }
}
