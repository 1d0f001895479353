//! Movements of a team tournament (RULES.md §12): round robin (optionally in
//! groups), Danish for teams, and line-ups. Pure; the only randomness (the
//! order teams are drawn into the schedule) is seeded.
//!
//! Decisions where the rules are silent:
//! - **Tables**: match m of a round (1-based, in the order listed) sits at
//!   tables 2m − 1 and 2m. At the first table the home team's first pair
//!   sits NS against the away team's first pair; at the second the away
//!   team's second pair sits NS against the home team's second pair, so
//!   each team is once NS and once EW.
//! - **Round robin** (circle method): n teams (plus a phantom when n is
//!   odd: whoever meets it rests) make n − 1 rounds (n rounds when odd);
//!   every team meets every other exactly once. The last team of the order
//!   given stays fixed (with an odd count it is the phantom), the others
//!   turn. Home/away: the fixed team is home in odd rounds (1st, 3rd…); in a
//!   match at distance d on the circle the team ahead is home when d is
//!   odd. Every team is home as often as away (±1 with an even count, the
//!   least possible), with the fewest repeated home (or away) runs.
//! - **Groups** (gironi): [`split_into_groups`] deals the teams (in seeding
//!   order) into groups `A`, `B`… snake-wise (1st to A, 2nd to B, …, then
//!   back), so sizes differ by at most one. Every group plays its own round
//!   robin in the same rounds, matches listed group by group. A group that
//!   needs fewer rounds than the largest (4 teams need 3 rounds, 5 need 5)
//!   has finished: in the remaining rounds its teams rest and score the team
//!   bye award, like any team without a match. Sizes 2k − 1 and 2k need the
//!   same number of rounds; a director who wants no such extra rests picks
//!   group sizes that way.
//! - **Danish** for teams: by the current standings, the best remaining
//!   team meets the highest-placed team it has not met such that every team
//!   below can still be paired without a rematch (exact: backtracking with
//!   a memory of the hopeless sets). With an odd count the lowest-placed
//!   team among those that rested least rests, unless that leaves no
//!   pairing without rematch (then the next one up). When no pairing
//!   without rematch exists at all (Danish rounds after a complete round
//!   robin), rematches are allowed, fewest meetings first and never against
//!   the previous round's opponent; the rematches are reported. Only two
//!   teams that just met are paired again regardless.
//!   Home: the team that has been home less often (home − away), the
//!   higher-placed on a tie. Matches are listed in ranking order.
//! - **Withdrawn team**: [`drop_withdrawn`] takes its matches off a planned
//!   round; its opponent rests (team bye award).
//! - **Line-up**: two pairs of the team's players (indexes into the team's
//!   list); with 5 or 6 players, one or two sit out. The default is the
//!   previous match's line-up, else players 0,1 and 2,3.

use super::TableNo;
use crate::rules::teams::{MIN_TEAM_PLAYERS, TABLES_PER_MATCH};
use crate::tournament_file::{LineRef, MatchFile, MatchTableFile, TeamRoundFile};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::fmt;

/// A team's number (1, 2, …).
pub type TeamNo = u32;

/// Fewest teams a movement accepts.
pub const MIN_TEAMS: usize = 2;
/// Most teams a movement accepts (as the file).
pub const MAX_TEAMS: usize = crate::tournament_file::MAX_TEAMS;
/// Most groups (named `A` … `Z`).
pub const MAX_GROUPS: usize = 26;
/// Fewest teams in a group.
pub const MIN_GROUP_TEAMS: usize = 2;

