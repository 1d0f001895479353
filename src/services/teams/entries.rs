//! Registering teams: the team form, check-in, withdrawal.

use super::{ensure_draft, write_teams, TeamsLoaded};
use crate::db::{teams as teamdb, Db};
use crate::ids::{TeamId, TournamentId};
use crate::services::audit::{Action, Entry};
use crate::services::Refusal;
use crate::services::{audit, Actor, ServiceError};
use crate::tournament::pairs::Player;
pub use crate::tournament::team_form::{parse_team, player_fields, TeamForm};
use crate::tournament::FieldProblem;
use serde_json::Value;

// ---- teams ----

/// A player already in another team of the tournament.
fn player_taken(t: &TeamsLoaded, players: &[Player]) -> Option<(usize, i32)> {
    players.iter().enumerate().find_map(|(i, p)| {
        t.teams
            .iter()
            .filter(|team| !team.no_show && team.withdrawn_from_round.is_none())
            .find(|team| team.players.iter().any(|q| q.same_person(p)))
            .map(|team| (i, team.number))
    })
}

/// Registers a team (before the start) and returns its number.
pub async fn register(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    form: TeamForm,
) -> Result<i32, ServiceError> {
    let (name, players) = parse_team(&form).map_err(ServiceError::Invalid)?;
    write_teams(db, actor, tid, ensure_draft, move |c, t, now| {
        if let Some((i, number)) = player_taken(&t, &players) {
            return Err(ServiceError::Invalid(vec![FieldProblem::new(
                player_fields(i)[0],
                "teams.error.player_taken",
            )
            .with("team", number)]));
        }
        let (_, number) = teamdb::insert_team(c, tid, &name, &players, false, now)?;
        audit::record(
            c,
            tid,
            &actor,
            Entry::new(Action::TeamAdded).after(audit::values([
                ("team", Value::from(number)),
                ("name", Value::from(name.clone())),
                ("players", Value::from(players.len())),
            ])),
            now,
        )?;
        Ok(number)
    })
    .await
}

/// Checks a team in (or undoes it) before the start.
pub async fn check_in(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    team: TeamId,
    on: bool,
) -> Result<(), ServiceError> {
    write_teams(
        db,
        actor,
        tid,
        |_| Ok(()),
        move |c, t, now| {
            let found = t.team(team).ok_or(ServiceError::NotFound)?;
            ensure_draft(&t)?;
            teamdb::set_checked_in(c, found.id, on)?;
            audit::record(
                c,
                tid,
                &actor,
                Entry::new(if on {
                    Action::TeamCheckedIn
                } else {
                    Action::TeamCheckInUndone
                })
                .after(audit::values([("team", Value::from(found.number))])),
                now,
            )?;
            Ok(())
        },
    )
    .await
}

/// Withdraws a team from the next round on (before the start: it will not
/// be drawn). Its opponents in later round-robin rounds rest.
pub async fn withdraw(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    team: TeamId,
) -> Result<i32, ServiceError> {
    write_teams(
        db,
        actor,
        tid,
        |t| t.l.ensure_not_finished(),
        move |c, t, now| {
            let found = t.team(team).ok_or(ServiceError::NotFound)?;
            if found.withdrawn_from_round.is_some() {
                return Err(ServiceError::refused(Refusal::TeamsWithdrawn));
            }
            let from = t.l.next_round();
            teamdb::set_withdrawn(c, found.id, Some(from))?;
            audit::record(
                c,
                tid,
                &actor,
                Entry::new(Action::TeamWithdrawn)
                    .round(from)
                    .after(audit::values([("team", Value::from(found.number))])),
                now,
            )?;
            Ok(from)
        },
    )
    .await
}

/// Registers the teams of a CSV file (`tournament::team_csv`), all or
/// nothing, before the start; the players are checked again inside the
/// transaction. Returns how many.
pub async fn import(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    lines: Vec<crate::tournament::team_csv::TeamLine>,
) -> Result<usize, ServiceError> {
    write_teams(db, actor, tid, ensure_draft, move |c, t, now| {
        for line in &lines {
            if let Some((_, number)) = player_taken(&t, &line.players) {
                return Err(ServiceError::Invalid(vec![FieldProblem::new(
                    "file",
                    "teams.error.player_taken",
                )
                .with("team", number)]));
            }
        }
        for line in &lines {
            teamdb::insert_team(c, tid, &line.name, &line.players, false, now)?;
        }
        audit::record(
            c,
            tid,
            &actor,
            Entry::new(Action::TeamAdded)
                .after(audit::values([("imported", Value::from(lines.len()))])),
            now,
        )?;
        Ok(lines.len())
    })
    .await
}
