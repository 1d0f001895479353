//! The teams part of the validator (RULES.md §12): the scoring method and
//! team bye, a team's name and size, rounds of matches (two tables, each
//! team once on each line, line-ups from the team's players, groups), a
//! penalty's table in the team's match. Everything else is the shared
//! skeleton's. Every problem names its place
//! (`rounds[2].matches[1].tables[0].ns.players[1]`) and has a stable code.
//!
//! Decisions where the rules are silent:
//! - Group consistency is checked in the rounds that are not Danish (a
//!   round without `movement` counts as round robin): a team keeps the
//!   group (or no group) of its first such match. Danish rounds may mix
//!   groups.
//! - Validation does not forbid two teams meeting twice: the movements
//!   avoid it, and a director may have reasons (Danish rounds after a
//!   complete round robin must repeat meetings).
//! - A team withdrawn from round R may not play or rest in round R or
//!   later; a no-show team never.

use super::problem::{required_text, At, FileProblem, ProblemCause, ProblemCode};
use super::settings::Settings;
use super::skeleton::{EntrantNames, KindChecks, RoundChecks, Seats};
use super::valid::{validate_file, Valid};
use crate::rules::teams::{TeamScoring, MAX_TEAM_PLAYERS, MIN_TEAM_PLAYERS, TABLES_PER_MATCH};
use crate::rules::vp::VpScale;
use crate::rules::Line;
use crate::tournament_file::{
    LineRef, MatchFile, PenaltyKind, TeamFile, TeamMovementKind, TeamPenaltyFile, TeamRoundFile,
    TeamScoringFile, TeamTournamentFile,
};
use std::collections::HashSet;

/// Most teams in a team tournament file.
pub const MAX_TEAMS: usize = 500;
/// Longest team name and group label.
pub const MAX_TEAM_NAME_CHARS: usize = 80;
pub const MAX_GROUP_CHARS: usize = 20;

/// What a team file resolves of its own settings: how a match's tables
/// become match VP, and the VP of a resting team.
#[derive(Debug, Clone)]
pub struct TeamSettings {
    scoring: TeamScoring,
    team_bye_vp: u8,
}

/// A team file that passed [`validate_teams`].
pub type ValidTeamFile<'a> = Valid<'a, TeamTournamentFile, TeamSettings>;

impl ValidTeamFile<'_> {
    /// How a match's tables become match VP.
    pub fn scoring(&self) -> &TeamScoring {
        &self.own.scoring
    }

    /// VP of a resting team (the file's `team_bye_vp`, else the default of
    /// the scoring method).
    pub fn team_bye_vp(&self) -> u8 {
        self.own.team_bye_vp
    }

    /// The MP difference a resting team counts.
    pub fn team_bye_mp_diff(&self) -> i64 {
        self.own
            .scoring
            .bye_mp_diff(self.scale(), self.own.team_bye_vp)
    }

    /// Index in `file().teams` of a team number.
    pub fn team_index(&self, number: u32) -> Option<usize> {
        self.entrant_index(number)
    }
}

/// Checks a team tournament: everything but the score sheets' rules (the
/// standings' job). All problems are listed, in document order (settings,
/// teams, rounds, penalties).
pub fn validate_teams(file: &TeamTournamentFile) -> Result<ValidTeamFile<'_>, Vec<FileProblem>> {
    validate_file(file)
}

/// Where a team is in a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Seat {
    Rests,
    /// Plays the match at this index of the round's `matches`.
    Plays(usize),
}

/// A group label for messages (`—` for no group).
fn group_label(g: Option<&str>) -> String {
    g.unwrap_or("—").to_string()
}

impl KindChecks for TeamTournamentFile {
    type Seat = Seat;
    type Own = TeamSettings;
    /// Each team's group in the round-robin rounds, from its first match.
    type RoundState<'f> = Vec<Option<Option<&'f str>>>;

    const NAMES: EntrantNames = EntrantNames {
        list: "teams",
        one: "team",
        max: MAX_TEAMS,
        too_many: ProblemCode::TooManyTeams,
        number_duplicate: ProblemCode::TeamNumberDuplicate,
        unknown: ProblemCode::TeamUnknown,
        seated_twice: ProblemCode::TeamSeatedTwice,
        withdrawn_seated: ProblemCode::TeamWithdrawnSeated,
        no_show: ProblemCode::TeamNoShow,
        penalty_unknown: ProblemCode::PenaltyTeamUnknown,
        penalty_table_mismatch: ProblemCode::PenaltyTeamTableMismatch,
        penalty_not_seated: ProblemCode::PenaltyMpNotSeated,
    };
    const RESTS: Seat = Seat::Rests;

