//! Validation of a team tournament (RULES.md §12): the settings exactly as
//! a pairs file checks them (one set of checks), then teams, matches,
//! line-ups, groups and penalties. Every problem names its place
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

use super::teams::{LineRef, TeamMovementKind, TeamScoringFile, TeamTournamentFile};
use super::validate::{
    check_penalty_fields, check_players, check_settings, check_table_score, not_positive, too_long,
    At, FileProblem, PenaltyFields, ProblemCause, ProblemCode, Settings, TableContext, MAX_ROUNDS,
};
use super::PenaltyKind;
use crate::rules::profile::RuleProfile;
use crate::rules::teams::{TeamScoring, MAX_TEAM_PLAYERS, MIN_TEAM_PLAYERS, TABLES_PER_MATCH};
use crate::rules::vp::VpScale;
use crate::rules::Line;
use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};

/// Most teams in a team tournament file.
pub const MAX_TEAMS: usize = 500;
/// Longest team name and group label.
pub const MAX_TEAM_NAME_CHARS: usize = 80;
pub const MAX_GROUP_CHARS: usize = 20;

/// A team file that passed [`validate_teams`], with what the standings
/// need resolved.
#[derive(Debug, Clone)]
pub struct ValidTeamFile<'a> {
    file: &'a TeamTournamentFile,
    profile: &'static RuleProfile,
    scale: VpScale,
    hands_per_round: usize,
    bye_vp: u8,
    scoring: TeamScoring,
    team_bye_vp: u8,
    team_index: HashMap<u32, usize>,
}

impl<'a> ValidTeamFile<'a> {
    pub fn file(&self) -> &'a TeamTournamentFile {
        self.file
    }

    pub fn profile(&self) -> &'static RuleProfile {
        self.profile
    }

    /// The pairs' VP scale each table converts on.
    pub fn scale(&self) -> &VpScale {
        &self.scale
    }

    pub fn hands_per_round(&self) -> usize {
        self.hands_per_round
    }

    /// The pairs' bye award (0..=20).
    pub fn bye_vp(&self) -> u8 {
        self.bye_vp
    }

    /// How a match's tables become match VP.
    pub fn scoring(&self) -> &TeamScoring {
        &self.scoring
    }

    /// VP of a resting team (the file's `team_bye_vp`, else the default of
    /// the scoring method).
    pub fn team_bye_vp(&self) -> u8 {
        self.team_bye_vp
    }

    /// The MP difference a resting team counts.
    pub fn team_bye_mp_diff(&self) -> i64 {
        self.scoring.bye_mp_diff(&self.scale, self.team_bye_vp)
    }

    /// Index in `file().teams` of a team number.
    pub fn team_index(&self, number: u32) -> Option<usize> {
        self.team_index.get(&number).copied()
    }
}

fn settings(file: &TeamTournamentFile) -> Settings<'_> {
    Settings {
        name: &file.name,
        venue: file.venue.as_deref(),
        profile: &file.profile,
        hands_per_round: file.hands_per_round,
        vp_scale: file.vp_scale.as_deref(),
        bye_vp: file.bye_vp,
        entry_fee: file.entry_fee,
        prize_share_percent: file.prize_share_percent,
        guaranteed_pool: file.guaranteed_pool,
        payout: &file.payout,
        minutes_per_round: file.minutes_per_round,
        planned_rounds: file.planned_rounds,
        movements: file.movements.as_ref().map(Vec::len),
        mitchell_advance: None,
        suit_order: file.suit_order.as_deref(),
        registered: file.teams.len(),
        entries_field: "teams",
        started: !file.rounds.is_empty(),
    }
}