/// Why a team movement is refused. [`TeamMovementError::code`] is stable
/// (catalog key `movement.team_error.<CODE>`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TeamMovementError {
    #[error("{teams} teams are too few: at least {min} are needed")]
    TooFewTeams { teams: usize, min: usize },
    #[error("{teams} teams are too many: at most {max} are allowed")]
    TooManyTeams { teams: usize, max: usize },
    #[error("team number 0 is not valid: teams are numbered from 1")]
    InvalidTeamNumber,
    #[error("team {team} is listed twice")]
    DuplicateTeam { team: TeamNo },
    #[error("round {round} is not valid: rounds are numbered from 1")]
    InvalidRound { round: u32 },
    #[error("the number of groups must be between 1 and {max}, not {groups}")]
    GroupsOutOfRange { groups: usize, max: usize },
    #[error("group {group} has {teams} teams: a group needs at least {min}")]
    GroupTooSmall {
        group: String,
        teams: usize,
        min: usize,
    },
    #[error("group {group} is listed twice")]
    DuplicateGroup { group: String },
    #[error("a line-up needs a team of at least {min} players, not {players}")]
    LineUpTooFewPlayers { players: usize, min: usize },
    #[error("player {index} is not in the team, which has players 0 to {last}")]
    LineUpPlayerUnknown { index: u32, last: usize },
    #[error("player {index} is in the line-up twice")]
    LineUpPlayerTwice { index: u32 },
}

impl TeamMovementError {
    /// The stable code (upper snake case).
    pub fn code(&self) -> &'static str {
        use TeamMovementError as E;
        match self {
            E::TooFewTeams { .. } => "TOO_FEW_TEAMS",
            E::TooManyTeams { .. } => "TOO_MANY_TEAMS",
            E::InvalidTeamNumber => "INVALID_TEAM_NUMBER",
            E::DuplicateTeam { .. } => "DUPLICATE_TEAM",
            E::InvalidRound { .. } => "INVALID_ROUND",
            E::GroupsOutOfRange { .. } => "GROUPS_OUT_OF_RANGE",
            E::GroupTooSmall { .. } => "GROUP_TOO_SMALL",
            E::DuplicateGroup { .. } => "DUPLICATE_GROUP",
            E::LineUpTooFewPlayers { .. } => "LINEUP_TOO_FEW_PLAYERS",
            E::LineUpPlayerUnknown { .. } => "LINEUP_PLAYER_UNKNOWN",
            E::LineUpPlayerTwice { .. } => "LINEUP_PLAYER_TWICE",
        }
    }

    /// The catalog key of this error's message.
    pub fn catalog_key(&self) -> String {
        format!("movement.team_error.{}", self.code())
    }

    /// The values of the message's `{name}` placeholders.
    pub fn params(&self) -> Vec<(&'static str, String)> {
        use TeamMovementError as E;
        match self {
            E::TooFewTeams { teams, min } => {
                vec![("teams", teams.to_string()), ("min", min.to_string())]
            }
            E::TooManyTeams { teams, max } => {
                vec![("teams", teams.to_string()), ("max", max.to_string())]
            }
            E::InvalidTeamNumber => vec![],
            E::DuplicateTeam { team } => vec![("team", team.to_string())],
            E::InvalidRound { round } => vec![("round", round.to_string())],
            E::GroupsOutOfRange { groups, max } => {
                vec![("groups", groups.to_string()), ("max", max.to_string())]
            }
            E::GroupTooSmall { group, teams, min } => vec![
                ("group", group.clone()),
                ("teams", teams.to_string()),
                ("min", min.to_string()),
            ],
            E::DuplicateGroup { group } => vec![("group", group.clone())],
            E::LineUpTooFewPlayers { players, min } => {
                vec![("players", players.to_string()), ("min", min.to_string())]
            }
            E::LineUpPlayerUnknown { index, last } => {
                vec![("index", index.to_string()), ("last", last.to_string())]
            }
            E::LineUpPlayerTwice { index } => vec![("index", index.to_string())],
        }
    }

    /// The message in `lang`, from the catalog.
    pub fn message(&self, lang: crate::i18n::Lang) -> String {
        let params = self.params();
        let args: Vec<(&str, &dyn fmt::Display)> = params
            .iter()
            .map(|(k, v)| (*k, v as &dyn fmt::Display))
            .collect();
        crate::i18n::tf(lang, &self.catalog_key(), &args)
    }
}

