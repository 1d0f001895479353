//! The seat draw at the table (RULES.md §8, the Code art. 3).
//!
//! Four players each draw a card; players 1 and 2 are one pair, 3 and 4 the
//! other. The highest card chooses the line's seats (and keeps the score
//! sheet); the dealer is the lowest card of the pair opposing the chooser.
//! Card order: joker > 2 > A > K > … > 3, then suit order (a per-tournament
//! setting, [`SuitOrder`]).
//!
//! Decision (the Code says identical cards "keep their priority over the
//! others and draw again between themselves"): identical cards (same rank and
//! suit; two jokers are identical) cause a redraw **only when the tie decides
//! something**: the highest card (who chooses: partners included, since the
//! chooser is one person, the one who keeps the sheet) or the lowest card of
//! the opposing pair (who deals). Any other identical pair is ignored. Only
//! the tied players draw again, and the others keep their places: the caller
//! feeds the redrawn cards back through [`resolve_redraw`].

use super::cards::{Card, Suit};
use serde::Serialize;
use std::fmt;

/// Suit order, highest first. Default hearts > diamonds > clubs > spades.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SuitOrder([Suit; 4]);

impl Default for SuitOrder {
    fn default() -> SuitOrder {
        SuitOrder([Suit::Hearts, Suit::Diamonds, Suit::Clubs, Suit::Spades])
    }
}

/// A suit order that is not the four letters H D C S once each.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "a suit order is the letters H, D, C, S once each, highest first (e.g. HDCS), not {text:?}"
)]
pub struct SuitOrderError {
    pub text: String,
}

impl SuitOrder {
    /// Parses `HDCS` (case-insensitive, blanks ignored), highest first.
    pub fn parse(text: &str) -> Result<SuitOrder, SuitOrderError> {
        let err = || SuitOrderError {
            text: text.chars().take(16).collect(),
        };
        let mut suits: Vec<Suit> = Vec::with_capacity(4);
        for c in text.chars().filter(|c| !c.is_whitespace()) {
            let s = Suit::from_letter(c).ok_or_else(err)?;
            if suits.contains(&s) || suits.len() >= 4 {
                return Err(err());
            }
            suits.push(s);
        }
        let arr: [Suit; 4] = suits.try_into().map_err(|_| err())?;
        Ok(SuitOrder(arr))
    }

    /// Parses a suit order as a person types it in either language: the
    /// notation's English initials (`HDCS`, what the files store), the
    /// Italian ones (`CQFP`: cuori, quadri, fiori, picche) or the suits'
    /// names (`cuori quadri fiori picche`, `hearts > spades …`), highest
    /// first, case-insensitive. The two sets of initials share only `C`
    /// (clubs in English, hearts in Italian), and a whole order names
    /// four suits, so an order is never read both ways.
    pub fn parse_typed(text: &str) -> Result<SuitOrder, SuitOrderError> {
        let err = || SuitOrderError {
            text: text.chars().take(16).collect(),
        };
        let words: Vec<String> = text
            .split(|c: char| !c.is_alphabetic())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        if words.iter().all(|w| w.chars().count() > 1) && words.len() == 4 {
            let suits: Option<Vec<Suit>> = words.iter().map(|w| suit_named(w)).collect();
            return suits
                .ok_or_else(err)
                .and_then(|s| Self::of(&s).ok_or_else(err));
        }
        let letters: String = words.concat();
        if let Ok(o) = SuitOrder::parse(&letters) {
            return Ok(o);
        }
        let suits: Option<Vec<Suit>> = letters.chars().map(Suit::from_italian_letter).collect();
        suits.and_then(|s| Self::of(&s)).ok_or_else(err)
    }

    /// Four different suits, highest first.
    fn of(suits: &[Suit]) -> Option<SuitOrder> {
        let arr: [Suit; 4] = suits.try_into().ok()?;
        let distinct = Suit::ALL.iter().all(|s| arr.contains(s));
        distinct.then_some(SuitOrder(arr))
    }

    /// The suits, highest first.
    pub fn suits(&self) -> [Suit; 4] {
        self.0
    }

    /// The order as the language's initials (`CQFP` in Italian, `HDCS`
    /// in English): what the forms show, and read back with
    /// [`SuitOrder::parse_typed`].
    pub fn initials(&self, lang: crate::i18n::Lang) -> String {
        self.0.iter().map(|s| s.initial(lang)).collect()
    }

