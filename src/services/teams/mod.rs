//! Team tournaments on the server (issue 25; RULES.md §12): the team
//! settings, registering teams, the start and each next round (round robin,
//! in groups or not, then Danish), the line-ups, and the team file every
//! reader computes from (standings, match results, team cards, export).
//!
//! A match is two seatings of its round (tables 2m−1 and 2m, the home team
//! NS at the first); each seat holds the pair of two of the team's players
//! its line-up names (`db::teams::pair_of`). Sheets, table entries,
//! confirmations, disputes and penalties are therefore the pairs
//! tournament's own use cases, unchanged; only who sits where is the
//! teams'. Every write is one transaction under the tournament's lock that
//! re-reads what it checks.

use crate::services::Refusal;
use chrono::NaiveDateTime;
use std::collections::HashMap;

use serde_json::Value;

use super::audit::{self, Action, Entry};
use super::{lock_rows, read_rows, Actor, Loaded, Need, Rows, ServiceError};
use crate::db::teams::{self as teamdb, TeamPlayerRow, TeamRow};
use crate::db::{Db, DbConn};
use crate::i18n::Lang;
use crate::ids::{PairId, RoundId, TeamId, TournamentId};
use crate::movement::teams::TeamMovementError;
use crate::tournament::pairs::Player;
use crate::tournament::FieldProblem;
use crate::tournament::Status;
use crate::tournament_file::{FileKind, TeamScoringFile};

/// Players of a team (RULES.md §12) and the longest team name.
pub use crate::tournament::team_csv::{MAX_PLAYERS, MAX_TEAM_NAME, MIN_PLAYERS};
/// Round-robin groups at most (the core's limit).
pub const MAX_GROUPS: u32 = 8;

fn movement_conflict(e: TeamMovementError) -> ServiceError {
    ServiceError::refused_with(
        Refusal::TeamsMovement,
        vec![("reason", e.message(Lang::It))],
    )
}

/// A team tournament's settings beside the pairs' ones.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamSetup {
    pub scoring: TeamScoringFile,
    pub bye_vp: Option<i32>,
    /// Round-robin groups (1: one round robin of all teams).
    pub groups: u32,
    /// Round-robin rounds before the Danish ones (`None`: the whole round
    /// robin, then Danish while rounds are planned).
    pub round_robin_rounds: Option<u32>,
}

impl TeamSetup {
    fn of(row: &teamdb::TeamSettingsRow, tid: TournamentId) -> Result<TeamSetup, ServiceError> {
        let scoring: TeamScoringFile = serde_json::from_str(&row.team_scoring)
            .map_err(|e| ServiceError::corrupt(format!("tournament {tid}: team_scoring: {e}")))?;
        Ok(TeamSetup {
            scoring,
            bye_vp: row.team_bye_vp,
            groups: u32::try_from(row.team_groups)
                .map_err(|_| ServiceError::corrupt(format!("tournament {tid}: team_groups")))?,
            round_robin_rounds: row
                .round_robin_rounds
                .map(|n| {
                    u32::try_from(n).map_err(|_| {
                        ServiceError::corrupt(format!("tournament {tid}: round_robin_rounds"))
                    })
                })
                .transpose()?,
        })
    }

    /// `tables` or `scale`.
    pub fn method(&self) -> &'static str {
        match self.scoring {
            TeamScoringFile::Tables => "tables",
            TeamScoringFile::Scale { .. } => "scale",
        }
    }

    /// The team scale's bounds as typed ("" with `tables`).
    pub fn scale_text(&self) -> String {
        match &self.scoring {
            TeamScoringFile::Tables => String::new(),
            TeamScoringFile::Scale { scale } => scale
                .iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(" "),
        }
    }
}

/// A registered team with its players.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Team {
    pub id: TeamId,
    pub number: i32,
    pub name: String,
    /// The captain's private code (staff pages only).
    pub code: Option<String>,
    pub group: Option<String>,
    pub checked_in: bool,
    pub withdrawn_from_round: Option<i32>,
    pub no_show: bool,
    pub players: Vec<Player>,
}

impl Team {
    fn of(row: &TeamRow, players: &[TeamPlayerRow]) -> Team {
        Team {
            id: row.id,
            number: row.number,
            name: row.name.clone(),
            code: row.code.clone(),
            group: row.group_name.clone(),
            checked_in: row.checked_in,
            withdrawn_from_round: row.withdrawn_from_round,
            no_show: row.no_show,
            players: players
                .iter()
                .filter(|p| p.team_id == row.id)
                .map(TeamPlayerRow::player)
                .collect(),
        }
    }

    pub fn team_no(&self) -> u32 {
        u32::try_from(self.number).unwrap_or(0)
    }

    /// Plays from round 1 and was not left out of the start.
    pub fn drawable(&self) -> bool {
        self.checked_in && self.withdrawn_from_round.is_none() && !self.no_show
    }

    /// Withdrawn before (or from) round `n`.
    pub fn withdrawn_by(&self, n: i32) -> bool {
        self.withdrawn_from_round.is_some_and(|w| w <= n)
    }
}

