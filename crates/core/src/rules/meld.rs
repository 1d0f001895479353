//! The meld reader (RULES.md §2–§3): a list of cards → a valid set or
//! sequence (kind, cards, points, burraco type) or the reason it is not one.
//!
//! A list may be read several ways: a 2 of the sequence's suit natural (in its
//! place, A-2-3) or wild; an ace low (A-2-3) or high (Q-K-A). The reader tries
//! every reading, keeps the valid ones and, among them, the one with the
//! highest burraco bonus (so 2♥-3♥-…-8♥ is a clean burraco, not a dirty one).

use super::cards::{Card, Suit};
use super::profile::{BurracoType, RuleProfile};
use crate::i18n::{tf, Lang};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Set (combinazione) or sequence (scala).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum MeldKind {
    Set,
    Sequence,
}

impl MeldKind {
    pub fn code(self) -> &'static str {
        match self {
            MeldKind::Set => "set",
            MeldKind::Sequence => "sequence",
        }
    }
}

/// A valid meld, as read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MeldReading {
    pub kind: MeldKind,
    /// Number of cards.
    pub cards: usize,
    /// Card points of the meld (RULES.md §1).
    pub points: i64,
    /// Wild cards in the reading (0 or 1; a natural 2 is not wild).
    pub wild_cards: usize,
    /// The burraco type under the profile, `None` below 7 cards.
    pub burraco: Option<BurracoType>,
}

/// Why a list of cards is not a meld. `code()` is stable; the text is in the
/// catalog under `rules.meld.reason.<code>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MeldReason {
    /// Fewer cards than any meld has.
    TooFewCards { min: usize },
    /// Only jokers and 2s (no set of 2s or of jokers).
    OnlyWildCards,
    /// More wild cards than a meld may hold.
    TooManyWildCards { count: usize, max: usize },
    /// Fewer natural cards than a meld needs.
    TooFewNaturals { min: usize },
    /// The natural cards share neither a rank nor a suit.
    NotSameRankOrSuit,
    /// A set with more natural cards than allowed.
    TooManyInSet { max: usize },
    /// The same card twice in a sequence.
    DuplicateInSequence { card: Card },
    /// Two aces in one sequence: the ace goes low or high, never both.
    AceBothEnds,
    /// The sequence has holes the wild card cannot fill.
    SequenceGap { missing: usize },
    /// More copies of a card than the deck holds (two decks: two of each).
    TooManyCopies { card: Card, max: usize },
}

impl MeldReason {
    pub fn code(&self) -> &'static str {
        match self {
            MeldReason::TooFewCards { .. } => "too_few_cards",
            MeldReason::OnlyWildCards => "only_wild_cards",
            MeldReason::TooManyWildCards { .. } => "too_many_wild_cards",
            MeldReason::TooFewNaturals { .. } => "too_few_naturals",
            MeldReason::NotSameRankOrSuit => "not_same_rank_or_suit",
            MeldReason::TooManyInSet { .. } => "too_many_in_set",
            MeldReason::DuplicateInSequence { .. } => "duplicate_in_sequence",
            MeldReason::AceBothEnds => "ace_both_ends",
            MeldReason::SequenceGap { .. } => "sequence_gap",
            MeldReason::TooManyCopies { .. } => "too_many_copies",
        }
    }

    /// Catalog key of the message.
    pub fn catalog_key(&self) -> String {
        format!("rules.meld.reason.{}", self.code())
    }

    /// Placeholder values for the catalog message.
    pub fn params(&self) -> Vec<(&'static str, String)> {
        match self {
            MeldReason::TooFewCards { min } | MeldReason::TooFewNaturals { min } => {
                vec![("min", min.to_string())]
            }
            MeldReason::TooManyWildCards { count, max } => {
                vec![("count", count.to_string()), ("max", max.to_string())]
            }
            MeldReason::TooManyInSet { max } => vec![("max", max.to_string())],
            MeldReason::DuplicateInSequence { card } => vec![("card", card.to_string())],
            MeldReason::SequenceGap { missing } => vec![("missing", missing.to_string())],
            MeldReason::TooManyCopies { card, max } => {
                vec![("card", card.to_string()), ("max", max.to_string())]
            }
            MeldReason::OnlyWildCards | MeldReason::NotSameRankOrSuit | MeldReason::AceBothEnds => {
                Vec::new()
            }
        }
    }

    /// The reason in words, from the catalog.
    pub fn message(&self, lang: Lang) -> String {
        let params = self.params();
        let args: Vec<(&str, &dyn fmt::Display)> = params
            .iter()
            .map(|(k, v)| (*k, v as &dyn fmt::Display))
            .collect();
        tf(lang, &self.catalog_key(), &args)
    }
}

