//! The player directory: find a player registered before (by surname or
//! federation card number) to register them again without retyping.
//! Directors only; a director finds the players of the tournaments they run
//! (owner or co-director), an admin those of every tournament: a server
//! shared by several clubs does not show one club's members to another.

use crate::ids::TournamentId;
use std::collections::HashMap;

use crate::auth::Role;
use crate::db::directory::{self as ddb, SeatRow};
use crate::db::Db;
use crate::services::{read, Actor, Need, ServiceError};
use crate::tournament::pairs::fold;

/// Fewer characters find too much to be useful.
pub const MIN_QUERY_CHARS: usize = 2;
/// Longer than any surname or card: the rest is ignored.
pub const MAX_QUERY_CHARS: usize = 60;
/// Players shown for one search.
pub const MAX_RESULTS: usize = 20;
/// Seats read per seat column before grouping (a player registered every
/// week appears once per registration).
const MAX_SEATS: i64 = 500;

/// A player as last registered.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DirectoryPlayer {
    pub surname: String,
    pub name: String,
    pub card: String,
    pub club: String,
    /// How many registrations carry this player.
    pub registrations: usize,
}

/// The query as searched: without control characters (a NUL byte is an
/// error to PostgreSQL), trimmed, lower-case, at most [`MAX_QUERY_CHARS`];
/// `None` when too short to search.
pub fn normalise_query(q: &str) -> Option<String> {
    let q: String = q
        .chars()
        .filter(|c| !c.is_control())
        .collect::<String>()
        .trim()
        .chars()
        .take(MAX_QUERY_CHARS)
        .collect();
    let q = q.trim().to_lowercase();
    (q.chars().count() >= MIN_QUERY_CHARS).then_some(q)
}

/// Players whose surname or federation card number contains `q`,
/// from the tournaments the director runs. `tid`: the tournament the
/// director is registering for (checked: 404 when it is not theirs).
pub async fn search(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    q: &str,
) -> Result<Vec<DirectoryPlayer>, ServiceError> {
    if !actor.role.allows(Role::Director) {
        return Err(ServiceError::Forbidden);
    }
    let needle = normalise_query(q);
    db.read(move |c| {
        read(c, &actor, tid, Need::Direct)?;
        let Some(needle) = needle else {
            return Ok(Vec::new());
        };
        let within = match actor.role {
            Role::Admin => None,
            _ => Some(ddb::directed_tournament_ids(c, actor.user_id)?),
        };
        let seats = ddb::search_seats(c, &needle, within.as_deref(), MAX_SEATS)?;
        Ok(group(seats, &needle))
    })
    .await
}

/// One entry per player (same surname, name and card, without case or
/// accents), with the club of the newest registration; players whose
/// surname starts with the query first, then by surname and name.
pub fn group(mut seats: Vec<SeatRow>, needle: &str) -> Vec<DirectoryPlayer> {
    seats.sort_by_key(|s| std::cmp::Reverse(s.registered_at));
    let mut index: HashMap<(String, String, String), usize> = HashMap::new();
    let mut out: Vec<DirectoryPlayer> = Vec::new();
    for s in seats {
        let key = (fold(&s.surname), fold(&s.name), s.card.trim().to_string());
        match index.get(&key) {
            Some(&i) => out[i].registrations += 1,
            None => {
                index.insert(key, out.len());
                out.push(DirectoryPlayer {
                    surname: s.surname,
                    name: s.name,
                    card: s.card,
                    club: s.club,
                    registrations: 1,
                });
            }
        }
    }
    let needle = fold(needle);
    out.sort_by_cached_key(|p| {
        let surname = fold(&p.surname);
        (
            !(surname.starts_with(&needle) || fold(&p.card).starts_with(&needle)),
            surname,
            fold(&p.name),
        )
    });
    out.truncate(MAX_RESULTS);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    fn seat(surname: &str, name: &str, card: &str, club: &str, day: u32) -> SeatRow {
        SeatRow {
            surname: surname.into(),
            name: name.into(),
            card: card.into(),
            club: club.into(),
            registered_at: NaiveDate::from_ymd_opt(2026, 11, day)
                .unwrap()
                .and_hms_opt(20, 0, 0)
                .unwrap(),
        }
    }

    #[test]
    fn one_entry_per_player_with_the_newest_club() {
        let out = group(
            vec![
                seat("Rossi", "Mario", "123", "Old club", 1),
                seat("ROSSI", "mario", "123", "New club", 8),
                seat("Brambilla Rossi", "Anna", "", "", 2),
                seat("Rossi", "Mario", "999", "Other", 3),
            ],
            "ross",
        );
        assert_eq!(out.len(), 3);
        assert_eq!(out[0].club, "New club");
        assert_eq!(out[0].registrations, 2);
        // Surnames starting with the query come before those containing it.
        assert_eq!(out[2].surname, "Brambilla Rossi");
    }

    #[test]
    fn short_or_blank_queries_do_not_search() {
        assert_eq!(normalise_query(" r "), None);
        assert_eq!(normalise_query("  "), None);
        assert_eq!(normalise_query(" RoS ").as_deref(), Some("ros"));
        assert_eq!(normalise_query("ro\0s\n").as_deref(), Some("ros"));
        assert_eq!(normalise_query("\0\0\0"), None);
        assert_eq!(
            normalise_query(&"x".repeat(500)).map(|q| q.len()),
            Some(MAX_QUERY_CHARS)
        );
    }
}