/// A team tournament read in one go: the pairs tournament's state (its
/// rounds and the line-ups' pairs) with the teams, and the rows it was
/// made of (the team file is made from them, not read again).
#[derive(Debug, Clone)]
pub struct TeamsLoaded {
    pub l: Loaded,
    pub rows: Rows,
    pub setup: TeamSetup,
    pub teams: Vec<Team>,
    /// The teams resting, per round id.
    pub byes: Vec<(RoundId, TeamId)>,
    /// Each line-up pair: its team and its two players' positions.
    pub pair_team: HashMap<PairId, (TeamId, [u32; 2])>,
    /// Every seating of every round.
    pub seatings: Vec<crate::db::rounds::SeatingRow>,
}

impl TeamsLoaded {
    pub fn team(&self, id: TeamId) -> Option<&Team> {
        self.teams.iter().find(|t| t.id == id)
    }
    pub fn team_by_number(&self, n: i32) -> Option<&Team> {
        self.teams.iter().find(|t| t.number == n)
    }
}

/// A team tournament from its rows (those `lock_rows`, `read_rows` or
/// `load_rows` read: the teams among them), with its settings, players,
/// seatings and resting teams.
fn load_teams(c: &mut DbConn, rows: Rows) -> Result<TeamsLoaded, ServiceError> {
    let l = Loaded::of(&rows)?;
    let tid = l.t.id;
    let setup = TeamSetup::of(&teamdb::team_settings(c, tid)?, tid)?;
    let players = teamdb::list_players(c, tid)?;
    let teams = rows.teams.iter().map(|r| Team::of(r, &players)).collect();
    let byes = teamdb::byes_of(c, tid)?;
    let pair_team = rows
        .pairs
        .iter()
        .filter_map(|p| {
            let team = p.team_id?;
            let a = u32::try_from(p.team_p1?).ok()?;
            let b = u32::try_from(p.team_p2?).ok()?;
            Some((p.id, (team, [a, b])))
        })
        .collect();
    let seatings = teamdb::seatings_of(c, tid)?;
    Ok(TeamsLoaded {
        l,
        rows,
        setup,
        teams,
        byes,
        pair_team,
        seatings,
    })
}

/// Refuses a pairs tournament where teams are wanted.
fn ensure_teams(t: &TeamsLoaded) -> Result<(), ServiceError> {
    if t.l.t.is_teams() {
        Ok(())
    } else {
        Err(ServiceError::refused(Refusal::TeamsNotTeams))
    }
}

/// A write to a team tournament's teams or settings: locked for the
/// director, refused unless a team tournament, checked by `check`, then `f`
/// with the connection, the tournament and the time of the write.
async fn write_teams<T: Send + 'static>(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    check: fn(&TeamsLoaded) -> Result<(), ServiceError>,
    f: impl FnOnce(&mut DbConn, TeamsLoaded, chrono::NaiveDateTime) -> Result<T, ServiceError>
        + Send
        + 'static,
) -> Result<T, ServiceError> {
    db.write_at(move |c, now| {
        let rows = lock_rows(c, &actor, tid, Need::Direct)?;
        let t = load_teams(c, rows)?;
        ensure_teams(&t)?;
        check(&t)?;
        f(c, t, now)
    })
    .await
}

/// Refuses a change to the teams once the tournament started.
fn ensure_draft(t: &TeamsLoaded) -> Result<(), ServiceError> {
    match t.l.status() {
        Status::Draft => Ok(()),
        _ => Err(ServiceError::refused(Refusal::TeamsStarted)),
    }
}

/// Reads a team tournament, access-checked.
pub async fn load(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    need: Need,
) -> Result<TeamsLoaded, ServiceError> {
    db.read(move |c| {
        let rows = read_rows(c, &actor, tid, need)?;
        let t = load_teams(c, rows)?;
        ensure_teams(&t)?;
        Ok(t)
    })
    .await
}

/// A team tournament, access-checked, and whether the caller directs it
/// (the teams' codes are the directors'), in one read.
pub async fn load_directing(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
) -> Result<(TeamsLoaded, bool), ServiceError> {
    db.read(move |c| {
        let rows = read_rows(c, &actor, tid, Need::Referee)?;
        let directs = match super::check_access(c, &actor, &rows.t, Need::Direct) {
            Ok(()) => true,
            Err(ServiceError::NotFound) => false,
            Err(e) => return Err(e),
        };
        let t = load_teams(c, rows)?;
        ensure_teams(&t)?;
        Ok((t, directs))
    })
    .await
}

/// Whether a tournament holds pairs or teams, on `c`.
pub fn kind_on(c: &mut DbConn, tid: TournamentId) -> Result<FileKind, ServiceError> {
    crate::db::tournaments::find(c, tid)?
        .map(|t| t.kind)
        .ok_or(ServiceError::NotFound)
}

/// Whether a tournament holds pairs or teams (no access check: the kind
/// of a tournament is public).
pub async fn kind(db: &Db, tid: TournamentId) -> Result<FileKind, ServiceError> {
    db.read(move |c| kind_on(c, tid)).await
}

// ---- settings ----

