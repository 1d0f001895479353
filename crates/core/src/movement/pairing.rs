//! The Danish toolkit: pairing over a ranking, the bye, table numbers. Every
//! kind's Danish round is built on it — pairs (RULES.md §7, pure or
//! modified), teams (§12, never a team already met), and what is coming:
//! Danish in groups (§13: each group's own round, tables numbered group
//! after group) and individual tournaments (§14: foursomes in standings
//! order, the resting players by the same bye order).
//!
//! The toolkit knows nothing of who an entrant is: it works on positions in
//! the ranking (0 = the best), so a pair, a team or a player is whatever the
//! caller maps back (see [`positions`]). What a kind keeps for itself: how
//! its ranking is built, who may not meet whom, lines or home and away, and
//! how many tables a game takes.
//!
//! The rule (the same for every kind):
//! - **The bye**: with an odd count, the entrant that rests is the
//!   lowest-placed among those with the fewest rests so far ([`bye_order`]),
//!   unless that leaves the others without a legal pairing: then the next
//!   in that order. It scores the bye award of its kind (RULES.md §7, §12,
//!   §14: the award's VP and the lower edge of its band as MP difference).
//! - **The games**: from the top, the best unpaired entrant meets the
//!   highest-placed one it may meet such that everyone below can still be
//!   paired. Games are listed in ranking order of their higher entrant.
//! - **Who may not meet** ([`Avoid`]): nobody (pure Danish: 1st v 2nd, 3rd v
//!   4th…); the previous round's opponent (modified Danish: a matching, which
//!   is decided exactly with O(1) look-ahead, see below); or any relation
//!   (teams: never a team already met), decided by an exact search.
//! - **Tables** ([`game_tables`]): games take consecutive tables in the
//!   order listed, each as many tables as its kind plays (a pair 1, a team's
//!   match 2), from a first table (1, or after the previous group's).
//!
//! Decisions:
//! - Previous opponents form a matching (each entrant has at most one;
//!   [`check_matching`] refuses one-sided or self meetings). A set of k ≥ 4
//!   entrants minus a matching can always be paired (each may meet at least
//!   k − 2 ≥ k/2 others, so by Dirac's theorem there is a Hamiltonian cycle,
//!   and every second edge of it is a pairing); only the last two can be
//!   stuck. So that choice is exact in O(n²), instant for 600 pairs.
//! - Any other relation: backtracking with a memory of the hopeless sets,
//!   cut short where an entrant has no possible opponent left or the
//!   possible meetings split the set into a part of odd size. A search
//!   longer than [`DANISH_SEARCH_STEPS`] steps, far beyond any real field,
//!   counts as no pairing (the caller may then relax its relation).
//! - Tests check both against exhaustive search (`proptests.rs`).

mod search;

use super::seating::TableNo;
use std::collections::HashMap;
use std::hash::Hash;

pub use search::DANISH_SEARCH_STEPS;
use search::{Exhausted, Games, Search};

/// A Danish round as positions in the ranking (0 = the best).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairing {
    /// The resting position (with an odd count).
    pub rest: Option<usize>,
    /// The games as (higher, lower) positions, in ranking order of the
    /// higher.
    pub games: Vec<(usize, usize)>,
}

/// Who may not meet whom, by position in the ranking.
#[derive(Clone, Copy)]
pub enum Avoid<'a> {
    /// Anyone may meet anyone (pure Danish).
    Nobody,
    /// Each position's previous opponent, which it may not meet again
    /// (modified Danish). A matching: see [`check_matching`].
    PreviousOpponent(&'a [Option<usize>]),
    /// `allowed(a, b)`: whether positions `a` and `b` may meet.
    Allowed(&'a dyn Fn(usize, usize) -> bool),
}

/// The Danish round of a ranking whose entrant at position `i` has rested
/// `rests[i]` times so far: the bye and the games (see the module doc).
/// `None` when no pairing keeps to `avoid`.
pub fn danish_pairing(rests: &[u32], avoid: Avoid<'_>) -> Option<Pairing> {
    let n = rests.len();
    match avoid {
        Avoid::Nobody => with_bye(rests, |rest| Ok(greedy(n, rest, &|_, _| false))),
        Avoid::PreviousOpponent(prev) => {
            let clash = |a: usize, b: usize| prev.get(a).copied().flatten() == Some(b);
            with_bye(rests, |rest| Ok(greedy(n, rest, &clash)))
        }
        Avoid::Allowed(allowed) => {
            let mut search = Search::new(n, allowed);
            with_bye(rests, |rest| search.pair_without(rest))
        }
    }
}

/// The order in which entrants are offered the bye: the fewest rests first,
/// then the lowest-placed. Positions into `rests`. (RULES.md §14 rests the
/// first one to three of this order.)
pub fn bye_order(rests: &[u32]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rests.len()).collect();
    order.sort_by_key(|&i| (rests.get(i).copied().unwrap_or(0), std::cmp::Reverse(i)));
    order
}