    fn settings(&self) -> Settings<'_> {
        self.common_settings()
    }

    /// The scoring method and the team bye award.
    fn check_own_settings(
        &self,
        bye_vp: Option<u8>,
        out: &mut Vec<FileProblem>,
    ) -> Option<TeamSettings> {
        let scoring = match &self.team_scoring {
            TeamScoringFile::Tables => TeamScoring::Tables,
            TeamScoringFile::Scale { scale } => match VpScale::parse(scale.clone()) {
                Ok(s) => TeamScoring::Scale(s),
                Err(e) => {
                    let mut p = FileProblem::new("team_scoring.scale", ProblemCode::VpScaleInvalid);
                    p.cause = Some(ProblemCause::TeamScale(e));
                    out.push(p);
                    return None;
                }
            },
        };
        let max = scoring.total_vp();
        let team_bye_vp = match self.team_bye_vp {
            Some(v) => match u8::try_from(v) {
                Ok(v) if v <= max => Some(v),
                _ => {
                    out.push(
                        FileProblem::new("team_bye_vp", ProblemCode::TeamByeVpOutOfRange)
                            .with("value", v)
                            .with("max", max),
                    );
                    None
                }
            },
            None => bye_vp.map(|b| scoring.default_bye_vp(b)),
        }?;
        Some(TeamSettings {
            scoring,
            team_bye_vp,
        })
    }

    fn check_entrant(at: &At<'_>, team: &TeamFile, out: &mut Vec<FileProblem>) {
        required_text(
            at.field("name"),
            &team.name,
            MAX_TEAM_NAME_CHARS,
            ProblemCode::TeamNameEmpty,
            out,
        );
        let count = team.players.len();
        if !(MIN_TEAM_PLAYERS..=MAX_TEAM_PLAYERS).contains(&count) {
            out.push(
                FileProblem::new(format!("{at}.players"), ProblemCode::TeamSize)
                    .with("count", count)
                    .with("min", MIN_TEAM_PLAYERS)
                    .with("max", MAX_TEAM_PLAYERS),
            );
        }
    }

    fn round_state(&self) -> Vec<Option<Option<&str>>> {
        vec![None; self.teams.len()]
    }

    fn check_round<'f>(
        &'f self,
        checks: &mut RoundChecks<'_, Self>,
        groups: &mut Vec<Option<Option<&'f str>>>,
        round: &'f TeamRoundFile,
        out: &mut Vec<FileProblem>,
    ) {
        let at = At::root("rounds", checks.index());
        let round_robin = round.movement != Some(TeamMovementKind::Danish);
        for (m, game) in round.matches.iter().enumerate() {
            let mat = at.item("matches", m);
            check_match(checks, &mat, m, game, out);
            if round_robin {
                check_groups(checks, groups, &mat, game, out);
            }
            check_match_tables(checks, &mat, game, out);
        }
    }

    fn check_penalty_place(
        &self,
        at: &At<'_>,
        p: &TeamPenaltyFile,
        place: Option<(usize, usize)>,
        seats: &Seats<Seat>,
        out: &mut Vec<FileProblem>,
    ) {
        if p.kind == PenaltyKind::Mp && p.table.is_none() {
            out.push(FileProblem::new(
                format!("{at}.table"),
                ProblemCode::PenaltyTableMissing,
            ));
        }
        let (Some((r, ti)), Some(table)) = (place, p.table) else {
            return;
        };
        let at_table = match seats.get(r, ti) {
            Some(Seat::Plays(m)) => self
                .rounds
                .get(r)
                .and_then(|round| round.matches.get(m))
                .is_some_and(|game| {
                    game.tables
                        .iter()
                        .any(|t| t.table == table && (t.ns.team == p.team || t.ew.team == p.team))
                }),
            Some(Seat::Rests) | None => false,
        };
        if !at_table {
            out.push(
                FileProblem::new(format!("{at}.table"), ProblemCode::PenaltyTeamTableMismatch)
                    .with("table", table)
                    .with("team", p.team)
                    .with("round", p.round),
            );
        }
    }
}

/// A match's two teams (seated, not the same) and its group label.
fn check_match(
    checks: &mut RoundChecks<'_, TeamTournamentFile>,
    mat: &At<'_>,
    m: usize,
    game: &MatchFile,
    out: &mut Vec<FileProblem>,
) {
    checks.seat(mat.field("home"), game.home, Seat::Plays(m), out);
    if game.away == game.home {
        out.push(
            FileProblem::new(format!("{mat}.away"), ProblemCode::MatchSameTeam)
                .with("team", game.away),
        );
    } else {
        checks.seat(mat.field("away"), game.away, Seat::Plays(m), out);
    }
    if let Some(g) = &game.group {
        let at = mat.field("group");
        required_text(at, g, MAX_GROUP_CHARS, ProblemCode::GroupEmpty, out);
    }
}