    /// The order in words, highest first ("Cuori > Quadri > Fiori > Picche").
    pub fn names(&self, lang: crate::i18n::Lang) -> String {
        let [a, b, c, d] = self.0.map(|s| s.name(lang));
        crate::i18n::tf(
            lang,
            "audit.suits",
            &[("first", &a), ("second", &b), ("third", &c), ("fourth", &d)],
        )
    }

    /// 4 for the highest suit … 1 for the lowest.
    fn strength(&self, suit: Suit) -> u8 {
        match self.0.iter().position(|&s| s == suit) {
            Some(0) => 4,
            Some(1) => 3,
            Some(2) => 2,
            _ => 1,
        }
    }

    /// Orders two drawn cards: `Greater` when `a` beats `b`.
    pub fn compare(&self, a: Card, b: Card) -> std::cmp::Ordering {
        self.key(a).cmp(&self.key(b))
    }

    fn key(&self, card: Card) -> (u8, u8) {
        match card {
            Card::Joker => (u8::MAX, 0),
            Card::Suited { rank, suit } => {
                let r = match rank.number() {
                    2 => 15,
                    1 => 14,
                    n => n,
                };
                (r, self.strength(suit))
            }
        }
    }
}

impl fmt::Display for SuitOrder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for s in self.0 {
            write!(f, "{}", s.letter())?;
        }
        Ok(())
    }
}

/// A suit by its name in Italian or English (singular or plural).
fn suit_named(word: &str) -> Option<Suit> {
    match word {
        "cuori" | "cuore" | "hearts" | "heart" => Some(Suit::Hearts),
        "quadri" | "quadro" | "diamonds" | "diamond" => Some(Suit::Diamonds),
        "fiori" | "fiore" | "clubs" | "club" => Some(Suit::Clubs),
        "picche" | "picca" | "spades" | "spade" => Some(Suit::Spades),
        _ => None,
    }
}

/// The result of a draw. Players are numbered 1 to 4. JSON:
/// `{"chooser": 4, "dealer": 1}` or `{"redraw": [1, 3]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(untagged)]
pub enum SeatDraw {
    /// `chooser` picks the seats; `dealer` (of the other pair) deals.
    Chooser { chooser: u8, dealer: u8 },
    /// These players (2 or more, ascending) drew identical cards that decide
    /// the outcome, and draw again between themselves.
    Redraw {
        #[serde(rename = "redraw")]
        players: Vec<u8>,
    },
}

/// Player number (1-based) of an index into the four cards.
fn player(i: usize) -> u8 {
    u8::try_from(i.saturating_add(1)).unwrap_or(u8::MAX)
}

/// Decides chooser and dealer from the four drawn cards (player 1 first).
pub fn seat_draw(cards: [Card; 4], order: SuitOrder) -> SeatDraw {
    let mut best = 0usize;
    for (i, &c) in cards.iter().enumerate() {
        if order.compare(c, cards[best]).is_gt() {
            best = i;
        }
    }
    let top: Vec<usize> = (0..4).filter(|&i| cards[i] == cards[best]).collect();
    if top.len() > 1 {
        return SeatDraw::Redraw {
            players: top.into_iter().map(player).collect(),
        };
    }
    let chooser = best;
    // The opposing pair: indices {0,1} or {2,3}, whichever does not hold the chooser.
    let (a, b) = if chooser < 2 { (2, 3) } else { (0, 1) };
    if cards[a] == cards[b] {
        return SeatDraw::Redraw {
            players: vec![player(a), player(b)],
        };
    }
    let dealer = if order.compare(cards[a], cards[b]).is_lt() {
        a
    } else {
        b
    };
    SeatDraw::Chooser {
        chooser: player(chooser),
        dealer: player(dealer),
    }
}