/// Chooses the bye (odd count) as the first in [`bye_order`] that leaves a
/// pairing, found by `pair` (called with the position left out).
fn with_bye(rests: &[u32], mut pair: impl FnMut(Option<usize>) -> Games) -> Option<Pairing> {
    if rests.len().is_multiple_of(2) {
        return pair(None)
            .ok()
            .flatten()
            .map(|games| Pairing { rest: None, games });
    }
    for rest in bye_order(rests) {
        match pair(Some(rest)) {
            Ok(Some(games)) => {
                return Some(Pairing {
                    rest: Some(rest),
                    games,
                })
            }
            Ok(None) => {}
            Err(Exhausted) => return None,
        }
    }
    None
}

/// Pairs positions `0..n` but `rest` from the top when `clash` is a
/// matching: the highest opponent that does not clash and keeps the rest
/// pairable (exact, see the module doc).
fn greedy(
    n: usize,
    rest: Option<usize>,
    clash: &dyn Fn(usize, usize) -> bool,
) -> Option<Vec<(usize, usize)>> {
    let mut remaining: Vec<usize> = (0..n).filter(|&i| Some(i) != rest).collect();
    if !pairable(remaining.iter().copied(), remaining.len(), clash) {
        return None;
    }
    let mut games = Vec::with_capacity(remaining.len() / 2);
    while let Some(&top) = remaining.first() {
        let left = remaining.len() - 2;
        let (at, &other) = remaining.iter().enumerate().skip(1).find(|&(_, &q)| {
            !clash(top, q)
                && pairable(
                    remaining[1..].iter().copied().filter(|&i| i != q),
                    left,
                    clash,
                )
        })?;
        remaining.remove(at);
        remaining.remove(0);
        games.push((top, other));
    }
    Some(games)
}

/// Whether the `len` positions in `set` can all be paired avoiding `clash`,
/// the clash relation being a matching: always for 0 or ≥ 4 (Dirac), for 2
/// unless they clash, never for an odd count.
fn pairable(
    set: impl Iterator<Item = usize>,
    len: usize,
    clash: &dyn Fn(usize, usize) -> bool,
) -> bool {
    match len {
        0 => true,
        2 => {
            let two: Vec<usize> = set.take(2).collect();
            matches!(two.as_slice(), [a, b] if !clash(*a, *b))
        }
        l => l % 2 == 0,
    }
}

/// Each entrant's position in `ranking`.
pub fn positions<Id: Copy + Eq + Hash>(ranking: &[Id]) -> HashMap<Id, usize> {
    ranking.iter().enumerate().map(|(i, &id)| (id, i)).collect()
}

/// The position of each entrant's previous opponent, `prev` giving the
/// opponents' ids in ranking order; an opponent no longer in the ranking
/// (withdrawn) counts as none.
pub fn previous_positions<Id: Copy + Eq + Hash>(
    ranking: &[Id],
    prev: impl IntoIterator<Item = Option<Id>>,
) -> Vec<Option<usize>> {
    let index = positions(ranking);
    prev.into_iter()
        .map(|o| o.and_then(|o| index.get(&o).copied()))
        .collect()
}

/// Refuses previous opponents that are not a matching: `Err((i, j))` when
/// position `i` names `j` but `j` does not name `i` (or `i` names itself).
pub fn check_matching(prev: &[Option<usize>]) -> Result<(), (usize, usize)> {
    for (i, f) in prev.iter().enumerate() {
        if let Some(j) = *f {
            if prev.get(j).copied().flatten() != Some(i) || i == j {
                return Err((i, j));
            }
        }
    }
    Ok(())
}

/// The `W` tables of game `game` (0-based) when every game takes `W`
/// consecutive tables from table `first`: a pair's game (`W` = 1) number
/// `first + game`, a team's match (`W` = 2) the two after the previous one.
pub fn game_tables<const W: usize>(first: TableNo, game: usize) -> [TableNo; W] {
    let width = TableNo::try_from(W).unwrap_or(TableNo::MAX);
    let start = TableNo::try_from(game)
        .unwrap_or(TableNo::MAX)
        .saturating_mul(width)
        .saturating_add(first);
    std::array::from_fn(|k| start.saturating_add(TableNo::try_from(k).unwrap_or(TableNo::MAX)))
}