/// The two tables of match `m` (1-based) of a round: 2m − 1 and 2m.
pub fn match_tables(m: usize) -> [TableNo; TABLES_PER_MATCH] {
    let m = TableNo::try_from(m.max(1)).unwrap_or(TableNo::MAX / 2);
    let second = m.saturating_mul(2);
    [second.saturating_sub(1), second]
}

/// One planned match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamMatch {
    pub home: TeamNo,
    pub away: TeamNo,
    /// The group, for a round robin in groups.
    pub group: Option<String>,
    /// The first table (home NS) and the second (away NS).
    pub tables: [TableNo; TABLES_PER_MATCH],
}

impl TeamMatch {
    pub fn has(&self, team: TeamNo) -> bool {
        self.home == team || self.away == team
    }

    pub fn opponent(&self, team: TeamNo) -> Option<TeamNo> {
        if self.home == team {
            Some(self.away)
        } else if self.away == team {
            Some(self.home)
        } else {
            None
        }
    }
}

/// One planned round: its matches and the resting teams.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamRoundPlan {
    pub round: u32,
    pub matches: Vec<TeamMatch>,
    pub byes: Vec<TeamNo>,
}

impl TeamRoundPlan {
    /// The match `team` plays this round.
    pub fn match_of(&self, team: TeamNo) -> Option<&TeamMatch> {
        self.matches.iter().find(|m| m.has(team))
    }

    pub fn opponent(&self, team: TeamNo) -> Option<TeamNo> {
        self.match_of(team).and_then(|m| m.opponent(team))
    }

    /// `Some(true)` when `team` plays at home.
    pub fn is_home(&self, team: TeamNo) -> Option<bool> {
        self.match_of(team).map(|m| m.home == team)
    }

    pub fn rests(&self, team: TeamNo) -> bool {
        self.byes.contains(&team)
    }

    /// A round as the file has it (line-ups are not needed here).
    pub fn from_file(round: &TeamRoundFile) -> TeamRoundPlan {
        TeamRoundPlan {
            round: round.number,
            matches: round
                .matches
                .iter()
                .enumerate()
                .map(|(i, m)| {
                    let mut tables: Vec<TableNo> = m.tables.iter().map(|t| t.table).collect();
                    tables.sort_unstable();
                    let default = match_tables(i.saturating_add(1));
                    TeamMatch {
                        home: m.home,
                        away: m.away,
                        group: m.group.clone(),
                        tables: [
                            tables.first().copied().unwrap_or(default[0]),
                            tables.get(1).copied().unwrap_or(default[1]),
                        ],
                    }
                })
                .collect(),
            byes: round.byes.clone(),
        }
    }
}

fn check_teams(teams: &[TeamNo]) -> Result<(), TeamMovementError> {
    if teams.len() < MIN_TEAMS {
        return Err(TeamMovementError::TooFewTeams {
            teams: teams.len(),
            min: MIN_TEAMS,
        });
    }
    if teams.len() > MAX_TEAMS {
        return Err(TeamMovementError::TooManyTeams {
            teams: teams.len(),
            max: MAX_TEAMS,
        });
    }
    let mut seen = HashSet::with_capacity(teams.len());
    for &t in teams {
        if t == 0 {
            return Err(TeamMovementError::InvalidTeamNumber);
        }
        if !seen.insert(t) {
            return Err(TeamMovementError::DuplicateTeam { team: t });
        }
    }
    Ok(())
}

/// The teams in a random order drawn from `seed` (reproducible).
pub fn draw_order(teams: &[TeamNo], seed: u64) -> Vec<TeamNo> {
    let mut order = teams.to_vec();
    order.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    order
}

