//! The Mitchell movement (the Code art. 2; RULES.md §7).
//!
//! The fixed (NS) pairs stay at their table; the moving (EW) pairs advance
//! `advance` tables each round, the last table wrapping to the first: the
//! moving pair at table `t` in round 1 sits at table
//! `((t − 1 + (r − 1)·advance) mod T) + 1` in round `r`.
//!
//! Decisions:
//! - Repeats: the moving pairs meet the fixed pair of a table again after
//!   exactly `T / gcd(advance, T)` rounds, and never before (moving pairs
//!   never meet each other, nor fixed pairs each other). A plan with more
//!   rounds is refused, naming the cause — more rounds than tables
//!   ([`MovementError::TooManyRoundsForTables`]), or else an advance sharing
//!   a factor with the table count ([`MovementError::AdvanceSharesFactor`]) —
//!   unless `allow_repeats` is set. The advance must be 1..=T−1.
//! - Withdrawn pair ([`RosterChange::Withdrawn`]): from its `from_round` on,
//!   its seat is a phantom; whoever would have met it rests and gets the bye
//!   award. Nothing else moves (moving the others would break the no-repeat
//!   guarantee), so a round can have several byes, and a pair may rest twice
//!   when two phantoms cross its path: the director may seat two resting
//!   pairs together by hand if they have not met.
//! - Late pair ([`RosterChange::Joined`]): takes a free seat from its
//!   `from_round` on: its own old seat if it is a withdrawn pair coming back,
//!   else the phantom of the draw, else the seat of the earliest withdrawn
//!   pair (same round: in the order recorded). A new pair meets no one
//!   twice. With no free seat (even number of pairs) it is refused
//!   ([`MovementError::NoFreeSeat`]): adding a table would change the cycle
//!   and make pairs meet twice; the pair can join at a Danish round.
//! - Round numbers are counted from the draw (round 1 = the drawn layout):
//!   Mitchell rounds come first in a tournament (e.g. 3 Mitchell + 1 Danish).

use super::draw::Layout;
use super::error::MovementError;
use super::seating::{Line, PairNo, RoundSeating, Seat, MAX_ROUNDS};
use serde::{Deserialize, Serialize};

/// A Mitchell plan: `rounds` rounds on `tables` tables, the moving line
/// advancing `advance` tables a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MitchellPlan {
    pub tables: u32,
    pub rounds: u32,
    pub advance: u32,
    /// The director has explicitly accepted that pairs meet more than once.
    pub allow_repeats: bool,
}

/// Greatest common divisor.
pub(crate) fn gcd(mut a: u32, mut b: u32) -> u32 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

/// Most rounds without a repeated opponent: `T / gcd(advance, T)`.
pub fn max_rounds(tables: u32, advance: u32) -> u32 {
    tables.checked_div(gcd(advance, tables)).unwrap_or(0)
}

impl MitchellPlan {
    /// A plan for `layout` with advance 1 and no repeats allowed.
    pub fn for_layout(layout: &Layout, rounds: u32) -> MitchellPlan {
        MitchellPlan {
            tables: layout.tables,
            rounds,
            advance: 1,
            allow_repeats: false,
        }
    }

    /// Most rounds this plan's tables and advance allow without repeats.
    pub fn max_rounds_without_repeats(&self) -> u32 {
        max_rounds(self.tables, self.advance)
    }

    /// Whether some pairs would meet more than once.
    pub fn repeats_opponents(&self) -> bool {
        self.rounds > self.max_rounds_without_repeats()
    }

    /// Refuses an impossible plan, or one repeating opponents unless allowed.
    pub fn validate(&self) -> Result<(), MovementError> {
        let t = self.tables;
        if t < 2 {
            return Err(MovementError::TooFewTables { tables: t });
        }
        if self.rounds == 0 || self.rounds > MAX_ROUNDS {
            return Err(MovementError::RoundsOutOfRange {
                rounds: self.rounds,
                max: MAX_ROUNDS,
            });
        }
        if self.advance == 0 || self.advance >= t {
            return Err(MovementError::AdvanceOutOfRange {
                advance: self.advance,
                tables: t,
                max: t - 1,
            });
        }
        if !self.allow_repeats && self.repeats_opponents() {
            if self.rounds > t {
                return Err(MovementError::TooManyRoundsForTables {
                    rounds: self.rounds,
                    tables: t,
                });
            }
            return Err(MovementError::AdvanceSharesFactor {
                advance: self.advance,
                tables: t,
                factor: gcd(self.advance, t),
                max_rounds: self.max_rounds_without_repeats(),
                rounds: self.rounds,
            });
        }
        Ok(())
    }
}