/// The scoring method and the team bye award.
fn check_scoring(
    file: &TeamTournamentFile,
    bye_vp: Option<u8>,
    out: &mut Vec<FileProblem>,
) -> (Option<TeamScoring>, Option<u8>) {
    let scoring = match &file.team_scoring {
        TeamScoringFile::Tables => Some(TeamScoring::Tables),
        TeamScoringFile::Scale { scale } => match VpScale::parse(scale.clone()) {
            Ok(s) => Some(TeamScoring::Scale(s)),
            Err(e) => {
                let mut p = FileProblem::new("team_scoring.scale", ProblemCode::VpScaleInvalid);
                p.cause = Some(ProblemCause::TeamScale(e));
                out.push(p);
                None
            }
        },
    };
    let Some(scoring) = scoring else {
        return (None, None);
    };
    let max = scoring.total_vp();
    let team_bye = match file.team_bye_vp {
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
    };
    (Some(scoring), team_bye)
}

fn check_teams(file: &TeamTournamentFile, out: &mut Vec<FileProblem>) -> HashMap<u32, usize> {
    if file.teams.len() > MAX_TEAMS {
        out.push(
            FileProblem::new("teams", ProblemCode::TooManyTeams)
                .with("count", file.teams.len())
                .with("max", MAX_TEAMS),
        );
    }
    let mut index: HashMap<u32, usize> = HashMap::with_capacity(file.teams.len());
    for (i, team) in file.teams.iter().enumerate() {
        let at = At::root("teams", i);
        if team.number == 0 {
            out.push(not_positive(format!("{at}.number")));
        } else if let Entry::Vacant(slot) = index.entry(team.number) {
            slot.insert(i);
        } else {
            out.push(
                FileProblem::new(format!("{at}.number"), ProblemCode::TeamNumberDuplicate)
                    .with("number", team.number),
            );
        }
        if team.name.trim().is_empty() {
            out.push(FileProblem::new(
                format!("{at}.name"),
                ProblemCode::TeamNameEmpty,
            ));
        } else {
            too_long(at.field("name"), &team.name, MAX_TEAM_NAME_CHARS, out);
        }
        let count = team.players.len();
        if !(MIN_TEAM_PLAYERS..=MAX_TEAM_PLAYERS).contains(&count) {
            out.push(
                FileProblem::new(format!("{at}.players"), ProblemCode::TeamSize)
                    .with("count", count)
                    .with("min", MIN_TEAM_PLAYERS)
                    .with("max", MAX_TEAM_PLAYERS),
            );
        }
        check_players(&at, &team.players, out);
        if team.withdrawn_from_round == Some(0) {
            out.push(not_positive(format!("{at}.withdrawn_from_round")));
        }
    }
    index
}

/// Where a team is in a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seat {
    Rests,
    /// Plays the match at this index of the round's `matches`.
    Plays(usize),
}

/// Per round and team index: where the team is. Flat: `round * teams + team`.
struct Seats {
    teams: usize,
    cells: Vec<Option<Seat>>,
}

impl Seats {
    fn get(&self, round: usize, team: usize) -> Option<Seat> {
        self.cells
            .get(round.saturating_mul(self.teams).saturating_add(team))
            .copied()
            .flatten()
    }
}

/// A group label for messages (`—` for no group).
fn group_label(g: Option<&str>) -> String {
    g.unwrap_or("—").to_string()
}

