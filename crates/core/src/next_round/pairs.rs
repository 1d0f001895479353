//! The next round of a pairs file (FORMAT.md `burraco-td next-round`).
//!
//! - The round is the file's next (its rounds + 1), with the plan's
//!   movement (`movements`; without a plan, Mitchell); past the plan the
//!   plan is complete. A table of the last round without a result stops
//!   every movement.
//! - Round 1 is the draw of every entrant not marked `no_show` or
//!   withdrawn, from `seed` (with club separation when `separate_clubs`),
//!   whatever the plan's first movement.
//! - Mitchell continues from round 1 of the file: its `ns` pairs are the
//!   fixed line, its `ew` pairs and its resting pair the moving line (the
//!   phantom is the fixed pair of the last table); the plan's rounds are
//!   its Mitchell rounds (at least this one), `mitchell_advance` and
//!   `allow_repeats` as the file says; withdrawals leave a phantom, pairs
//!   seated later than round 1 join from their first round.
//! - Danish (pure or modified): the active pairs (entries not withdrawn by
//!   this round) in standings order (RULES.md §5, shared places in pair
//!   number order).
//! - Danish in groups: the file's groups; without them this round makes
//!   the cut (`group_plan` over the active pairs in standings order) and the
//!   output carries the `groups`. Each group is paired over its pairs in
//!   the order of the standings with groups.

use super::error::NextRoundError;
use super::plan::next_of;
use crate::i18n::Lang;
use crate::movement::clubs::{first_round_draw_apart, PairClubs};
use crate::movement::groups::{cut_into_groups, GroupCut};
use crate::movement::{
    danish_groups_round, danish_round, entries_from_history, first_round_draw, group_entries,
    round_seating, Layout, MitchellPlan, PairNo, RosterChange, RoundSeating, Seat,
};
use crate::standings::{compute, in_groups, GroupRef};
use crate::tournament_file::{
    validate, GroupFile, MovementKind, PairFile, RoundFile, TableFile, TournamentFile,
};
use serde::Serialize;

/// The next round of a pairs file: a round of the file (no results), and
/// the groups when this round makes the cut.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NextPairsRound {
    #[serde(flatten)]
    pub round: RoundFile,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub groups: Option<Vec<GroupFile>>,
}

/// The round the program would seat next for `file` (see the module doc);
/// `seed` is used only by the first draw.
pub fn next_pairs_round(
    file: &TournamentFile,
    seed: u64,
) -> Result<NextPairsRound, NextRoundError> {
    let valid = validate(file).map_err(crate::standings::StandingsError::Invalid)?;
    let (n, planned) = next_of(&file.rounds, file.movements.as_deref(), file.planned_rounds)?;
    let movement = planned.unwrap_or(MovementKind::Mitchell);
    let active: Vec<PairNo> = file
        .pairs
        .iter()
        .filter(|p| plays_in(p, n))
        .map(|p| p.number)
        .collect();
    if file.rounds.is_empty() {
        let layout = if file.separate_clubs == Some(true) {
            first_round_draw_apart(&clubs_of(file, &active), seed)?.layout
        } else {
            first_round_draw(&active, seed)?
        };
        return Ok(as_file(n, movement, &layout.first_round(), None));
    }
    let history = history(file);
    match movement {
        MovementKind::Mitchell => {
            let layout = layout_of(file)?;
            let plan = MitchellPlan {
                tables: layout.tables,
                rounds: mitchell_rounds(file).max(n),
                advance: file.mitchell_advance.unwrap_or(1),
                allow_repeats: file.allow_repeats.unwrap_or(false),
            };
            let seating = round_seating(&layout, &plan, n, &roster_changes(file, &layout, n))?;
            Ok(as_file(n, movement, &seating, None))
        }
        MovementKind::Danish | MovementKind::DanishModified => {
            let standings = compute(&valid, Lang::En)?;
            let ranking = ranked(standings.rows.iter().map(|r| r.number), &active);
            let entries = entries_from_history(&ranking, &history);
            let seating = danish_round(n, &entries, movement.is_modified())?;
            Ok(as_file(n, movement, &seating, None))
        }
        MovementKind::DanishGroups | MovementKind::DanishGroupsModified => {
            let standings = compute(&valid, Lang::En)?;
            let (groups, cut) = match &file.groups {
                Some(groups) => (
                    groups
                        .iter()
                        .map(|g| GroupCut {
                            name: g.name.clone(),
                            members: g.pairs.clone(),
                        })
                        .collect::<Vec<_>>(),
                    false,
                ),
                None => {
                    let plan = file
                        .group_plan
                        .as_ref()
                        .ok_or(NextRoundError::NoGroupPlan)?;
                    let ranking = ranked(standings.rows.iter().map(|r| r.number), &active);
                    (cut_into_groups(&ranking, plan)?, true)
                }
            };
            let refs: Vec<GroupRef<'_>> = groups
                .iter()
                .map(|g| GroupRef {
                    name: &g.name,
                    members: &g.members,
                })
                .collect();
            let rows = in_groups(&standings.rows, &refs, &standings.cards, Lang::En);
            let ranking = ranked(rows.iter().map(|r| r.number), &active);
            let entries = group_entries(&groups, &ranking, &history);
            let round = danish_groups_round(n, &entries, movement.is_modified())?;
            let mut next = as_file(n, movement, &round.seating(), None);
            for (table, seat) in next.round.tables.iter_mut().zip(&round.tables) {
                table.group = Some(seat.group.clone());
            }
            next.groups = cut.then(|| {
                groups
                    .into_iter()
                    .map(|g| GroupFile {
                        name: g.name,
                        pairs: g.members,
                    })
                    .collect()
            });
            Ok(next)
        }
    }
}

