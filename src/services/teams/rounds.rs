//! The start and each next round: round robin (in groups or not), then
//! Danish; each match seated with the teams' line-ups.

use super::file::team_file_on;
use super::{ensure_teams, load_teams, movement_conflict, Team, TeamsLoaded, MIN_PLAYERS};
use crate::db::teams::TeamRow;
use crate::db::{teams as teamdb, Db, DbConn};
use crate::i18n::Lang;
use crate::ids::{PairId, RoundId, TeamId, TournamentId};
use crate::movement::teams::{
    default_lineup, draw_order, drop_withdrawn, round_robin_groups, split_into_groups,
    team_danish_round, team_entries_from_history, Group, LineUp, TeamRoundPlan,
};
use crate::services::audit::{Action, Entry};
use crate::services::Refusal;
use crate::services::{audit, read_rows, Actor, Need, Rows, ServiceError};
use crate::tournament::Status;
use crate::tournament_file::TeamMovementKind;
use chrono::NaiveDateTime;
use serde_json::Value;
use std::collections::HashMap;

// ---- rounds ----

/// The teams the draw seated (every team not marked no-show), by number.
fn drawn_numbers(t: &TeamsLoaded) -> Vec<u32> {
    let mut v: Vec<u32> = t
        .teams
        .iter()
        .filter(|x| !x.no_show)
        .map(Team::team_no)
        .collect();
    v.sort_unstable();
    v
}

/// The round-robin groups of the draw (the teams in the drawn order).
fn groups_of(t: &TeamsLoaded, seed: u64) -> Result<Vec<Group>, ServiceError> {
    let order = draw_order(&drawn_numbers(t), seed);
    if t.setup.groups <= 1 {
        return Ok(vec![Group {
            name: None,
            teams: order,
        }]);
    }
    split_into_groups(&order, usize::try_from(t.setup.groups).unwrap_or(1))
        .map_err(movement_conflict)
}

/// How many round-robin rounds the tournament plays before Danish ones.
fn round_robin_count(t: &TeamsLoaded, full: usize) -> u32 {
    let full = u32::try_from(full).unwrap_or(u32::MAX);
    t.setup
        .round_robin_rounds
        .map_or(full, |n| n.min(full))
        .min(t.l.settings.planned_rounds)
}

/// The teams withdrawn by round `n`.
fn gone_by(t: &TeamsLoaded, n: u32) -> Vec<u32> {
    t.teams
        .iter()
        .filter(|x| x.withdrawn_by(i32::try_from(n).unwrap_or(i32::MAX)))
        .map(Team::team_no)
        .collect()
}

/// Each meeting of a round, as (lower team, higher team).
fn meetings(pairs: impl Iterator<Item = (u32, u32)>) -> std::collections::BTreeSet<(u32, u32)> {
    pairs.map(|(a, b)| (a.min(b), a.max(b))).collect()
}

/// Whether the rounds played so far are the drawn schedule's (a file
/// imported from elsewhere, or rounds played without the seed's round
/// robin, are not: the round robin cannot go on from them).
fn follows_schedule(t: &TeamsLoaded, schedule: &[TeamRoundPlan]) -> bool {
    t.l.rounds.iter().all(|r| {
        let n = u32::try_from(r.number).unwrap_or(0);
        let Some(plan) = n
            .checked_sub(1)
            .and_then(|i| schedule.get(usize::try_from(i).unwrap_or(usize::MAX)))
        else {
            return false;
        };
        let planned = drop_withdrawn(plan, &gone_by(t, n));
        let team_of = |p: Option<PairId>| {
            p.and_then(|p| t.pair_team.get(&p))
                .and_then(|(id, _)| t.team(*id))
                .map(Team::team_no)
        };
        let played = meetings(
            t.seatings
                .iter()
                .filter(|s| s.round_id == r.id)
                .filter_map(|s| Some((team_of(s.ns_pair)?, team_of(s.ew_pair)?))),
        );
        played == meetings(planned.matches.iter().map(|m| (m.home, m.away)))
    })
}

/// What round `n` will be: its matches and resting teams. The drawn round
/// robin while it is planned and the rounds so far followed it; otherwise
/// (no seed, or rounds the seed did not make) Danish.
fn plan_round(
    c: &mut DbConn,
    t: &TeamsLoaded,
    n: u32,
    seed: Option<u64>,
) -> Result<(TeamMovementKind, TeamRoundPlan), ServiceError> {
    let gone = gone_by(t, n);
    if let Some(seed) = seed {
        let groups = groups_of(t, seed)?;
        let schedule = round_robin_groups(&groups, 1).map_err(movement_conflict)?;
        if n <= round_robin_count(t, schedule.len()) && follows_schedule(t, &schedule) {
            let plan = schedule
                .get(usize::try_from(n - 1).unwrap_or(usize::MAX))
                .ok_or_else(|| ServiceError::refused(Refusal::RoundAllGenerated))?;
            return Ok((TeamMovementKind::RoundRobin, drop_withdrawn(plan, &gone)));
        }
    }
    // Danish: by the standings now, never a team already met while one can
    // be avoided.
    let file = team_file_on(c, t, chrono_tz::UTC)?;
    let standings = crate::standings::compute_teams_file(&file, Lang::En)
        .map_err(|_| ServiceError::refused(Refusal::TeamsStandings))?;
    let ranking: Vec<u32> = standings
        .rows
        .iter()
        .map(|r| r.number)
        .filter(|team| !gone.contains(team))
        .collect();
    let history: Vec<TeamRoundPlan> = file.rounds.iter().map(TeamRoundPlan::from_file).collect();
    let entries = team_entries_from_history(&ranking, &history);
    let round = team_danish_round(n, &entries).map_err(movement_conflict)?;
    Ok((TeamMovementKind::Danish, round.plan))
}

