//! The round robin of a team tournament (RULES.md §12), in groups or not.
//! The only randomness (the order teams are drawn into the schedule) is
//! seeded.
//!
//! Decisions where the rules are silent:
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

use super::error::{check_teams, TeamMovementError};
use super::plan::{number_tables, TeamMatch, TeamNo, TeamRoundPlan};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// Most groups (named `A` … `Z`).
pub const MAX_GROUPS: usize = 26;
/// Fewest teams in a group.
pub const MIN_GROUP_TEAMS: usize = 2;

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
