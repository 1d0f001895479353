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
//! - Odd number of pairs: the pair that rests is the LOWEST-ranked among
//!   those with the FEWEST byes so far (so: the lowest-ranked pair that has
//!   not rested yet, while there is one); no pair rests twice while avoidable.
//!   In the modified form the resting pair must also leave the others
//!   pairable; the next candidate in that order is taken if not (only
//!   possible with 3 pairs).
//! - Feasibility (modified): the previous-round opponents form a matching
//!   (each pair has at most one; inconsistent data is refused with
//!   [`MovementError::InconsistentOpponents`]). A set of k ≥ 4 pairs minus a
//!   matching can always be paired (each pair may meet at least k − 2 ≥ k/2
//!   others, so by Dirac's theorem there is a Hamiltonian cycle, and every
//!   second edge of it is a pairing); only the last two pairs can be stuck.
//!   So the choice is exact, with O(1) look-ahead: O(n²) at worst, instant
//!   for 600 pairs. A test checks it against exhaustive search.
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

use super::{
    check_pair_numbers, Line, MovementError, PairNo, RoundSeating, Seat, TableNo, MAX_PAIRS,
};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

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
    let n = ranking.len();
    if round == 0 {
        return Err(MovementError::InvalidRound { round });
    }
    if n < 2 {
        return Err(MovementError::TooFewPairs { pairs: n, min: 2 });
    }
    if n > MAX_PAIRS {
        return Err(MovementError::TooManyPairs {
            pairs: n,
            max: MAX_PAIRS,
        });
    }
    let pairs: Vec<PairNo> = ranking.iter().map(|e| e.pair).collect();
    check_pair_numbers(&pairs)?;
    let forbid = if modified {
        forbidden(ranking)?
    } else {
        vec![None; n]
    };
    let clash = |a: usize, b: usize| forbid.get(a).copied().flatten() == Some(b);

    // The resting pair, if the count is odd.
    let mut remaining: Vec<usize> = (0..n).collect();
    let mut byes = Vec::new();
    if n % 2 == 1 {
        let mut candidates: Vec<usize> = (0..n).collect();
        candidates.sort_by_key(|&i| (ranking[i].byes, std::cmp::Reverse(i)));
        let rest = candidates
            .into_iter()
            .find(|&r| pairable(remaining.iter().copied().filter(|&i| i != r), n - 1, &clash))
            .ok_or(MovementError::NoLegalPairing)?;
        remaining.retain(|&i| i != rest);
        byes.push(ranking[rest].pair);
    } else if !pairable(remaining.iter().copied(), n, &clash) {
        return Err(MovementError::NoLegalPairing);
    }

    // Pair from the top: highest legal opponent keeping the rest pairable.
    let mut tables = Vec::with_capacity(n / 2);
    while let Some(&top) = remaining.first() {
        let left = remaining.len() - 2;
        let pick = remaining.iter().enumerate().skip(1).find(|&(_, &q)| {
            !clash(top, q)
                && pairable(
                    remaining[1..].iter().copied().filter(|&i| i != q),
                    left,
                    &clash,
                )
        });
        let (at, &other) = pick.ok_or(MovementError::NoLegalPairing)?;
        remaining.remove(at);
        remaining.remove(0);
        let (hi, lo) = (&ranking[top], &ranking[other]);
        let hi_line = match (hi.last_line, lo.last_line) {
            (Some(l), _) => l.other(),
            (None, Some(l)) => l,
            (None, None) => Line::Ns,
        };
        let table = TableNo::try_from(tables.len() + 1).unwrap_or(TableNo::MAX);
        tables.push(match hi_line {
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
        });
    }
    Ok(RoundSeating {
        round,
        tables,
        byes,
    })
}

/// Each entry's previous opponent as an index into the ranking (absent
/// pairs are ignored); refuses one-sided or self meetings.
fn forbidden(ranking: &[DanishEntry]) -> Result<Vec<Option<usize>>, MovementError> {
    let index: HashMap<PairNo, usize> = ranking
        .iter()
        .enumerate()
        .map(|(i, e)| (e.pair, i))
        .collect();
    let forbid: Vec<Option<usize>> = ranking
        .iter()
        .map(|e| e.prev_opponent.and_then(|q| index.get(&q).copied()))
        .collect();
    for (i, f) in forbid.iter().enumerate() {
        if let Some(j) = *f {
            if forbid.get(j).copied().flatten() != Some(i) || i == j {
                return Err(MovementError::InconsistentOpponents {
                    pair: ranking[i].pair,
                    opponent: ranking[j].pair,
                });
            }
        }
    }
    Ok(forbid)
}

