//! Individual tournaments on the server (issue 35; RULES.md §14): players
//! registered alone (one by one, from the directory, or from a CSV or
//! spreadsheet file), checked in, withdrawn. Every write is one transaction
//! under the tournament's lock that re-reads what it checks.

use chrono::NaiveDateTime;
use serde_json::Value;

pub mod file;
mod loaded;
pub mod penalties;
pub mod rounds;
pub mod seating;
pub mod standings;

use loaded::{ensure_individual, load_ind};
pub use loaded::{load, loaded, IndLoaded, IndPlayer};
pub(crate) use rounds::{check_next, next_round_locked, start_locked};

use super::audit::{self, Action, Entry};
use super::{lock_rows, Actor, Need, ServiceError};
use crate::db::individual as inddb;
use crate::db::{Db, DbConn};
use crate::ids::{IndividualPlayerId, TournamentId};
use crate::services::Refusal;
use crate::tournament::pairs::{Player, PlayerForm};
use crate::tournament::Status;

/// Most players a tournament registers (the movement's limit).
pub const MAX_PLAYERS: usize = crate::movement::individual::MAX_PLAYERS;

/// The form fields of a player.
pub const FIELDS: [&str; 4] = ["surname", "name", "card", "club"];

/// Refuses a change to the players once the tournament started.
fn ensure_draft(t: &IndLoaded) -> Result<(), ServiceError> {
    match t.l.status() {
        Status::Draft => Ok(()),
        _ => Err(ServiceError::refused(Refusal::IndividualStarted)),
    }
}

/// A write to an individual tournament: locked for the director, refused
/// unless individual, checked by `check`, then `f`.
async fn write_ind<T: Send + 'static>(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    check: fn(&IndLoaded) -> Result<(), ServiceError>,
    f: impl FnOnce(&mut DbConn, IndLoaded, NaiveDateTime) -> Result<T, ServiceError> + Send + 'static,
) -> Result<T, ServiceError> {
    db.write_at(move |c, now| {
        let rows = lock_rows(c, &actor, tid, Need::Direct)?;
        let t = load_ind(c, rows)?;
        ensure_individual(&t)?;
        check(&t)?;
        f(c, t, now)
    })
    .await
}

/// Makes a new tournament individual (in its creation's transaction).
pub fn make_individual(
    c: &mut DbConn,
    tid: TournamentId,
    now: NaiveDateTime,
) -> Result<(), ServiceError> {
    inddb::set_individual(c, tid, now)?;
    Ok(())
}

/// A player already registered (and still in), other than `except`.
fn taken(t: &IndLoaded, p: &Player, except: Option<IndividualPlayerId>) -> Option<i32> {
    t.players
        .iter()
        .filter(|q| q.active() && Some(q.id) != except)
        .find(|q| q.player.same_person(p))
        .map(|q| q.number)
}

fn parse(form: &PlayerForm) -> Result<Player, ServiceError> {
    Player::parse(form, FIELDS).map_err(ServiceError::Invalid)
}

fn taken_problem(number: i32) -> ServiceError {
    ServiceError::Invalid(vec![crate::tournament::FieldProblem::new(
        "surname",
        "individual.error.player_taken",
    )
    .with("player", number)])
}

fn ensure_room(t: &IndLoaded, more: usize) -> Result<(), ServiceError> {
    if t.players.len() + more > MAX_PLAYERS {
        return Err(ServiceError::refused_with(
            Refusal::IndividualTooMany,
            vec![("max", MAX_PLAYERS.to_string())],
        ));
    }
    Ok(())
}

/// Registers a player (before the start) and returns its number.
pub async fn register(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    form: PlayerForm,
) -> Result<i32, ServiceError> {
    let player = parse(&form)?;
    write_ind(db, actor, tid, ensure_draft, move |c, t, now| {
        if let Some(n) = taken(&t, &player, None) {
            return Err(taken_problem(n));
        }
        ensure_room(&t, 1)?;
        let number = inddb::insert_players(c, tid, std::slice::from_ref(&player), now)?
            .first()
            .map(|(_, number)| *number)
            .ok_or_else(|| ServiceError::corrupt("player not inserted"))?;
        audit::record(
            c,
            tid,
            &actor,
            Entry::new(Action::PlayerAdded).after(audit::values([
                ("player", Value::from(number)),
                ("name", Value::from(player.full_name())),
            ])),
            now,
        )?;
        Ok(number)
    })
    .await
}

