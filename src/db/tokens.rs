//! Rows of `api_tokens`: personal API tokens, kept as hashes. The policy
//! (who may create or revoke, when `last_used_at` is refreshed) lives in
//! `services::tokens`.

use crate::ids::TokenId;
use crate::ids::UserId;
use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::{api_tokens, users};
use super::users::UserRow;
use super::DbConn;

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = api_tokens)]
pub struct TokenRow {
    pub id: TokenId,
    pub user_id: UserId,
    pub label: String,
    pub token_hash: String,
    pub created_at: NaiveDateTime,
    pub last_used_at: Option<NaiveDateTime>,
}

/// Stores a token's hash; returns the new row's id.
pub fn insert(
    conn: &mut DbConn,
    user_id: UserId,
    label: &str,
    token_hash: &str,
    now: NaiveDateTime,
) -> QueryResult<TokenId> {
    diesel::insert_into(api_tokens::table)
        .values((
            api_tokens::user_id.eq(user_id),
            api_tokens::label.eq(label),
            api_tokens::token_hash.eq(token_hash),
            api_tokens::created_at.eq(now),
        ))
        .returning(api_tokens::id)
        .get_result(conn)
}

/// A user's tokens, newest first.
pub fn list_for_user(conn: &mut DbConn, user_id: UserId) -> QueryResult<Vec<TokenRow>> {
    api_tokens::table
        .filter(api_tokens::user_id.eq(user_id))
        .order((api_tokens::created_at.desc(), api_tokens::id.desc()))
        .select(TokenRow::as_select())
        .load(conn)
}

/// One token of a user (`None`: no such token, or somebody else's).
pub fn find_for_user(
    conn: &mut DbConn,
    id: TokenId,
    user_id: UserId,
) -> QueryResult<Option<TokenRow>> {
    api_tokens::table
        .filter(api_tokens::id.eq(id))
        .filter(api_tokens::user_id.eq(user_id))
        .select(TokenRow::as_select())
        .first(conn)
        .optional()
}

/// The token with this hash and its owner.
pub fn find_by_hash(
    conn: &mut DbConn,
    token_hash: &str,
) -> QueryResult<Option<(TokenRow, UserRow)>> {
    api_tokens::table
        .inner_join(users::table)
        .filter(api_tokens::token_hash.eq(token_hash))
        .select((TokenRow::as_select(), UserRow::as_select()))
        .first(conn)
        .optional()
}

/// Deletes a user's token; the number of rows deleted (0 or 1).
pub fn delete_for_user(conn: &mut DbConn, id: TokenId, user_id: UserId) -> QueryResult<usize> {
    diesel::delete(
        api_tokens::table
            .filter(api_tokens::id.eq(id))
            .filter(api_tokens::user_id.eq(user_id)),
    )
    .execute(conn)
}

/// Sets `last_used_at` to `now` unless it is already at or after `stale_before`
/// (so that concurrent requests write it once).
pub fn touch(
    conn: &mut DbConn,
    id: TokenId,
    now: NaiveDateTime,
    stale_before: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(
        api_tokens::table.filter(api_tokens::id.eq(id)).filter(
            api_tokens::last_used_at
                .is_null()
                .or(api_tokens::last_used_at.lt(stale_before)),
        ),
    )
    .set(api_tokens::last_used_at.eq(now))
    .execute(conn)
}

/// Deletes every token of a user; how many there were.
pub fn delete_all_for_user(conn: &mut DbConn, user_id: UserId) -> QueryResult<usize> {
    diesel::delete(api_tokens::table.filter(api_tokens::user_id.eq(user_id))).execute(conn)
}
