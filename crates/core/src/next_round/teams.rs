//! The next round of a team file (FORMAT.md `burraco-td next-round`,
//! RULES.md §12), as the director's button seats it.
//!
//! - Round, plan and completeness as for pairs: the plan's movement
//!   (`movements`; without a plan, round robin), and no round while a
//!   table of the last round has no result.
//! - Round robin: the schedule drawn from the seed (`--seed` for round 1,
//!   else the file's `draw_seed`) over every team not marked `no_show`, in
//!   as many groups as round 1 has (one without groups), while the rounds
//!   so far followed it; withdrawn teams' matches are dropped (their
//!   opponents rest). Otherwise (no seed, rounds the seed did not make, the
//!   schedule over) Danish, as the program does.
//! - Danish: the active teams in standings order, never a team already
//!   met while that can be avoided ([`team_danish_round`]).
//! - Each match is seated with each team's line-up of its previous match
//!   (else players 0,1 and 2,3).

use super::error::NextRoundError;
use super::plan::next_of;
use crate::i18n::Lang;
use crate::movement::teams::{
    default_lineup, draw_order, drop_withdrawn, lineup_in, round_robin_groups, seat_match,
    split_into_groups, team_danish_round, team_entries_from_history, Group, LineUp, TeamNo,
    TeamRoundPlan,
};
use crate::standings::compute_teams;
use crate::tournament_file::{
    validate_teams, TeamMovementKind, TeamRoundFile, TeamTournamentFile, ValidTeamFile,
};
use serde::Serialize;
use std::collections::{BTreeSet, HashMap};

/// The next round of a team file: a round of the file (no results).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NextTeamRound {
    #[serde(flatten)]
    pub round: TeamRoundFile,
}

/// The round the program would seat next for a team `file` (see the
/// module doc); `seed` is used only by the first draw.
pub fn next_team_round(
    file: &TeamTournamentFile,
    seed: u64,
) -> Result<NextTeamRound, NextRoundError> {
    let valid = validate_teams(file).map_err(crate::standings::StandingsError::Invalid)?;
    let (n, planned) = next_of(&file.rounds, file.movements.as_deref(), file.planned_rounds)?;
    let wanted = planned.unwrap_or(TeamMovementKind::RoundRobin);
    let gone: Vec<TeamNo> = file
        .teams
        .iter()
        .filter(|t| t.withdrawn_from_round.is_some_and(|w| w <= n))
        .map(|t| t.number)
        .collect();
    let scheduled = match wanted {
        TeamMovementKind::RoundRobin => {
            let seed = if file.rounds.is_empty() {
                Some(seed)
            } else {
                file.draw_seed
            };
            seed.map(|s| scheduled_round(file, n, s, &gone))
                .transpose()?
                .flatten()
        }
        TeamMovementKind::Danish => None,
    };
    let (movement, plan) = match scheduled {
        Some(plan) => (TeamMovementKind::RoundRobin, plan),
        None => (TeamMovementKind::Danish, danish(&valid, n, &gone)?),
    };
    let previous = last_lineups(file);
    let size = |team: TeamNo| {
        file.team_position(team)
            .and_then(|i| file.teams.get(i))
            .map_or(0, |t| t.players.len())
    };
    let lineup = |team: TeamNo| default_lineup(previous.get(&team), size(team));
    Ok(NextTeamRound {
        round: TeamRoundFile {
            number: n,
            movement: Some(movement),
            matches: plan
                .matches
                .iter()
                .map(|m| seat_match(m, &lineup(m.home), &lineup(m.away)))
                .collect(),
            byes: plan.byes,
        },
    })
}

/// Round `n` of the round robin drawn from `seed`, if the rounds so far
/// followed that schedule and it has a round `n`.
fn scheduled_round(
    file: &TeamTournamentFile,
    n: u32,
    seed: u64,
    gone: &[TeamNo],
) -> Result<Option<TeamRoundPlan>, NextRoundError> {
    let mut drawn: Vec<TeamNo> = file
        .teams
        .iter()
        .filter(|t| !t.no_show)
        .map(|t| t.number)
        .collect();
    drawn.sort_unstable();
    let order = draw_order(&drawn, seed);
    let count = file.rounds.first().map_or(0, |r| {
        r.matches
            .iter()
            .filter_map(|m| m.group.as_deref())
            .collect::<BTreeSet<_>>()
            .len()
    });
    let groups = if count <= 1 {
        vec![Group {
            name: None,
            teams: order,
        }]
    } else {
        split_into_groups(&order, count).map_err(NextRoundError::TeamMovement)?
    };
    let schedule = round_robin_groups(&groups, 1).map_err(NextRoundError::TeamMovement)?;
    let at = |r: u32| {
        r.checked_sub(1)
            .and_then(|i| schedule.get(usize::try_from(i).ok()?))
    };
    let gone_by = |r: u32| -> Vec<TeamNo> {
        file.teams
            .iter()
            .filter(|t| t.withdrawn_from_round.is_some_and(|w| w <= r))
            .map(|t| t.number)
            .collect()
    };
    let followed = file.rounds.iter().all(|r| {
        at(r.number).is_some_and(|plan| {
            let planned = drop_withdrawn(plan, &gone_by(r.number));
            meetings(planned.matches.iter().map(|m| (m.home, m.away)))
                == meetings(r.matches.iter().map(|m| (m.home, m.away)))
        })
    });
    Ok(followed
        .then(|| at(n).map(|plan| drop_withdrawn(plan, gone)))
        .flatten())
}

/// Each meeting of a round, as (lower team, higher team).
fn meetings(pairs: impl Iterator<Item = (TeamNo, TeamNo)>) -> BTreeSet<(TeamNo, TeamNo)> {
    pairs.map(|(a, b)| (a.min(b), a.max(b))).collect()
}

/// The Danish round `n` by the standings now.
fn danish(
    valid: &ValidTeamFile<'_>,
    n: u32,
    gone: &[TeamNo],
) -> Result<TeamRoundPlan, NextRoundError> {
    let file = valid.file();
    let standings = compute_teams(valid, Lang::En)?;
    let ranking: Vec<TeamNo> = standings
        .rows
        .iter()
        .map(|r| r.number)
        .filter(|t| !gone.contains(t))
        .collect();
    let history: Vec<TeamRoundPlan> = file.rounds.iter().map(TeamRoundPlan::from_file).collect();
    let entries = team_entries_from_history(&ranking, &history);
    team_danish_round(n, &entries)
        .map(|r| r.plan)
        .map_err(NextRoundError::TeamMovement)
}

/// Each team's line-up in its most recent match.
fn last_lineups(file: &TeamTournamentFile) -> HashMap<TeamNo, LineUp> {
    let mut out = HashMap::new();
    for game in file.rounds.iter().flat_map(|r| &r.matches) {
        for team in [game.home, game.away] {
            if let Some(l) = lineup_in(game, team) {
                out.insert(team, l);
            }
        }
    }
    out
}
