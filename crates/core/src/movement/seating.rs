//! What a round looks like for pairs: pair and table numbers, the engine's
//! bounds, a table's seats (a `None` seat is the phantom) and a round's
//! seating with its resting pairs.

use serde::{Deserialize, Serialize};

/// A pair's number in the tournament (1, 2, …).
pub type PairNo = u32;
/// A table's number (1, 2, …).
pub type TableNo = u32;

/// Fewest pairs a draw accepts: 3 pairs make 2 tables, one with the phantom.
pub const MIN_PAIRS: usize = 3;
/// Most pairs the engine accepts (the largest events have 600; this bound
/// only keeps a mistyped command line from allocating without limit).
pub const MAX_PAIRS: usize = 2000;
/// Most rounds in a plan (same reason as [`MAX_PAIRS`]).
pub const MAX_ROUNDS: u32 = 1000;

/// A line at a table: NS (the fixed line in a Mitchell) or EW (the moving
/// line). The same type the score sheet uses.
pub use crate::rules::Line;

/// One table in one round. `None` is the phantom pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seat {
    pub table: TableNo,
    /// NS: the fixed line in a Mitchell.
    pub ns: Option<PairNo>,
    /// EW: the moving line in a Mitchell.
    pub ew: Option<PairNo>,
}

impl Seat {
    /// Both lines are real pairs: a score sheet is expected.
    pub fn is_played(&self) -> bool {
        self.ns.is_some() && self.ew.is_some()
    }

    /// The real pair facing the phantom, which rests.
    pub fn resting(&self) -> Option<PairNo> {
        match (self.ns, self.ew) {
            (Some(p), None) | (None, Some(p)) => Some(p),
            _ => None,
        }
    }

    /// The line `pair` holds at this table, if it sits here.
    pub fn line_of(&self, pair: PairNo) -> Option<Line> {
        side_of(&Some(pair), &self.ns, &self.ew)
    }
}

/// The seating of one round.
///
/// `tables` lists every table of the movement in table order, including a
/// table where a real pair faces the phantom (that pair is also in `byes`) or
/// where two phantoms meet (both seats `None`: the table is empty).
/// `byes` lists the resting pairs, in table order (Danish: at most one).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundSeating {
    pub round: u32,
    pub tables: Vec<Seat>,
    pub byes: Vec<PairNo>,
}

impl RoundSeating {
    /// The tables where two real pairs play.
    pub fn played(&self) -> impl Iterator<Item = &Seat> {
        self.tables.iter().filter(|s| s.is_played())
    }

    /// The table `pair` sits at (a resting pair sits at its phantom's table
    /// in a Mitchell; in a Danish round it has none).
    pub fn table_of(&self, pair: PairNo) -> Option<TableNo> {
        self.tables
            .iter()
            .find(|s| s.line_of(pair).is_some())
            .map(|s| s.table)
    }

    /// The real opponent of `pair` this round (`None` if it rests or is absent).
    pub fn opponent(&self, pair: PairNo) -> Option<PairNo> {
        self.tables.iter().find_map(|s| match (s.ns, s.ew) {
            (Some(a), Some(b)) if a == pair => Some(b),
            (Some(a), Some(b)) if b == pair => Some(a),
            _ => None,
        })
    }

    /// The line `pair` plays this round (`None` if it rests or is absent).
    pub fn line(&self, pair: PairNo) -> Option<Line> {
        self.played().find_map(|s| s.line_of(pair))
    }

    /// Whether `pair` rests this round.
    pub fn rests(&self, pair: PairNo) -> bool {
        self.byes.contains(&pair)
    }
}

/// The side `me` holds in a game of `first` against `second`: NS for the
/// first, EW for the second (`None` if neither is `me`).
pub(crate) fn side_of<T: PartialEq>(me: &T, first: &T, second: &T) -> Option<Line> {
    if me == first {
        Some(Line::Ns)
    } else if me == second {
        Some(Line::Ew)
    } else {
        None
    }
}