/// Rounds a round robin of `teams` teams takes: n − 1, or n when odd.
pub fn round_robin_rounds(teams: usize) -> usize {
    if teams < 2 {
        0
    } else if teams % 2 == 0 {
        teams - 1
    } else {
        teams
    }
}

/// The circle method on `teams`: per round, (home, away) pairs and the
/// resting team (see the module doc for the orientation).
fn circle(teams: &[TeamNo]) -> Vec<(Vec<(TeamNo, TeamNo)>, Option<TeamNo>)> {
    // Slots: the teams, and the phantom (None) last when odd. The last slot
    // is fixed; the others (0..m-1) turn.
    let mut slots: Vec<Option<TeamNo>> = teams.iter().copied().map(Some).collect();
    if slots.len() % 2 == 1 {
        slots.push(None);
    }
    let m = slots.len();
    if m < 2 {
        return Vec::new();
    }
    let turning = m - 1;
    let fixed = slots.get(m - 1).copied().flatten();
    let at = |c: usize| slots.get(c % turning).copied().flatten();
    (0..turning)
        .map(|k| {
            let mut games = Vec::with_capacity(m / 2);
            let mut rest = None;
            let mut add = |home: Option<TeamNo>, away: Option<TeamNo>| match (home, away) {
                (Some(h), Some(a)) => games.push((h, a)),
                (Some(t), None) | (None, Some(t)) => rest = Some(t),
                (None, None) => {}
            };
            if k % 2 == 0 {
                add(fixed, at(k));
            } else {
                add(at(k), fixed);
            }
            for d in 1..m / 2 {
                let ahead = at(k + d);
                let behind = at(k + turning - d);
                if d % 2 == 1 {
                    add(ahead, behind);
                } else {
                    add(behind, ahead);
                }
            }
            (games, rest)
        })
        .collect()
}

/// Numbers the matches of a round: match m at tables 2m − 1, 2m.
fn number_tables(matches: &mut [TeamMatch]) {
    for (i, m) in matches.iter_mut().enumerate() {
        m.tables = match_tables(i.saturating_add(1));
    }
}

/// A whole round robin of `teams` (in the order given: draw it with
/// [`draw_order`]), rounds numbered from `first_round`.
pub fn round_robin(
    teams: &[TeamNo],
    first_round: u32,
) -> Result<Vec<TeamRoundPlan>, TeamMovementError> {
    check_teams(teams)?;
    round_robin_groups(
        &[Group {
            name: None,
            teams: teams.to_vec(),
        }],
        first_round,
    )
}

/// A group of a round robin in groups (girone).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Group {
    /// `A`, `B`…; `None` for a round robin without groups.
    pub name: Option<String>,
    pub teams: Vec<TeamNo>,
}

/// The name of group `i` (0-based): `A`, `B`, … `Z`.
pub fn group_name(i: usize) -> String {
    u8::try_from(i)
        .ok()
        .filter(|&i| usize::from(i) < MAX_GROUPS)
        .map(|i| char::from(b'A' + i).to_string())
        .unwrap_or_else(|| format!("G{}", i.saturating_add(1)))
}

/// Deals `teams` (seeding order: best first, or a drawn order) into
/// `groups` groups snake-wise; sizes differ by at most one.
pub fn split_into_groups(teams: &[TeamNo], groups: usize) -> Result<Vec<Group>, TeamMovementError> {
    check_teams(teams)?;
    if groups == 0 || groups > MAX_GROUPS {
        return Err(TeamMovementError::GroupsOutOfRange {
            groups,
            max: MAX_GROUPS,
        });
    }
    let mut out: Vec<Group> = (0..groups)
        .map(|g| Group {
            name: Some(group_name(g)),
            teams: Vec::new(),
        })
        .collect();
    for (i, &t) in teams.iter().enumerate() {
        let row = i / groups;
        let col = i % groups;
        let g = if row % 2 == 0 { col } else { groups - 1 - col };
        if let Some(group) = out.get_mut(g) {
            group.teams.push(t);
        }
    }
    for g in &out {
        if g.teams.len() < MIN_GROUP_TEAMS {
            return Err(TeamMovementError::GroupTooSmall {
                group: g.name.clone().unwrap_or_default(),
                teams: g.teams.len(),
                min: MIN_GROUP_TEAMS,
            });
        }
    }
    Ok(out)
}

