//! Club separation in the first draw (RULES.md §13, `separate_clubs`): pairs
//! of one club go to the same line, so that they never meet in the Mitchell
//! rounds (the fixed line only meets the moving line).
//!
//! Decisions:
//! - A club is compared without case, accents or surrounding spaces
//!   ("Circolo Aurora" = "circolo aurora "); a blank club is no club.
//! - A pair belongs to its players' clubs (one or two). Pairs linked through
//!   a club form a block (a pair of two clubs joins both clubs' blocks).
//! - The fixed line holds T − 1 real pairs with an odd field (the phantom is
//!   the fixed pair of the last table, as in [`super::draw`]) and T with an
//!   even one; the moving line holds T.
//! - When whole blocks can fill the fixed line exactly, one such sharing is
//!   chosen uniformly at random among all of them (each subset of blocks
//!   counted once), from the draw's seed; then each line is shuffled onto the
//!   tables. No two pairs of one club meet in the Mitchell rounds.
//! - When they cannot, the sharing closest to the fixed line's size is taken
//!   (at random among those) and the fewest pairs are moved across: the
//!   difference d is taken from the smallest block on the fuller line that
//!   has more than d pairs (one always exists: a block of d or fewer would
//!   have given a closer sharing), so the largest blocks stay whole. The
//!   clubs whose pairs end up on both lines are reported, for the director.

use std::collections::BTreeMap;

use serde::Serialize;

use super::draw::{tables_for, DrawRng, Layout};
use super::error::{check_pairs, MovementError};
use super::seating::MIN_PAIRS;
use super::PairNo;

/// A pair and the clubs of its players, as typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairClubs {
    pub pair: PairNo,
    pub clubs: Vec<String>,
}

/// A club whose pairs sit on both lines, so some of them will meet.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClubMeeting {
    /// The club as first written among its pairs.
    pub club: String,
    /// Its pairs on the fixed (NS) line, then on the moving (EW) line.
    pub fixed: Vec<PairNo>,
    pub moving: Vec<PairNo>,
}

/// The first draw with clubs kept apart, and the clubs that will still meet
/// (empty when the separation is complete).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeparatedDraw {
    pub layout: Layout,
    pub meetings: Vec<ClubMeeting>,
    /// The pairs moved away from their club's line (the fewest possible:
    /// the same number whatever the seed).
    pub crossing: usize,
}

/// A club name folded for comparison: no case, accents or outer spaces.
pub fn club_key(club: &str) -> String {
    crate::tournament::pairs::fold(club.trim())
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Union-find over pair indices.
struct Blocks(Vec<usize>);

impl Blocks {
    fn root(&mut self, i: usize) -> usize {
        let mut r = i;
        while self.0[r] != r {
            r = self.0[r];
        }
        let mut j = i;
        while self.0[j] != r {
            let next = self.0[j];
            self.0[j] = r;
            j = next;
        }
        r
    }

    fn join(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.root(a), self.root(b));
        if ra != rb {
            self.0[ra.max(rb)] = ra.min(rb);
        }
    }
}

/// The blocks of pairs linked through clubs, each sorted, in the order of
/// their smallest pair number (so the draw depends only on the pairs, their
/// clubs and the seed).
fn blocks_of(pairs: &[PairClubs]) -> Vec<Vec<PairNo>> {
    let mut sorted: Vec<&PairClubs> = pairs.iter().collect();
    sorted.sort_by_key(|p| p.pair);
    let mut uf = Blocks((0..sorted.len()).collect());
    let mut first_of_club: BTreeMap<String, usize> = BTreeMap::new();
    for (i, p) in sorted.iter().enumerate() {
        for club in &p.clubs {
            let key = club_key(club);
            if key.is_empty() {
                continue;
            }
            match first_of_club.get(&key) {
                Some(&j) => uf.join(i, j),
                None => {
                    first_of_club.insert(key, i);
                }
            }
        }
    }
    let mut by_root: BTreeMap<usize, Vec<PairNo>> = BTreeMap::new();
    for (i, p) in sorted.iter().enumerate() {
        let r = uf.root(i);
        by_root.entry(r).or_default().push(p.pair);
    }
    by_root.into_values().collect()
}

/// `counts[i][s]`: how many subsets of the first `i` blocks hold `s` pairs
/// (as a float: only ratios are used, and 2^2000 does not fit an integer).
fn subset_counts(sizes: &[usize], total: usize) -> Vec<Vec<f64>> {
    let mut counts = vec![vec![0.0; total + 1]; sizes.len() + 1];
    counts[0][0] = 1.0;
    for (i, &size) in sizes.iter().enumerate() {
        for s in 0..=total {
            let without = counts[i][s];
            let with = if s >= size { counts[i][s - size] } else { 0.0 };
            counts[i + 1][s] = without + with;
        }
    }
    counts
}

/// Draws uniformly one subset of blocks holding `target` pairs (which
/// `counts` says exists): which blocks are in it.
fn sample_subset(
    sizes: &[usize],
    counts: &[Vec<f64>],
    target: usize,
    rng: &mut DrawRng,
) -> Vec<bool> {
    let mut chosen = vec![false; sizes.len()];
    let mut s = target;
    for i in (0..sizes.len()).rev() {
        let all = counts[i + 1][s];
        let with = if s >= sizes[i] {
            counts[i][s - sizes[i]]
        } else {
            0.0
        };
        if with > 0.0 && rng.unit() * all < with {
            chosen[i] = true;
            s -= sizes[i];
        }
    }
    chosen
}