impl fmt::Display for MeldReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Reads a list of cards as a meld under a profile. Never panics.
pub fn read_meld(cards: &[Card], profile: &RuleProfile) -> Result<MeldReading, MeldReason> {
    let limits = &profile.meld;
    if cards.len() < limits.min_cards {
        return Err(MeldReason::TooFewCards {
            min: limits.min_cards,
        });
    }
    // Two decks: no suited card more than twice (jokers: at most one wild
    // card per meld is checked below).
    let mut copies = [0usize; 52];
    for c in cards {
        if let Card::Suited { rank, suit } = *c {
            let slot = usize::from(rank.number().saturating_sub(1))
                .saturating_mul(4)
                .saturating_add(suit as usize);
            if let Some(n) = copies.get_mut(slot) {
                *n = n.saturating_add(1);
                if *n > limits.max_copies {
                    return Err(MeldReason::TooManyCopies {
                        card: *c,
                        max: limits.max_copies,
                    });
                }
            }
        }
    }
    // Natural cards that can never be wild: everything but jokers and 2s.
    let plain: Vec<Card> = cards.iter().copied().filter(|c| !c.may_be_wild()).collect();
    let Some(first) = plain.first().copied() else {
        return Err(MeldReason::OnlyWildCards);
    };
    let same_rank = plain.iter().all(|c| c.rank() == first.rank());
    let same_suit = plain.iter().all(|c| c.suit() == first.suit());

    let set = same_rank.then(|| read_set(cards, plain.len(), profile));
    let sequence = match (same_suit, first.suit()) {
        (true, Some(suit)) => Some(read_sequence(cards, &plain, suit, profile)),
        _ => None,
    };

    let mut valid: Vec<MeldReading> = Vec::new();
    for reading in [&set, &sequence].into_iter().flatten().flatten() {
        valid.push(*reading);
    }
    if let Some(best) = best_reading(valid, profile) {
        return Ok(best);
    }

    // No valid reading: explain the likelier intent.
    let suit_two_present = cards
        .iter()
        .any(|c| c.is_two() && c.suit().is_some() && c.suit() == first.suit());
    let prefer_set = same_rank && (plain.len() >= 2 || !suit_two_present);
    match (set, sequence) {
        (Some(Err(e)), _) if prefer_set => Err(e),
        (_, Some(Err(e))) => Err(e),
        (Some(Err(e)), None) => Err(e),
        _ => Err(MeldReason::NotSameRankOrSuit),
    }
}

/// The reading with the highest bonus (then fewest wild cards).
fn best_reading(readings: Vec<MeldReading>, profile: &RuleProfile) -> Option<MeldReading> {
    readings.into_iter().max_by_key(|r| {
        let bonus = r.burraco.map_or(0, |t| profile.bonus(t));
        (bonus, std::cmp::Reverse(r.wild_cards))
    })
}

fn points_of(cards: &[Card], profile: &RuleProfile) -> i64 {
    cards
        .iter()
        .fold(0i64, |acc, c| acc.saturating_add(c.points(profile)))
}

/// A set: naturals of one rank (`naturals` of them, not 2s), every 2 and
/// joker wild.
fn read_set(
    cards: &[Card],
    naturals: usize,
    profile: &RuleProfile,
) -> Result<MeldReading, MeldReason> {
    let limits = &profile.meld;
    let wild = cards.len().saturating_sub(naturals);
    if wild > limits.max_wild_cards {
        return Err(MeldReason::TooManyWildCards {
            count: wild,
            max: limits.max_wild_cards,
        });
    }
    if naturals < limits.min_naturals {
        return Err(MeldReason::TooFewNaturals {
            min: limits.min_naturals,
        });
    }
    if naturals > limits.max_set_naturals {
        return Err(MeldReason::TooManyInSet {
            max: limits.max_set_naturals,
        });
    }
    let burraco = if cards.len() < limits.burraco_min_cards {
        None
    } else if wild == 0 {
        if naturals >= limits.super_naturals {
            Some(profile.effective_type(BurracoType::Super))
        } else {
            Some(BurracoType::Clean)
        }
    } else if naturals >= limits.semi_clean_min_run {
        Some(BurracoType::SemiClean)
    } else {
        Some(BurracoType::Dirty)
    };
    Ok(MeldReading {
        kind: MeldKind::Set,
        cards: cards.len(),
        points: points_of(cards, profile),
        wild_cards: wild,
        burraco,
    })
}

