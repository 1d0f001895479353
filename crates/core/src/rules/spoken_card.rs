//! Cards as referees say and write them at the table (RULES.md §8): the
//! notation (`10H`, `KS`, `JK`), suit symbols (`J♠`, `10♥`), Italian names
//! (`10 cuori`, `K picche`, `asso di fiori`, `Re di quadri`, `jolly`) and
//! English ones (`ace of spades`, `queen hearts`). Case and blanks do not
//! matter; `di`/`of` between rank and suit is optional.

use super::cards::{Card, CardParseError, Rank, Suit};

/// A rank word or symbol (Italian or English), or a number 1..13.
fn rank_word(w: &str) -> Option<Rank> {
    let n = match w {
        "a" | "asso" | "ace" | "1" => 1,
        "due" | "two" => 2,
        "tre" | "three" => 3,
        "quattro" | "four" => 4,
        "cinque" | "five" => 5,
        "sei" | "six" => 6,
        "sette" | "seven" => 7,
        "otto" | "eight" => 8,
        "nove" | "nine" => 9,
        "dieci" | "ten" => 10,
        "j" | "fante" | "jack" => 11,
        "q" | "donna" | "regina" | "queen" => 12,
        "k" | "re" | "king" => 13,
        _ => {
            if w.is_empty() || w.len() > 2 || w.starts_with('0') {
                return None;
            }
            let n: u8 = w.parse().ok()?;
            if !(2..=10).contains(&n) {
                return None;
            }
            n
        }
    };
    Rank::new(n)
}

/// A suit word, letter or symbol (Italian or English).
fn suit_word(w: &str) -> Option<Suit> {
    match w {
        "cuori" | "cuore" | "hearts" | "heart" | "h" | "♥" | "♡" => Some(Suit::Hearts),
        "quadri" | "quadro" | "diamonds" | "diamond" | "d" | "♦" | "♢" => Some(Suit::Diamonds),
        "fiori" | "fiore" | "clubs" | "club" | "c" | "♣" | "♧" => Some(Suit::Clubs),
        "picche" | "picca" | "spades" | "spade" | "s" | "♠" | "♤" => Some(Suit::Spades),
        _ => None,
    }
}

const SYMBOLS: [char; 8] = ['♥', '♡', '♦', '♢', '♣', '♧', '♠', '♤'];

/// Reads one card as a referee writes it. The error names the text.
pub fn parse_spoken_card(text: &str) -> Result<Card, CardParseError> {
    let err = || CardParseError::from_token(text.trim());
    let lower = text.trim().to_lowercase();
    if lower.is_empty() || lower.chars().count() > 40 {
        return Err(err());
    }
    if let Ok(card) = lower.parse::<Card>() {
        return Ok(card);
    }
    // A symbol stuck to the rank (`J♠`, `10♥`) becomes its own word.
    let mut spaced = String::with_capacity(lower.len() + 2);
    for c in lower.chars() {
        if SYMBOLS.contains(&c) {
            spaced.push(' ');
            spaced.push(c);
            spaced.push(' ');
        } else {
            spaced.push(c);
        }
    }
    let words: Vec<&str> = spaced
        .split(|c: char| c.is_whitespace() || c == ',' || c == '\'')
        .filter(|w| !w.is_empty())
        .collect();
    match words.as_slice() {
        ["jolly" | "joker" | "jk" | "matta"] => Ok(Card::Joker),
        [rank, suit] | [rank, "di" | "de" | "of", suit] => {
            match (rank_word(rank), suit_word(suit)) {
                (Some(r), Some(s)) => Ok(Card::new(r, s)),
                _ => Err(err()),
            }
        }
        _ => Err(err()),
    }
}