/// Whether the `len` pairs in `set` can all be paired avoiding `clash`, the
/// clash relation being a matching: always for 0 or ≥ 4 pairs (Dirac), for
/// 2 pairs unless they clash, never for an odd count.
fn pairable(
    set: impl Iterator<Item = usize>,
    len: usize,
    clash: &impl Fn(usize, usize) -> bool,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(pairs: &[PairNo], met: &[(PairNo, PairNo)]) -> Vec<DanishEntry> {
        pairs
            .iter()
            .map(|&pair| DanishEntry {
                pair,
                prev_opponent: met.iter().find_map(|&(a, b)| {
                    if a == pair {
                        Some(b)
                    } else if b == pair {
                        Some(a)
                    } else {
                        None
                    }
                }),
                last_line: None,
                byes: 0,
            })
            .collect()
    }

    fn couples(r: &RoundSeating) -> Vec<(PairNo, PairNo)> {
        r.tables
            .iter()
            .map(|s| {
                let (a, b) = (s.ns.unwrap(), s.ew.unwrap());
                (a.min(b), a.max(b))
            })
            .collect()
    }

    #[test]
    fn pure_danish_pairs_neighbours_even_if_they_just_met() {
        let e = entries(&[5, 2, 8, 1, 7, 3, 6, 4], &[(5, 2), (8, 1)]);
        let r = danish_round(4, &e, false).unwrap();
        assert_eq!(couples(&r), vec![(2, 5), (1, 8), (3, 7), (4, 6)]);
        assert_eq!(
            r.tables.iter().map(|s| s.table).collect::<Vec<_>>(),
            vec![1, 2, 3, 4]
        );
        assert!(r.byes.is_empty());
        assert_eq!(r.round, 4);
    }

    #[test]
    fn modified_danish_avoids_the_previous_opponent() {
        let e = entries(&[1, 2, 3, 4], &[(1, 2), (3, 4)]);
        assert_eq!(
            couples(&danish_round(2, &e, true).unwrap()),
            vec![(1, 3), (2, 4)]
        );
        let e = entries(&[1, 2, 3, 4], &[(1, 3), (2, 4)]);
        assert_eq!(
            couples(&danish_round(2, &e, true).unwrap()),
            vec![(1, 2), (3, 4)]
        );
    }

    #[test]
    fn modified_danish_looks_ahead_where_greedy_would_strand_the_bottom() {
        // Greedy: 1-2, 3-4, leaves 5-6 who just met. Correct: 3 takes 5.
        let e = entries(&[1, 2, 3, 4, 5, 6], &[(1, 3), (2, 4), (5, 6)]);
        assert_eq!(
            couples(&danish_round(3, &e, true).unwrap()),
            vec![(1, 2), (3, 5), (4, 6)]
        );
        // 8 pairs: the look-ahead only matters for the last two tables.
        let e = entries(
            &[10, 20, 30, 40, 50, 60, 70, 80],
            &[(10, 30), (20, 40), (50, 60), (70, 80)],
        );
        let r = danish_round(3, &e, true).unwrap();
        assert_eq!(couples(&r), vec![(10, 20), (30, 40), (50, 70), (60, 80)]);
    }

    #[test]
    fn odd_count_rests_the_lowest_pair_that_has_not_rested() {
        let mut e = entries(&[1, 2, 3, 4, 5], &[]);
        let r = danish_round(2, &e, false).unwrap();
        assert_eq!(r.byes, vec![5]);
        assert_eq!(couples(&r), vec![(1, 2), (3, 4)]);
        e[4].byes = 1;
        let r = danish_round(3, &e, false).unwrap();
        assert_eq!(r.byes, vec![4]);
        assert_eq!(couples(&r), vec![(1, 2), (3, 5)]);
        for x in e.iter_mut() {
            x.byes = 1;
        }
        e[0].byes = 0;
        let r = danish_round(3, &e, true).unwrap();
        assert_eq!(
            r.byes,
            vec![1],
            "the only pair without a bye rests, even if first"
        );
    }

    #[test]
    fn resting_pair_must_leave_the_others_pairable() {
        // 3 pairs: 1 and 2 just met; 3 has the fewest byes but resting it
        // would leave 1 v 2 again, so 2 rests.
        let e = entries(&[1, 2, 3], &[(1, 2)]);
        let r = danish_round(2, &e, true).unwrap();
        assert_eq!(r.byes, vec![2]);
        assert_eq!(couples(&r), vec![(1, 3)]);
        assert_eq!(danish_round(2, &e, false).unwrap().byes, vec![3]);
    }

    #[test]
    fn impossible_or_bad_input_is_refused() {
        let e = entries(&[1, 2], &[(1, 2)]);
        assert_eq!(
            danish_round(2, &e, true),
            Err(MovementError::NoLegalPairing)
        );
        assert!(danish_round(2, &e, false).is_ok());
        assert_eq!(
            danish_round(2, &e[..1], false),
            Err(MovementError::TooFewPairs { pairs: 1, min: 2 })
        );
        assert_eq!(
            danish_round(0, &e, false),
            Err(MovementError::InvalidRound { round: 0 })
        );
        let mut bad = entries(&[1, 2, 3, 4], &[(1, 2)]);
        bad[1].prev_opponent = Some(3);
        assert_eq!(
            danish_round(2, &bad, true),
            Err(MovementError::InconsistentOpponents {
                pair: 1,
                opponent: 2
            })
        );
        let mut selfish = entries(&[1, 2, 3, 4], &[]);
        selfish[0].prev_opponent = Some(1);
        assert!(matches!(
            danish_round(2, &selfish, true),
            Err(MovementError::InconsistentOpponents { .. })
        ));
        let dup = entries(&[1, 2, 2, 4], &[]);
        assert_eq!(
            danish_round(2, &dup, false),
            Err(MovementError::DuplicatePair { pair: 2 })
        );
        // a previous opponent who has withdrawn is ignored
        let gone = entries(&[1, 2, 3, 4], &[(1, 9)]);
        assert!(danish_round(2, &gone, true).is_ok());
    }

    #[test]
    fn higher_pair_alternates_its_line() {
        let mut e = entries(&[1, 2, 3, 4, 5, 6], &[]);
        e[0].last_line = Some(Line::Ns); // 1 was NS → EW
        e[1].last_line = Some(Line::Ns);
        e[2].last_line = Some(Line::Ew); // 3 was EW → NS
        e[4].last_line = None; // 5 never played; 6 was NS → 6 takes EW, 5 NS
        e[5].last_line = Some(Line::Ns);
        let r = danish_round(2, &e, false).unwrap();
        assert_eq!((r.tables[0].ns, r.tables[0].ew), (Some(2), Some(1)));
        assert_eq!((r.tables[1].ns, r.tables[1].ew), (Some(3), Some(4)));
        assert_eq!((r.tables[2].ns, r.tables[2].ew), (Some(5), Some(6)));
        let fresh = entries(&[7, 8], &[]);
        let r = danish_round(2, &fresh, false).unwrap();
        assert_eq!(
            (r.tables[0].ns, r.tables[0].ew),
            (Some(7), Some(8)),
            "neither played: higher NS"
        );
    }

    #[test]
    fn entries_come_from_the_history() {
        let l = crate::movement::first_round_draw(&[1, 2, 3, 4, 5], 3).unwrap();
        let p = crate::movement::MitchellPlan::for_layout(&l, 3);
        let hist = crate::movement::schedule(&l, &p, &[]).unwrap();
        let ranking = [3, 1, 4, 5, 2];
        let e = entries_from_history(&ranking, &hist);
        for x in &e {
            let last = &hist[2];
            assert_eq!(x.prev_opponent, last.opponent(x.pair));
            assert_eq!(x.byes, u32::from(hist.iter().any(|r| r.rests(x.pair))));
            let expect = if last.rests(x.pair) {
                hist[1].line(x.pair)
            } else {
                last.line(x.pair)
            };
            assert_eq!(x.last_line, expect);
        }
        let r = danish_round(4, &e, true).unwrap();
        assert_eq!(r.byes.len(), 1);
        let resting = r.byes[0];
        assert!(e
            .iter()
            .all(|x| x.byes >= e.iter().find(|y| y.pair == resting).unwrap().byes));
    }

    #[test]
    fn incomplete_previous_round_is_refused() {
        assert!(ensure_previous_round_complete(&[]).is_ok());
        let e = ensure_previous_round_complete(&[7, 3, 7]).unwrap_err();
        assert_eq!(
            e,
            MovementError::PreviousRoundIncomplete {
                tables: "3, 7".into()
            }
        );
    }
}