/// A round robin inside each group, all groups in the same rounds (see the
/// module doc for groups of different sizes). Rounds numbered from
/// `first_round`.
pub fn round_robin_groups(
    groups: &[Group],
    first_round: u32,
) -> Result<Vec<TeamRoundPlan>, TeamMovementError> {
    if first_round == 0 {
        return Err(TeamMovementError::InvalidRound { round: 0 });
    }
    if groups.is_empty() || groups.len() > MAX_GROUPS {
        return Err(TeamMovementError::GroupsOutOfRange {
            groups: groups.len(),
            max: MAX_GROUPS,
        });
    }
    let all: Vec<TeamNo> = groups
        .iter()
        .flat_map(|g| g.teams.iter().copied())
        .collect();
    check_teams(&all)?;
    let mut names = HashSet::new();
    for g in groups {
        if g.teams.len() < MIN_GROUP_TEAMS {
            return Err(TeamMovementError::GroupTooSmall {
                group: g.name.clone().unwrap_or_default(),
                teams: g.teams.len(),
                min: MIN_GROUP_TEAMS,
            });
        }
        if let Some(name) = &g.name {
            if !names.insert(name.clone()) {
                return Err(TeamMovementError::DuplicateGroup {
                    group: name.clone(),
                });
            }
        }
    }
    let schedules: Vec<_> = groups.iter().map(|g| circle(&g.teams)).collect();
    let rounds = schedules.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = Vec::with_capacity(rounds);
    for k in 0..rounds {
        let number = first_round.saturating_add(u32::try_from(k).unwrap_or(u32::MAX));
        let mut matches = Vec::new();
        let mut byes = Vec::new();
        for (g, sched) in groups.iter().zip(&schedules) {
            match sched.get(k) {
                Some((games, rest)) => {
                    matches.extend(games.iter().map(|&(home, away)| TeamMatch {
                        home,
                        away,
                        group: g.name.clone(),
                        tables: [0, 0],
                    }));
                    byes.extend(rest.iter().copied());
                }
                // The group has finished its round robin: its teams rest.
                None => byes.extend(g.teams.iter().copied()),
            }
        }
        number_tables(&mut matches);
        out.push(TeamRoundPlan {
            round: number,
            matches,
            byes,
        });
    }
    Ok(out)
}

/// A planned round without the `withdrawn` teams: their matches are taken
/// off (their opponents rest), the tables renumbered.
pub fn drop_withdrawn(plan: &TeamRoundPlan, withdrawn: &[TeamNo]) -> TeamRoundPlan {
    let gone: HashSet<TeamNo> = withdrawn.iter().copied().collect();
    let mut byes: Vec<TeamNo> = plan
        .byes
        .iter()
        .copied()
        .filter(|t| !gone.contains(t))
        .collect();
    let mut matches = Vec::with_capacity(plan.matches.len());
    for m in &plan.matches {
        match (gone.contains(&m.home), gone.contains(&m.away)) {
            (false, false) => matches.push(m.clone()),
            (true, false) => byes.push(m.away),
            (false, true) => byes.push(m.home),
            (true, true) => {}
        }
    }
    number_tables(&mut matches);
    TeamRoundPlan {
        round: plan.round,
        matches,
        byes,
    }
}