/// The pair plays round `n`: an entry not withdrawn by then.
fn plays_in(p: &PairFile, n: u32) -> bool {
    p.is_entry() && p.withdrawn_from_round.is_none_or(|w| w > n)
}

/// The numbers of `order` that are `active`, in that order.
fn ranked(order: impl Iterator<Item = PairNo>, active: &[PairNo]) -> Vec<PairNo> {
    order.filter(|p| active.contains(p)).collect()
}

/// Each active pair with its players' clubs.
fn clubs_of(file: &TournamentFile, active: &[PairNo]) -> Vec<PairClubs> {
    file.pairs
        .iter()
        .filter(|p| active.contains(&p.number))
        .map(|p| PairClubs {
            pair: p.number,
            clubs: p.players.iter().filter_map(|pl| pl.club.clone()).collect(),
        })
        .collect()
}

/// The rounds of the file as the movement engine sees them.
fn history(file: &TournamentFile) -> Vec<RoundSeating> {
    file.rounds
        .iter()
        .map(|r| RoundSeating {
            round: r.number,
            tables: r
                .tables
                .iter()
                .map(|t| Seat {
                    table: t.table,
                    ns: Some(t.ns),
                    ew: Some(t.ew),
                })
                .collect(),
            byes: r.byes.clone(),
        })
        .collect()
}

/// Round 1 of the file as a Mitchell draw: the `ns` pairs fixed, the `ew`
/// pairs and the resting pair moving (facing the phantom at the last
/// table).
fn layout_of(file: &TournamentFile) -> Result<Layout, NextRoundError> {
    let first = file
        .rounds
        .first()
        .ok_or(NextRoundError::NoMitchellLayout)?;
    let mut tables: Vec<&TableFile> = first.tables.iter().collect();
    tables.sort_by_key(|t| t.table);
    let mut fixed: Vec<Option<PairNo>> = tables.iter().map(|t| Some(t.ns)).collect();
    let mut moving: Vec<Option<PairNo>> = tables.iter().map(|t| Some(t.ew)).collect();
    match first.byes.as_slice() {
        [] => {}
        [rests] => {
            fixed.push(None);
            moving.push(Some(*rests));
        }
        _ => return Err(NextRoundError::NoMitchellLayout),
    }
    Ok(Layout {
        seed: file.draw_seed.unwrap_or(0),
        tables: u32::try_from(fixed.len()).unwrap_or(u32::MAX),
        fixed,
        moving,
    })
}

/// The Mitchell rounds of the plan.
fn mitchell_rounds(file: &TournamentFile) -> u32 {
    let count = file
        .movements
        .iter()
        .flatten()
        .filter(|m| **m == MovementKind::Mitchell)
        .count();
    u32::try_from(count).unwrap_or(u32::MAX)
}

/// Withdrawals, and pairs not in round 1 joining from the first round they
/// are seated in (or this one).
fn roster_changes(file: &TournamentFile, layout: &Layout, n: u32) -> Vec<RosterChange> {
    let drawn: Vec<PairNo> = layout.pairs().collect();
    let first_seen = |pair: PairNo| {
        file.rounds
            .iter()
            .find(|r| {
                r.byes.contains(&pair) || r.tables.iter().any(|t| t.ns == pair || t.ew == pair)
            })
            .map(|r| r.number)
    };
    let mut changes = Vec::new();
    for p in file.pairs.iter().filter(|p| p.is_entry()) {
        let joined = if drawn.contains(&p.number) {
            None
        } else {
            first_seen(p.number).or_else(|| plays_in(p, n).then_some(n))
        };
        if let (Some(j), Some(w)) = (joined, p.withdrawn_from_round) {
            if w <= j {
                continue;
            }
        }
        if let Some(from_round) = joined {
            changes.push(RosterChange::Joined {
                pair: p.number,
                from_round,
            });
        }
        if let Some(from_round) = p.withdrawn_from_round {
            if joined.is_some() || drawn.contains(&p.number) {
                changes.push(RosterChange::Withdrawn {
                    pair: p.number,
                    from_round,
                });
            }
        }
    }
    changes
}

/// A seating as a round of the file: its played tables and resting pairs.
fn as_file(
    n: u32,
    movement: MovementKind,
    seating: &RoundSeating,
    groups: Option<Vec<GroupFile>>,
) -> NextPairsRound {
    NextPairsRound {
        round: RoundFile {
            number: n,
            movement: Some(movement),
            tables: seating
                .played()
                .filter_map(|s| {
                    Some(TableFile {
                        table: s.table,
                        group: None,
                        ns: s.ns?,
                        ew: s.ew?,
                        sheet: None,
                        adjusted: None,
                    })
                })
                .collect(),
            byes: seating.byes.clone(),
        },
        groups,
    }
}