/// Draws round 1 keeping each club's pairs on one line where it can (see
/// the module's decisions). Same sizes and errors as
/// [`super::first_round_draw`].
pub fn first_round_draw_apart(
    pairs: &[PairClubs],
    seed: u64,
) -> Result<SeparatedDraw, MovementError> {
    let numbers: Vec<PairNo> = pairs.iter().map(|p| p.pair).collect();
    check_pairs(&numbers, MIN_PAIRS)?;
    let blocks = blocks_of(pairs);
    let sizes: Vec<usize> = blocks.iter().map(Vec::len).collect();
    let n = numbers.len();
    let tables = tables_for(n);
    let fixed_size = n - tables as usize;
    let counts = subset_counts(&sizes, n);
    let mut rng = DrawRng::new(seed);

    // The reachable size closest to the fixed line's (below first on a tie:
    // then pairs move from the moving line, the larger one).
    let reach = &counts[sizes.len()];
    let best = (0..=n)
        .filter(|&s| reach[s] > 0.0)
        .min_by_key(|&s| (s.abs_diff(fixed_size), s > fixed_size))
        .unwrap_or(0);
    let chosen = sample_subset(&sizes, &counts, best, &mut rng);
    let mut fixed: Vec<PairNo> = Vec::with_capacity(n);
    let mut moving: Vec<PairNo> = Vec::with_capacity(n);
    let mut fixed_blocks: Vec<&Vec<PairNo>> = Vec::new();
    let mut moving_blocks: Vec<&Vec<PairNo>> = Vec::new();
    for (block, &on_fixed) in blocks.iter().zip(&chosen) {
        if on_fixed {
            fixed_blocks.push(block);
        } else {
            moving_blocks.push(block);
        }
    }
    let d = best.abs_diff(fixed_size);
    // The fuller line gives d pairs of its smallest block larger than d.
    let (from, to_fixed) = if best > fixed_size {
        (&mut fixed_blocks, false)
    } else {
        (&mut moving_blocks, true)
    };
    let mut moved: Vec<PairNo> = Vec::new();
    if d > 0 {
        let split = from
            .iter()
            .enumerate()
            .filter(|(_, b)| b.len() > d)
            .min_by_key(|(i, b)| (b.len(), *i))
            .map(|(i, _)| i);
        if let Some(i) = split {
            let mut block = from[i].clone();
            rng.shuffle(&mut block);
            moved = block[..d].to_vec();
        }
    }
    for b in &fixed_blocks {
        fixed.extend(b.iter().filter(|p| !moved.contains(p)));
    }
    for b in &moving_blocks {
        moving.extend(b.iter().filter(|p| !moved.contains(p)));
    }
    if to_fixed {
        fixed.extend(&moved);
    } else {
        moving.extend(&moved);
    }
    fixed.sort_unstable();
    moving.sort_unstable();
    rng.shuffle(&mut fixed);
    rng.shuffle(&mut moving);

    let mut fixed_seats: Vec<Option<PairNo>> = fixed.iter().copied().map(Some).collect();
    fixed_seats.resize(tables as usize, None);
    let layout = Layout {
        seed,
        tables,
        fixed: fixed_seats,
        moving: moving.iter().copied().map(Some).collect(),
    };
    let meetings = meetings(pairs, &fixed);
    Ok(SeparatedDraw {
        layout,
        meetings,
        crossing: moved.len(),
    })
}

/// The clubs whose pairs sit on both lines of `layout`.
pub fn meetings_of(pairs: &[PairClubs], layout: &Layout) -> Vec<ClubMeeting> {
    let fixed: Vec<PairNo> = layout.fixed.iter().flatten().copied().collect();
    meetings(pairs, &fixed)
}

/// The clubs with pairs on both lines.
fn meetings(pairs: &[PairClubs], fixed: &[PairNo]) -> Vec<ClubMeeting> {
    let mut clubs: BTreeMap<String, ClubMeeting> = BTreeMap::new();
    let mut sorted: Vec<&PairClubs> = pairs.iter().collect();
    sorted.sort_by_key(|p| p.pair);
    for p in sorted {
        let mut seen: Vec<String> = Vec::new();
        for club in &p.clubs {
            let key = club_key(club);
            if key.is_empty() || seen.contains(&key) {
                continue;
            }
            seen.push(key.clone());
            let m = clubs.entry(key).or_insert_with(|| ClubMeeting {
                club: club.trim().to_string(),
                fixed: Vec::new(),
                moving: Vec::new(),
            });
            if fixed.contains(&p.pair) {
                m.fixed.push(p.pair);
            } else {
                m.moving.push(p.pair);
            }
        }
    }
    clubs
        .into_values()
        .filter(|m| !m.fixed.is_empty() && !m.moving.is_empty())
        .collect()
}

#[cfg(test)]
#[path = "clubs_tests.rs"]
mod tests;