/// One team in the ranking given to [`team_danish_round`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamDanishEntry {
    pub team: TeamNo,
    /// Every opponent met so far, once per meeting.
    pub met: Vec<TeamNo>,
    /// The opponent of the previous round (`None` after a rest).
    pub prev_opponent: Option<TeamNo>,
    /// Rounds rested so far.
    pub byes: u32,
    /// Matches played at home and away so far.
    pub homes: u32,
    pub aways: u32,
}

/// The entries from the ranking (active teams, best first) and the rounds
/// so far (any order; the previous round is the highest number).
pub fn team_entries_from_history(
    ranking: &[TeamNo],
    history: &[TeamRoundPlan],
) -> Vec<TeamDanishEntry> {
    let last = history.iter().max_by_key(|r| r.round);
    ranking
        .iter()
        .map(|&team| {
            let mut e = TeamDanishEntry {
                team,
                met: Vec::new(),
                prev_opponent: last.and_then(|r| r.opponent(team)),
                byes: 0,
                homes: 0,
                aways: 0,
            };
            for r in history {
                if r.rests(team) {
                    e.byes = e.byes.saturating_add(1);
                }
                if let Some(m) = r.match_of(team) {
                    if let Some(o) = m.opponent(team) {
                        e.met.push(o);
                    }
                    if m.home == team {
                        e.homes = e.homes.saturating_add(1);
                    } else {
                        e.aways = e.aways.saturating_add(1);
                    }
                }
            }
            e
        })
        .collect()
}

/// A Danish round and the meetings it repeats.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamDanishRound {
    pub plan: TeamRoundPlan,
    /// Matches between teams that had already met (only when no pairing
    /// without rematch exists).
    pub rematches: Vec<(TeamNo, TeamNo)>,
}

/// A fixed-size set of ranking positions.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Bits(Vec<u64>);

impl Bits {
    fn full(n: usize) -> Bits {
        let mut b = Bits(vec![0; n.div_ceil(64)]);
        for i in 0..n {
            b.set(i, true);
        }
        b
    }

    fn set(&mut self, i: usize, on: bool) {
        if let Some(w) = self.0.get_mut(i / 64) {
            let bit = 1u64 << (i % 64);
            if on {
                *w |= bit;
            } else {
                *w &= !bit;
            }
        }
    }

    fn has(&self, i: usize) -> bool {
        self.0
            .get(i / 64)
            .is_some_and(|w| w & (1u64 << (i % 64)) != 0)
    }

    fn first(&self) -> Option<usize> {
        self.0.iter().enumerate().find_map(|(k, &w)| {
            (w != 0).then(|| k * 64 + usize::try_from(w.trailing_zeros()).unwrap_or(0))
        })
    }

    fn count(&self) -> usize {
        self.0
            .iter()
            .map(|w| usize::try_from(w.count_ones()).unwrap_or(0))
            .sum()
    }

    fn members(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        (0..n).filter(move |&i| self.has(i))
    }
}

/// Pairs every position of `set` (best first), each with the highest-placed
/// allowed partner that lets the rest be paired; `None` if impossible.
/// `hopeless` remembers the sets that cannot be paired.
fn pair_up(
    set: &mut Bits,
    n: usize,
    allowed: &dyn Fn(usize, usize) -> bool,
    hopeless: &mut HashSet<Bits>,
) -> Option<Vec<(usize, usize)>> {
    let Some(top) = set.first() else {
        return Some(Vec::new());
    };
    if set.count() % 2 == 1 || hopeless.contains(set) {
        return None;
    }
    // Every member needs at least one allowed partner left.
    let members: Vec<usize> = set.members(n).collect();
    let stuck = members
        .iter()
        .any(|&a| !members.iter().any(|&b| b != a && allowed(a, b)));
    if !stuck {
        set.set(top, false);
        for &q in members.iter().skip(1) {
            if !allowed(top, q) {
                continue;
            }
            set.set(q, false);
            let rest = pair_up(set, n, allowed, hopeless);
            set.set(q, true);
            if let Some(mut rest) = rest {
                set.set(top, true);
                rest.insert(0, (top, q));
                return Some(rest);
            }
        }
        set.set(top, true);
    }
    hopeless.insert(set.clone());
    None
}