/// Position of a rank in a sequence: ace low 1, 2…K 2…13, ace high 14.
const ACE_HIGH: u8 = 14;

/// A sequence of `suit`: `plain` are its natural non-2 cards (all of `suit`).
fn read_sequence(
    cards: &[Card],
    plain: &[Card],
    suit: Suit,
    profile: &RuleProfile,
) -> Result<MeldReading, MeldReason> {
    let limits = &profile.meld;
    let jokers = cards.iter().filter(|c| c.is_joker()).count();
    let twos_of_suit = cards
        .iter()
        .filter(|c| c.is_two() && c.suit() == Some(suit))
        .count();
    let other_twos = cards
        .iter()
        .filter(|c| c.is_two() && c.suit() != Some(suit))
        .count();
    let aces = plain
        .iter()
        .filter(|c| c.rank().map(|r| r.number()) == Some(1))
        .count();
    if aces == 2 && plain.len() > 2 {
        return Err(MeldReason::AceBothEnds);
    }
    // Duplicates among the other naturals (two 7♥ in one run).
    let mut ranks: Vec<u8> = plain
        .iter()
        .filter_map(|c| c.rank())
        .map(|r| r.number())
        .collect();
    ranks.sort_unstable();
    if let Some(w) = ranks.windows(2).find(|w| w.first() == w.get(1)) {
        let dup = w.first().copied().unwrap_or(1);
        let card = super::cards::Rank::new(dup)
            .map(|r| Card::new(r, suit))
            .unwrap_or(Card::Joker);
        return Err(MeldReason::DuplicateInSequence { card });
    }

    let ace_options: &[bool] = if aces == 1 { &[false, true] } else { &[false] };
    // The wild reading of a 2 first: on equally bad readings the error
    // names the wild cards, the likelier mistake.
    let two_options: &[bool] = if twos_of_suit > 0 {
        &[false, true]
    } else {
        &[false]
    };

    let mut valid: Vec<MeldReading> = Vec::new();
    let mut closest: Option<(usize, MeldReason)> = None;
    for &ace_high in ace_options {
        for &natural_two in two_options {
            let mut positions: Vec<u8> = ranks
                .iter()
                .map(|&r| if r == 1 && ace_high { ACE_HIGH } else { r })
                .collect();
            if natural_two {
                positions.push(2);
            }
            positions.sort_unstable();
            let wild = jokers
                .saturating_add(other_twos)
                .saturating_add(twos_of_suit)
                .saturating_sub(usize::from(natural_two));
            match judge_run(&positions, wild, cards.len(), profile) {
                Ok(burraco) => valid.push(MeldReading {
                    kind: MeldKind::Sequence,
                    cards: cards.len(),
                    points: points_of(cards, profile),
                    wild_cards: wild,
                    burraco,
                }),
                Err((badness, reason)) => {
                    if closest.as_ref().is_none_or(|(b, _)| badness < *b) {
                        closest = Some((badness, reason));
                    }
                }
            }
        }
    }
    match best_reading(valid, profile) {
        Some(best) => Ok(best),
        None => Err(closest.map_or(
            MeldReason::TooFewNaturals {
                min: limits.min_naturals,
            },
            |(_, r)| r,
        )),
    }
}

