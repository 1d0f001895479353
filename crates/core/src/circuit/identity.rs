//! Who is who across tournaments (RULES.md §11): two entries of players are
//! the same person when both carry a card number and the numbers match
//! (trimmed, case-insensitive); when either has no card, when surname and
//! name match ignoring case, accents and extra spaces.
//!
//! The rule is not transitive: a card-less "Rossi Maria" matches both card
//! AB1 "Rossi Maria" and card CD2 "Rossi Maria", who are two people.
//! [`Resolver`] decides (a decision of the team, RULES.md is silent):
//! - every card number is one person, whatever names it comes with;
//! - a card-less entry joins the card holder seen with that name when there
//!   is exactly one; with none it is a person of its own (every card-less
//!   entry with that name together); with two or more it is also a person of
//!   its own: two card holders are never merged and the program does not
//!   guess which of them it was.
//!
//! Keys are values ([`PersonKey`]: the normalised card, or the normalised
//! name), not counters, so the same files give the same keys whatever the
//! order they are read in.

use crate::tournament_file::{Player, TournamentFile};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// A person's name and card as an entry carries them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct PersonName {
    pub surname: String,
    pub name: String,
    pub card: Option<String>,
}

impl PersonName {
    pub fn new(surname: &str, name: &str, card: Option<&str>) -> PersonName {
        PersonName {
            surname: surname.to_string(),
            name: name.to_string(),
            card: card.map(str::to_string),
        }
    }

    /// A tournament file's player.
    pub fn of(player: &Player) -> PersonName {
        PersonName::new(&player.surname, &player.name, player.card.as_deref())
    }

    /// [`normalize_name`] of this name.
    pub fn normalized_name(&self) -> String {
        normalize_name(&self.surname, &self.name)
    }

    /// [`normalize_card`] of this card.
    pub fn normalized_card(&self) -> Option<String> {
        self.card.as_deref().and_then(normalize_card)
    }
}

/// The separator of surname and name in [`normalize_name`]: a tab, which
/// cannot survive the collapsing of white space.
const NAME_SEPARATOR: char = '\t';

/// Surname and name compared as §11 says: lower case, accents removed
/// (`à`→`a`, `ç`→`c`, `œ`→`oe`, `ß`→`ss`: Latin-1 and Latin Extended-A,
/// and any combining accent), typographic apostrophes as `'`, white space
/// trimmed and collapsed to one space. Surname and name stay apart (joined
/// by a tab), so "Rossi" "Maria Luisa" ≠ "Rossi Maria" "Luisa".
/// `("Rossi", "Marìa")` and `(" ROSSI ", "MARIA")` give the same text.
pub fn normalize_name(surname: &str, name: &str) -> String {
    let mut out = fold(surname);
    out.push(NAME_SEPARATOR);
    out.push_str(&fold(name));
    out
}

/// A card number compared as §11 says: trimmed, case-insensitive; an empty
/// card is no card.
pub fn normalize_card(card: &str) -> Option<String> {
    let t = card.trim();
    (!t.is_empty()).then(|| t.to_lowercase())
}

/// The §11 rule itself: same card when both have one, else same name.
pub fn same_person(a: &PersonName, b: &PersonName) -> bool {
    match (a.normalized_card(), b.normalized_card()) {
        (Some(x), Some(y)) => x == y,
        _ => a.normalized_name() == b.normalized_name(),
    }
}

