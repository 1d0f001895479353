//! The player directory's people (issue 24): who each seat of a
//! registration is across tournaments (RULES.md §11: the same federation
//! card, or without one the same normalised name).
//!
//! - Every seat of every pair points at a person (`pairs.p1_person_id`,
//!   `p2_person_id`), set in the transaction that registers or edits the
//!   pair ([`link_pair`]).
//! - A merge keeps both rows: the one that goes gets `merged_into`; every
//!   reader follows it ([`canonical_map`]) to the person that stays, so a
//!   split only clears it again.

use crate::ids::PairId;
use crate::ids::PersonId;
use crate::ids::TournamentId;
use crate::ids::UserId;
use std::collections::{BTreeMap, HashMap};

use chrono::NaiveDateTime;
use diesel::prelude::*;

use super::schema::{pairs, people, people_audit};
use super::DbConn;
use crate::circuit::{normalize_card, normalize_name};

/// A row of `people`.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = people)]
pub struct PersonRow {
    pub id: PersonId,
    pub surname: String,
    pub name: String,
    pub card: Option<String>,
    pub name_key: String,
    pub merged_into: Option<PersonId>,
    pub merged_by: Option<UserId>,
    pub merged_at: Option<NaiveDateTime>,
    pub created_at: NaiveDateTime,
}

/// Merges are at most this deep (a chain A → B → C…): deeper is a loop,
/// which [`merge`] never writes.
const MAX_CHAIN: usize = 64;

/// Every person that was merged, mapped to the person that stays (chains
/// followed). A person not in the map stays itself.
pub fn canonical_map(conn: &mut DbConn) -> QueryResult<HashMap<PersonId, PersonId>> {
    let merged: Vec<(PersonId, Option<PersonId>)> = people::table
        .filter(people::merged_into.is_not_null())
        .select((people::id, people::merged_into))
        .load(conn)?;
    let direct: HashMap<PersonId, PersonId> = merged
        .into_iter()
        .filter_map(|(id, into)| into.map(|i| (id, i)))
        .collect();
    let mut out = HashMap::with_capacity(direct.len());
    for &id in direct.keys() {
        let mut at = id;
        for _ in 0..MAX_CHAIN {
            match direct.get(&at) {
                Some(&next) => at = next,
                None => break,
            }
        }
        out.insert(id, at);
    }
    Ok(out)
}

/// The key of the PostgreSQL advisory lock that serialises changes to
/// the directory's people.
const DIRECTORY_LOCK_KEY: i64 = i64::from_be_bytes(*b"\0people\0");

/// Holds the directory for the rest of the transaction: two merges (A into
/// B and B into A) or two registrations of one new player cannot both
/// pass their checks (PostgreSQL: a transaction-scoped advisory lock;
/// SQLite's write lock is already held by `Db::write`).
pub fn lock_directory(conn: &mut DbConn) -> QueryResult<()> {
    if let DbConn::Postgres(_) = conn {
        use diesel::connection::SimpleConnection;
        conn.batch_execute(&format!(
            "SELECT pg_advisory_xact_lock({DIRECTORY_LOCK_KEY})"
        ))?;
    }
    Ok(())
}

/// The `app_settings` key of the directory's revision: it goes up with
/// every merge and split (part of every circuit's revision,
/// `db::circuits::revision`).
const DIRECTORY_REVISION: &str = "directory_revision";

/// The directory's revision (0 before the first merge).
pub fn directory_revision(conn: &mut DbConn) -> QueryResult<i64> {
    match super::settings::get(conn, DIRECTORY_REVISION)? {
        None => Ok(0),
        Some(v) => v
            .parse()
            .map_err(|_| super::unreadable(format!("{DIRECTORY_REVISION} {v:?}"))),
    }
}

/// Raises the directory's revision (after [`lock_directory`]).
pub fn bump_directory_revision(conn: &mut DbConn) -> QueryResult<i64> {
    let next = directory_revision(conn)?.saturating_add(1);
    super::settings::set(conn, DIRECTORY_REVISION, &next.to_string())?;
    Ok(next)
}