/// Applies a redraw: `players` (from [`SeatDraw::Redraw`]) drew `redrawn`
/// (same order). The tied players keep their priority over the others: they
/// stay above (a tie for the highest card) or below (a tie for the dealer)
/// everyone else, and the new cards only order them among themselves.
/// Returns `None` when the lists do not match a redraw of these cards.
pub fn resolve_redraw(
    first: [Card; 4],
    players: &[u8],
    redrawn: &[Card],
    order: SuitOrder,
) -> Option<SeatDraw> {
    if players.len() != redrawn.len() || players.len() < 2 {
        return None;
    }
    let idx: Vec<usize> = players
        .iter()
        .map(|&p| usize::from(p).checked_sub(1).filter(|&i| i < 4))
        .collect::<Option<Vec<usize>>>()?;
    // Re-rank: the tied players keep their original card for priority over
    // the others; among themselves the redrawn card decides. Build a total
    // order key per player: (original key, redraw key or none).
    let rank_of = |i: usize| -> ((u8, u8), (u8, u8)) {
        let second = idx
            .iter()
            .position(|&j| j == i)
            .and_then(|k| redrawn.get(k))
            .map_or((0, 0), |&c| order.key(c));
        (order.key(first[i]), second)
    };
    let keys: Vec<((u8, u8), (u8, u8))> = (0..4).map(rank_of).collect();
    let best = (0..4).max_by_key(|&i| keys[i])?;
    if (0..4).filter(|&i| keys[i] == keys[best]).count() > 1 {
        let tied = (0..4)
            .filter(|&i| keys[i] == keys[best])
            .map(player)
            .collect();
        return Some(SeatDraw::Redraw { players: tied });
    }
    let (a, b) = if best < 2 { (2, 3) } else { (0, 1) };
    if keys[a] == keys[b] {
        return Some(SeatDraw::Redraw {
            players: vec![player(a), player(b)],
        });
    }
    let dealer = if keys[a] < keys[b] { a } else { b };
    Some(SeatDraw::Chooser {
        chooser: player(best),
        dealer: player(dealer),
    })
}

/// The draw after any number of redraw steps: `redraws[k]` holds the cards
/// that the players named by step k's [`SeatDraw::Redraw`] drew, as
/// `(player, card)`. Each player is ranked by their cards in draw order
/// (the first card keeps priority over everyone else; a redraw only orders
/// players still tied). Returns `None` when a step does not name exactly
/// the players the previous step sent to redraw, or a step comes after
/// the outcome was already decided.
pub fn resolve_draws(
    first: [Card; 4],
    redraws: &[Vec<(u8, Card)>],
    order: SuitOrder,
) -> Option<SeatDraw> {
    let mut keys: Vec<Vec<(u8, u8)>> = first.iter().map(|&c| vec![order.key(c)]).collect();
    let mut state = decide(&keys);
    for step in redraws {
        let SeatDraw::Redraw { players } = &state else {
            return None;
        };
        let mut named: Vec<u8> = step.iter().map(|(p, _)| *p).collect();
        named.sort_unstable();
        if &named != players {
            return None;
        }
        // Everyone gets a key at this depth: the redrawn card, or the
        // lowest possible for those who did not redraw (they are never
        // tied with a redrawing player at this point).
        for (i, k) in keys.iter_mut().enumerate() {
            let card = step.iter().find(|(p, _)| *p == player(i)).map(|(_, c)| *c);
            k.push(card.map_or((0, 0), |c| order.key(c)));
        }
        state = decide(&keys);
    }
    Some(state)
}

/// Chooser and dealer from totally ordered keys (player 1 first).
fn decide(keys: &[Vec<(u8, u8)>]) -> SeatDraw {
    let best = (0..keys.len())
        .max_by(|&a, &b| keys[a].cmp(&keys[b]).then(b.cmp(&a)))
        .unwrap_or(0);
    let top: Vec<usize> = (0..keys.len()).filter(|&i| keys[i] == keys[best]).collect();
    if top.len() > 1 {
        return SeatDraw::Redraw {
            players: top.into_iter().map(player).collect(),
        };
    }
    let (a, b) = if best < 2 { (2, 3) } else { (0, 1) };
    if keys[a] == keys[b] {
        return SeatDraw::Redraw {
            players: vec![player(a), player(b)],
        };
    }
    let dealer = if keys[a] < keys[b] { a } else { b };
    SeatDraw::Chooser {
        chooser: player(best),
        dealer: player(dealer),
    }
}

#[cfg(test)]
mod suit_order_tests {
    use super::*;
    use crate::i18n::Lang;

