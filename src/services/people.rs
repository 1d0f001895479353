//! Players as people (issue 24): the directory's likely duplicates, and
//! the merges and splits a director makes of them. Each is one transaction
//! that re-checks both people inside it, writes the directory's audit and
//! raises the directory's revision, which is part of every circuit's (a
//! merge changes who is who in every circuit that counts them).

use crate::ids::PersonId;
use crate::ids::TournamentId;
use crate::services::Refusal;
use std::collections::{BTreeMap, HashMap};

use chrono::NaiveDateTime;

use crate::auth::Role;
use crate::db::people::{self as pdb, PeopleAction, PersonSeat};
use crate::db::{directory as ddb, tournaments as tdb, Db, DbConn};
use crate::services::{Actor, ServiceError};

/// One registration of a person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Registration {
    pub tournament_id: TournamentId,
    pub tournament: String,
    pub pair_number: i32,
    /// The name and card as that registration spelt them.
    pub surname: String,
    pub name: String,
    pub card: String,
}

/// A person of the directory as a director sees them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Person {
    pub id: PersonId,
    /// As last registered.
    pub surname: String,
    pub name: String,
    pub card: Option<String>,
    /// Newest first (the tournaments the director runs).
    pub registrations: Vec<Registration>,
}

/// A merge that may be split again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merge {
    pub gone: Person,
    pub into: PersonId,
    pub at: Option<NaiveDateTime>,
}

/// The directory's page: groups of likely duplicates, and the merges made.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Duplicates {
    pub groups: Vec<Vec<Person>>,
    pub merges: Vec<Merge>,
}

/// The tournaments whose players the actor may see (`None`: all).
fn scope(conn: &mut DbConn, actor: &Actor) -> Result<Option<Vec<TournamentId>>, ServiceError> {
    if actor.role == Role::Admin {
        return Ok(None);
    }
    if !actor.role.allows(Role::Director) {
        return Err(ServiceError::Forbidden);
    }
    Ok(Some(ddb::directed_tournament_ids(conn, actor.user_id)?))
}

/// Each canonical person's seats.
type SeatsByPerson = BTreeMap<PersonId, Vec<PersonSeat>>;

/// Every person seen in the actor's tournaments (canonical ids), with the
/// raw seats under them.
fn people_in_scope(
    conn: &mut DbConn,
    actor: &Actor,
) -> Result<(HashMap<PersonId, PersonId>, SeatsByPerson), ServiceError> {
    let within = scope(conn, actor)?;
    let map = pdb::canonical_map(conn)?;
    let mut by_person: BTreeMap<PersonId, Vec<PersonSeat>> = BTreeMap::new();
    for seat in pdb::seats(conn, within.as_deref())? {
        by_person
            .entry(pdb::canonical(&map, seat.person_id))
            .or_default()
            .push(seat);
    }
    Ok((map, by_person))
}

fn person_of(
    id: PersonId,
    row: Option<&pdb::PersonRow>,
    seats: &[PersonSeat],
    names: &HashMap<TournamentId, String>,
) -> Person {
    let mut seats: Vec<&PersonSeat> = seats.iter().collect();
    seats.sort_by_key(|s| std::cmp::Reverse(s.registered_at));
    let latest = seats.first();
    Person {
        id,
        surname: latest
            .map(|s| s.surname.clone())
            .or_else(|| row.map(|r| r.surname.clone()))
            .unwrap_or_default(),
        name: latest
            .map(|s| s.name.clone())
            .or_else(|| row.map(|r| r.name.clone()))
            .unwrap_or_default(),
        // The card as last written at a registration (the directory keeps
        // it normalised for matching).
        card: latest
            .map(|s| s.card.trim().to_string())
            .filter(|c| !c.is_empty())
            .or_else(|| row.and_then(|r| r.card.clone())),
        registrations: seats
            .iter()
            .map(|s| Registration {
                tournament_id: s.tournament_id,
                tournament: names.get(&s.tournament_id).cloned().unwrap_or_default(),
                pair_number: s.pair_number,
                surname: s.surname.clone(),
                name: s.name.clone(),
                card: s.card.clone(),
            })
            .collect(),
    }
}

fn tournament_names(conn: &mut DbConn) -> Result<HashMap<TournamentId, String>, ServiceError> {
    Ok(tdb::list(conn)?
        .into_iter()
        .map(|t| (t.id, t.name))
        .collect())
}