/// The resting position (odd count) and the pairs, under `allowed`.
fn plan_with(
    entries: &[TeamDanishEntry],
    allowed: &dyn Fn(usize, usize) -> bool,
) -> Option<(Option<usize>, Vec<(usize, usize)>)> {
    let n = entries.len();
    let mut hopeless = HashSet::new();
    if n % 2 == 0 {
        let mut set = Bits::full(n);
        return pair_up(&mut set, n, allowed, &mut hopeless).map(|p| (None, p));
    }
    // The fewest rests first, then the lowest-placed.
    let mut candidates: Vec<usize> = (0..n).collect();
    candidates.sort_by_key(|&i| (entries.get(i).map_or(0, |e| e.byes), std::cmp::Reverse(i)));
    for rest in candidates {
        let mut set = Bits::full(n);
        set.set(rest, false);
        if let Some(p) = pair_up(&mut set, n, allowed, &mut hopeless) {
            return Some((Some(rest), p));
        }
    }
    None
}

/// The Danish round `round` for `ranking` (active teams, best first): see
/// the module doc.
pub fn team_danish_round(
    round: u32,
    ranking: &[TeamDanishEntry],
) -> Result<TeamDanishRound, TeamMovementError> {
    if round == 0 {
        return Err(TeamMovementError::InvalidRound { round });
    }
    let teams: Vec<TeamNo> = ranking.iter().map(|e| e.team).collect();
    check_teams(&teams)?;
    let n = ranking.len();
    let index: HashMap<TeamNo, usize> = teams.iter().enumerate().map(|(i, &t)| (t, i)).collect();
    // Meetings between ranked teams (withdrawn opponents ignored), and the
    // previous round's opponent.
    let mut met = vec![0u32; n.saturating_mul(n)];
    let mut prev = vec![None; n];
    for (i, e) in ranking.iter().enumerate() {
        for o in &e.met {
            if let Some(&j) = index.get(o) {
                if let Some(c) = met.get_mut(i * n + j) {
                    *c = c.saturating_add(1);
                }
                if let Some(c) = met.get_mut(j * n + i) {
                    *c = c.saturating_add(1);
                }
            }
        }
        prev[i] = e.prev_opponent.and_then(|o| index.get(&o).copied());
    }
    // Each meeting is listed by both teams: halve.
    let meetings = |a: usize, b: usize| met.get(a * n + b).copied().unwrap_or(0) / 2;
    let just_met = |a: usize, b: usize| {
        prev.get(a).copied().flatten() == Some(b) || prev.get(b).copied().flatten() == Some(a)
    };
    let most = (0..n)
        .flat_map(|a| (0..n).map(move |b| (a, b)))
        .map(|(a, b)| meetings(a, b))
        .max()
        .unwrap_or(0);
    let mut found = plan_with(ranking, &|a, b| meetings(a, b) == 0);
    let mut level = 1;
    while found.is_none() && level <= most {
        found = plan_with(ranking, &|a, b| meetings(a, b) <= level && !just_met(a, b));
        level += 1;
    }
    let (rest, pairs) = match found {
        Some(f) => f,
        None => plan_with(ranking, &|_, _| true).unwrap_or((None, Vec::new())),
    };
    let mut matches = Vec::with_capacity(pairs.len());
    let mut rematches = Vec::new();
    for (hi, lo) in pairs {
        let (Some(h), Some(l)) = (ranking.get(hi), ranking.get(lo)) else {
            continue;
        };
        let balance = |e: &TeamDanishEntry| i64::from(e.homes) - i64::from(e.aways);
        let (home, away) = if balance(l) < balance(h) {
            (l.team, h.team)
        } else {
            (h.team, l.team)
        };
        if meetings(hi, lo) > 0 {
            rematches.push((h.team, l.team));
        }
        matches.push(TeamMatch {
            home,
            away,
            group: None,
            tables: [0, 0],
        });
    }
    number_tables(&mut matches);
    Ok(TeamDanishRound {
        plan: TeamRoundPlan {
            round,
            matches,
            byes: rest
                .and_then(|r| ranking.get(r))
                .map(|e| vec![e.team])
                .unwrap_or_default(),
        },
        rematches,
    })
}