/// A change to who plays, effective from round `from_round` on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum RosterChange {
    /// The pair stops playing; its seat becomes a phantom.
    Withdrawn { pair: PairNo, from_round: u32 },
    /// A late (or returning) pair takes a free seat.
    Joined { pair: PairNo, from_round: u32 },
}

impl RosterChange {
    fn effective_round(&self) -> u32 {
        match *self {
            RosterChange::Withdrawn { from_round, .. }
            | RosterChange::Joined { from_round, .. } => from_round,
        }
    }
}

/// A seat of the round-1 layout: line and table index (0-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Slot {
    line: Line,
    index: usize,
}

/// Who holds each round-1 seat, once the changes up to a round are applied.
struct Roster {
    fixed: Vec<Option<PairNo>>,
    moving: Vec<Option<PairNo>>,
}

impl Roster {
    fn get(&self, s: Slot) -> Option<PairNo> {
        let line = match s.line {
            Line::Ns => &self.fixed,
            Line::Ew => &self.moving,
        };
        line.get(s.index).copied().flatten()
    }

    fn set(&mut self, s: Slot, pair: Option<PairNo>) {
        let line = match s.line {
            Line::Ns => &mut self.fixed,
            Line::Ew => &mut self.moving,
        };
        if let Some(cell) = line.get_mut(s.index) {
            *cell = pair;
        }
    }

    fn find(&self, pair: PairNo) -> Option<Slot> {
        if let Some(index) = self.fixed.iter().position(|&p| p == Some(pair)) {
            return Some(Slot {
                line: Line::Ns,
                index,
            });
        }
        self.moving
            .iter()
            .position(|&p| p == Some(pair))
            .map(|index| Slot {
                line: Line::Ew,
                index,
            })
    }
}

/// Applies every change effective at `round` (`from_round ≤ round`) to the
/// drawn layout. Changes are taken by round, withdrawals before arrivals of
/// the same round, else in the order given; so a late pair's seat is chosen
/// from the changes up to its own round only, and stays the same in every
/// later round.
fn roster_at(
    layout: &Layout,
    round: u32,
    changes: &[RosterChange],
) -> Result<Roster, MovementError> {
    let mut roster = Roster {
        fixed: layout.fixed.clone(),
        moving: layout.moving.clone(),
    };
    // The draw's phantom seats, fixed line first, then by table.
    let mut phantoms: Vec<Slot> = Vec::new();
    for (line, seats) in [(Line::Ns, &layout.fixed), (Line::Ew, &layout.moving)] {
        for (index, p) in seats.iter().enumerate() {
            if p.is_none() {
                phantoms.push(Slot { line, index });
            }
        }
    }
    // Seats left by withdrawn pairs, in order of withdrawal.
    let mut vacated: Vec<(PairNo, Slot)> = Vec::new();

    if changes.iter().any(|c| c.effective_round() == 0) {
        return Err(MovementError::InvalidRound { round: 0 });
    }
    let mut ordered: Vec<(usize, &RosterChange)> = changes
        .iter()
        .enumerate()
        .filter(|(_, c)| c.effective_round() <= round)
        .collect();
    ordered.sort_by_key(|(i, c)| {
        (
            c.effective_round(),
            matches!(c, RosterChange::Joined { .. }),
            *i,
        )
    });

    for (_, change) in ordered {
        match *change {
            RosterChange::Withdrawn { pair, .. } => {
                let slot = roster
                    .find(pair)
                    .ok_or(MovementError::UnknownPair { pair })?;
                roster.set(slot, None);
                vacated.push((pair, slot));
            }
            RosterChange::Joined { pair, .. } => {
                if pair == 0 {
                    return Err(MovementError::InvalidPairNumber);
                }
                if roster.find(pair).is_some() {
                    return Err(MovementError::AlreadySeated { pair });
                }
                let free = |s: &Slot| roster.get(*s).is_none();
                let own = vacated
                    .iter()
                    .filter(|(p, _)| *p == pair)
                    .map(|(_, s)| *s)
                    .find(free);
                let seat = own
                    .or_else(|| phantoms.iter().copied().find(free))
                    .or_else(|| vacated.iter().map(|(_, s)| *s).find(free))
                    .ok_or(MovementError::NoFreeSeat { pair })?;
                roster.set(seat, Some(pair));
            }
        }
    }
    Ok(roster)
}

