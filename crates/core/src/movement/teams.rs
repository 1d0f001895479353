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
//!   a memory of the hopeless sets, cut short where a team has no possible
//!   opponent left or the possible meetings split the teams into a part of
//!   odd size; a search longer than [`DANISH_SEARCH_STEPS`] steps, far
//!   beyond any real field, counts as impossible at that level). With an odd count the lowest-placed
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
    } else if teams.is_multiple_of(2) {
        teams - 1
    } else {
        teams
    }
}

/// One round of the circle method: (home, away) pairs and the resting team.
type CircleRound = (Vec<(TeamNo, TeamNo)>, Option<TeamNo>);

/// The circle method on `teams`: per round, (home, away) pairs and the
/// resting team (see the module doc for the orientation).
fn circle(teams: &[TeamNo]) -> Vec<CircleRound> {
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
        let g = if row.is_multiple_of(2) {
            col
        } else {
            groups - 1 - col
        };
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

/// Most steps one search for a pairing may take (see the module doc).
pub const DANISH_SEARCH_STEPS: u64 = 2_000_000;

/// A search for a pairing under one `allowed` relation.
struct Search<'f> {
    n: usize,
    allowed: &'f dyn Fn(usize, usize) -> bool,
    /// Sets known to have no pairing.
    hopeless: HashSet<Bits>,
    steps: u64,
}

impl Search<'_> {
    /// Whether some member has no allowed partner left, or the allowed
    /// relation splits the set into a part of odd size: no pairing then.
    fn obviously_hopeless(&self, members: &[usize]) -> bool {
        let mut part = vec![usize::MAX; members.len()];
        for start in 0..members.len() {
            if part.get(start).is_some_and(|&p| p != usize::MAX) {
                continue;
            }
            let mut size = 0usize;
            let mut stack = vec![start];
            if let Some(p) = part.get_mut(start) {
                *p = start;
            }
            while let Some(i) = stack.pop() {
                size += 1;
                let Some(&a) = members.get(i) else { continue };
                let mut alone = true;
                for (j, &b) in members.iter().enumerate() {
                    if j == i || !(self.allowed)(a, b) {
                        continue;
                    }
                    alone = false;
                    if let Some(p) = part.get_mut(j).filter(|p| **p == usize::MAX) {
                        *p = start;
                        stack.push(j);
                    }
                }
                if alone {
                    return true;
                }
            }
            if size % 2 == 1 {
                return true;
            }
        }
        false
    }

    /// Pairs every position of `set` (best first), each with the
    /// highest-placed allowed partner that lets the rest be paired. `Err`
    /// when the step budget runs out.
    fn pair_up(&mut self, set: &mut Bits) -> Result<Option<Vec<(usize, usize)>>, ()> {
        let Some(top) = set.first() else {
            return Ok(Some(Vec::new()));
        };
        self.steps += 1;
        if self.steps > DANISH_SEARCH_STEPS {
            return Err(());
        }
        if set.count() % 2 == 1 || self.hopeless.contains(set) {
            return Ok(None);
        }
        let members: Vec<usize> = set.members(self.n).collect();
        if !self.obviously_hopeless(&members) {
            set.set(top, false);
            for &q in members.iter().skip(1) {
                if !(self.allowed)(top, q) {
                    continue;
                }
                set.set(q, false);
                let rest = self.pair_up(set);
                set.set(q, true);
                match rest {
                    Ok(Some(mut rest)) => {
                        set.set(top, true);
                        rest.insert(0, (top, q));
                        return Ok(Some(rest));
                    }
                    Ok(None) => {}
                    Err(()) => {
                        set.set(top, true);
                        return Err(());
                    }
                }
            }
            set.set(top, true);
        }
        self.hopeless.insert(set.clone());
        Ok(None)
    }
}

/// The resting position (odd count) and the pairs, as ranking positions.
type Pairing = (Option<usize>, Vec<(usize, usize)>);