/// A card as the referee reads it back, in Italian or English words
/// (`10 di cuori`, `re di picche`, `jolly`).
pub fn spoken_name(card: Card, italian: bool) -> String {
    let Card::Suited { rank, suit } = card else {
        return if italian { "jolly" } else { "joker" }.to_string();
    };
    let r = match (rank.number(), italian) {
        (1, true) => "asso".to_string(),
        (1, false) => "ace".to_string(),
        (11, true) => "fante".to_string(),
        (11, false) => "jack".to_string(),
        (12, true) => "donna".to_string(),
        (12, false) => "queen".to_string(),
        (13, true) => "re".to_string(),
        (13, false) => "king".to_string(),
        (n, _) => n.to_string(),
    };
    let s = match (suit, italian) {
        (Suit::Hearts, true) => "cuori",
        (Suit::Diamonds, true) => "quadri",
        (Suit::Clubs, true) => "fiori",
        (Suit::Spades, true) => "picche",
        (Suit::Hearts, false) => "hearts",
        (Suit::Diamonds, false) => "diamonds",
        (Suit::Clubs, false) => "clubs",
        (Suit::Spades, false) => "spades",
    };
    if italian {
        format!("{r} di {s}")
    } else {
        format!("{r} of {s}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn c(s: &str) -> Card {
        parse_spoken_card(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn card(n: u8, s: Suit) -> Card {
        Card::new(Rank::new(n).unwrap(), s)
    }

    #[test]
    fn italian_names_as_referees_write_them() {
        assert_eq!(c("10 cuori"), card(10, Suit::Hearts));
        assert_eq!(c("K picche"), card(13, Suit::Spades));
        assert_eq!(c("asso di fiori"), card(1, Suit::Clubs));
        assert_eq!(c("Re di quadri"), card(13, Suit::Diamonds));
        assert_eq!(c("  DONNA  DI  CUORI "), card(12, Suit::Hearts));
        assert_eq!(c("fante di picche"), card(11, Suit::Spades));
        assert_eq!(c("sette di quadri"), card(7, Suit::Diamonds));
        assert_eq!(c("2 fiori"), card(2, Suit::Clubs));
        assert_eq!(c("Jolly"), Card::Joker);
        assert_eq!(c("matta"), Card::Joker);
    }

    #[test]
    fn symbols_letters_and_english() {
        assert_eq!(c("J♠"), card(11, Suit::Spades));
        assert_eq!(c("10♥"), card(10, Suit::Hearts));
        assert_eq!(c("a ♦"), card(1, Suit::Diamonds));
        assert_eq!(c("10H"), card(10, Suit::Hearts));
        assert_eq!(c("ks"), card(13, Suit::Spades));
        assert_eq!(c("JK"), Card::Joker);
        assert_eq!(c("ace of spades"), card(1, Suit::Spades));
        assert_eq!(c("queen hearts"), card(12, Suit::Hearts));
        assert_eq!(c("joker"), Card::Joker);
    }

    #[test]
    fn not_cards() {
        for bad in [
            "",
            " ",
            "11 cuori",
            "0 picche",
            "01 fiori",
            "re",
            "cuori",
            "re di",
            "di cuori",
            "re di cuori di picche",
            "asso di bastoni",
            "10X",
            "♠",
            "JK♠",
            "re re cuori",
        ] {
            assert!(parse_spoken_card(bad).is_err(), "{bad:?}");
        }
        let long = "a".repeat(100);
        let e = parse_spoken_card(&long).unwrap_err();
        assert!(e.token.chars().count() <= 24);
    }

    fn any_card() -> impl Strategy<Value = Card> {
        prop_oneof![
            Just(Card::Joker),
            (1u8..=13, 0usize..4).prop_map(|(n, s)| card(n, Suit::ALL[s])),
        ]
    }

    proptest! {
        /// Every card reads back from its notation and from its Italian and
        /// English names, in any case.
        #[test]
        fn names_round_trip(card in any_card(), upper in any::<bool>()) {
            for text in [card.to_string(), spoken_name(card, true), spoken_name(card, false)] {
                let text = if upper { text.to_uppercase() } else { text };
                prop_assert_eq!(parse_spoken_card(&text).unwrap(), card);
            }
        }

        /// Any text: a card or an error, never a panic.
        #[test]
        fn any_text_is_a_card_or_an_error(text in "\\PC{0,30}") {
            let _ = parse_spoken_card(&text);
        }
    }
}