/// The person `id` stands for now.
pub fn canonical(map: &HashMap<PersonId, PersonId>, id: PersonId) -> PersonId {
    map.get(&id).copied().unwrap_or(id)
}

pub fn find(conn: &mut DbConn, id: PersonId) -> QueryResult<Option<PersonRow>> {
    people::table
        .find(id)
        .select(PersonRow::as_select())
        .first(conn)
        .optional()
}

pub fn find_many(conn: &mut DbConn, ids: &[PersonId]) -> QueryResult<Vec<PersonRow>> {
    people::table
        .filter(people::id.eq_any(ids.to_vec()))
        .select(PersonRow::as_select())
        .load(conn)
}

fn create(
    conn: &mut DbConn,
    surname: &str,
    name: &str,
    card: Option<&str>,
    now: NaiveDateTime,
) -> QueryResult<PersonId> {
    diesel::insert_into(people::table)
        .values((
            people::surname.eq(surname.trim()),
            people::name.eq(name.trim()),
            people::card.eq(card),
            people::name_key.eq(normalize_name(surname, name)),
            people::created_at.eq(now),
        ))
        .returning(people::id)
        .get_result(conn)
}

/// The person of a seat: found by card, else by name, else created
/// (RULES.md §11's rule, as the circuit's resolver applies it to files):
/// - with a card: the person holding that card; else the one card-less
///   person of that name, who takes the card; else a new person;
/// - without a card: the one person (after merges) of that name, card or
///   not; with none, or with two or more (homonyms the rules cannot tell
///   apart), a new person (a likely duplicate the director may merge).
pub fn find_or_create(
    conn: &mut DbConn,
    surname: &str,
    name: &str,
    card: &str,
    now: NaiveDateTime,
) -> QueryResult<PersonId> {
    let key = normalize_name(surname, name);
    let map = canonical_map(conn)?;
    if let Some(card) = normalize_card(card) {
        let holders: Vec<PersonId> = people::table
            .filter(people::card.eq(&card))
            .select(people::id)
            .order(people::id.asc())
            .load(conn)?;
        if let Some(&id) = holders.first() {
            return Ok(canonical(&map, id));
        }
        let named: Vec<(PersonId, Option<String>)> = people::table
            .filter(people::name_key.eq(&key))
            .select((people::id, people::card))
            .load(conn)?;
        let mut cardless: Vec<PersonId> = named
            .iter()
            .filter(|(_, c)| c.is_none())
            .map(|(id, _)| canonical(&map, *id))
            .collect();
        cardless.sort_unstable();
        cardless.dedup();
        let card_holders = named.iter().any(|(_, c)| c.is_some());
        if let ([id], false) = (cardless.as_slice(), card_holders) {
            diesel::update(people::table.find(*id))
                .set(people::card.eq(&card))
                .execute(conn)?;
            return Ok(*id);
        }
        return create(conn, surname, name, Some(&card), now);
    }
    let named: Vec<PersonId> = people::table
        .filter(people::name_key.eq(&key))
        .select(people::id)
        .load(conn)?;
    let mut found: Vec<PersonId> = named.into_iter().map(|id| canonical(&map, id)).collect();
    found.sort_unstable();
    found.dedup();
    match found.as_slice() {
        [id] => Ok(*id),
        _ => create(conn, surname, name, None, now),
    }
}

/// Points both seats of pair `pair_id` at their people (inside the
/// caller's transaction: the registration and its link are one write).
pub fn link_pair(conn: &mut DbConn, pair_id: PairId, now: NaiveDateTime) -> QueryResult<()> {
    lock_directory(conn)?;
    #[allow(clippy::type_complexity)]
    let (s1, n1, c1, s2, n2, c2): (String, String, String, String, String, String) = pairs::table
        .find(pair_id)
        .select((
            pairs::p1_surname,
            pairs::p1_name,
            pairs::p1_card,
            pairs::p2_surname,
            pairs::p2_name,
            pairs::p2_card,
        ))
        .first(conn)?;
    let a = find_or_create(conn, &s1, &n1, &c1, now)?;
    let b = find_or_create(conn, &s2, &n2, &c2, now)?;
    diesel::update(pairs::table.find(pair_id))
        .set((pairs::p1_person_id.eq(a), pairs::p2_person_id.eq(b)))
        .execute(conn)?;
    Ok(())
}

