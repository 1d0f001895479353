//! The Danish movement (danese, RULES.md §7, federation practice): after a
//! round, pairs are matched by the current standings (RULES.md §5).
//!
//! - Pure: 1st v 2nd, 3rd v 4th, …
//! - Modified: no pair meets its previous round's opponent. The
//!   highest-placed unpaired pair takes the highest-placed legal opponent
//!   that still lets every pair below be paired.
//!
//! Decisions:
//! - Input is the ranking of the ACTIVE pairs, best first, as a strict order:
//!   the caller breaks shared places (RULES.md §5 lets pairs share a place)
//!   by pair number, lower first. Withdrawn pairs are simply left out; a late
//!   pair is put where the standings place it (with no score: at the bottom).
//! - The round is generated only when every score of the previous round is
//!   in: [`ensure_previous_round_complete`] gives the stable error.
//! - The pairing is the Danish toolkit's ([`crate::movement::pairing`]):
//!   with an odd count the pair that rests is the LOWEST-ranked among those
//!   with the FEWEST byes so far (so: the lowest-ranked pair that has not
//!   rested yet, while there is one); no pair rests twice while avoidable.
//!   In the modified form the resting pair must also leave the others
//!   pairable; the next candidate in that order is taken if not (only
//!   possible with 3 pairs). The previous-round opponents must form a
//!   matching (each pair has at most one; inconsistent data is refused with
//!   [`MovementError::InconsistentOpponents`]), which makes the choice exact
//!   in O(n²).
//! - With no legal pairing at all (only 2 pairs, who just met), the round is
//!   refused with [`MovementError::NoLegalPairing`]; the director can
//!   generate it as pure Danish.
//! - Lines: the higher-placed pair of each table takes the line opposite to
//!   the one it last played (its most recent played round; a bye is skipped),
//!   the lower-placed pair the other line. If the higher pair has never
//!   played, the lower pair alternates instead (the higher takes the line the
//!   lower pair played last); if neither has played, the higher pair sits NS.
//! - Tables are numbered 1, 2, … in ranking order of their higher pair; the
//!   resting pair has no table.

use super::error::{check_pairs, MovementError};
use super::pairing::{
    check_matching, danish_pairing, game_tables, previous_positions, Avoid, Pairing,
};
use super::seating::{Line, PairNo, RoundSeating, Seat, TableNo};
use serde::{Deserialize, Serialize};

/// One active pair in the ranking given to [`danish_round`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DanishEntry {
    pub pair: PairNo,
    /// The opponent in the previous round (`None` after a bye or if new).
    pub prev_opponent: Option<PairNo>,
    /// The line of its most recent played round (`None` if it never played).
    pub last_line: Option<Line>,
    /// Rounds it has rested so far.
    pub byes: u32,
}

/// Builds the entries from the ranking (active pairs, best first) and the
/// rounds played so far (any order; the previous round is the one with the
/// highest number).
pub fn entries_from_history(ranking: &[PairNo], history: &[RoundSeating]) -> Vec<DanishEntry> {
    let mut rounds: Vec<&RoundSeating> = history.iter().collect();
    rounds.sort_by_key(|r| std::cmp::Reverse(r.round));
    ranking
        .iter()
        .map(|&pair| DanishEntry {
            pair,
            prev_opponent: rounds.first().and_then(|r| r.opponent(pair)),
            last_line: rounds.iter().find_map(|r| r.line(pair)),
            byes: u32::try_from(rounds.iter().filter(|r| r.rests(pair)).count())
                .unwrap_or(u32::MAX),
        })
        .collect()
}

/// Refuses a Danish round while tables of the previous round have no score.
pub fn ensure_previous_round_complete(
    tables_without_score: &[TableNo],
) -> Result<(), MovementError> {
    if tables_without_score.is_empty() {
        return Ok(());
    }
    let mut t = tables_without_score.to_vec();
    t.sort_unstable();
    t.dedup();
    let tables = t.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
    Err(MovementError::PreviousRoundIncomplete { tables })
}

/// The Danish round `round` for `ranking` (active pairs, best first).
pub fn danish_round(
    round: u32,
    ranking: &[DanishEntry],
    modified: bool,
) -> Result<RoundSeating, MovementError> {
    danish_round_from(round, ranking, modified, 1)
}

/// The Danish round of `ranking` with its tables numbered from
/// `first_table`: one group's round in a Danish in groups (RULES.md §13,
/// tables numbered group after group), or the whole field's from table 1.
pub fn danish_round_from(
    round: u32,
    ranking: &[DanishEntry],
    modified: bool,
    first_table: TableNo,
) -> Result<RoundSeating, MovementError> {
    if round == 0 {
        return Err(MovementError::InvalidRound { round });
    }
    let pairs: Vec<PairNo> = ranking.iter().map(|e| e.pair).collect();
    check_pairs(&pairs, 2)?;
    let avoid = if modified {
        Some(forbidden(ranking)?)
    } else {
        None
    };
    let rests: Vec<u32> = ranking.iter().map(|e| e.byes).collect();
    let Pairing { rest, games } = danish_pairing(
        &rests,
        avoid
            .as_deref()
            .map_or(Avoid::Nobody, Avoid::PreviousOpponent),
    )
    .ok_or(MovementError::NoLegalPairing)?;
    let tables = games
        .iter()
        .enumerate()
        .map(|(i, &(hi, lo))| {
            let [table] = game_tables::<1>(first_table, i);
            seat(table, &ranking[hi], &ranking[lo])
        })
        .collect();
    Ok(RoundSeating {
        round,
        tables,
        byes: rest.map(|r| ranking[r].pair).into_iter().collect(),
    })
}

/// The table of `hi` (the higher-placed) and `lo`: the higher pair takes
/// the line opposite to its last one (see the module doc).
fn seat(table: TableNo, hi: &DanishEntry, lo: &DanishEntry) -> Seat {
    let hi_line = match (hi.last_line, lo.last_line) {
        (Some(l), _) => l.other(),
        (None, Some(l)) => l,
        (None, None) => Line::Ns,
    };
    match hi_line {
        Line::Ns => Seat {
            table,
            ns: Some(hi.pair),
            ew: Some(lo.pair),
        },
        Line::Ew => Seat {
            table,
            ns: Some(lo.pair),
            ew: Some(hi.pair),
        },
    }
}

/// Each entry's previous opponent as a position in the ranking (absent
/// pairs are ignored); refuses one-sided or self meetings.
fn forbidden(ranking: &[DanishEntry]) -> Result<Vec<Option<usize>>, MovementError> {
    let pairs: Vec<PairNo> = ranking.iter().map(|e| e.pair).collect();
    let forbid = previous_positions(&pairs, ranking.iter().map(|e| e.prev_opponent));
    check_matching(&forbid).map_err(|(i, j)| MovementError::InconsistentOpponents {
        pair: ranking[i].pair,
        opponent: ranking[j].pair,
    })?;
    Ok(forbid)
}
