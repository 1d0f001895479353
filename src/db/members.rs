//! The member list (issue 36): cards and their validity.

use super::schema::members;
use super::DbConn;
use crate::tournament::members::{card_key, CardType, Member};
use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;

/// Saves members (a card already listed is replaced); how many.
pub fn save(conn: &mut DbConn, list: &[Member], now: NaiveDateTime) -> QueryResult<usize> {
    for m in list {
        let card = card_key(&m.card);
        let values = (
            members::surname.eq(&m.surname),
            members::name.eq(&m.name),
            members::valid_until.eq(m.valid_until.format("%Y-%m-%d").to_string()),
            members::card_type.eq(m.kind.map_or("", CardType::code)),
            members::updated_at.eq(now),
        );
        let changed = diesel::update(members::table.find(&card))
            .set(values.clone())
            .execute(conn)?;
        if changed == 0 {
            diesel::insert_into(members::table)
                .values((members::card.eq(&card), values))
                .execute(conn)?;
        }
    }
    Ok(list.len())
}

/// The member holding `card` (trimmed, case aside).
pub fn find(conn: &mut DbConn, card: &str) -> QueryResult<Option<Member>> {
    let row: Option<(String, String, String, String, String)> = members::table
        .find(card_key(card))
        .select((
            members::card,
            members::surname,
            members::name,
            members::valid_until,
            members::card_type,
        ))
        .first(conn)
        .optional()?;
    Ok(row.and_then(|(card, surname, name, until, kind)| {
        Some(Member {
            card,
            surname,
            name,
            valid_until: NaiveDate::parse_from_str(&until, "%Y-%m-%d").ok()?,
            kind: CardType::parse(&kind),
        })
    }))
}

/// How many members the list holds, and the last day any card is valid
/// (none: no list imported).
pub fn summary(conn: &mut DbConn) -> QueryResult<(i64, Option<String>)> {
    use diesel::dsl::{count_star, max};
    members::table
        .select((count_star(), max(members::valid_until)))
        .first(conn)
}