/// Judges one reading of a sequence: sorted distinct natural positions and
/// the number of wild cards. Ok(burraco type) or Err((how far off, reason)).
fn judge_run(
    positions: &[u8],
    wild: usize,
    n_cards: usize,
    profile: &RuleProfile,
) -> Result<Option<BurracoType>, (usize, MeldReason)> {
    let limits = &profile.meld;
    let naturals = positions.len();
    let (Some(&lo), Some(&hi)) = (positions.first(), positions.last()) else {
        return Err((usize::MAX, MeldReason::OnlyWildCards));
    };
    let span = usize::from(hi.saturating_sub(lo)).saturating_add(1);
    let gaps = span.saturating_sub(naturals);
    // Cards too many plus holes left unfilled.
    let badness = wild
        .saturating_sub(limits.max_wild_cards)
        .saturating_add(gaps.saturating_sub(wild.min(limits.max_wild_cards)));
    if wild > limits.max_wild_cards {
        return Err((
            badness,
            MeldReason::TooManyWildCards {
                count: wild,
                max: limits.max_wild_cards,
            },
        ));
    }
    if gaps > wild {
        return Err((badness, MeldReason::SequenceGap { missing: gaps }));
    }
    if naturals < limits.min_naturals {
        return Err((
            badness,
            MeldReason::TooFewNaturals {
                min: limits.min_naturals,
            },
        ));
    }
    if n_cards < limits.burraco_min_cards {
        return Ok(None);
    }
    if wild == 0 {
        return Ok(Some(if naturals >= limits.royal_naturals {
            profile.effective_type(BurracoType::Royal)
        } else {
            BurracoType::Clean
        }));
    }
    // One wild card: the longest unbroken natural run beside it.
    let run = if gaps == 0 {
        naturals
    } else {
        // The hole the wild card fills splits the naturals in two runs.
        let hole = positions
            .windows(2)
            .find_map(|w| match (w.first(), w.get(1)) {
                (Some(&a), Some(&b)) if b > a.saturating_add(1) => Some(a.saturating_add(1)),
                _ => None,
            })
            .unwrap_or(lo);
        let below = positions.iter().filter(|&&p| p < hole).count();
        naturals.saturating_sub(below).max(below)
    };
    Ok(Some(if run >= limits.semi_clean_min_run {
        BurracoType::SemiClean
    } else {
        BurracoType::Dirty
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::cards::parse_card_list;
    use crate::rules::profile::{CLASSIC, CODICE};
    use proptest::prelude::*;

    fn read(s: &str) -> Result<MeldReading, MeldReason> {
        read_meld(&parse_card_list(s).unwrap(), &CODICE)
    }

    fn burraco(s: &str) -> Option<BurracoType> {
        read(s).unwrap().burraco
    }

    fn reason(s: &str) -> &'static str {
        read(s).unwrap_err().code()
    }

    #[test]
    fn small_melds() {
        let r = read("7H 8H 9H").unwrap();
        assert_eq!(
            (r.kind, r.cards, r.points, r.burraco),
            (MeldKind::Sequence, 3, 25, None)
        );
        let r = read("KS KH KS").unwrap();
        assert_eq!((r.kind, r.points), (MeldKind::Set, 30));
        let r = read("7H 8H 9H JK").unwrap();
        assert_eq!(
            (r.kind, r.wild_cards, r.points),
            (MeldKind::Sequence, 1, 55)
        );
        assert!(read("7H JK 9H 10H").is_ok());
    }

    #[test]
    fn the_api_example_is_a_clean_sequence_of_65() {
        let r = read("7H 8H 9H 10H JH QH KH").unwrap();
        assert_eq!((r.kind, r.cards, r.points), (MeldKind::Sequence, 7, 65));
        assert_eq!(r.burraco, Some(BurracoType::Clean));
    }

    #[test]
    fn invalid_melds_and_reasons() {
        assert_eq!(reason("7H 8H"), "too_few_cards");
        assert_eq!(reason("JK JK 2H"), "only_wild_cards");
        assert_eq!(reason("2H 2C 2S"), "only_wild_cards");
        assert_eq!(reason("7H 8H JK 2C"), "too_many_wild_cards");
        assert_eq!(reason("7H 7C JK 2C"), "too_many_wild_cards");
        // RULES.md §2: two naturals and a wild card make a meld…
        assert!(read("7H 7C JK").is_ok());
        assert!(read("7H 8H JK").is_ok());
        // …and a profile that asks for three naturals refuses it.
        let mut three = CODICE.clone();
        three.meld.min_naturals = 3;
        let cards = parse_card_list("7H 7C JK").unwrap();
        assert_eq!(
            read_meld(&cards, &three).unwrap_err().code(),
            "too_few_naturals"
        );
        assert_eq!(reason("7H 8C 9H"), "not_same_rank_or_suit");
        assert_eq!(reason("7H 7H 7C 7C 7D 7D 7S 7S 7S"), "too_many_copies");
        assert_eq!(reason("7H 7H 7H 7C"), "too_many_copies");
        let mut three_decks = CODICE.clone();
        three_decks.meld.max_copies = 3;
        let cards = parse_card_list("7H 7H 7H 7C 7C 7D 7D 7S 7S").unwrap();
        assert_eq!(
            read_meld(&cards, &three_decks).unwrap_err().code(),
            "too_many_in_set"
        );
        assert_eq!(reason("2H 2H 2H 3H 4H"), "too_many_copies");
        assert_eq!(reason("7H 8H 8H 9H"), "duplicate_in_sequence");
        assert_eq!(reason("KH AH 2H 3H AH"), "ace_both_ends");
        assert_eq!(reason("3H 5H 7H JK"), "sequence_gap");
        assert_eq!(reason("3H 4H 6H"), "sequence_gap");
        assert_eq!(reason("QH KH AH 2H 3H"), "sequence_gap");
    }

    #[test]
    fn burraco_types() {
        assert_eq!(burraco("3H 4H 5H 6H 7H 8H 9H"), Some(BurracoType::Clean));
        assert_eq!(burraco("3H 3H 3C 3C 3D 3S 3S"), Some(BurracoType::Clean));
        assert_eq!(burraco("3H 3H 3C 3C 3D 3D 3S 3S"), Some(BurracoType::Super));
        assert_eq!(
            burraco("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"),
            Some(BurracoType::Royal)
        );
        assert_eq!(
            burraco("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"),
            Some(BurracoType::Royal)
        );
        assert_eq!(
            burraco("3H 4H 5H 6H 7H 8H 9H JK"),
            Some(BurracoType::SemiClean)
        );
        assert_eq!(burraco("3H 4H 5H 6H 7H 8H JK"), Some(BurracoType::Dirty));
        assert_eq!(burraco("3H 4H 5H JK 7H 8H 9H"), Some(BurracoType::Dirty));
        // Wild in the middle with seven naturals on one side: semi-clean.
        assert_eq!(
            burraco("3H 4H 5H 6H 7H 8H 9H JK JH"),
            Some(BurracoType::SemiClean)
        );
        assert_eq!(
            burraco("3H 3H 3C 3C 3D 3D 3S JK"),
            Some(BurracoType::SemiClean)
        );
        assert_eq!(burraco("3H 3H 3C 3C 3D 3D JK"), Some(BurracoType::Dirty));
        // 8 naturals + wild in a set: semi-clean, not super.
        assert_eq!(
            burraco("3H 3H 3C 3C 3D 3D 3S 3S 2C"),
            Some(BurracoType::SemiClean)
        );
        // Royal with a wild card added is not royal: 13 naturals + wild.
        assert_eq!(
            burraco("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK"),
            Some(BurracoType::SemiClean)
        );
        // Twelve naturals and a joker in the gap: not royal.
        assert_eq!(
            burraco("AH 2H 3H 4H 5H JK 7H 8H 9H 10H JH QH KH"),
            Some(BurracoType::SemiClean)
        );
    }

    #[test]
    fn two_of_the_suit_natural_or_wild() {
        // 2♥ in its place is natural: a clean burraco.
        assert_eq!(burraco("AH 2H 3H 4H 5H 6H 7H"), Some(BurracoType::Clean));
        assert_eq!(read("AH 2H 3H 4H 5H 6H 7H").unwrap().wild_cards, 0);
        // A natural 2♥ still allows one wild card.
        let r = read("AH 2H 3H 4H 5H 6H 7H JK").unwrap();
        assert_eq!((r.wild_cards, r.burraco), (1, Some(BurracoType::SemiClean)));
        // The second 2♥ of two decks is wild.
        let r = read("AH 2H 3H 2H 5H 6H 7H").unwrap();
        assert_eq!((r.wild_cards, r.burraco), (1, Some(BurracoType::Dirty)));
        // 2♥ far from its place is wild.
        assert_eq!(burraco("4H 5H 6H 7H 8H 9H 2H"), Some(BurracoType::Dirty));
        assert_eq!(
            burraco("4H 5H 6H 7H 8H 9H 10H 2H"),
            Some(BurracoType::SemiClean)
        );
        // 2♣ in a hearts run is always wild.
        assert_eq!(burraco("3H 4H 5H 6H 7H 8H 2C"), Some(BurracoType::Dirty));
        // 2♥ beside 3♥: natural (clean) is better than wild (dirty).
        assert_eq!(burraco("2H 3H 4H 5H 6H 7H 8H"), Some(BurracoType::Clean));
        // 2♥ 3♥ 4♥ + joker: natural 2, joker wild.
        assert_eq!(read("2H 3H 4H JK").unwrap().wild_cards, 1);
        // Both 2♥ and a joker, and the 2 cannot be natural: two wild cards.
        assert_eq!(reason("5H 6H 7H 2H JK"), "too_many_wild_cards");
        // 2♥ natural and 2♠ wild.
        assert!(read("AH 2H 3H 2S").is_ok());
    }

    #[test]
    fn ace_low_or_high() {
        assert!(read("AH 2H 3H").is_ok());
        assert!(read("QH KH AH").is_ok());
        // A-(2)-3 with the joker as the 2: two naturals and a wild card.
        assert!(read("AH 3H JK").is_ok());
        assert_eq!(burraco("8S 9S 10S JS QS KS AS"), Some(BurracoType::Clean));
        assert_eq!(
            burraco("AS 3S 4S 5S 6S 7S 8S 9S JK"),
            Some(BurracoType::SemiClean)
        );
        assert_eq!(burraco("AS 3S 4S 5S 6S 7S 8S JK"), Some(BurracoType::Dirty));
        // K-A-2 never: with 2♥ wild it reads J-Q-K-A.
        let r = read("QH KH AH 2H").unwrap();
        assert_eq!(r.wild_cards, 1);
        assert_eq!(reason("KH AH 2H 3H"), "sequence_gap");
    }

    #[test]
    fn classic_profile_has_no_royal_or_super() {
        let cards = parse_card_list("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH").unwrap();
        assert_eq!(
            read_meld(&cards, &CLASSIC).unwrap().burraco,
            Some(BurracoType::Clean)
        );
        let cards = parse_card_list("9H 9H 9C 9C 9D 9D 9S 9S").unwrap();
        assert_eq!(
            read_meld(&cards, &CLASSIC).unwrap().burraco,
            Some(BurracoType::Clean)
        );
    }

    #[test]
    fn points_count_every_card() {
        assert_eq!(
            read("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH")
                .unwrap()
                .points,
            120
        );
        assert_eq!(read("3H 3H 3C 3C 3D 3D 3S 2C").unwrap().points, 55);
        assert_eq!(read("QH KH AH JK").unwrap().points, 65);
    }

    #[test]
    fn reasons_have_messages() {
        let msg = MeldReason::TooFewCards { min: 3 }.message(Lang::En);
        assert!(msg.contains('3'), "{msg}");
        let msg = MeldReason::DuplicateInSequence {
            card: "7H".parse().unwrap(),
        }
        .message(Lang::It);
        assert!(msg.contains("7H"), "{msg}");
    }

    fn any_card() -> impl Strategy<Value = Card> {
        prop_oneof![
            1 => Just(Card::Joker),
            12 => (1u8..=13, 0usize..4).prop_map(|(r, s)| Card::new(
                crate::rules::cards::Rank::new(r).unwrap(),
                Suit::ALL[s]
            )),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn no_card_list_makes_the_reader_panic(cards in prop::collection::vec(any_card(), 0..30)) {
            let _ = read_meld(&cards, &CODICE);
            let _ = read_meld(&cards, &CLASSIC);
        }

        #[test]
        fn long_lists_are_read_quickly(n in 1000usize..20000) {
            let cards: Vec<Card> = (0..n).map(|i| Card::new(
                crate::rules::cards::Rank::new((i % 13) as u8 + 1).unwrap(),
                Suit::ALL[i % 4],
            )).collect();
            let start = std::time::Instant::now();
            prop_assert!(read_meld(&cards, &CODICE).is_err());
            // Linear work: a generous bound that only a quadratic reader breaks.
            prop_assert!(start.elapsed().as_millis() < 2000);
        }

        #[test]
        fn one_suit_lists_never_panic(ranks in prop::collection::vec(1u8..=13, 0..16), jokers in 0usize..3) {
            let mut cards: Vec<Card> = ranks
                .iter()
                .map(|&r| Card::new(crate::rules::cards::Rank::new(r).unwrap(), Suit::Hearts))
                .collect();
            cards.extend(std::iter::repeat_n(Card::Joker, jokers));
            if let Ok(r) = read_meld(&cards, &CODICE) {
                prop_assert_eq!(r.cards, cards.len());
                prop_assert!(r.wild_cards <= 1);
                prop_assert_eq!(r.burraco.is_some(), cards.len() >= 7);
            }
        }
    }
}