/// Links every seat not linked yet (registrations older than the
/// directory's people, a restored backup): oldest first, so the people are
/// found in the order the players registered. Returns how many pairs.
pub fn link_unlinked(conn: &mut DbConn, now: NaiveDateTime) -> QueryResult<usize> {
    let ids: Vec<PairId> = pairs::table
        .filter(
            pairs::p1_person_id
                .is_null()
                .or(pairs::p2_person_id.is_null()),
        )
        .order(pairs::id.asc())
        .select(pairs::id)
        .load(conn)?;
    for &id in &ids {
        link_pair(conn, id, now)?;
    }
    Ok(ids.len())
}

/// One seat of a registration, with its person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PersonSeat {
    pub person_id: PersonId,
    pub tournament_id: TournamentId,
    pub pair_number: i32,
    pub surname: String,
    pub name: String,
    pub card: String,
    pub registered_at: NaiveDateTime,
}

/// The seats of the pairs of `tournaments` (`None`: every tournament), with
/// their (raw, not canonical) person.
pub fn seats(
    conn: &mut DbConn,
    tournaments: Option<&[TournamentId]>,
) -> QueryResult<Vec<PersonSeat>> {
    let mut q = pairs::table
        .select((
            pairs::tournament_id,
            pairs::number,
            pairs::created_at,
            (
                pairs::p1_person_id,
                pairs::p1_surname,
                pairs::p1_name,
                pairs::p1_card,
            ),
            (
                pairs::p2_person_id,
                pairs::p2_surname,
                pairs::p2_name,
                pairs::p2_card,
            ),
        ))
        .into_boxed();
    if let Some(ids) = tournaments {
        q = q.filter(pairs::tournament_id.eq_any(ids.to_vec()));
    }
    #[allow(clippy::type_complexity)]
    let rows: Vec<(
        TournamentId,
        i32,
        NaiveDateTime,
        (Option<PersonId>, String, String, String),
        (Option<PersonId>, String, String, String),
    )> = q.load(conn)?;
    let mut out = Vec::with_capacity(rows.len() * 2);
    for (tid, number, at, a, b) in rows {
        for (person, surname, name, card) in [a, b] {
            if let Some(person_id) = person {
                out.push(PersonSeat {
                    person_id,
                    tournament_id: tid,
                    pair_number: number,
                    surname,
                    name,
                    card,
                    registered_at: at,
                });
            }
        }
    }
    Ok(out)
}

/// People merged into another (the merges a director may split), newest
/// first, among `ids`.
pub fn merged_among(conn: &mut DbConn, ids: &[PersonId]) -> QueryResult<Vec<PersonRow>> {
    people::table
        .filter(people::merged_into.is_not_null())
        .filter(people::id.eq_any(ids.to_vec()))
        .order(people::merged_at.desc())
        .select(PersonRow::as_select())
        .load(conn)
}

/// `gone` now stands for `keep` (both must stay themselves: checked by the
/// caller inside the transaction).
pub fn merge(
    conn: &mut DbConn,
    keep: PersonId,
    gone: PersonId,
    by: UserId,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(
        people::table
            .find(gone)
            .filter(people::merged_into.is_null()),
    )
    .set((
        people::merged_into.eq(keep),
        people::merged_by.eq(by),
        people::merged_at.eq(now),
    ))
    .execute(conn)
}

/// `id` stands for itself again.
pub fn split(conn: &mut DbConn, id: PersonId) -> QueryResult<usize> {
    diesel::update(
        people::table
            .find(id)
            .filter(people::merged_into.is_not_null()),
    )
    .set((
        people::merged_into.eq(None::<i64>),
        people::merged_by.eq(None::<i64>),
        people::merged_at.eq(None::<NaiveDateTime>),
    ))
    .execute(conn)
}