/// One text lower-cased, without accents, white space collapsed.
fn fold(text: &str) -> String {
    let mut folded = String::with_capacity(text.len());
    for c in text.chars().flat_map(char::to_lowercase) {
        match base_letters(c) {
            Some(s) => folded.push_str(s),
            None if is_combining_mark(c) => {}
            None => folded.push(c),
        }
    }
    folded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Combining diacritical marks (a decomposed `i` + `̀`).
fn is_combining_mark(c: char) -> bool {
    ('\u{0300}'..='\u{036F}').contains(&c)
}

/// The letters without accent of a lower-case accented letter (Latin-1
/// Supplement and Latin Extended-A; upper-case ones of Extended-A too), and
/// `'` for typographic apostrophes.
fn base_letters(c: char) -> Option<&'static str> {
    let s = match c {
        'à'..='å' => "a",
        'æ' => "ae",
        'ç' => "c",
        'è'..='ë' => "e",
        'ì'..='ï' => "i",
        'ð' => "d",
        'ñ' => "n",
        'ò'..='ö' | 'ø' => "o",
        'ù'..='ü' => "u",
        'ý' | 'ÿ' => "y",
        'þ' => "th",
        'ß' => "ss",
        '\u{2018}' | '\u{2019}' | '\u{02BC}' | '\u{0060}' | '\u{00B4}' => "'",
        '\u{0100}'..='\u{0105}' => "a",
        '\u{0106}'..='\u{010D}' => "c",
        '\u{010E}'..='\u{0111}' => "d",
        '\u{0112}'..='\u{011B}' => "e",
        '\u{011C}'..='\u{0123}' => "g",
        '\u{0124}'..='\u{0127}' => "h",
        '\u{0128}'..='\u{0131}' => "i",
        '\u{0132}'..='\u{0133}' => "ij",
        '\u{0134}'..='\u{0135}' => "j",
        '\u{0136}'..='\u{0138}' => "k",
        '\u{0139}'..='\u{0142}' => "l",
        '\u{0143}'..='\u{014B}' => "n",
        '\u{014C}'..='\u{0151}' => "o",
        '\u{0152}'..='\u{0153}' => "oe",
        '\u{0154}'..='\u{0159}' => "r",
        '\u{015A}'..='\u{0161}' => "s",
        '\u{0162}'..='\u{0167}' => "t",
        '\u{0168}'..='\u{0173}' => "u",
        '\u{0174}'..='\u{0175}' => "w",
        '\u{0176}'..='\u{0178}' => "y",
        '\u{0179}'..='\u{017E}' => "z",
        '\u{017F}' => "s",
        _ => return None,
    };
    Some(s)
}

/// The key [`Resolver`] gives a person: ordered and comparable, the same
/// for the same files in any order.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PersonKey {
    /// A card holder (the normalised card number).
    Card(String),
    /// A person known only by name (the normalised name).
    Name(String),
}

/// Assigns [`PersonKey`]s by the §11 rule. Observe every entry first (all
/// the circuit's files), then ask for keys: a card-less entry's key depends
/// on the card holders seen with its name.
#[derive(Debug, Clone, Default)]
pub struct Resolver {
    /// Normalised name → the normalised cards seen with it.
    cards_by_name: BTreeMap<String, BTreeSet<String>>,
}

impl Resolver {
    pub fn new() -> Resolver {
        Resolver::default()
    }

    /// Notes one entry of a person.
    pub fn observe(&mut self, person: &PersonName) {
        if let Some(card) = person.normalized_card() {
            self.cards_by_name
                .entry(person.normalized_name())
                .or_default()
                .insert(card);
        }
    }

    /// Notes the players of every entry of a tournament (no-shows are not
    /// entries: RULES.md §10).
    pub fn observe_file(&mut self, file: &TournamentFile) {
        for pair in file.pairs.iter().filter(|p| p.is_entry()) {
            for player in &pair.players {
                self.observe(&PersonName::of(player));
            }
        }
    }

    /// A resolver that has observed these files.
    pub fn from_files<'a>(files: impl IntoIterator<Item = &'a TournamentFile>) -> Resolver {
        let mut r = Resolver::new();
        for f in files {
            r.observe_file(f);
        }
        r
    }

    /// The person's key: its card; without a card, the one card holder seen
    /// with this name, else the name.
    pub fn key(&self, person: &PersonName) -> PersonKey {
        if let Some(card) = person.normalized_card() {
            return PersonKey::Card(card);
        }
        let name = person.normalized_name();
        match self.cards_by_name.get(&name) {
            Some(cards) if cards.len() == 1 => match cards.first() {
                Some(card) => PersonKey::Card(card.clone()),
                None => PersonKey::Name(name),
            },
            _ => PersonKey::Name(name),
        }
    }

    /// [`Resolver::key`] of a tournament file's player.
    pub fn key_of(&self, player: &Player) -> PersonKey {
        self.key(&PersonName::of(player))
    }
}
