//! The first-round draw (sorteggio, the Code art. 2): pairs to tables and to
//! the fixed (NS) or moving (EW) line, at random but reproducibly.
//!
//! Decisions:
//! - The random source is ChaCha20 (`rand_chacha`) keyed with the 64-bit seed
//!   (little-endian) followed by the fixed tag `burraco-td/draw/v1`; numbers
//!   are taken one 32-bit word at a time, bounded by rejection sampling, and
//!   shuffled by our own Fisher–Yates. Nothing depends on `rand`'s
//!   version-dependent helpers (`seed_from_u64`, `shuffle`, `gen_range`), so a
//!   stored seed gives the same draw on every platform and future version; a
//!   test pins known draws.
//! - The pair numbers are sorted before shuffling: the draw depends only on
//!   the set of pairs and the seed, not on the order the caller lists them.
//! - Tables = ⌈pairs / 2⌉. The shuffled pairs fill the fixed line of tables
//!   1, 2, … and then the moving line of tables 1, 2, ….
//! - Odd number of pairs: the phantom is the FIXED pair of the LAST table
//!   (RULES.md §7 "a phantom pair fills the last table"). It never moves, so
//!   each round a different moving pair reaches it and rests: in any plan
//!   without repeated opponents no pair rests twice, and the fixed pairs never
//!   rest. A late pair that takes the phantom's place then sits still at the
//!   last table, the easiest seat to hand over.

use super::error::{check_pair_numbers, check_pairs, MovementError};
use super::seating::{Line, PairNo, RoundSeating, Seat, TableNo, MIN_PAIRS};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde::{Deserialize, Serialize};

/// Domain tag completing the ChaCha20 key; change it only with a new version.
const KEY_TAG: &[u8; 24] = b"burraco-td/draw/v1\0\0\0\0\0\0";

/// The round-1 seating of a Mitchell (and of any tournament's first round).
/// Index `i` of `fixed` / `moving` is table `i + 1`; `None` is the phantom.
/// Store it (or just the seed and the pair list) with the tournament.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    /// The seed the draw was made with.
    pub seed: u64,
    pub tables: u32,
    /// The fixed (NS) pair of each table.
    pub fixed: Vec<Option<PairNo>>,
    /// The moving (EW) pair of each table in round 1.
    pub moving: Vec<Option<PairNo>>,
}

impl Layout {
    /// Every real pair of the draw.
    pub fn pairs(&self) -> impl Iterator<Item = PairNo> + '_ {
        self.fixed
            .iter()
            .chain(self.moving.iter())
            .flatten()
            .copied()
    }

    /// Round 1 as drawn (the first round of every tournament, Mitchell or Danish).
    pub fn first_round(&self) -> RoundSeating {
        let tables: Vec<Seat> = self
            .fixed
            .iter()
            .zip(&self.moving)
            .zip(1..)
            .map(|((&ns, &ew), table)| Seat { table, ns, ew })
            .collect();
        let byes = tables.iter().filter_map(Seat::resting).collect();
        RoundSeating {
            round: 1,
            tables,
            byes,
        }
    }

    /// Checks a layout read back from storage: sizes agree, pair numbers are
    /// valid and distinct, at least 2 tables.
    pub fn validate(&self) -> Result<(), MovementError> {
        let damaged = |detail: &str| MovementError::InvalidLayout {
            detail: detail.to_string(),
        };
        if self.fixed.len() != self.tables as usize || self.moving.len() != self.tables as usize {
            return Err(damaged("line lengths differ from the number of tables"));
        }
        if self.tables < 2 {
            return Err(MovementError::TooFewTables {
                tables: self.tables,
            });
        }
        let pairs: Vec<PairNo> = self.pairs().collect();
        check_pair_numbers(&pairs)
    }
}

/// Tables needed for `pairs` pairs: ⌈pairs / 2⌉.
pub fn tables_for(pairs: usize) -> u32 {
    u32::try_from(pairs.div_ceil(2)).unwrap_or(u32::MAX)
}