/// What the directory's audit says happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PeopleAction {
    Merge,
    Split,
}

impl PeopleAction {
    pub fn as_str(self) -> &'static str {
        match self {
            PeopleAction::Merge => "merge",
            PeopleAction::Split => "split",
        }
    }
}

impl TryFrom<String> for PeopleAction {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        match s.as_str() {
            "merge" => Ok(PeopleAction::Merge),
            "split" => Ok(PeopleAction::Split),
            _ => Err(format!("unknown directory action {s:?}")),
        }
    }
}

/// One line of the directory's audit.
#[derive(Debug, Clone, PartialEq, Eq, Queryable)]
pub struct PeopleAuditRow {
    pub id: i64,
    #[diesel(deserialize_as = String)]
    pub action: PeopleAction,
    pub kept_id: PersonId,
    pub other_id: PersonId,
    pub user_id: Option<UserId>,
    pub at: NaiveDateTime,
}

/// Records a merge or a split.
pub fn record(
    conn: &mut DbConn,
    action: PeopleAction,
    kept: PersonId,
    other: PersonId,
    by: UserId,
    now: NaiveDateTime,
) -> QueryResult<()> {
    diesel::insert_into(people_audit::table)
        .values((
            people_audit::action.eq(action.as_str()),
            people_audit::kept_id.eq(kept),
            people_audit::other_id.eq(other),
            people_audit::user_id.eq(by),
            people_audit::at.eq(now),
        ))
        .execute(conn)?;
    Ok(())
}

/// The directory's audit touching `ids`, newest first.
pub fn audit_of(
    conn: &mut DbConn,
    ids: &[PersonId],
    limit: i64,
) -> QueryResult<Vec<PeopleAuditRow>> {
    people_audit::table
        .filter(
            people_audit::kept_id
                .eq_any(ids.to_vec())
                .or(people_audit::other_id.eq_any(ids.to_vec())),
        )
        .order(people_audit::id.desc())
        .limit(limit)
        .select((
            people_audit::id,
            people_audit::action,
            people_audit::kept_id,
            people_audit::other_id,
            people_audit::user_id,
            people_audit::at,
        ))
        .load(conn)
}

/// Groups of people (canonical ids) a director should look at: the same
/// normalised name, or the same card. `people` maps each canonical person
/// to its (name key, card).
pub fn likely_duplicates(
    people: &BTreeMap<PersonId, (String, Option<String>)>,
) -> Vec<Vec<PersonId>> {
    let mut by_name: BTreeMap<&str, Vec<PersonId>> = BTreeMap::new();
    let mut by_card: BTreeMap<&str, Vec<PersonId>> = BTreeMap::new();
    for (id, (key, card)) in people {
        by_name.entry(key.as_str()).or_default().push(*id);
        if let Some(c) = card {
            by_card.entry(c.as_str()).or_default().push(*id);
        }
    }
    let mut groups: Vec<Vec<PersonId>> = by_name
        .into_values()
        .chain(by_card.into_values())
        .filter(|g| g.len() > 1)
        .collect();
    for g in &mut groups {
        g.sort_unstable();
    }
    groups.sort();
    groups.dedup();
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_group_by_name_or_card() {
        let mut p = BTreeMap::new();
        p.insert(PersonId(1), ("rossi maria".to_string(), None));
        p.insert(
            PersonId(2),
            ("rossi maria".to_string(), Some("123".to_string())),
        );
        p.insert(
            PersonId(3),
            ("bianchi luca".to_string(), Some("123".to_string())),
        );
        p.insert(PersonId(4), ("verdi anna".to_string(), None));
        let id = PersonId;
        assert_eq!(
            likely_duplicates(&p),
            vec![vec![id(1), id(2)], vec![id(2), id(3)]]
        );
    }
}
