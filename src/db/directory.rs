//! The player directory: every player ever registered in a pair, read
//! straight from `pairs` (both seats). No table of its own: a registration
//! is the only source of a player, so the directory can never disagree with
//! the pairs (an edited or deleted pair changes it at once, in the same
//! transaction as the edit, with nothing else to keep in step).

use crate::ids::UserId;
use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::individual_players as ip;
use super::schema::{pairs, tournament_staff, tournaments};
use super::DbConn;
use crate::ids::TournamentId;

diesel::define_sql_function! {
    /// SQL `lower()`: both backends have it.
    fn lower(x: diesel::sql_types::Text) -> diesel::sql_types::Text;
}

/// One seat of one registration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatRow {
    pub surname: String,
    pub name: String,
    pub card: String,
    pub club: String,
    pub registered_at: NaiveDateTime,
}

/// The tournaments a director runs (owner or co-director): the ones whose
/// players they may look up.
pub fn directed_tournament_ids(
    conn: &mut DbConn,
    user_id: UserId,
) -> QueryResult<Vec<TournamentId>> {
    let mut ids: Vec<TournamentId> = tournaments::table
        .filter(tournaments::created_by.eq(user_id))
        .select(tournaments::id)
        .load(conn)?;
    let staff: Vec<TournamentId> = tournament_staff::table
        .filter(tournament_staff::user_id.eq(user_id))
        .filter(tournament_staff::role.eq("director"))
        .select(tournament_staff::tournament_id)
        .load(conn)?;
    ids.extend(staff);
    ids.sort_unstable();
    ids.dedup();
    Ok(ids)
}

/// `%`, `_` and `\` taken literally in a `LIKE` pattern (escape `\`).
pub fn like_literal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Seats whose surname or card contains `needle`
/// (`needle` lower-case, taken literally), newest registrations first, at
/// most `limit` per seat column. `within`: the tournaments to search
/// (`None`: all of them).
pub fn search_seats(
    conn: &mut DbConn,
    needle: &str,
    within: Option<&[TournamentId]>,
    limit: i64,
) -> QueryResult<Vec<SeatRow>> {
    let contains = format!("%{}%", like_literal(needle));
    let mut out = Vec::new();
    // Player 1's seat, then player 2's: the same query over other columns.
    macro_rules! seat {
        ($surname:ident, $name:ident, $card:ident, $club:ident) => {{
            let mut q = pairs::table
                .filter(
                    lower(pairs::$surname)
                        .like(contains.clone())
                        .escape('\\')
                        .or(lower(pairs::$card).like(contains.clone()).escape('\\')),
                )
                .select((
                    pairs::$surname,
                    pairs::$name,
                    pairs::$card,
                    pairs::$club,
                    pairs::created_at,
                ))
                .order(pairs::created_at.desc())
                .limit(limit)
                .into_boxed();
            if let Some(ids) = within {
                q = q.filter(pairs::tournament_id.eq_any(ids.to_vec()));
            }
            let rows: Vec<(String, String, String, String, NaiveDateTime)> = q.load(conn)?;
            out.extend(
                rows.into_iter()
                    .map(|(surname, name, card, club, registered_at)| SeatRow {
                        surname,
                        name,
                        card,
                        club,
                        registered_at,
                    }),
            );
        }};
    }
    seat!(p1_surname, p1_name, p1_card, p1_club);
    seat!(p2_surname, p2_name, p2_card, p2_club);
    // The players of individual tournaments (issue 35), registered alone.
    let mut q = ip::table
        .filter(
            lower(ip::surname)
                .like(contains.clone())
                .escape('\\')
                .or(lower(ip::card).like(contains.clone()).escape('\\')),
        )
        .select((ip::surname, ip::name, ip::card, ip::club, ip::created_at))
        .order(ip::created_at.desc())
        .limit(limit)
        .into_boxed();
    if let Some(ids) = within {
        q = q.filter(ip::tournament_id.eq_any(ids.to_vec()));
    }
    let rows: Vec<(String, String, String, String, NaiveDateTime)> = q.load(conn)?;
    out.extend(
        rows.into_iter()
            .map(|(surname, name, card, club, registered_at)| SeatRow {
                surname,
                name,
                card,
                club,
                registered_at,
            }),
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn like_patterns_take_wildcards_literally() {
        assert_eq!(like_literal("50%_a\\b"), "50\\%\\_a\\\\b");
        assert_eq!(like_literal("rossi"), "rossi");
    }
}
