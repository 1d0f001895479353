//! Penalties (RULES.md §9): the record, kept whole — a withdrawn penalty stays, with who withdrew it and why.

use super::schema::penalties;
use super::DbConn;
use crate::ids::PairId;
use crate::ids::PenaltyId;
use crate::ids::TournamentId;
use crate::ids::UserId;
use chrono::NaiveDateTime;
use diesel::prelude::*;

// ---- penalties ----

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = penalties)]
pub struct PenaltyRow {
    pub id: PenaltyId,
    pub tournament_id: TournamentId,
    pub round_no: i32,
    pub pair_id: PairId,
    pub table_no: Option<i32>,
    /// Typed: a stored word that does not read is a query error.
    #[diesel(deserialize_as = String)]
    pub kind: crate::tournament::penalty::PenaltyKind,
    pub amount: Option<i64>,
    pub reason: String,
    pub given_by: Option<i64>,
    pub given_at: NaiveDateTime,
    pub withdrawn_by: Option<i64>,
    pub withdrawn_at: Option<NaiveDateTime>,
    pub withdrawn_reason: String,
    pub reinstated_by: Option<i64>,
    pub reinstated_at: Option<NaiveDateTime>,
    pub reinstated_reason: String,
}

pub fn penalties_of(
    conn: &mut DbConn,
    tournament_id: TournamentId,
) -> QueryResult<Vec<PenaltyRow>> {
    penalties::table
        .filter(penalties::tournament_id.eq(tournament_id))
        .order((penalties::round_no.asc(), penalties::id.asc()))
        .select(PenaltyRow::as_select())
        .load(conn)
}

/// A tournament's penalties with the names of who gave, withdrew and
/// reinstated each (the penalty list at the desk).
pub fn penalties_with_names(
    conn: &mut DbConn,
    tournament_id: TournamentId,
) -> QueryResult<Vec<(PenaltyRow, PenaltyNames)>> {
    use super::schema::users;
    use std::collections::HashMap;
    let rows = penalties_of(conn, tournament_id)?;
    let ids: Vec<i64> = rows
        .iter()
        .flat_map(|p| [p.given_by, p.withdrawn_by, p.reinstated_by])
        .flatten()
        .collect();
    let names: HashMap<i64, String> = users::table
        .filter(users::id.eq_any(&ids))
        .select((users::id, users::username))
        .load::<(i64, String)>(conn)?
        .into_iter()
        .collect();
    let name = |id: Option<i64>| id.and_then(|id| names.get(&id).cloned());
    Ok(rows
        .into_iter()
        .map(|p| {
            let n = PenaltyNames {
                given_by: name(p.given_by),
                withdrawn_by: name(p.withdrawn_by),
                reinstated_by: name(p.reinstated_by),
            };
            (p, n)
        })
        .collect())
}

/// The usernames on a penalty's record (None: unknown or deleted user).
#[derive(Debug, Clone, Default)]
pub struct PenaltyNames {
    pub given_by: Option<String>,
    pub withdrawn_by: Option<String>,
    pub reinstated_by: Option<String>,
}

/// One penalty of a tournament.
pub fn penalty_of(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    id: PenaltyId,
) -> QueryResult<Option<PenaltyRow>> {
    penalties::table
        .filter(penalties::tournament_id.eq(tournament_id))
        .filter(penalties::id.eq(id))
        .select(PenaltyRow::as_select())
        .first(conn)
        .optional()
}

/// A new penalty (warning, mp, vp), on the record.
#[derive(Debug, Clone)]
pub struct NewPenalty {
    pub round_no: i32,
    pub pair_id: PairId,
    pub table_no: Option<i32>,
    pub kind: crate::tournament::penalty::PenaltyKind,
    pub amount: Option<i64>,
    pub reason: String,
}

pub fn add_penalty(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    p: &NewPenalty,
    user_id: UserId,
    now: NaiveDateTime,
) -> QueryResult<PenaltyId> {
    diesel::insert_into(penalties::table)
        .values((
            penalties::tournament_id.eq(tournament_id),
            penalties::round_no.eq(p.round_no),
            penalties::pair_id.eq(p.pair_id),
            penalties::table_no.eq(p.table_no),
            penalties::kind.eq(p.kind.as_str()),
            penalties::amount.eq(p.amount),
            penalties::reason.eq(&p.reason),
            penalties::given_by.eq(Some(user_id)),
            penalties::given_at.eq(now),
        ))
        .returning(penalties::id)
        .get_result(conn)
}

/// Marks a penalty withdrawn (it stays on the record and no longer counts)
/// if it still counts; whether it did.
pub fn withdraw_penalty(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    id: PenaltyId,
    user_id: UserId,
    reason: &str,
    now: NaiveDateTime,
) -> QueryResult<bool> {
    let n = diesel::update(
        penalties::table
            .filter(penalties::tournament_id.eq(tournament_id))
            .filter(penalties::id.eq(id))
            .filter(penalties::withdrawn_at.is_null()),
    )
    .set((
        penalties::withdrawn_by.eq(Some(user_id)),
        penalties::withdrawn_at.eq(Some(now)),
        penalties::withdrawn_reason.eq(reason),
    ))
    .execute(conn)?;
    Ok(n == 1)
}

/// Makes a withdrawn penalty count again (who, when and why kept) if it
/// was withdrawn; whether it was.
pub fn reinstate_penalty(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    id: PenaltyId,
    user_id: UserId,
    reason: &str,
    now: NaiveDateTime,
) -> QueryResult<bool> {
    let n = diesel::update(
        penalties::table
            .filter(penalties::tournament_id.eq(tournament_id))
            .filter(penalties::id.eq(id))
            .filter(penalties::withdrawn_at.is_not_null()),
    )
    .set((
        penalties::withdrawn_by.eq(None::<i64>),
        penalties::withdrawn_at.eq(None::<NaiveDateTime>),
        penalties::withdrawn_reason.eq(""),
        penalties::reinstated_by.eq(Some(user_id)),
        penalties::reinstated_at.eq(Some(now)),
        penalties::reinstated_reason.eq(reason),
    ))
    .execute(conn)?;
    Ok(n == 1)
}