/// The seating of round `round` (1-based) of a Mitchell drawn as `layout`,
/// under `plan`, with the withdrawals and late pairs in `changes`.
pub fn round_seating(
    layout: &Layout,
    plan: &MitchellPlan,
    round: u32,
    changes: &[RosterChange],
) -> Result<RoundSeating, MovementError> {
    layout.validate()?;
    plan.validate()?;
    if plan.tables != layout.tables {
        return Err(MovementError::TablesMismatch {
            plan: plan.tables,
            layout: layout.tables,
        });
    }
    if round == 0 {
        return Err(MovementError::InvalidRound { round });
    }
    if round > plan.rounds {
        return Err(MovementError::RoundOutOfPlan {
            round,
            rounds: plan.rounds,
        });
    }
    let roster = roster_at(layout, round, changes)?;
    Ok(seat_round(&roster, plan, round))
}

/// Every round of the plan.
pub fn schedule(
    layout: &Layout,
    plan: &MitchellPlan,
    changes: &[RosterChange],
) -> Result<Vec<RoundSeating>, MovementError> {
    (1..=plan.rounds)
        .map(|r| round_seating(layout, plan, r, changes))
        .collect()
}

fn seat_round(roster: &Roster, plan: &MitchellPlan, round: u32) -> RoundSeating {
    let t = u64::from(plan.tables);
    let shift = (u64::from(round - 1) * u64::from(plan.advance)) % t;
    let tables: Vec<Seat> = (0..t)
        .map(|u| {
            let src = ((u + t - shift) % t) as usize;
            Seat {
                table: u as u32 + 1,
                ns: roster.fixed.get(u as usize).copied().flatten(),
                ew: roster.moving.get(src).copied().flatten(),
            }
        })
        .collect();
    let byes = tables.iter().filter_map(Seat::resting).collect();
    RoundSeating {
        round,
        tables,
        byes,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movement::first_round_draw;

    fn draw(n: u32, seed: u64) -> Layout {
        first_round_draw(&(1..=n).collect::<Vec<_>>(), seed).unwrap()
    }

    fn plan(l: &Layout, rounds: u32, advance: u32) -> MitchellPlan {
        MitchellPlan {
            tables: l.tables,
            rounds,
            advance,
            allow_repeats: false,
        }
    }

    #[test]
    fn eight_pairs_play_a_full_mitchell() {
        let l = draw(8, 3);
        let p = plan(&l, 4, 1);
        let s = schedule(&l, &p, &[]).unwrap();
        assert_eq!(s.len(), 4);
        assert_eq!(s[0], l.first_round());
        for (ri, r) in s.iter().enumerate() {
            assert!(r.byes.is_empty());
            for seat in &r.tables {
                let t = seat.table as usize - 1;
                assert_eq!(seat.ns, l.fixed[t], "fixed pairs stay");
                // the moving pair of round-1 table t' is at t' + ri (mod 4)
                let src = (t + 4 - ri % 4) % 4;
                assert_eq!(seat.ew, l.moving[src]);
            }
        }
        // every fixed pair meets every moving pair exactly once
        let mut met = std::collections::HashSet::new();
        for r in &s {
            for seat in r.played() {
                assert!(met.insert((seat.ns.unwrap(), seat.ew.unwrap())));
            }
        }
        assert_eq!(met.len(), 16);
    }

    #[test]
    fn five_pairs_rest_in_turn() {
        let l = draw(5, 11);
        let s = schedule(&l, &plan(&l, 3, 1), &[]).unwrap();
        let mut rested: Vec<_> = s.iter().flat_map(|r| r.byes.clone()).collect();
        assert_eq!(rested.len(), 3);
        rested.sort_unstable();
        let mut moving: Vec<_> = l.moving.iter().flatten().copied().collect();
        moving.sort_unstable();
        assert_eq!(rested, moving, "each moving pair rests exactly once");
        for r in &s {
            assert_eq!(
                r.tables[2].ns, None,
                "the phantom is fixed at the last table"
            );
            assert_eq!(r.byes, vec![r.tables[2].ew.unwrap()]);
        }
    }

    #[test]
    fn larger_advance_and_refusals() {
        // 23 pairs → 12 tables.
        let l = draw(23, 5);
        assert_eq!(l.tables, 12);
        assert!(plan(&l, 12, 5).validate().is_ok(), "5 is coprime with 12");
        assert!(plan(&l, 12, 1).validate().is_ok());
        assert_eq!(max_rounds(12, 3), 4);
        assert!(plan(&l, 4, 3).validate().is_ok());
        assert_eq!(
            plan(&l, 5, 3).validate(),
            Err(MovementError::AdvanceSharesFactor {
                advance: 3,
                tables: 12,
                factor: 3,
                max_rounds: 4,
                rounds: 5
            })
        );
        assert_eq!(
            plan(&l, 13, 1).validate(),
            Err(MovementError::TooManyRoundsForTables {
                rounds: 13,
                tables: 12
            })
        );
        // more rounds than tables is named as such even with a bad advance
        assert_eq!(
            plan(&l, 13, 4).validate().unwrap_err().code(),
            "TOO_MANY_ROUNDS_FOR_TABLES"
        );
        let mut ok = plan(&l, 13, 3);
        ok.allow_repeats = true;
        assert!(ok.validate().is_ok() && ok.repeats_opponents());
        assert!(matches!(
            plan(&l, 3, 0).validate(),
            Err(MovementError::AdvanceOutOfRange { max: 11, .. })
        ));
        assert!(matches!(
            plan(&l, 3, 12).validate(),
            Err(MovementError::AdvanceOutOfRange { .. })
        ));
        assert!(matches!(
            plan(&l, 0, 1).validate(),
            Err(MovementError::RoundsOutOfRange { .. })
        ));
        let s = schedule(&l, &plan(&l, 4, 5), &[]).unwrap();
        let p = s[0].tables[0].ew.unwrap();
        assert_eq!(s[1].table_of(p), Some(6));
        assert_eq!(s[2].table_of(p), Some(11));
        assert_eq!(
            s[3].table_of(p),
            Some(4),
            "wraps from the last table to the first"
        );
    }

    #[test]
    fn round_numbers_and_sizes_are_checked() {
        let l = draw(8, 1);
        let p = plan(&l, 3, 1);
        assert_eq!(
            round_seating(&l, &p, 0, &[]),
            Err(MovementError::InvalidRound { round: 0 })
        );
        assert_eq!(
            round_seating(&l, &p, 4, &[]),
            Err(MovementError::RoundOutOfPlan {
                round: 4,
                rounds: 3
            })
        );
        let other = MitchellPlan { tables: 5, ..p };
        assert_eq!(
            round_seating(&l, &other, 1, &[]),
            Err(MovementError::TablesMismatch { plan: 5, layout: 4 })
        );
        let mut broken = l.clone();
        broken.moving[0] = broken.fixed[0];
        assert!(matches!(
            round_seating(&broken, &p, 1, &[]),
            Err(MovementError::DuplicatePair { .. })
        ));
        broken.moving.pop();
        assert!(matches!(
            round_seating(&broken, &p, 1, &[]),
            Err(MovementError::InvalidLayout { .. })
        ));
    }

    #[test]
    fn withdrawn_fixed_pair_becomes_a_phantom_from_its_round() {
        let l = draw(8, 2);
        let p = plan(&l, 4, 1);
        let gone = l.fixed[1].unwrap();
        let ch = [RosterChange::Withdrawn {
            pair: gone,
            from_round: 3,
        }];
        let s = schedule(&l, &p, &ch).unwrap();
        assert_eq!(s[0].tables[1].ns, Some(gone));
        assert_eq!(s[1].tables[1].ns, Some(gone));
        for r in &s[2..] {
            assert_eq!(r.tables[1].ns, None);
            assert_eq!(
                r.byes,
                vec![r.tables[1].ew.unwrap()],
                "its would-be opponent rests"
            );
            assert_eq!(r.table_of(gone), None);
        }
        // the others are where they would have been
        let plain = schedule(&l, &p, &[]).unwrap();
        for (a, b) in s.iter().zip(&plain) {
            for (x, y) in a.tables.iter().zip(&b.tables) {
                assert_eq!(x.ew, y.ew);
                if x.table != 2 {
                    assert_eq!(x.ns, y.ns);
                }
            }
        }
    }

    #[test]
    fn withdrawn_moving_pair_gives_byes_to_fixed_pairs_and_two_phantoms_cancel() {
        let l = draw(11, 4); // 6 tables, phantom fixed at table 6
        let p = plan(&l, 6, 1);
        let gone = l.moving[0].unwrap();
        let s = schedule(
            &l,
            &p,
            &[RosterChange::Withdrawn {
                pair: gone,
                from_round: 2,
            }],
        )
        .unwrap();
        for r in &s[1..] {
            // the withdrawn pair's seat is at table r (1-based round = table)
            let empty = &r.tables[r.round as usize - 1];
            assert_eq!(empty.ew, None);
            if r.round == 6 {
                assert_eq!(empty.ns, None, "two phantoms meet: empty table");
                assert!(r.byes.is_empty());
            } else {
                assert_eq!(r.byes.len(), 2);
            }
        }
    }

    #[test]
    fn late_pair_takes_the_phantom_seat() {
        let l = draw(11, 8);
        let p = plan(&l, 6, 1);
        let ch = [RosterChange::Joined {
            pair: 12,
            from_round: 3,
        }];
        let s = schedule(&l, &p, &ch).unwrap();
        assert_eq!(s[1].byes.len(), 1);
        assert_eq!(s[1].table_of(12), None);
        for r in &s[2..] {
            assert!(r.byes.is_empty());
            assert_eq!(r.tables[5].ns, Some(12), "fixed at the last table");
        }
        let again = [
            ch[0],
            RosterChange::Joined {
                pair: 13,
                from_round: 4,
            },
        ];
        assert_eq!(
            schedule(&l, &p, &again),
            Err(MovementError::NoFreeSeat { pair: 13 })
        );
        let seated = l.fixed[0].unwrap();
        let dup = [RosterChange::Joined {
            pair: seated,
            from_round: 2,
        }];
        assert_eq!(
            schedule(&l, &p, &dup),
            Err(MovementError::AlreadySeated { pair: seated })
        );
        let zero = [RosterChange::Joined {
            pair: 0,
            from_round: 2,
        }];
        assert_eq!(
            schedule(&l, &p, &zero),
            Err(MovementError::InvalidPairNumber)
        );
        let r0 = [RosterChange::Joined {
            pair: 12,
            from_round: 0,
        }];
        assert_eq!(
            schedule(&l, &p, &r0),
            Err(MovementError::InvalidRound { round: 0 })
        );
    }

    #[test]
    fn late_pair_with_even_count_needs_a_withdrawal() {
        let l = draw(8, 8);
        let p = plan(&l, 4, 1);
        let late = [RosterChange::Joined {
            pair: 9,
            from_round: 2,
        }];
        assert_eq!(
            schedule(&l, &p, &late),
            Err(MovementError::NoFreeSeat { pair: 9 })
        );
        let gone = l.moving[2].unwrap();
        let swap = [
            RosterChange::Joined {
                pair: 9,
                from_round: 3,
            },
            RosterChange::Withdrawn {
                pair: gone,
                from_round: 3,
            },
        ];
        let s = schedule(&l, &p, &swap).unwrap();
        assert!(s.iter().all(|r| r.byes.is_empty()));
        assert_eq!(
            s[2].table_of(9),
            s[1].table_of(gone).map(|t| t % 4 + 1),
            "9 moves on from gone's seat"
        );
        assert!(matches!(
            schedule(
                &l,
                &p,
                &[RosterChange::Withdrawn {
                    pair: 99,
                    from_round: 2
                }]
            ),
            Err(MovementError::UnknownPair { pair: 99 })
        ));
    }

    #[test]
    fn returning_pair_gets_its_own_seat_back() {
        let l = draw(11, 21);
        let p = plan(&l, 6, 1);
        let back = l.fixed[2].unwrap();
        let ch = [
            RosterChange::Withdrawn {
                pair: back,
                from_round: 2,
            },
            RosterChange::Joined {
                pair: back,
                from_round: 4,
            },
        ];
        let s = schedule(&l, &p, &ch).unwrap();
        assert_eq!(s[1].table_of(back), None);
        assert_eq!(s[3].tables[2].ns, Some(back));
        assert_eq!(s[3].tables[5].ns, None, "the phantom is still there");
    }

    #[test]
    fn line_helpers() {
        assert_eq!(Line::Ns.other(), Line::Ew);
        assert_eq!(Line::Ew.other(), Line::Ns);
        assert_eq!(serde_json::to_string(&Line::Ns).unwrap(), "\"ns\"");
        assert_eq!(gcd(12, 18), 6);
        assert_eq!(gcd(7, 0), 7);
    }
}