/// Draws round 1: `pairs` (any order, distinct, ≥ 1, between [`MIN_PAIRS`]
/// and [`MAX_PAIRS`](super::seating::MAX_PAIRS) of them) to tables and lines, from `seed`.
pub fn first_round_draw(pairs: &[PairNo], seed: u64) -> Result<Layout, MovementError> {
    check_pairs(pairs, MIN_PAIRS)?;
    let mut order = pairs.to_vec();
    order.sort_unstable();
    let mut rng = DrawRng::new(seed);
    rng.shuffle(&mut order);

    let tables = tables_for(order.len());
    let t = tables as usize;
    let real_fixed = order.len() - t; // t, or t - 1 with an odd count
    let mut fixed: Vec<Option<PairNo>> = order[..real_fixed].iter().copied().map(Some).collect();
    fixed.resize(t, None); // the phantom, if any, is the fixed pair of the last table
    let moving: Vec<Option<PairNo>> = order[real_fixed..].iter().copied().map(Some).collect();
    Ok(Layout {
        seed,
        tables,
        fixed,
        moving,
    })
}

/// A fresh seed from the operating system, below 2^63 so that it fits a
/// signed 64-bit database column. Store it before showing the draw.
pub fn new_seed() -> Result<u64, MovementError> {
    let mut bytes = [0u8; 8];
    rand::rngs::OsRng
        .try_fill_bytes(&mut bytes)
        .map_err(|_| MovementError::SeedUnavailable)?;
    Ok(u64::from_le_bytes(bytes) & (i64::MAX as u64))
}

/// The director may redraw round 1 only while no score has been entered.
pub fn ensure_redraw_allowed(scores_entered: usize) -> Result<(), MovementError> {
    if scores_entered == 0 {
        Ok(())
    } else {
        Err(MovementError::RedrawAfterScores)
    }
}

/// The draw's random numbers: ChaCha20, version-independent use.
pub(super) struct DrawRng(ChaCha20Rng);

impl DrawRng {
    pub(super) fn new(seed: u64) -> DrawRng {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.to_le_bytes());
        key[8..].copy_from_slice(KEY_TAG);
        DrawRng(ChaCha20Rng::from_seed(key))
    }

    /// Uniform in `0..n` (`n ≥ 1`), by rejection: no modulo bias.
    fn below(&mut self, n: u32) -> u32 {
        if n <= 1 {
            return 0;
        }
        let zone = u32::MAX - (u32::MAX - n + 1) % n; // largest multiple of n, minus 1
        loop {
            let x = self.0.next_u32();
            if x <= zone {
                return x % n;
            }
        }
    }

    /// Uniform in [0, 1), from 53 random bits.
    pub(super) fn unit(&mut self) -> f64 {
        (self.0.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Fisher–Yates, from the last element down.
    pub(super) fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let bound = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let j = self.below(bound) as usize;
            items.swap(i, j);
        }
    }
}