/// The resting position (odd count) and the pairs, under `allowed`; `None`
/// when there is none (or the search is too long).
fn plan_with(
    entries: &[TeamDanishEntry],
    allowed: &dyn Fn(usize, usize) -> bool,
) -> Option<Pairing> {
    let n = entries.len();
    let mut search = Search {
        n,
        allowed,
        hopeless: HashSet::new(),
        steps: 0,
    };
    if n.is_multiple_of(2) {
        let mut set = Bits::full(n);
        return search.pair_up(&mut set).ok().flatten().map(|p| (None, p));
    }
    // The fewest rests first, then the lowest-placed.
    let mut candidates: Vec<usize> = (0..n).collect();
    candidates.sort_by_key(|&i| (entries.get(i).map_or(0, |e| e.byes), std::cmp::Reverse(i)));
    for rest in candidates {
        let mut set = Bits::full(n);
        set.set(rest, false);
        match search.pair_up(&mut set) {
            Ok(Some(p)) => return Some((Some(rest), p)),
            Ok(None) => {}
            Err(()) => return None,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::{try_catalog, Lang};
    use proptest::prelude::*;
    use rand::Rng;

    fn numbers(n: usize) -> Vec<TeamNo> {
        (1..=u32::try_from(n).unwrap()).collect()
    }

    /// Each unordered meeting and how often it happens.
    fn meetings(plans: &[TeamRoundPlan]) -> HashMap<(TeamNo, TeamNo), usize> {
        let mut out = HashMap::new();
        for p in plans {
            for m in &p.matches {
                *out.entry((m.home.min(m.away), m.home.max(m.away)))
                    .or_insert(0) += 1;
            }
        }
        out
    }

    /// No team twice in a round; every team plays or rests in every round.
    fn check_rounds(plans: &[TeamRoundPlan], teams: &[TeamNo]) -> Result<(), TestCaseError> {
        for p in plans {
            let mut seen = HashSet::new();
            for m in &p.matches {
                prop_assert!(m.home != m.away);
                prop_assert!(seen.insert(m.home), "team {} twice", m.home);
                prop_assert!(seen.insert(m.away), "team {} twice", m.away);
            }
            for &b in &p.byes {
                prop_assert!(seen.insert(b), "team {b} plays and rests");
            }
            prop_assert_eq!(seen.len(), teams.len());
            for (i, m) in p.matches.iter().enumerate() {
                prop_assert_eq!(m.tables, match_tables(i + 1));
            }
        }
        Ok(())
    }

    #[test]
    fn tables_of_a_match() {
        assert_eq!(match_tables(1), [1, 2]);
        assert_eq!(match_tables(4), [7, 8]);
    }

    #[test]
    fn round_robin_of_four_and_five() {
        let plans = round_robin(&[1, 2, 3, 4], 1).unwrap();
        assert_eq!(plans.len(), 3);
        assert!(plans
            .iter()
            .all(|p| p.byes.is_empty() && p.matches.len() == 2));
        let m = meetings(&plans);
        assert_eq!(m.len(), 6);
        assert!(m.values().all(|&c| c == 1));
        // The last team is fixed: home in rounds 1 and 3.
        assert_eq!(plans[0].is_home(4), Some(true));
        assert_eq!(plans[1].is_home(4), Some(false));
        assert_eq!(plans[2].is_home(4), Some(true));
        let plans = round_robin(&[10, 20, 30, 40, 50], 3).unwrap();
        assert_eq!(plans.len(), 5);
        assert_eq!(plans[0].round, 3);
        let mut rested: Vec<TeamNo> = plans.iter().flat_map(|p| p.byes.clone()).collect();
        rested.sort_unstable();
        assert_eq!(rested, vec![10, 20, 30, 40, 50], "each team rests once");
        assert_eq!(
            round_robin(&[1], 1),
            Err(TeamMovementError::TooFewTeams { teams: 1, min: 2 })
        );
        assert_eq!(
            round_robin(&[1, 2, 2], 1),
            Err(TeamMovementError::DuplicateTeam { team: 2 })
        );
        assert_eq!(
            round_robin(&[0, 2], 1),
            Err(TeamMovementError::InvalidTeamNumber)
        );
        assert_eq!(
            round_robin(&[1, 2], 0),
            Err(TeamMovementError::InvalidRound { round: 0 })
        );
        assert_eq!(round_robin_rounds(14), 13);
        assert_eq!(round_robin_rounds(7), 7);
    }

    #[test]
    fn groups_split_snake_wise_and_play_in_the_same_rounds() {
        let g = split_into_groups(&numbers(9), 2).unwrap();
        assert_eq!(g[0].name.as_deref(), Some("A"));
        assert_eq!(g[0].teams, vec![1, 4, 5, 8, 9]);
        assert_eq!(g[1].teams, vec![2, 3, 6, 7]);
        let plans = round_robin_groups(&g, 1).unwrap();
        // 5 teams need 5 rounds; the 4 of B need 3, then rest.
        assert_eq!(plans.len(), 5);
        for p in &plans[3..] {
            for t in &g[1].teams {
                assert!(p.rests(*t));
            }
        }
        for p in &plans {
            for m in &p.matches {
                let ga = g.iter().position(|x| x.teams.contains(&m.home));
                let gb = g.iter().position(|x| x.teams.contains(&m.away));
                assert_eq!(ga, gb, "no match across groups");
                assert_eq!(m.group, g[ga.unwrap()].name);
            }
        }
        assert!(matches!(
            split_into_groups(&numbers(5), 3),
            Err(TeamMovementError::GroupTooSmall { .. })
        ));
        assert!(matches!(
            split_into_groups(&numbers(5), 0),
            Err(TeamMovementError::GroupsOutOfRange { .. })
        ));
        let twice = vec![
            Group {
                name: Some("A".into()),
                teams: vec![1, 2],
            },
            Group {
                name: Some("A".into()),
                teams: vec![3, 4],
            },
        ];
        assert!(matches!(
            round_robin_groups(&twice, 1),
            Err(TeamMovementError::DuplicateGroup { .. })
        ));
        assert_eq!(group_name(25), "Z");
        assert_eq!(group_name(26), "G27");
    }

    #[test]
    fn withdrawn_teams_leave_their_opponents_resting() {
        let plans = round_robin(&numbers(6), 1).unwrap();
        let p = drop_withdrawn(&plans[1], &[3]);
        let opponent = plans[1].opponent(3).unwrap();
        assert!(p.rests(opponent));
        assert!(p.match_of(3).is_none());
        assert_eq!(p.matches.len(), 2);
        assert_eq!(p.matches[1].tables, [3, 4]);
        let both = drop_withdrawn(&plans[1], &[3, opponent]);
        assert!(both.byes.is_empty());
    }

    fn entry(team: TeamNo, met: &[TeamNo], prev: Option<TeamNo>, byes: u32) -> TeamDanishEntry {
        TeamDanishEntry {
            team,
            met: met.to_vec(),
            prev_opponent: prev,
            byes,
            homes: 0,
            aways: 0,
        }
    }

    fn couples(r: &TeamDanishRound) -> Vec<(TeamNo, TeamNo)> {
        r.plan
            .matches
            .iter()
            .map(|m| (m.home.min(m.away), m.home.max(m.away)))
            .collect()
    }

    #[test]
    fn danish_pairs_by_ranking_never_a_team_already_met() {
        // 1 met 2 and 3: 1 takes 4; 2 and 3 met each other before: 2 takes 5.
        let e = vec![
            entry(1, &[2, 3], Some(3), 0),
            entry(2, &[1, 3], Some(3), 0),
            entry(3, &[1, 2], Some(1), 0),
            entry(4, &[], None, 0),
            entry(5, &[], None, 0),
            entry(6, &[], None, 0),
        ];
        let r = team_danish_round(3, &e).unwrap();
        assert_eq!(couples(&r), vec![(1, 4), (2, 5), (3, 6)]);
        assert!(r.rematches.is_empty());
        assert_eq!(r.plan.matches[0].tables, [1, 2]);
        // Backtracking: greedy 1-2, 3-4 would leave 5-6, who met.
        let e = vec![
            entry(1, &[3], None, 0),
            entry(2, &[4], None, 0),
            entry(3, &[1], None, 0),
            entry(4, &[2], None, 0),
            entry(5, &[6], None, 0),
            entry(6, &[5], None, 0),
        ];
        let r = team_danish_round(2, &e).unwrap();
        assert_eq!(couples(&r), vec![(1, 2), (3, 5), (4, 6)]);
    }

    #[test]
    fn danish_rests_the_lowest_team_that_has_not_rested() {
        let e: Vec<_> = (1..=5).map(|t| entry(t, &[], None, 0)).collect();
        let r = team_danish_round(1, &e).unwrap();
        assert_eq!(r.plan.byes, vec![5]);
        let mut e = e;
        e[4].byes = 1;
        let r = team_danish_round(2, &e).unwrap();
        assert_eq!(r.plan.byes, vec![4]);
        // 3 teams, 1 and 2 met: resting 3 would force a rematch; 2 rests.
        let e = vec![
            entry(1, &[2], Some(2), 0),
            entry(2, &[1], Some(1), 0),
            entry(3, &[], None, 0),
        ];
        let r = team_danish_round(2, &e).unwrap();
        assert_eq!(r.plan.byes, vec![2]);
        assert_eq!(couples(&r), vec![(1, 3)]);
    }

    #[test]
    fn danish_after_a_complete_round_robin_repeats_the_fewest_meetings() {
        let plans = round_robin(&numbers(4), 1).unwrap();
        let ranking = [2, 4, 1, 3];
        let e = team_entries_from_history(&ranking, &plans);
        let r = team_danish_round(4, &e).unwrap();
        assert_eq!(r.plan.matches.len(), 2);
        assert_eq!(r.rematches.len(), 2, "everyone has met everyone");
        // Never the previous round's opponent while avoidable.
        for m in &r.plan.matches {
            assert_ne!(plans[2].opponent(m.home), Some(m.away));
        }
        // Two teams only: they meet again regardless.
        let e = vec![entry(1, &[2], Some(2), 0), entry(2, &[1], Some(1), 0)];
        let r = team_danish_round(2, &e).unwrap();
        assert_eq!(r.rematches, vec![(1, 2)]);
    }

    #[test]
    fn danish_sees_an_odd_part_at_once_and_is_quick_on_large_fields() {
        // 1…7 met every one of 8…14 and nobody of their own half: the
        // teams not met form two parts of 7, so no pairing avoids a rematch.
        let plans: Vec<TeamRoundPlan> = (0..7u32)
            .map(|r| TeamRoundPlan {
                round: r + 1,
                matches: (0..7u32)
                    .map(|i| TeamMatch {
                        home: i + 1,
                        away: 8 + (i + r) % 7,
                        group: None,
                        tables: [0, 0],
                    })
                    .collect(),
                byes: vec![],
            })
            .collect();
        let e = team_entries_from_history(&numbers(14), &plans);
        let start = std::time::Instant::now();
        let r = team_danish_round(8, &e).unwrap();
        assert!(!r.rematches.is_empty());
        assert_eq!(r.plan.matches.len(), 7);
        // 60 teams after 25 random rounds.
        let hist = history(60, 25, 7);
        let e = team_entries_from_history(&numbers(60), &hist);
        let r = team_danish_round(26, &e).unwrap();
        assert_eq!(r.plan.matches.len(), 30);
        assert!(r.rematches.is_empty());
        assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
    }

    #[test]
    fn danish_home_goes_to_the_team_that_was_home_less() {
        let mut e: Vec<_> = (1..=4).map(|t| entry(t, &[], None, 0)).collect();
        e[0].homes = 2;
        e[1].aways = 1;
        let r = team_danish_round(3, &e).unwrap();
        assert_eq!((r.plan.matches[0].home, r.plan.matches[0].away), (2, 1));
        assert_eq!((r.plan.matches[1].home, r.plan.matches[1].away), (3, 4));
    }

    #[test]
    fn entries_come_from_the_history() {
        let plans = round_robin(&numbers(5), 1).unwrap();
        let e = team_entries_from_history(&numbers(5), &plans[..3]);
        for x in &e {
            assert_eq!(x.prev_opponent, plans[2].opponent(x.team));
            let played = u32::try_from(x.met.len()).unwrap();
            assert_eq!(played + x.byes, 3);
            assert_eq!(x.homes + x.aways, played);
        }
    }

    #[test]
    fn line_ups() {
        let l = LineUp {
            pairs: [[4, 1], [0, 3]],
        };
        assert!(check_lineup(&l, 5).is_ok());
        assert_eq!(l.sitting_out(5), vec![2]);
        assert_eq!(l.sitting_out(6), vec![2, 5]);
        assert_eq!(
            check_lineup(&l, 4),
            Err(TeamMovementError::LineUpPlayerUnknown { index: 4, last: 3 })
        );
        assert_eq!(
            check_lineup(
                &LineUp {
                    pairs: [[0, 1], [1, 2]]
                },
                4
            ),
            Err(TeamMovementError::LineUpPlayerTwice { index: 1 })
        );
        assert!(matches!(
            check_lineup(&LineUp::FIRST_FOUR, 3),
            Err(TeamMovementError::LineUpTooFewPlayers { .. })
        ));
        assert_eq!(default_lineup(None, 6), LineUp::FIRST_FOUR);
        assert_eq!(default_lineup(Some(&l), 6), l);
        assert_eq!(default_lineup(Some(&l), 4), LineUp::FIRST_FOUR);
        // Seated: home's first pair NS at the first table, its second pair
        // EW at the second.
        let game = TeamMatch {
            home: 7,
            away: 9,
            group: None,
            tables: match_tables(2),
        };
        let other = LineUp {
            pairs: [[2, 3], [0, 1]],
        };
        let m = seat_match(&game, &l, &other);
        assert_eq!(m.tables[0].table, 3);
        assert_eq!(
            m.tables[0].ns,
            LineRef {
                team: 7,
                players: [4, 1]
            }
        );
        assert_eq!(
            m.tables[0].ew,
            LineRef {
                team: 9,
                players: [2, 3]
            }
        );
        assert_eq!(m.tables[1].table, 4);
        assert_eq!(
            m.tables[1].ns,
            LineRef {
                team: 9,
                players: [0, 1]
            }
        );
        assert_eq!(
            m.tables[1].ew,
            LineRef {
                team: 7,
                players: [0, 3]
            }
        );
        assert_eq!(lineup_in(&m, 7), Some(l));
        assert_eq!(lineup_in(&m, 9), Some(other));
        assert_eq!(lineup_in(&m, 8), None);
    }

    #[test]
    fn every_error_has_a_catalog_entry() {
        use TeamMovementError as E;
        let errors = vec![
            E::TooFewTeams { teams: 1, min: 2 },
            E::TooManyTeams {
                teams: 501,
                max: 500,
            },
            E::InvalidTeamNumber,
            E::DuplicateTeam { team: 3 },
            E::InvalidRound { round: 0 },
            E::GroupsOutOfRange {
                groups: 30,
                max: 26,
            },
            E::GroupTooSmall {
                group: "B".into(),
                teams: 1,
                min: 2,
            },
            E::DuplicateGroup { group: "A".into() },
            E::LineUpTooFewPlayers { players: 3, min: 4 },
            E::LineUpPlayerUnknown { index: 7, last: 5 },
            E::LineUpPlayerTwice { index: 2 },
        ];
        let it = try_catalog(Lang::It).unwrap();
        for e in &errors {
            assert_eq!(e.message(Lang::En), e.to_string(), "{}", e.code());
            let m = e.message(Lang::It);
            assert!(!m.contains('{') && !m.contains("movement."), "{m}");
        }
        let keys = it
            .keys()
            .filter(|k| k.starts_with("movement.team_error."))
            .count();
        assert_eq!(keys, errors.len(), "one key per error, none stale");
    }

    /// Whether the positions in `set` can all be paired under `ok`.
    fn brute_pairable(set: &[usize], ok: &dyn Fn(usize, usize) -> bool) -> bool {
        match set {
            [] => true,
            [first, rest @ ..] => rest.iter().enumerate().any(|(k, &q)| {
                ok(*first, q) && {
                    let mut left: Vec<usize> = rest.to_vec();
                    left.remove(k);
                    brute_pairable(&left, ok)
                }
            }),
        }
    }

    /// A random history of `rounds` rounds among `n` teams (random pairings).
    fn history(n: usize, rounds: usize, seed: u64) -> Vec<TeamRoundPlan> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        (0..rounds)
            .map(|r| {
                let order = draw_order(&numbers(n), rng.gen());
                let mut matches: Vec<TeamMatch> = order
                    .chunks_exact(2)
                    .map(|c| TeamMatch {
                        home: c[0],
                        away: c[1],
                        group: None,
                        tables: [0, 0],
                    })
                    .collect();
                number_tables(&mut matches);
                TeamRoundPlan {
                    round: u32::try_from(r + 1).unwrap(),
                    matches,
                    byes: if n % 2 == 1 {
                        vec![order[n - 1]]
                    } else {
                        vec![]
                    },
                }
            })
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        #[test]
        fn round_robin_meets_everyone_once(n in 2usize..30, seed in any::<u64>()) {
            let teams = draw_order(&numbers(n), seed);
            let plans = round_robin(&teams, 1).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(plans.len(), round_robin_rounds(n));
            check_rounds(&plans, &teams)?;
            let m = meetings(&plans);
            prop_assert_eq!(m.len(), n * (n - 1) / 2);
            prop_assert!(m.values().all(|&c| c == 1));
            for &t in &teams {
                let rests = plans.iter().filter(|p| p.rests(t)).count();
                prop_assert_eq!(rests, n % 2);
                let homes = plans.iter().filter(|p| p.is_home(t) == Some(true)).count();
                let aways = plans.iter().filter(|p| p.is_home(t) == Some(false)).count();
                prop_assert!(homes.abs_diff(aways) <= 1, "team {} home {} away {}", t, homes, aways);
            }
        }

        #[test]
        fn round_robin_in_groups_meets_everyone_of_the_group_once(
            n in 4usize..40, g in 1usize..7, seed in any::<u64>(),
        ) {
            let g = g.min(n / 2);
            let teams = draw_order(&numbers(n), seed);
            let groups = split_into_groups(&teams, g).map_err(|e| TestCaseError::fail(e.to_string()))?;
            let sizes: Vec<usize> = groups.iter().map(|x| x.teams.len()).collect();
            prop_assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1);
            let plans = round_robin_groups(&groups, 1).map_err(|e| TestCaseError::fail(e.to_string()))?;
            check_rounds(&plans, &teams)?;
            let m = meetings(&plans);
            let group_of: HashMap<TeamNo, usize> = groups.iter().enumerate()
                .flat_map(|(k, x)| x.teams.iter().map(move |&t| (t, k))).collect();
            let expected: usize = sizes.iter().map(|s| s * (s - 1) / 2).sum();
            prop_assert_eq!(m.len(), expected);
            for (&(a, b), &c) in &m {
                prop_assert_eq!(c, 1);
                prop_assert_eq!(group_of[&a], group_of[&b]);
            }
            prop_assert_eq!(plans.len(), sizes.iter().map(|&s| round_robin_rounds(s)).max().unwrap());
        }

        #[test]
        fn danish_avoids_rematches_whenever_possible(
            n in 2usize..10, rounds in 0usize..6, seed in any::<u64>(),
        ) {
            let hist = history(n, rounds, seed);
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
            let ranking = draw_order(&numbers(n), rng.gen());
            let e = team_entries_from_history(&ranking, &hist);
            let r = team_danish_round(u32::try_from(rounds + 1).unwrap(), &e)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            check_rounds(std::slice::from_ref(&r.plan), &ranking)?;
            prop_assert_eq!(r.plan.byes.len(), n % 2);
            let met = meetings(&hist);
            let fresh = |a: usize, b: usize| {
                let (x, y) = (ranking[a], ranking[b]);
                !met.contains_key(&(x.min(y), x.max(y)))
            };
            // Brute force: the resting candidates in order, and whether a
            // pairing without rematch exists.
            let all: Vec<usize> = (0..n).collect();
            let mut candidates: Vec<Option<usize>> = if n % 2 == 0 { vec![None] } else {
                let mut c: Vec<usize> = all.clone();
                c.sort_by_key(|&i| (e[i].byes, std::cmp::Reverse(i)));
                c.into_iter().map(Some).collect()
            };
            candidates.retain(|rest| {
                let left: Vec<usize> = all.iter().copied().filter(|i| Some(*i) != *rest).collect();
                brute_pairable(&left, &fresh)
            });
            let position = |t: TeamNo| ranking.iter().position(|&x| x == t).unwrap();
            match candidates.first() {
                Some(rest) => {
                    prop_assert!(r.rematches.is_empty(), "{:?}", r.rematches);
                    for m in &r.plan.matches {
                        prop_assert!(fresh(position(m.home), position(m.away)));
                    }
                    prop_assert_eq!(r.plan.byes.first().map(|&t| position(t)), *rest);
                    // The best team takes the highest-placed partner that
                    // lets everyone else be paired.
                    let left: Vec<usize> = all.iter().copied().filter(|i| Some(*i) != *rest).collect();
                    if let Some((&top, others)) = left.split_first() {
                        let best = others.iter().copied().find(|&q| fresh(top, q) && {
                            let rem: Vec<usize> = others.iter().copied().filter(|&x| x != q).collect();
                            brute_pairable(&rem, &fresh)
                        });
                        let got = r.plan.opponent(ranking[top]).map(position);
                        prop_assert_eq!(got, best);
                    }
                }
                None => prop_assert!(!r.rematches.is_empty()),
            }
        }
    }
}