    #[test]
    fn a_suit_order_is_typed_in_either_language() {
        let default = SuitOrder::default();
        for typed in [
            "HDCS",
            "hdcs",
            "CQFP",
            "c q f p",
            "Cuori, Quadri, Fiori, Picche",
            "cuori > quadri > fiori > picche",
            "hearts diamonds clubs spades",
        ] {
            assert_eq!(SuitOrder::parse_typed(typed), Ok(default), "{typed}");
        }
        let spades_first = SuitOrder::parse("SHDC").unwrap();
        assert_eq!(SuitOrder::parse_typed("PCQF"), Ok(spades_first));
        assert_eq!(spades_first.initials(Lang::It), "PCQF");
        assert_eq!(spades_first.initials(Lang::En), "SHDC");
        assert_eq!(spades_first.to_string(), "SHDC", "stored as the notation");
        assert_eq!(default.names(Lang::It), "Cuori > Quadri > Fiori > Picche");
        for wrong in [
            "",
            "CQF",
            "CQFF",
            "HDCP",
            "cuori quadri fiori cuori",
            "XYZW",
        ] {
            assert!(SuitOrder::parse_typed(wrong).is_err(), "{wrong}");
        }
        // The files keep the notation only.
        assert!(SuitOrder::parse("CQFP").is_err());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::cards::parse_card_list;

    fn draw_with(s: &str, order: &str) -> SeatDraw {
        let v = parse_card_list(s).unwrap();
        seat_draw([v[0], v[1], v[2], v[3]], SuitOrder::parse(order).unwrap())
    }

    fn draw(s: &str) -> SeatDraw {
        draw_with(s, "HDCS")
    }

    fn chooser(c: u8, d: u8) -> SeatDraw {
        SeatDraw::Chooser {
            chooser: c,
            dealer: d,
        }
    }

    fn redraw(p: &[u8]) -> SeatDraw {
        SeatDraw::Redraw {
            players: p.to_vec(),
        }
    }

    #[test]
    fn the_api_example() {
        assert_eq!(draw("10H KS 10D JK"), chooser(4, 1));
        assert_eq!(
            serde_json::to_string(&draw("10H KS 10D JK")).unwrap(),
            r#"{"chooser":4,"dealer":1}"#
        );
    }

    #[test]
    fn rank_order_joker_two_ace_king_three() {
        assert_eq!(draw("JK 2S AH 3C"), chooser(1, 4));
        assert_eq!(draw("3C 2S AH KH"), chooser(2, 4));
        assert_eq!(draw("3C 4S AH KH"), chooser(3, 1));
        assert_eq!(draw("3C 4S 5H KH"), chooser(4, 1));
        assert_eq!(draw("QC KS 5H 4H"), chooser(2, 4));
    }

    #[test]
    fn suit_order_breaks_rank_ties() {
        // Same rank, different suits: hearts > diamonds > clubs > spades.
        assert_eq!(draw("KH KD 3C 3S"), chooser(1, 4));
        assert_eq!(draw("KS KD 3H 3C"), chooser(2, 4));
        // The seed-004 order: spades > hearts > diamonds > clubs.
        assert_eq!(draw_with("KS KD 3H 3C", "SHDC"), chooser(1, 4));
        assert_eq!(draw_with("KH KS 3H 3C", "shdc"), chooser(2, 4));
    }

    #[test]
    fn identical_cards_redraw_only_when_they_decide() {
        // Two identical jokers on top, opponents: redraw between them.
        assert_eq!(draw("JK 5H JK 7C"), redraw(&[1, 3]));
        // Partners tied on top: still decides who chooses (and keeps the sheet).
        assert_eq!(draw("AH AH 5C 7C"), redraw(&[1, 2]));
        // Four jokers.
        assert_eq!(draw("JK JK JK JK"), redraw(&[1, 2, 3, 4]));
        // The opposing pair tied: decides the dealer.
        assert_eq!(draw("KH 5C 7D 7D"), redraw(&[3, 4]));
        // The chooser's partner and an opponent identical: irrelevant.
        assert_eq!(draw("KH 7D 7D 9C"), chooser(1, 3));
        assert_eq!(draw("KH 9C 5C 9C"), chooser(1, 3));
        // Identical cards in the pair opposing the chooser: they decide the dealer.
        assert_eq!(draw("8S 8S KH 9C"), redraw(&[1, 2]));
    }

    #[test]
    fn redraw_resolution_keeps_priority() {
        let cards = |s: &str| parse_card_list(s).unwrap();
        let first = cards("JK 5H JK 7C");
        let first = [first[0], first[1], first[2], first[3]];
        let o = SuitOrder::default();
        // Player 3 wins the redraw even with a 3: priority over players 2 and 4 is kept.
        assert_eq!(
            resolve_redraw(first, &[1, 3], &cards("3S KH"), o),
            Some(chooser(3, 2))
        );
        assert_eq!(
            resolve_redraw(first, &[1, 3], &cards("QS QS"), o),
            Some(redraw(&[1, 3]))
        );
        let first = cards("KH 5C 7D 7D");
        let first = [first[0], first[1], first[2], first[3]];
        // Dealer tie: the lower redrawn card deals.
        assert_eq!(
            resolve_redraw(first, &[3, 4], &cards("JK 3S"), o),
            Some(chooser(1, 4))
        );
        assert_eq!(resolve_redraw(first, &[3, 4], &cards("JK"), o), None);
        assert_eq!(resolve_redraw(first, &[3, 9], &cards("JK 3S"), o), None);
    }

    #[test]
    fn suit_order_parsing() {
        assert_eq!(SuitOrder::parse("HDCS").unwrap(), SuitOrder::default());
        assert_eq!(SuitOrder::parse("s h d c").unwrap().to_string(), "SHDC");
        for bad in ["", "HDC", "HDCSS", "HHDC", "HDCX", "HDCSH"] {
            assert!(SuitOrder::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn resolve_draws_agrees_with_one_redraw_and_goes_on() {
        let cards = |s: &str| parse_card_list(s).unwrap();
        let four = |s: &str| {
            let v = cards(s);
            [v[0], v[1], v[2], v[3]]
        };
        let o = SuitOrder::default();
        let first = four("JK 5H JK 7C");
        assert_eq!(resolve_draws(first, &[], o), Some(redraw(&[1, 3])));
        let c = |s: &str| s.parse::<Card>().unwrap();
        assert_eq!(
            resolve_draws(first, &[vec![(1, c("3S")), (3, c("KH"))]], o),
            Some(chooser(3, 2))
        );
        // Tied again, then decided.
        assert_eq!(
            resolve_draws(
                first,
                &[
                    vec![(1, c("QS")), (3, c("QS"))],
                    vec![(1, c("AH")), (3, c("4C"))]
                ],
                o
            ),
            Some(chooser(1, 4))
        );
        // The top tie settled, the dealer pair then tied: a second step for them.
        let first = four("JK JK 7D 7D");
        let step1 = vec![(1, c("KH")), (2, c("3S"))];
        assert_eq!(
            resolve_draws(first, std::slice::from_ref(&step1), o),
            Some(redraw(&[3, 4]))
        );
        assert_eq!(
            resolve_draws(first, &[step1.clone(), vec![(3, c("5C")), (4, c("9C"))]], o),
            Some(chooser(1, 3))
        );
        // Wrong players, or a step after the outcome: refused.
        assert_eq!(
            resolve_draws(first, &[vec![(1, c("KH")), (3, c("3S"))]], o),
            None
        );
        assert_eq!(
            resolve_draws(four("KH 5C 7D 8D"), &[vec![(3, c("KH")), (4, c("3S"))]], o),
            None
        );
    }

    fn any_card() -> impl proptest::strategy::Strategy<Value = Card> {
        use crate::rules::cards::Rank;
        use proptest::prelude::*;
        prop_oneof![
            Just(Card::Joker),
            (1u8..=13, 0usize..4).prop_map(|(n, s)| Card::new(Rank::new(n).unwrap(), Suit::ALL[s])),
        ]
    }

    proptest::proptest! {
        /// Without redraws, the multi-step resolution is the plain draw; with
        /// one, it is `resolve_redraw`.
        #[test]
        fn resolve_draws_matches_the_single_step_functions(
            cards in proptest::collection::vec(any_card(), 4),
            again in proptest::collection::vec(any_card(), 4),
            suits in 0usize..24,
        ) {
            use proptest::prelude::*;
            let orders = ["HDCS", "SHDC", "CDHS", "DSHC"];
            let o = SuitOrder::parse(orders[suits % orders.len()]).unwrap();
            let first = [cards[0], cards[1], cards[2], cards[3]];
            let plain = seat_draw(first, o);
            prop_assert_eq!(resolve_draws(first, &[], o), Some(plain.clone()));
            if let SeatDraw::Redraw { players } = plain {
                let redrawn: Vec<Card> = players.iter().map(|&p| again[usize::from(p) - 1]).collect();
                let step: Vec<(u8, Card)> = players.iter().copied().zip(redrawn.iter().copied()).collect();
                prop_assert_eq!(
                    resolve_draws(first, &[step], o),
                    resolve_redraw(first, &players, &redrawn, o)
                );
            }
        }
    }
}