/// The likely duplicates among the people of the actor's tournaments (the
/// same normalised name, or the same card), and the merges that can be
/// split.
pub async fn duplicates(db: &Db, actor: Actor) -> Result<Duplicates, ServiceError> {
    db.read(move |c| {
        let (map, by_person) = people_in_scope(c, &actor)?;
        let ids: Vec<PersonId> = by_person.keys().copied().collect();
        let rows: HashMap<PersonId, pdb::PersonRow> = pdb::find_many(c, &ids)?
            .into_iter()
            .map(|r| (r.id, r))
            .collect();
        let names = tournament_names(c)?;
        // Each person's keys as the directory holds them: the normalised
        // name and card.
        let keyed: BTreeMap<PersonId, (String, Option<String>)> = ids
            .iter()
            .filter_map(|id| {
                rows.get(id)
                    .map(|r| (*id, (r.name_key.clone(), r.card.clone())))
            })
            .collect();
        let groups = pdb::likely_duplicates(&keyed)
            .into_iter()
            .map(|g| {
                g.into_iter()
                    .map(|id| person_of(id, rows.get(&id), &by_person[&id], &names))
                    .collect()
            })
            .collect();
        // The merges: people merged into someone in scope.
        let gone_ids: Vec<PersonId> = map
            .iter()
            .filter(|(_, into)| by_person.contains_key(into))
            .map(|(gone, _)| *gone)
            .collect();
        let merges = pdb::merged_among(c, &gone_ids)?
            .iter()
            .filter_map(|r| {
                let into = pdb::canonical(&map, r.merged_into?);
                // Its seats are among those of the person it stands for now.
                let seats: Vec<PersonSeat> = by_person
                    .get(&into)
                    .into_iter()
                    .flatten()
                    .filter(|s| s.person_id == r.id)
                    .cloned()
                    .collect();
                Some(Merge {
                    gone: person_of(r.id, Some(r), &seats, &names),
                    into,
                    at: r.merged_at,
                })
            })
            .collect();
        Ok(Duplicates { groups, merges })
    })
    .await
}

/// Merges `gone` into `keep`: from now on both are `keep` in every
/// circuit. Both must be people of the actor's tournaments, each standing
/// for itself, and not the same.
pub async fn merge(
    db: &Db,
    actor: Actor,
    keep: PersonId,
    gone: PersonId,
) -> Result<(), ServiceError> {
    db.write_at(move |c, now| {
        pdb::lock_directory(c)?;
        let (map, by_person) = people_in_scope(c, &actor)?;
        for id in [keep, gone] {
            if pdb::find(c, id)?.is_none() || !by_person.contains_key(&pdb::canonical(&map, id)) {
                return Err(ServiceError::NotFound);
            }
            if pdb::canonical(&map, id) != id {
                return Err(ServiceError::refused(Refusal::PeopleMergedAlready));
            }
        }
        if keep == gone {
            return Err(ServiceError::refused(Refusal::PeopleSamePerson));
        }
        if pdb::merge(c, keep, gone, actor.user_id, now)? == 0 {
            return Err(ServiceError::refused(Refusal::PeopleMergedAlready));
        }
        pdb::record(c, PeopleAction::Merge, keep, gone, actor.user_id, now)?;
        pdb::bump_directory_revision(c)?;
        Ok(())
    })
    .await
}

/// Splits a merge: `id` stands for itself again.
pub async fn split(db: &Db, actor: Actor, id: PersonId) -> Result<(), ServiceError> {
    db.write_at(move |c, now| {
        pdb::lock_directory(c)?;
        let (map, by_person) = people_in_scope(c, &actor)?;
        let row = pdb::find(c, id)?.ok_or(ServiceError::NotFound)?;
        if !by_person.contains_key(&pdb::canonical(&map, id)) {
            return Err(ServiceError::NotFound);
        }
        let Some(into) = row.merged_into else {
            return Err(ServiceError::refused(Refusal::PeopleNotMerged));
        };
        pdb::split(c, id)?;
        pdb::record(c, PeopleAction::Split, into, id, actor.user_id, now)?;
        pdb::bump_directory_revision(c)?;
        Ok(())
    })
    .await
}
