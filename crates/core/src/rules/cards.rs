//! Cards and their text notation (RULES.md §1): `10H`, `AS`, `2C`, `JK`.

use super::profile::RuleProfile;
use std::fmt;
use std::str::FromStr;

/// A suit: hearts (cuori), diamonds (quadri), clubs (fiori), spades (picche).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    Hearts,
    Diamonds,
    Clubs,
    Spades,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Hearts, Suit::Diamonds, Suit::Clubs, Suit::Spades];

    /// The notation letter: `H`, `D`, `C`, `S`.
    pub fn letter(self) -> char {
        match self {
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
            Suit::Clubs => 'C',
            Suit::Spades => 'S',
        }
    }

    /// The initial a language writes the suit with: the notation's `H D C
    /// S` in English, `C Q F P` (cuori, quadri, fiori, picche) in Italian.
    pub fn initial(self, lang: crate::i18n::Lang) -> char {
        match lang {
            crate::i18n::Lang::En => self.letter(),
            crate::i18n::Lang::It => match self {
                Suit::Hearts => 'C',
                Suit::Diamonds => 'Q',
                Suit::Clubs => 'F',
                Suit::Spades => 'P',
            },
        }
    }

    /// A suit from its Italian initial (`C Q F P`), case-insensitive.
    pub fn from_italian_letter(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'C' => Some(Suit::Hearts),
            'Q' => Some(Suit::Diamonds),
            'F' => Some(Suit::Clubs),
            'P' => Some(Suit::Spades),
            _ => None,
        }
    }

    /// The suit's name in `lang` ("Cuori", "Hearts").
    pub fn name(self, lang: crate::i18n::Lang) -> &'static str {
        crate::i18n::t(
            lang,
            match self {
                Suit::Hearts => "suit.hearts",
                Suit::Diamonds => "suit.diamonds",
                Suit::Clubs => "suit.clubs",
                Suit::Spades => "suit.spades",
            },
        )
    }

    /// A suit from its letter, case-insensitive.
    pub fn from_letter(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'H' => Some(Suit::Hearts),
            'D' => Some(Suit::Diamonds),
            'C' => Some(Suit::Clubs),
            'S' => Some(Suit::Spades),
            _ => None,
        }
    }
}

/// A rank from ace (1) to king (13). The value is always in 1..=13.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    pub const ACE: Rank = Rank(1);
    pub const TWO: Rank = Rank(2);
    pub const THREE: Rank = Rank(3);
    pub const SEVEN: Rank = Rank(7);
    pub const EIGHT: Rank = Rank(8);
    pub const TEN: Rank = Rank(10);
    pub const JACK: Rank = Rank(11);
    pub const QUEEN: Rank = Rank(12);
    pub const KING: Rank = Rank(13);

    /// A rank from 1 (ace) to 13 (king).
    pub fn new(n: u8) -> Option<Rank> {
        (1..=13).contains(&n).then_some(Rank(n))
    }

    /// 1 (ace) to 13 (king).
    pub fn number(self) -> u8 {
        self.0
    }

    /// All ranks, ace first.
    pub fn all() -> impl Iterator<Item = Rank> {
        (1..=13).map(Rank)
    }

    fn symbol(self) -> &'static str {
        match self.0 {
            1 => "A",
            2 => "2",
            3 => "3",
            4 => "4",
            5 => "5",
            6 => "6",
            7 => "7",
            8 => "8",
            9 => "9",
            10 => "10",
            11 => "J",
            12 => "Q",
            _ => "K",
        }
    }

    fn from_symbol(s: &str) -> Option<Rank> {
        let n = match s {
            "A" => 1,
            "J" => 11,
            "Q" => 12,
            "K" => 13,
            _ => {
                // Only plain digits 2..10, no sign, no leading zero.
                if s.is_empty()
                    || s.len() > 2
                    || s.starts_with('0')
                    || !s.bytes().all(|b| b.is_ascii_digit())
                {
                    return None;
                }
                let n: u8 = s.parse().ok()?;
                if !(2..=10).contains(&n) {
                    return None;
                }
                n
            }
        };
        Rank::new(n)
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

/// One of the 108 cards: a suited card or a joker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Card {
    Suited { rank: Rank, suit: Suit },
    Joker,
}

impl Card {
    pub fn new(rank: Rank, suit: Suit) -> Card {
        Card::Suited { rank, suit }
    }

    pub fn rank(self) -> Option<Rank> {
        match self {
            Card::Suited { rank, .. } => Some(rank),
            Card::Joker => None,
        }
    }

    pub fn suit(self) -> Option<Suit> {
        match self {
            Card::Suited { suit, .. } => Some(suit),
            Card::Joker => None,
        }
    }

    pub fn is_joker(self) -> bool {
        matches!(self, Card::Joker)
    }

    /// A 2 (pinella): wild unless it stands in its natural place in a
    /// sequence of its own suit.
    pub fn is_two(self) -> bool {
        self.rank() == Some(Rank::TWO)
    }

    /// Jokers and 2s: the cards that may be wild.
    pub fn may_be_wild(self) -> bool {
        self.is_joker() || self.is_two()
    }