/// In a round-robin round, each team keeps the group of its first match.
fn check_groups<'f>(
    checks: &RoundChecks<'_, TeamTournamentFile>,
    groups: &mut [Option<Option<&'f str>>],
    mat: &At<'_>,
    game: &'f MatchFile,
    out: &mut Vec<FileProblem>,
) {
    let label = game.group.as_deref();
    for team in [game.home, game.away] {
        let Some(cell) = checks.index_of(team).and_then(|i| groups.get_mut(i)) else {
            continue;
        };
        match *cell {
            None => *cell = Some(label),
            Some(previous) if previous != label => {
                out.push(
                    FileProblem::new(format!("{mat}.group"), ProblemCode::TeamGroupChanged)
                        .with("team", team)
                        .with("group", group_label(label))
                        .with("previous", group_label(previous)),
                );
            }
            Some(_) => {}
        }
    }
}

/// A match's two tables: numbered, each team once on each line, line-ups
/// from the team's players, no player twice, scored.
fn check_match_tables(
    checks: &mut RoundChecks<'_, TeamTournamentFile>,
    mat: &At<'_>,
    game: &MatchFile,
    out: &mut Vec<FileProblem>,
) {
    if game.tables.len() != TABLES_PER_MATCH {
        out.push(
            FileProblem::new(format!("{mat}.tables"), ProblemCode::MatchTablesCount)
                .with("count", game.tables.len())
                .with("expected", TABLES_PER_MATCH),
        );
    }
    let balanced_check = game.tables.len() == TABLES_PER_MATCH && game.home != game.away;
    // (team, line) already taken in this match; players already seated.
    let mut lines: HashSet<(u32, Line)> = HashSet::new();
    let mut players: HashSet<(u32, u32)> = HashSet::new();
    for (t, table) in game.tables.iter().enumerate() {
        let tat = mat.item("tables", t);
        checks.table_number(&tat, table.table, out);
        // A team cannot sit on both lines of one table.
        let same_team = table.ns.team == table.ew.team && game.has(table.ns.team);
        if same_team {
            out.push(
                FileProblem::new(format!("{tat}.ew.team"), ProblemCode::MatchLinesUnbalanced)
                    .with("team", table.ew.team),
            );
        }
        for (line, name, lr) in [(Line::Ns, "ns", &table.ns), (Line::Ew, "ew", &table.ew)] {
            let lat = tat.field(name);
            check_line(checks, game, &lat, lr, out);
            if !game.has(lr.team) {
                continue;
            }
            if balanced_check && !lines.insert((lr.team, line)) && !same_team {
                out.push(
                    FileProblem::new(format!("{lat}.team"), ProblemCode::MatchLinesUnbalanced)
                        .with("team", lr.team),
                );
            }
            for (k, &p) in lr.players.iter().enumerate() {
                if !players.insert((lr.team, p)) {
                    out.push(
                        FileProblem::new(
                            format!("{lat}.players[{k}]"),
                            ProblemCode::PlayerSeatedTwice,
                        )
                        .with("index", p)
                        .with("team", lr.team),
                    );
                }
            }
        }
        checks.table_score(&tat, table.sheet.as_ref(), table.adjusted.as_ref(), out);
    }
}

/// A line's team belongs to the match; its players are in the team.
fn check_line(
    checks: &RoundChecks<'_, TeamTournamentFile>,
    game: &MatchFile,
    lat: &At<'_>,
    line: &LineRef,
    out: &mut Vec<FileProblem>,
) {
    if !game.has(line.team) {
        out.push(
            FileProblem::new(format!("{lat}.team"), ProblemCode::LineTeamNotInMatch)
                .with("team", line.team)
                .with("home", game.home)
                .with("away", game.away),
        );
        return;
    }
    let Some(team) = checks.entrant(line.team) else {
        // The match's own team is unknown: named at `home`/`away`.
        return;
    };
    let count = team.players.len();
    for (k, &p) in line.players.iter().enumerate() {
        if usize::try_from(p).map_or(true, |p| p >= count) {
            out.push(
                FileProblem::new(format!("{lat}.players[{k}]"), ProblemCode::PlayerNotInTeam)
                    .with("index", p)
                    .with("team", line.team)
                    .with("count", count),
            );
        }
    }
}
