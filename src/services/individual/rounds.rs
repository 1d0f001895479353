//! The start and each next round of an individual tournament (RULES.md
//! §14): round 1 drawn at random, then Danish foursomes, both by the core's
//! `next_round` over the tournament's own file; players resting when the
//! field is not a multiple of 4. The pairs' start and next round come here
//! for an individual tournament (`services::rounds`), so the confirmation
//! pages, the double click and the stale page are theirs.

use super::file::{individual_file_on, movement_word};
use super::loaded::{ensure_individual, load_ind, IndLoaded};
use crate::db::individual::{self as inddb, PlayerRow};
use crate::db::{Db, DbConn};
use crate::i18n::Lang;
use crate::ids::{IndividualPlayerId, PairId, TournamentId};
use crate::next_round::next_individual_round;
use crate::services::audit::{self, Action, Entry};
use crate::services::{read_rows, Actor, Need, Refusal, Rows, ServiceError};
use crate::tournament::Status;
use crate::tournament_file::{
    IndividualMovementKind, IndividualRoundFile, IndividualTournamentFile,
};
use chrono::NaiveDateTime;
use serde_json::Value;

/// Fewest players a start seats: one table.
pub const MIN_PLAYERS: usize = crate::movement::individual::MIN_PLAYERS;

/// What starting an individual tournament will do: the players drawn, the
/// tables, how many rest each round, the players left out (not checked
/// in) — or why it cannot start. The one precondition of the confirmation
/// page and of [`start_locked`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartPlan {
    pub players: usize,
    pub tables: usize,
    /// Players resting in round 1 (0–3).
    pub resting: usize,
    /// The numbers of the players not drawn (they become no-shows).
    pub left_out: Vec<i32>,
}

pub fn plan_start(t: &IndLoaded) -> Result<StartPlan, ServiceError> {
    if t.l.status() != Status::Draft {
        return Err(ServiceError::refused(Refusal::DrawStarted));
    }
    let players = t.drawable();
    if players < MIN_PLAYERS {
        return Err(ServiceError::refused_with(
            Refusal::IndividualTooFew,
            vec![("min", MIN_PLAYERS.to_string())],
        ));
    }
    Ok(StartPlan {
        players,
        tables: players / 4,
        resting: players % 4,
        left_out: t
            .players
            .iter()
            .filter(|p| !p.drawable())
            .map(|p| p.number)
            .collect(),
    })
}

/// The individual tournament and what starting it will do (the
/// confirmation page), or why it cannot start now.
pub async fn plan_start_of(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
) -> Result<(IndLoaded, Result<StartPlan, ServiceError>), ServiceError> {
    db.read(move |c| {
        let rows = read_rows(c, &actor, tid, Need::Direct)?;
        let t = load_ind(c, rows)?;
        ensure_individual(&t)?;
        let plan = plan_start(&t);
        Ok((t, plan))
    })
    .await
}

/// The individual file of a loaded tournament (its rests read here).
pub fn file_of_loaded(
    c: &mut DbConn,
    t: &IndLoaded,
    tz: chrono_tz::Tz,
) -> Result<IndividualTournamentFile, ServiceError> {
    let byes = inddb::byes_of(c, t.l.t.id)?;
    individual_file_on(c, t, &byes, tz)
}

/// The round the core seats next, or the movement's refusal in words.
fn seat_next(
    file: &IndividualTournamentFile,
    seed: u64,
) -> Result<IndividualRoundFile, ServiceError> {
    next_individual_round(file, seed)
        .map(|r| r.round)
        .map_err(|e| {
            ServiceError::refused_with(
                Refusal::IndividualMovement,
                vec![("reason", e.message(Lang::It))],
            )
        })
}

/// Writes a seated round: its row, each table's seating on the
/// partnerships' pairs (found or made), the players resting.
fn save_round(
    c: &mut DbConn,
    tid: TournamentId,
    round: &IndividualRoundFile,
    now: NaiveDateTime,
) -> Result<(), ServiceError> {
    let rows = inddb::list_players(c, tid)?;
    let row = |n: u32| -> Result<&PlayerRow, ServiceError> {
        rows.iter()
            .find(|p| u32::try_from(p.number).ok() == Some(n))
            .ok_or_else(|| ServiceError::corrupt(format!("player {n} is missing")))
    };
    let mut tables: Vec<(u32, PairId, PairId)> = Vec::with_capacity(round.tables.len());
    for t in &round.tables {
        let ns = inddb::line_of(c, tid, row(t.ns[0])?, row(t.ns[1])?, now)?;
        let ew = inddb::line_of(c, tid, row(t.ew[0])?, row(t.ew[1])?, now)?;
        tables.push((t.table, ns, ew));
    }
    let movement = movement_word(
        round
            .movement
            .unwrap_or(crate::tournament_file::IndividualMovementKind::Danish),
    );
    let round_id = crate::db::teams::insert_round(c, tid, round.number, movement, &tables, now)?;
    for &n in &round.byes {
        inddb::insert_bye(c, round_id, row(n)?.id)?;
    }
    crate::services::entries::ensure_codes(c, tid, now)?;
    // Each player's personal code, the credential at the tables.
    inddb::ensure_codes(c, tid)?;
    Ok(())
}