fn check_rounds(
    file: &TeamTournamentFile,
    index: &HashMap<u32, usize>,
    out: &mut Vec<FileProblem>,
) -> Seats {
    let n = file.teams.len();
    let rounds = file.rounds.len();
    if rounds > MAX_ROUNDS {
        out.push(
            FileProblem::new("rounds", ProblemCode::TooManyRounds)
                .with("count", rounds)
                .with("max", MAX_ROUNDS),
        );
    }
    let size = if n <= MAX_TEAMS && rounds <= MAX_ROUNDS {
        n.saturating_mul(rounds)
    } else {
        0
    };
    let mut seats = Seats {
        teams: n,
        cells: vec![None; size],
    };
    // Each team's group in the round-robin rounds, from its first match.
    let mut groups: Vec<Option<Option<&str>>> = vec![None; n];
    let mut numbers: HashSet<u32> = HashSet::new();
    for (r, round) in file.rounds.iter().enumerate() {
        let at = At::root("rounds", r);
        let expected = u32::try_from(r.saturating_add(1)).unwrap_or(u32::MAX);
        if round.number != expected {
            out.push(
                FileProblem::new(format!("{at}.number"), ProblemCode::RoundNumberOutOfOrder)
                    .with("number", round.number)
                    .with("expected", expected),
            );
        }
        let last = r.saturating_add(1) == rounds;
        let round_robin = round.movement != Some(TeamMovementKind::Danish);
        numbers.clear();
        let mut seat = |at: At<'_>, team: u32, place: Seat, out: &mut Vec<FileProblem>| {
            let path = || at.to_string();
            let Some(&i) = index.get(&team) else {
                out.push(FileProblem::new(path(), ProblemCode::TeamUnknown).with("team", team));
                return;
            };
            let slot = r.saturating_mul(n).saturating_add(i);
            if let Some(cell) = seats.cells.get_mut(slot) {
                if cell.is_some() {
                    out.push(
                        FileProblem::new(path(), ProblemCode::TeamSeatedTwice)
                            .with("team", team)
                            .with("round", expected),
                    );
                    return;
                }
                *cell = Some(place);
            }
            let entry = file.teams.get(i);
            if entry.is_some_and(|t| t.no_show) {
                out.push(FileProblem::new(path(), ProblemCode::TeamNoShow).with("team", team));
            }
            let from = entry.and_then(|t| t.withdrawn_from_round);
            if let Some(from) = from.filter(|f| expected >= *f && *f > 0) {
                out.push(
                    FileProblem::new(path(), ProblemCode::TeamWithdrawnSeated)
                        .with("team", team)
                        .with("from", from),
                );
            }
        };
        for (m, game) in round.matches.iter().enumerate() {
            let mat = at.item("matches", m);
            seat(mat.field("home"), game.home, Seat::Plays(m), out);
            if game.away == game.home {
                out.push(
                    FileProblem::new(format!("{mat}.away"), ProblemCode::MatchSameTeam)
                        .with("team", game.away),
                );
            } else {
                seat(mat.field("away"), game.away, Seat::Plays(m), out);
            }
            if let Some(g) = &game.group {
                if g.trim().is_empty() {
                    out.push(FileProblem::new(
                        format!("{mat}.group"),
                        ProblemCode::GroupEmpty,
                    ));
                } else {
                    too_long(mat.field("group"), g, MAX_GROUP_CHARS, out);
                }
            }
            if round_robin {
                let label = game.group.as_deref();
                for team in [game.home, game.away] {
                    let Some(cell) = index.get(&team).and_then(|&i| groups.get_mut(i)) else {
                        continue;
                    };
                    match *cell {
                        None => *cell = Some(label),
                        Some(previous) if previous != label => {
                            out.push(
                                FileProblem::new(
                                    format!("{mat}.group"),
                                    ProblemCode::TeamGroupChanged,
                                )
                                .with("team", team)
                                .with("group", group_label(label))
                                .with("previous", group_label(previous)),
                            );
                        }
                        Some(_) => {}
                    }
                }
            }
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
                if table.table == 0 {
                    out.push(not_positive(format!("{tat}.table")));
                } else if !numbers.insert(table.table) {
                    out.push(
                        FileProblem::new(format!("{tat}.table"), ProblemCode::TableNumberDuplicate)
                            .with("table", table.table),
                    );
                }
                // A team cannot sit on both lines of one table.
                let same_team = table.ns.team == table.ew.team && game.has(table.ns.team);
                if same_team {
                    out.push(
                        FileProblem::new(
                            format!("{tat}.ew.team"),
                            ProblemCode::MatchLinesUnbalanced,
                        )
                        .with("team", table.ew.team),
                    );
                }
                for (line, name, lr) in [(Line::Ns, "ns", &table.ns), (Line::Ew, "ew", &table.ew)] {
                    let lat = tat.field(name);
                    check_line(file, index, game.home, game.away, &lat, lr, out);
                    if !game.has(lr.team) {
                        continue;
                    }
                    if balanced_check && !lines.insert((lr.team, line)) && !same_team {
                        out.push(
                            FileProblem::new(
                                format!("{lat}.team"),
                                ProblemCode::MatchLinesUnbalanced,
                            )
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
                check_table_score(
                    &tat,
                    table.sheet.as_ref(),
                    table.adjusted.as_ref(),
                    TableContext {
                        last,
                        status: file.status,
                        round: expected,
                    },
                    out,
                );
            }
        }
        let several = round.byes.len() > 1;
        for (k, &team) in round.byes.iter().enumerate() {
            let place = if several {
                at.item("bye", k)
            } else {
                at.field("bye")
            };
            seat(place, team, Seat::Rests, out);
        }
    }
    seats
}

/// A line's team belongs to the match; its players are in the team.
fn check_line(
    file: &TeamTournamentFile,
    index: &HashMap<u32, usize>,
    home: u32,
    away: u32,
    lat: &At<'_>,
    line: &LineRef,
    out: &mut Vec<FileProblem>,
) {
    if line.team != home && line.team != away {
        out.push(
            FileProblem::new(format!("{lat}.team"), ProblemCode::LineTeamNotInMatch)
                .with("team", line.team)
                .with("home", home)
                .with("away", away),
        );
        return;
    }
    let Some(team) = index.get(&line.team).and_then(|&i| file.teams.get(i)) else {
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

fn check_penalties(
    file: &TeamTournamentFile,
    index: &HashMap<u32, usize>,
    seats: &Seats,
    out: &mut Vec<FileProblem>,
) {
    let rounds = file.rounds.len();
    for (i, p) in file.penalties.iter().enumerate() {
        let at = At::root("penalties", i);
        let round_index = usize::try_from(p.round)
            .ok()
            .and_then(|r| r.checked_sub(1))
            .filter(|r| *r < rounds);
        if round_index.is_none() {
            out.push(
                FileProblem::new(format!("{at}.round"), ProblemCode::PenaltyRoundUnknown)
                    .with("round", p.round),
            );
        }
        let team_index = index.get(&p.team).copied();
        if team_index.is_none() {
            out.push(
                FileProblem::new(format!("{at}.team"), ProblemCode::PenaltyTeamUnknown)
                    .with("team", p.team),
            );
        }
        let entry = team_index.and_then(|k| file.teams.get(k));
        if entry.is_some_and(|e| !e.is_entry()) {
            out.push(
                FileProblem::new(format!("{at}.team"), ProblemCode::TeamNoShow)
                    .with("team", p.team),
            );
        }
        check_penalty_fields(
            &at,
            PenaltyFields {
                kind: p.kind,
                amount: p.amount,
                reason: &p.reason,
                by: p.by.as_deref(),
                withdrawn_by: p.withdrawn_by.as_deref(),
            },
            out,
        );
        if p.kind == PenaltyKind::Mp && p.table.is_none() {
            out.push(FileProblem::new(
                format!("{at}.table"),
                ProblemCode::PenaltyTableMissing,
            ));
        }
        let (Some(r), Some(ti), Some(table)) = (round_index, team_index, p.table) else {
            continue;
        };
        let at_table = match seats.get(r, ti) {
            Some(Seat::Plays(m)) => file
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

/// Checks a team tournament: everything but the score sheets' rules (the
/// standings' job). All problems are listed, in document order (settings,
/// teams, rounds, penalties).
pub fn validate_teams(file: &TeamTournamentFile) -> Result<ValidTeamFile<'_>, Vec<FileProblem>> {
    let mut out = Vec::new();
    let (profile, scale, bye_vp) = check_settings(&settings(file), &mut out);
    let (scoring, team_bye_vp) = check_scoring(file, bye_vp, &mut out);
    let index = check_teams(file, &mut out);
    let seats = check_rounds(file, &index, &mut out);
    check_penalties(file, &index, &seats, &mut out);
    match (profile, scale, bye_vp, scoring, team_bye_vp) {
        (Some(profile), Some(scale), Some(bye_vp), Some(scoring), Some(team_bye_vp))
            if out.is_empty() =>
        {
            Ok(ValidTeamFile {
                file,
                profile,
                scale,
                hands_per_round: usize::try_from(file.hands_per_round).unwrap_or(0),
                bye_vp,
                scoring,
                team_bye_vp,
                team_index: index,
            })
        }
        _ => Err(out),
    }
}