/// The team settings form, as typed.
#[derive(Debug, Clone, Default, serde::Deserialize, serde::Serialize)]
#[serde(default)]
pub struct SetupForm {
    /// `tables` or `scale`.
    pub method: String,
    /// The team scale: ten upper bounds for 10…19 VP, spaces or commas.
    pub scale: String,
    /// Empty: the rules' default.
    pub team_bye_vp: String,
    pub groups: String,
    /// Empty: the whole round robin.
    pub round_robin_rounds: String,
}

fn number_field(
    field: &'static str,
    text: &str,
    min: i64,
    max: i64,
    problems: &mut Vec<FieldProblem>,
) -> Option<i64> {
    let t = text.trim();
    if t.is_empty() {
        return None;
    }
    match t.parse::<i64>() {
        Ok(n) if (min..=max).contains(&n) => Some(n),
        _ => {
            problems.push(FieldProblem::new(field, "teams.error.number"));
            None
        }
    }
}

/// Parses the team settings form (each problem next to its field).
pub fn parse_setup(f: &SetupForm) -> Result<TeamSetup, Vec<FieldProblem>> {
    let mut problems = Vec::new();
    let scoring = match f.method.as_str() {
        "" | "tables" => TeamScoringFile::Tables,
        "scale" => {
            let bounds: Result<Vec<i64>, _> = f
                .scale
                .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
                .filter(|s| !s.is_empty())
                .map(str::parse::<i64>)
                .collect();
            // The core's own check of a scale (ten positive, increasing
            // multiples of its step): what it refuses is never stored.
            match bounds
                .ok()
                .filter(|b| crate::rules::VpScale::parse(b.clone()).is_ok())
            {
                Some(b) => TeamScoringFile::Scale { scale: b },
                None => {
                    problems.push(FieldProblem::new("scale", "teams.error.scale"));
                    TeamScoringFile::Tables
                }
            }
        }
        _ => {
            problems.push(FieldProblem::new("method", "teams.error.method"));
            TeamScoringFile::Tables
        }
    };
    // The resting team's award is within the match's VP (40 or 20).
    let most = match scoring {
        TeamScoringFile::Tables => 40,
        TeamScoringFile::Scale { .. } => 20,
    };
    let bye = number_field("team_bye_vp", &f.team_bye_vp, 0, most, &mut problems);
    let groups = if f.groups.trim().is_empty() {
        Some(1)
    } else {
        number_field("groups", &f.groups, 1, i64::from(MAX_GROUPS), &mut problems)
    };
    let rr = number_field(
        "round_robin_rounds",
        &f.round_robin_rounds,
        0,
        99,
        &mut problems,
    );
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(TeamSetup {
        scoring,
        bye_vp: bye.and_then(|n| i32::try_from(n).ok()),
        groups: groups.and_then(|n| u32::try_from(n).ok()).unwrap_or(1),
        round_robin_rounds: rr.and_then(|n| u32::try_from(n).ok()),
    })
}

impl TeamSetup {
    /// The form showing these settings.
    pub fn form(&self) -> SetupForm {
        SetupForm {
            method: self.method().into(),
            scale: self.scale_text(),
            team_bye_vp: self.bye_vp.map(|n| n.to_string()).unwrap_or_default(),
            groups: self.groups.to_string(),
            round_robin_rounds: self
                .round_robin_rounds
                .map(|n| n.to_string())
                .unwrap_or_default(),
        }
    }
}

/// Writes the team settings on `conn` (the caller holds the lock).
pub fn write_setup(
    c: &mut DbConn,
    tid: TournamentId,
    s: &TeamSetup,
    now: NaiveDateTime,
) -> Result<(), ServiceError> {
    let scoring = serde_json::to_string(&s.scoring)
        .map_err(|e| ServiceError::corrupt(format!("team scoring: {e}")))?;
    teamdb::set_team_settings(
        c,
        tid,
        &scoring,
        s.bye_vp,
        i32::try_from(s.groups).unwrap_or(1),
        s.round_robin_rounds
            .map(|n| i32::try_from(n).unwrap_or(i32::MAX)),
        now,
    )?;
    Ok(())
}

/// Changes the team settings (before the start only: they shape the game).
pub async fn save_setup(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    form: SetupForm,
) -> Result<(), ServiceError> {
    let setup = parse_setup(&form).map_err(ServiceError::Invalid)?;
    write_teams(db, actor, tid, ensure_draft, move |c, _, now| {
        write_setup(c, tid, &setup, now)?;
        audit::record(
            c,
            tid,
            &actor,
            Entry::new(Action::SettingsChanged).after(audit::values([
                ("team_scoring", Value::from(setup.method())),
                ("groups", Value::from(setup.groups)),
            ])),
            now,
        )?;
        Ok(())
    })
    .await
}

mod doc;
mod entries;
mod file;
mod lineups;
mod rounds;

pub use doc::*;
pub use entries::*;
pub use file::*;
pub use lineups::*;
pub(crate) use rounds::{next_round_locked, start_locked};
pub use rounds::{plan_start, plan_start_of, StartPlan};