/// Starts an individual tournament the caller locked
/// (`services::rounds::draw`, the start of every kind, comes here): the
/// checked-in players are drawn at random to partners, tables and lines;
/// the others become no-shows.
pub(crate) fn start_locked(
    c: &mut DbConn,
    actor: &Actor,
    rows: Rows,
    seed: u64,
    now: NaiveDateTime,
) -> Result<(), ServiceError> {
    let tid = rows.t.id;
    let mut t = load_ind(c, rows)?;
    ensure_individual(&t)?;
    plan_start(&t)?;
    let drawn: Vec<IndividualPlayerId> = t
        .players
        .iter()
        .filter(|p| p.drawable())
        .map(|p| p.id)
        .collect();
    let no_shows = inddb::mark_no_shows(c, tid, &drawn)?;
    for p in &mut t.players {
        p.no_show = !drawn.contains(&p.id);
    }
    crate::db::teams::start(c, tid, seed, now)?;
    let file = file_of_loaded(c, &t, chrono_tz::UTC)?;
    let round = seat_next(&file, seed)?;
    save_round(c, tid, &round, now)?;
    audit::record(
        c,
        tid,
        actor,
        Entry::new(Action::RoundDrawn)
            .round(1)
            .after(audit::values([
                ("players", Value::from(drawn.len())),
                ("tables", Value::from(round.tables.len())),
                ("no_shows", Value::from(no_shows)),
            ])),
        now,
    )?;
    Ok(())
}

/// Whether the next round can be seated now: the tournament runs, a round
/// is still planned and every table of the last one has its result (a
/// Danish round ranks the players by them).
pub(crate) fn check_next(c: &mut DbConn, t: &IndLoaded) -> Result<i32, ServiceError> {
    t.l.ensure_running()?;
    let n = t.l.next_round();
    if u32::try_from(n).unwrap_or(u32::MAX) > t.l.settings.planned_rounds {
        return Err(ServiceError::refused(Refusal::RoundAllGenerated));
    }
    if let Some(last) = t.l.rounds.last() {
        let missing: Vec<String> = crate::db::export::round_tables(c, last.id)?
            .iter()
            .filter(|(_, sheet)| sheet.is_none())
            .map(|(s, _)| s.table_no.to_string())
            .collect();
        if !missing.is_empty() {
            return Err(ServiceError::refused_with(
                Refusal::IndividualTablesMissing,
                vec![
                    ("round", last.number.to_string()),
                    ("tables", missing.join(", ")),
                ],
            ));
        }
    }
    Ok(n)
}

/// Seats the next round of an individual tournament the caller locked
/// (`services::rounds::next_round` comes here): Danish foursomes in
/// standings order, no partnership of the previous round repeated.
/// `requested` names the round the form meant.
pub(crate) fn next_round_locked(
    c: &mut DbConn,
    actor: &Actor,
    rows: Rows,
    requested: Option<i32>,
    now: NaiveDateTime,
) -> Result<i32, ServiceError> {
    let tid = rows.t.id;
    let t = load_ind(c, rows)?;
    ensure_individual(&t)?;
    let n = check_next(c, &t)?;
    if requested.is_some_and(|r| r != n) {
        return Err(ServiceError::refused(Refusal::RoundStaleForm));
    }
    let seed =
        t.l.t
            .draw_seed
            .and_then(|s| u64::try_from(s).ok())
            .unwrap_or(0);
    let file = file_of_loaded(c, &t, chrono_tz::UTC)?;
    let round = seat_next(&file, seed)?;
    save_round(c, tid, &round, now)?;
    audit::record(
        c,
        tid,
        actor,
        Entry::new(Action::RoundGenerated)
            .round(n)
            .after(audit::values([
                (
                    "movement",
                    Value::from(movement_word(IndividualMovementKind::Danish)),
                ),
                ("tables", Value::from(round.tables.len())),
                ("resting", Value::from(round.byes.len())),
            ])),
        now,
    )?;
    Ok(n)
}

/// The individual file of a tournament (its directors), as the database
/// has it now.
pub async fn file(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    tz: chrono_tz::Tz,
) -> Result<IndividualTournamentFile, ServiceError> {
    db.read(move |c| {
        let rows = read_rows(c, &actor, tid, Need::Direct)?;
        let t = load_ind(c, rows)?;
        ensure_individual(&t)?;
        file_of_loaded(c, &t, tz)
    })
    .await
}