/// A team's line-up for a match: its first pair (first table) and second
/// pair (second table), each two indexes into the team's players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LineUp {
    pub pairs: [[u32; 2]; 2],
}

impl LineUp {
    /// The first four players: 0,1 and 2,3.
    pub const FIRST_FOUR: LineUp = LineUp {
        pairs: [[0, 1], [2, 3]],
    };

    /// The players of the team who sit out (5 or 6 players: one or two).
    pub fn sitting_out(&self, team_size: usize) -> Vec<u32> {
        (0..u32::try_from(team_size).unwrap_or(u32::MAX))
            .filter(|p| !self.pairs.iter().flatten().any(|q| q == p))
            .collect()
    }
}

/// A line-up is four different players of a team of at least 4.
pub fn check_lineup(lineup: &LineUp, team_size: usize) -> Result<(), TeamMovementError> {
    if team_size < MIN_TEAM_PLAYERS {
        return Err(TeamMovementError::LineUpTooFewPlayers {
            players: team_size,
            min: MIN_TEAM_PLAYERS,
        });
    }
    let mut seen = HashSet::new();
    for &p in lineup.pairs.iter().flatten() {
        if usize::try_from(p).map_or(true, |p| p >= team_size) {
            return Err(TeamMovementError::LineUpPlayerUnknown {
                index: p,
                last: team_size - 1,
            });
        }
        if !seen.insert(p) {
            return Err(TeamMovementError::LineUpPlayerTwice { index: p });
        }
    }
    Ok(())
}

/// The default line-up: the previous one when it still fits the team,
/// else players 0,1 and 2,3.
pub fn default_lineup(previous: Option<&LineUp>, team_size: usize) -> LineUp {
    previous
        .filter(|l| check_lineup(l, team_size).is_ok())
        .copied()
        .unwrap_or(LineUp::FIRST_FOUR)
}

/// The line-up `team` used in a match of the file (its line at the lower
/// table number is its first pair).
pub fn lineup_in(game: &MatchFile, team: TeamNo) -> Option<LineUp> {
    let mut lines: Vec<(TableNo, [u32; 2])> = game
        .tables
        .iter()
        .flat_map(|t| [(t.table, t.ns), (t.table, t.ew)])
        .filter(|(_, l)| l.team == team)
        .map(|(table, l)| (table, l.players))
        .collect();
    lines.sort_by_key(|(table, _)| *table);
    match lines.as_slice() {
        [(_, first), (_, second)] => Some(LineUp {
            pairs: [*first, *second],
        }),
        _ => None,
    }
}

/// The two tables of a planned match with the teams' line-ups, ready for
/// the file (not scored yet).
pub fn seat_match(game: &TeamMatch, home: &LineUp, away: &LineUp) -> MatchFile {
    let [first, second] = game.tables;
    let line = |team: TeamNo, players: [u32; 2]| LineRef { team, players };
    MatchFile {
        home: game.home,
        away: game.away,
        group: game.group.clone(),
        tables: vec![
            MatchTableFile {
                table: first,
                ns: line(game.home, home.pairs[0]),
                ew: line(game.away, away.pairs[0]),
                sheet: None,
                adjusted: None,
            },
            MatchTableFile {
                table: second,
                ns: line(game.away, away.pairs[1]),
                ew: line(game.home, home.pairs[1]),
                sheet: None,
                adjusted: None,
            },
        ],
    }
}