fn movement_word(m: TeamMovementKind) -> &'static str {
    match m {
        TeamMovementKind::RoundRobin => "round_robin",
        TeamMovementKind::Danish => "danish",
    }
}

/// Seats round `plan` with each team's line-up of its previous match (the
/// default) and writes the round, its seatings and resting teams.
fn save_round(
    c: &mut DbConn,
    t: &TeamsLoaded,
    movement: TeamMovementKind,
    plan: &TeamRoundPlan,
    now: NaiveDateTime,
) -> Result<RoundId, ServiceError> {
    let tid = t.l.t.id;
    let rows = teamdb::list_teams(c, tid)?;
    let row_of = |n: u32| {
        rows.iter()
            .find(|r| u32::try_from(r.number).ok() == Some(n))
            .ok_or_else(|| ServiceError::corrupt(format!("team {n} is not registered")))
    };
    let previous = last_lineups(t);
    let mut tables = Vec::new();
    for m in &plan.matches {
        let home = row_of(m.home)?;
        let away = row_of(m.away)?;
        let size = |n: u32| {
            t.team_by_number(i32::try_from(n).unwrap_or(0))
                .map_or(MIN_PLAYERS, |x| x.players.len())
        };
        let hl = default_lineup(previous.get(&m.home), size(m.home));
        let al = default_lineup(previous.get(&m.away), size(m.away));
        let pair = |c: &mut DbConn, team: &TeamRow, p: [u32; 2]| {
            teamdb::pair_of(
                c,
                tid,
                team,
                i32::try_from(p[0]).unwrap_or(0),
                i32::try_from(p[1]).unwrap_or(0),
                now,
            )
        };
        let [first, second] = m.tables;
        // The home team NS at the first table, the away team NS at the second.
        tables.push((
            first,
            pair(c, home, hl.pairs[0])?,
            pair(c, away, al.pairs[0])?,
        ));
        tables.push((
            second,
            pair(c, away, al.pairs[1])?,
            pair(c, home, hl.pairs[1])?,
        ));
    }
    let round_id = teamdb::insert_round(c, tid, plan.round, movement_word(movement), &tables, now)?;
    for &b in &plan.byes {
        teamdb::insert_bye(c, round_id, row_of(b)?.id)?;
    }
    let table_nos: Vec<i32> = tables
        .iter()
        .map(|(n, _, _)| i32::try_from(*n).unwrap_or(0))
        .collect();
    crate::db::table_side::ensure_codes(c, tid, &table_nos, now)?;
    Ok(round_id)
}

/// Each team's line-up in its last match.
fn last_lineups(t: &TeamsLoaded) -> HashMap<u32, LineUp> {
    let mut out = HashMap::new();
    for r in &t.l.rounds {
        for (team, lineup) in lineups_of_round(t, r) {
            out.insert(team, lineup);
        }
    }
    out
}

/// The line-ups of a round: team number → its pairs at its first and
/// second table.
fn lineups_of_round(t: &TeamsLoaded, r: &crate::services::view::Round) -> HashMap<u32, LineUp> {
    let mut seats: HashMap<u32, Vec<(i32, [u32; 2])>> = HashMap::new();
    for s in t.seatings.iter().filter(|s| s.round_id == r.id) {
        for p in [s.ns_pair, s.ew_pair].into_iter().flatten() {
            if let Some((team, players)) = t.pair_team.get(&p) {
                if let Some(x) = t.team(*team) {
                    seats
                        .entry(x.team_no())
                        .or_default()
                        .push((s.table_no, *players));
                }
            }
        }
    }
    seats
        .into_iter()
        .filter_map(|(team, mut v)| {
            v.sort_by_key(|(table, _)| *table);
            match v.as_slice() {
                [(_, a), (_, b)] => Some((team, LineUp { pairs: [*a, *b] })),
                _ => None,
            }
        })
        .collect()
}

/// Starts a team tournament the caller locked (`services::rounds::draw`,
/// the start of either kind, comes here): the checked-in teams are drawn
/// (in groups when set), round 1 is seated with each team's first four
/// players, the teams and tables get their codes.
/// What starting a team tournament will do: the teams drawn, the matches
/// and tables of round 1, the teams left out (not checked in) — or why it
/// cannot start. The one precondition of the confirmation page and of
/// [`start_locked`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartPlan {
    pub teams: usize,
    pub matches: usize,
    pub tables: usize,
    /// The numbers of the teams not drawn (they become no-shows).
    pub left_out: Vec<i32>,
    /// An odd number of teams: one rests each round.
    pub resting: bool,
}