/// Corrects a player's names, card or club (until the tournament closes).
pub async fn update(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    id: IndividualPlayerId,
    form: PlayerForm,
) -> Result<i32, ServiceError> {
    let player = parse(&form)?;
    write_ind(
        db,
        actor,
        tid,
        |t| t.l.ensure_not_finished(),
        move |c, t, now| {
            let found = t.player(id).ok_or(ServiceError::NotFound)?;
            if let Some(n) = taken(&t, &player, Some(id)) {
                return Err(taken_problem(n));
            }
            inddb::update_player(c, id, &player, now)?;
            audit::record(
                c,
                tid,
                &actor,
                Entry::new(Action::PlayerChanged)
                    .before(audit::values([
                        ("player", Value::from(found.number)),
                        ("name", Value::from(found.player.full_name())),
                    ]))
                    .after(audit::values([
                        ("player", Value::from(found.number)),
                        ("name", Value::from(player.full_name())),
                    ])),
                now,
            )?;
            Ok(found.number)
        },
    )
    .await
}

/// Checks players in (or undoes it) before the start: those named, or
/// every player still to check in when `ids` is empty and `on`.
pub async fn check_in(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    ids: Vec<IndividualPlayerId>,
    on: bool,
) -> Result<usize, ServiceError> {
    write_ind(db, actor, tid, ensure_draft, move |c, t, now| {
        let chosen: Vec<&IndPlayer> = if ids.is_empty() {
            t.players
                .iter()
                .filter(|p| p.active() && p.checked_in != on)
                .collect()
        } else {
            ids.iter()
                .map(|id| t.player(*id).ok_or(ServiceError::NotFound))
                .collect::<Result<_, _>>()?
        };
        let chosen: Vec<&IndPlayer> = chosen.into_iter().filter(|p| p.checked_in != on).collect();
        if chosen.is_empty() {
            return Ok(0);
        }
        let changed: Vec<IndividualPlayerId> = chosen.iter().map(|p| p.id).collect();
        inddb::set_checked_in(c, &changed, on)?;
        let numbers: Vec<Value> = chosen.iter().map(|p| Value::from(p.number)).collect();
        audit::record(
            c,
            tid,
            &actor,
            Entry::new(if on {
                Action::PlayerCheckedIn
            } else {
                Action::PlayerCheckInUndone
            })
            .after(audit::values([("players", Value::from(numbers))])),
            now,
        )?;
        Ok(changed.len())
    })
    .await
}

/// Withdraws a player from the next round on (before the start: it will
/// not be drawn). Returns the first round it misses.
pub async fn withdraw(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    id: IndividualPlayerId,
) -> Result<i32, ServiceError> {
    write_ind(
        db,
        actor,
        tid,
        |t| t.l.ensure_not_finished(),
        move |c, t, now| {
            let found = t.player(id).ok_or(ServiceError::NotFound)?;
            if found.withdrawn_from_round.is_some() {
                return Err(ServiceError::refused(Refusal::IndividualWithdrawn));
            }
            let from = t.l.next_round();
            inddb::set_withdrawn(c, id, Some(from))?;
            audit::record(
                c,
                tid,
                &actor,
                Entry::new(Action::PlayerWithdrawn)
                    .round(from)
                    .after(audit::values([("player", Value::from(found.number))])),
                now,
            )?;
            Ok(from)
        },
    )
    .await
}

/// Removes a player registered by mistake (before the start); the others
/// keep their numbers.
pub async fn delete(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    id: IndividualPlayerId,
) -> Result<(), ServiceError> {
    write_ind(db, actor, tid, ensure_draft, move |c, t, now| {
        let found = t.player(id).ok_or(ServiceError::NotFound)?;
        inddb::delete_player(c, id)?;
        audit::record(
            c,
            tid,
            &actor,
            Entry::new(Action::PlayerDeleted).before(audit::values([
                ("player", Value::from(found.number)),
                ("name", Value::from(found.player.full_name())),
            ])),
            now,
        )?;
        Ok(())
    })
    .await
}

/// The players already registered (and still in), for an import's preview.
pub fn existing(t: &IndLoaded) -> Vec<Player> {
    t.active_players()
}

/// Registers the players of a CSV file (`tournament::player_csv`), all or
/// nothing, before the start; each is checked again inside the
/// transaction. Returns how many.
pub async fn import(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    players: Vec<Player>,
) -> Result<usize, ServiceError> {
    write_ind(db, actor, tid, ensure_draft, move |c, t, now| {
        for p in &players {
            if let Some(n) = taken(&t, p, None) {
                return Err(ServiceError::Invalid(vec![
                    crate::tournament::FieldProblem::new("file", "individual.error.player_taken")
                        .with("player", n),
                ]));
            }
        }
        ensure_room(&t, players.len())?;
        inddb::insert_players(c, tid, &players, now)?;
        audit::record(
            c,
            tid,
            &actor,
            Entry::new(Action::PlayersImported).after(audit::values([(
                "players_imported",
                Value::from(players.len()),
            )])),
            now,
        )?;
        Ok(players.len())
    })
    .await
}