/// The table and line of `pair` in round 1 of `layout`.
pub fn seat_of(layout: &Layout, pair: PairNo) -> Option<(TableNo, Line)> {
    let find = |line: &[Option<PairNo>]| line.iter().position(|&p| p == Some(pair));
    if let Some(i) = find(&layout.fixed) {
        return Some((i as TableNo + 1, Line::Ns));
    }
    find(&layout.moving).map(|i| (i as TableNo + 1, Line::Ew))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movement::{Line, MAX_PAIRS};

    fn numbers(n: u32) -> Vec<PairNo> {
        (1..=n).collect()
    }

    #[test]
    fn eight_pairs_make_four_full_tables() {
        let l = first_round_draw(&numbers(8), 42).unwrap();
        assert_eq!(l.tables, 4);
        assert!(l.fixed.iter().chain(&l.moving).all(Option::is_some));
        let mut all: Vec<_> = l.pairs().collect();
        all.sort_unstable();
        assert_eq!(all, numbers(8));
        assert!(l.first_round().byes.is_empty());
    }

    #[test]
    fn odd_count_puts_the_phantom_fixed_at_the_last_table() {
        for n in [5u32, 11, 23] {
            let l = first_round_draw(&numbers(n), 7).unwrap();
            assert_eq!(l.tables, n.div_ceil(2));
            assert_eq!(l.fixed.last(), Some(&None));
            assert_eq!(l.fixed.iter().filter(|p| p.is_none()).count(), 1);
            assert!(l.moving.iter().all(Option::is_some));
            let r1 = l.first_round();
            assert_eq!(r1.byes, vec![l.moving[l.tables as usize - 1].unwrap()]);
        }
    }

    #[test]
    fn draw_is_reproducible_and_independent_of_input_order() {
        let a = first_round_draw(&numbers(23), 123_456).unwrap();
        let mut rev = numbers(23);
        rev.reverse();
        let b = first_round_draw(&rev, 123_456).unwrap();
        assert_eq!(a, b);
        let c = first_round_draw(&numbers(23), 123_457).unwrap();
        assert_ne!(a, c);
    }

    /// Pins the draw: these must never change, or stored seeds would show a
    /// different draw than the one played.
    #[test]
    fn known_draws_are_pinned() {
        let l = first_round_draw(&numbers(4), 0).unwrap();
        let got: Vec<_> = l
            .fixed
            .iter()
            .chain(&l.moving)
            .map(|p| p.unwrap())
            .collect();
        assert_eq!(got, PINNED_4_SEED_0, "4 pairs, seed 0");
        let l = first_round_draw(&numbers(11), 2026).unwrap();
        let got: Vec<_> = l
            .fixed
            .iter()
            .chain(&l.moving)
            .map(|p| p.unwrap_or(0))
            .collect();
        assert_eq!(got, PINNED_11_SEED_2026, "11 pairs, seed 2026");
    }

    // Fixed line of tables 1.., then moving line; 0 = phantom. Cross-checked
    // against an independent ChaCha20 (Python `cryptography`) running the
    // same bounded sampling and Fisher–Yates.
    const PINNED_4_SEED_0: [u32; 4] = [1, 3, 4, 2];
    const PINNED_11_SEED_2026: [u32; 12] = [4, 7, 1, 6, 10, 0, 5, 8, 3, 9, 11, 2];

    #[test]
    fn bad_inputs_are_refused() {
        assert_eq!(
            first_round_draw(&[1, 2], 1),
            Err(MovementError::TooFewPairs {
                pairs: 2,
                min: MIN_PAIRS
            })
        );
        assert_eq!(
            first_round_draw(&[1, 2, 2, 4], 1),
            Err(MovementError::DuplicatePair { pair: 2 })
        );
        assert_eq!(
            first_round_draw(&[0, 1, 2, 3], 1),
            Err(MovementError::InvalidPairNumber)
        );
        let many: Vec<u32> = (1..=MAX_PAIRS as u32 + 1).collect();
        assert!(matches!(
            first_round_draw(&many, 1),
            Err(MovementError::TooManyPairs { .. })
        ));
    }

    #[test]
    fn seat_lookup_and_redraw_rule() {
        let l = first_round_draw(&numbers(5), 9).unwrap();
        let p = l.fixed[0].unwrap();
        assert_eq!(seat_of(&l, p), Some((1, Line::Ns)));
        let q = l.moving[2].unwrap();
        assert_eq!(seat_of(&l, q), Some((3, Line::Ew)));
        assert_eq!(seat_of(&l, 99), None);
        assert!(ensure_redraw_allowed(0).is_ok());
        assert_eq!(
            ensure_redraw_allowed(1),
            Err(MovementError::RedrawAfterScores)
        );
        let s = new_seed().unwrap();
        assert!(s <= i64::MAX as u64);
    }

    #[test]
    fn below_is_in_range() {
        let mut r = DrawRng::new(5);
        for n in 1..200 {
            assert!(r.below(n) < n);
        }
        assert_eq!(r.below(0), 0);
    }
}