    /// Points of the card under a profile (RULES.md §1).
    pub fn points(self, profile: &RuleProfile) -> i64 {
        let p = &profile.card_points;
        match self {
            Card::Joker => p.joker,
            Card::Suited { rank, .. } => match rank.number() {
                1 => p.ace,
                2 => p.two,
                3..=7 => p.low,
                _ => p.high,
            },
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Card::Joker => f.write_str("JK"),
            Card::Suited { rank, suit } => write!(f, "{rank}{}", suit.letter()),
        }
    }
}

/// A token that is not a card. Names the token (cut to 24 characters).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a card: {token:?} (expected e.g. 10H, AS, 2C, JK)")]
pub struct CardParseError {
    pub token: String,
}

impl CardParseError {
    /// The error for `token` (cut to 24 characters).
    pub fn from_token(token: &str) -> CardParseError {
        CardParseError::new(token)
    }

    fn new(token: &str) -> CardParseError {
        CardParseError {
            token: token.chars().take(24).collect(),
        }
    }
}

impl FromStr for Card {
    type Err = CardParseError;

    /// Case-insensitive; surrounding blanks are ignored.
    fn from_str(s: &str) -> Result<Card, CardParseError> {
        let token = s.trim();
        if !token.is_ascii() {
            return Err(CardParseError::new(token));
        }
        let upper = token.to_ascii_uppercase();
        if upper == "JK" {
            return Ok(Card::Joker);
        }
        let Some(last) = upper.chars().last() else {
            return Err(CardParseError::new(token));
        };
        let suit = Suit::from_letter(last).ok_or_else(|| CardParseError::new(token))?;
        // ASCII only, so the last character is one byte.
        let rank_text = upper.get(..upper.len().saturating_sub(1)).unwrap_or("");
        let rank = Rank::from_symbol(rank_text).ok_or_else(|| CardParseError::new(token))?;
        Ok(Card::new(rank, suit))
    }
}

/// Parses a list of tokens; the first bad token is the error.
pub fn parse_cards<S: AsRef<str>>(tokens: &[S]) -> Result<Vec<Card>, CardParseError> {
    tokens.iter().map(|t| t.as_ref().parse()).collect()
}

/// Parses blank- or comma-separated notation (`"10H KS,JK"`).
pub fn parse_card_list(text: &str) -> Result<Vec<Card>, CardParseError> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(str::parse)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::profile::CODICE;
    use proptest::prelude::*;

    fn c(s: &str) -> Card {
        s.parse().unwrap()
    }

    #[test]
    fn parses_notation_case_insensitively() {
        assert_eq!(c("10H"), Card::new(Rank::TEN, Suit::Hearts));
        assert_eq!(c("as"), Card::new(Rank::ACE, Suit::Spades));
        assert_eq!(c("2c"), Card::new(Rank::TWO, Suit::Clubs));
        assert_eq!(c("jk"), Card::Joker);
        assert_eq!(c(" Qd "), Card::new(Rank::QUEEN, Suit::Diamonds));
        assert_eq!(c("JH"), Card::new(Rank::JACK, Suit::Hearts));
    }

    #[test]
    fn rejects_bad_tokens_naming_them() {
        for bad in [
            "", "1H", "11H", "010H", "0H", "+2H", "H", "10", "ZZ", "KX", "J", "JKK", "10♥", "AHH",
        ] {
            let err = bad.parse::<Card>().unwrap_err();
            assert_eq!(err.token, bad.trim(), "token {bad:?}");
            assert!(err.to_string().contains("not a card"));
        }
    }

    #[test]
    fn display_round_trips() {
        for s in ["10H", "AS", "2C", "JK", "KD", "7S"] {
            assert_eq!(c(s).to_string(), s);
        }
    }

    #[test]
    fn points_per_rank() {
        let p = &CODICE;
        assert_eq!(c("3H").points(p), 5);
        assert_eq!(c("7H").points(p), 5);
        assert_eq!(c("8H").points(p), 10);
        assert_eq!(c("KH").points(p), 10);
        assert_eq!(c("AH").points(p), 15);
        assert_eq!(c("2H").points(p), 20);
        assert_eq!(c("JK").points(p), 30);
    }

    #[test]
    fn list_parsing() {
        let v = parse_card_list("10H, KS 10d\tJK").unwrap();
        assert_eq!(v.len(), 4);
        assert!(parse_card_list("10H XX").is_err());
        assert_eq!(
            parse_cards(&["AS", "jk"]).unwrap(),
            vec![c("AS"), Card::Joker]
        );
    }

    proptest! {
        #[test]
        fn parsing_never_panics(s in "\\PC{0,8}") {
            let _ = s.parse::<Card>();
        }

        #[test]
        fn every_card_round_trips(r in 1u8..=13, s in 0usize..4) {
            let card = Card::new(Rank::new(r).unwrap(), Suit::ALL[s]);
            prop_assert_eq!(card.to_string().parse::<Card>().unwrap(), card);
            prop_assert_eq!(card.to_string().to_lowercase().parse::<Card>().unwrap(), card);
        }
    }
}