pub fn plan_start(t: &TeamsLoaded) -> Result<StartPlan, ServiceError> {
    if t.l.status() != Status::Draft {
        return Err(ServiceError::refused(Refusal::DrawStarted));
    }
    let teams = t.teams.iter().filter(|x| x.drawable()).count();
    if teams < 2 {
        return Err(ServiceError::refused(Refusal::TeamsTooFew));
    }
    let matches = teams / 2;
    Ok(StartPlan {
        teams,
        matches,
        tables: matches * 2,
        left_out: t
            .teams
            .iter()
            .filter(|x| !x.drawable())
            .map(|x| x.number)
            .collect(),
        resting: teams % 2 == 1,
    })
}

/// The team tournament and what starting it will do (the confirmation
/// page), or why it cannot start now.
pub async fn plan_start_of(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
) -> Result<(TeamsLoaded, Result<StartPlan, ServiceError>), ServiceError> {
    db.read(move |c| {
        let rows = read_rows(c, &actor, tid, Need::Direct)?;
        let t = load_teams(c, rows)?;
        ensure_teams(&t)?;
        let plan = plan_start(&t);
        Ok((t, plan))
    })
    .await
}

pub(crate) fn start_locked(
    c: &mut DbConn,
    actor: &Actor,
    rows: Rows,
    seed: u64,
    now: NaiveDateTime,
) -> Result<(), ServiceError> {
    let tid = rows.t.id;
    let mut t = load_teams(c, rows)?;
    ensure_teams(&t)?;
    plan_start(&t)?;
    let drawn: Vec<TeamId> = t
        .teams
        .iter()
        .filter(|x| x.drawable())
        .map(|x| x.id)
        .collect();
    let no_shows = teamdb::mark_no_shows(c, tid, &drawn)?;
    for x in &mut t.teams {
        x.no_show = !drawn.contains(&x.id);
    }
    if drawn.len() < 2 {
        return Err(ServiceError::refused(Refusal::TeamsTooFew));
    }
    let groups = groups_of(&t, seed)?;
    for g in &groups {
        for &n in &g.teams {
            if let Some(x) = t.team_by_number(i32::try_from(n).unwrap_or(0)) {
                teamdb::set_group(c, x.id, g.name.as_deref())?;
            }
        }
    }
    teamdb::start(c, tid, seed, now)?;
    let (movement, plan) = plan_round(c, &t, 1, Some(seed))?;
    save_round(c, &t, movement, &plan, now)?;
    teamdb::ensure_codes(c, tid)?;
    audit::record(
        c,
        tid,
        actor,
        Entry::new(Action::RoundDrawn)
            .round(1)
            .after(audit::values([
                ("teams", Value::from(drawn.len())),
                ("matches", Value::from(plan.matches.len())),
                ("no_shows", Value::from(no_shows)),
            ])),
        now,
    )?;
    Ok(())
}

/// Makes the next round of a team tournament the caller locked
/// (`services::rounds::next_round`, of either kind, comes here): round
/// robin while planned, then Danish; `requested` names the round the form
/// meant. Every table of the last round must have its result.
pub(crate) fn next_round_locked(
    c: &mut DbConn,
    actor: &Actor,
    rows: Rows,
    requested: Option<i32>,
    now: NaiveDateTime,
) -> Result<i32, ServiceError> {
    let tid = rows.t.id;
    let t = load_teams(c, rows)?;
    ensure_teams(&t)?;
    t.l.ensure_running()?;
    let n = t.l.next_round();
    if requested.is_some_and(|r| r != n) {
        return Err(ServiceError::refused(Refusal::Stale));
    }
    if u32::try_from(n).unwrap_or(u32::MAX) > t.l.settings.planned_rounds {
        return Err(ServiceError::refused(Refusal::RoundAllGenerated));
    }
    if let Some(last) = t.l.rounds.last() {
        let missing = crate::services::unscored::tables_without_score(c, last.id)?;
        if !missing.is_empty() {
            return Err(crate::services::unscored::tables_missing(
                Refusal::TeamsTablesMissing,
                last.number,
                &missing,
            ));
        }
    }
    let seed = t.l.t.draw_seed.and_then(|s| u64::try_from(s).ok());
    let number = u32::try_from(n).unwrap_or(1);
    let (movement, plan) = plan_round(c, &t, number, seed)?;
    save_round(c, &t, movement, &plan, now)?;
    audit::record(
        c,
        tid,
        actor,
        Entry::new(Action::RoundGenerated)
            .round(n)
            .after(audit::values([
                ("movement", Value::from(movement_word(movement))),
                ("matches", Value::from(plan.matches.len())),
            ])),
        now,
    )?;
    Ok(n)
}
