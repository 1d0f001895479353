//! Rule profiles: every number of the game, as data (RULES.md §1–§4).
//!
//! Nothing else in the rules engine writes a bonus, a card value or a limit as
//! a literal: it asks the profile. VP scales are data too, in [`super::vp`].

use serde::{Deserialize, Serialize};
use std::fmt;

/// The five kinds of burraco, best first (RULES.md §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum BurracoType {
    Royal,
    Super,
    Clean,
    SemiClean,
    Dirty,
}

impl BurracoType {
    /// All kinds, in the order they are tried (the first that fits counts).
    pub const ALL: [BurracoType; 5] = [
        BurracoType::Royal,
        BurracoType::Super,
        BurracoType::Clean,
        BurracoType::SemiClean,
        BurracoType::Dirty,
    ];

    /// The stable code (`royal`, `super`, `clean`, `semi_clean`, `dirty`),
    /// also the field name on a score sheet and the catalog key suffix.
    pub fn code(self) -> &'static str {
        match self {
            BurracoType::Royal => "royal",
            BurracoType::Super => "super",
            BurracoType::Clean => "clean",
            BurracoType::SemiClean => "semi_clean",
            BurracoType::Dirty => "dirty",
        }
    }

    /// Catalog key of the type's name (`rules.burraco.clean`…).
    pub fn catalog_key(self) -> String {
        format!("rules.burraco.{}", self.code())
    }

    /// Whether the burraco holds a wild card (dirty and semi-clean do).
    pub fn has_wild_card(self) -> bool {
        matches!(self, BurracoType::SemiClean | BurracoType::Dirty)
    }
}

impl fmt::Display for BurracoType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// What one kind of burraco is worth and the least it can be made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BurracoRule {
    /// Bonus in match points.
    pub bonus: i64,
    /// The least card points such a burraco can carry (the cheapest cards
    /// that make one): used to check a sheet's melded points.
    pub min_points: i64,
    /// The least number of cards such a burraco has.
    pub min_cards: i64,
}

/// Points of each card (RULES.md §1, the Code art. 21).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CardPoints {
    /// 3 4 5 6 7.
    pub low: i64,
    /// 8 9 10 J Q K.
    pub high: i64,
    pub ace: i64,
    /// A 2 (pinella), wild or natural.
    pub two: i64,
    pub joker: i64,
}

/// The shape of melds (RULES.md §2, the Code art. 9–13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MeldLimits {
    /// Least cards in any meld.
    pub min_cards: usize,
    /// Least natural (non-wild) cards in any meld: 2 (RULES.md §2, seeds
    /// `003_…` and `004_…`: 7-8-pinella is a sequence). With at least 3 cards
    /// and at most one wild card this is already implied; a profile that
    /// wants three naturals sets 3 here.
    pub min_naturals: usize,
    /// Most natural cards in a set (8 → 9 cards with the wild card).
    pub max_set_naturals: usize,
    /// Most wild cards in a meld (a 2 in its natural place is not wild).
    pub max_wild_cards: usize,
    /// Least cards of a burraco.
    pub burraco_min_cards: usize,
    /// Least natural cards in an unbroken run beside the wild card for a
    /// semi-clean burraco.
    pub semi_clean_min_run: usize,
    /// Natural cards of a super burraco (a set, no wild card).
    pub super_naturals: usize,
    /// Natural cards of a royal burraco (a sequence A→K or 2→A, no wild card).
    pub royal_naturals: usize,
    /// Copies of one card in the deck (two French decks).
    pub max_copies: usize,
}

/// A named set of rules. See [`RuleProfile::by_name`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleProfile {
    pub name: &'static str,
    /// `None` when the profile does not know the type: such a burraco counts
    /// as clean (see [`RuleProfile::effective_type`]).
    pub royal: Option<BurracoRule>,
    #[serde(rename = "super")]
    pub super_: Option<BurracoRule>,
    pub clean: BurracoRule,
    pub semi_clean: BurracoRule,
    pub dirty: BurracoRule,
    /// Bonus to the line that closes.
    pub closing_bonus: i64,
    /// Penalty for a pozzetto never taken (a positive number, subtracted).
    pub pozzetto_penalty: i64,
    /// Wild cards in the deck (4 jokers + 8 twos).
    pub wild_cards: i64,
    pub deck_cards: i64,
    /// Points of the whole deck.
    pub deck_points: i64,
    /// Every card value and bonus is a multiple of this.
    pub points_step: i64,
    pub card_points: CardPoints,
    pub meld: MeldLimits,
}

const CARD_POINTS: CardPoints = CardPoints {
    low: 5,
    high: 10,
    ace: 15,
    two: 20,
    joker: 30,
};

const MELD_LIMITS: MeldLimits = MeldLimits {
    min_cards: 3,
    min_naturals: 2,
    max_set_naturals: 8,
    max_wild_cards: 1,
    burraco_min_cards: 7,
    semi_clean_min_run: 7,
    super_naturals: 8,
    royal_naturals: 13,
    max_copies: 2,
};

// Least points: clean 7×5 = 35 (a set of seven 3s); semi-clean seven 5-point
// naturals + a 20-point 2 = 55;
// dirty six 5-point naturals + a 2 = 50; super eight 5-point cards = 40;
// royal A..K = 15+20+5×5+6×10 = 120.
const CLEAN: BurracoRule = BurracoRule {
    bonus: 200,
    min_points: 35,
    min_cards: 7,
};
const SEMI_CLEAN: BurracoRule = BurracoRule {
    bonus: 150,
    min_points: 55,
    min_cards: 8,
};
const DIRTY: BurracoRule = BurracoRule {
    bonus: 100,
    min_points: 50,
    min_cards: 7,
};

/// `codice`: the tournament Code (seed 002), the default.
pub static CODICE: RuleProfile = RuleProfile {
    name: "codice",
    royal: Some(BurracoRule {
        bonus: 300,
        min_points: 120,
        min_cards: 13,
    }),
    super_: Some(BurracoRule {
        bonus: 250,
        min_points: 40,
        min_cards: 8,
    }),
    clean: CLEAN,
    semi_clean: SEMI_CLEAN,
    dirty: DIRTY,
    closing_bonus: 100,
    pozzetto_penalty: 100,
    wild_cards: 12,
    deck_cards: 108,
    deck_points: 1080,
    points_step: 5,
    card_points: CARD_POINTS,
    meld: MELD_LIMITS,
};

/// `classic`: no royal and no super burraco (they count as clean).
pub static CLASSIC: RuleProfile = RuleProfile {
    name: "classic",
    royal: None,
    super_: None,
    clean: CLEAN,
    semi_clean: SEMI_CLEAN,
    dirty: DIRTY,
    closing_bonus: 100,
    pozzetto_penalty: 100,
    wild_cards: 12,
    deck_cards: 108,
    deck_points: 1080,
    points_step: 5,
    card_points: CARD_POINTS,
    meld: MELD_LIMITS,
};

/// Every profile the program knows, the default first.
pub static PROFILES: [&RuleProfile; 2] = [&CODICE, &CLASSIC];

impl RuleProfile {
    /// The default profile (`codice`).
    pub fn default_profile() -> &'static RuleProfile {
        &CODICE
    }

    /// A profile by name, case-insensitive (`codice`, `classic`).
    pub fn by_name(name: &str) -> Option<&'static RuleProfile> {
        let name = name.trim();
        PROFILES
            .iter()
            .copied()
            .find(|p| p.name.eq_ignore_ascii_case(name))
    }

    /// Names of all profiles.
    pub fn names() -> Vec<&'static str> {
        PROFILES.iter().map(|p| p.name).collect()
    }

    /// Whether the profile knows this kind of burraco.
    pub fn has_type(&self, t: BurracoType) -> bool {
        self.declared_rule(t).is_some()
    }

    fn declared_rule(&self, t: BurracoType) -> Option<&BurracoRule> {
        match t {
            BurracoType::Royal => self.royal.as_ref(),
            BurracoType::Super => self.super_.as_ref(),
            BurracoType::Clean => Some(&self.clean),
            BurracoType::SemiClean => Some(&self.semi_clean),
            BurracoType::Dirty => Some(&self.dirty),
        }
    }

    /// The type a burraco counts as under this profile: royal and super
    /// count as clean in a profile without them.
    pub fn effective_type(&self, t: BurracoType) -> BurracoType {
        if self.has_type(t) {
            t
        } else {
            BurracoType::Clean
        }
    }

    /// The rule (bonus, least points, least cards) a burraco counts by.
    pub fn rule(&self, t: BurracoType) -> &BurracoRule {
        self.declared_rule(t).unwrap_or(&self.clean)
    }

    /// The bonus a burraco of this type earns under this profile.
    pub fn bonus(&self, t: BurracoType) -> i64 {
        self.rule(t).bonus
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_by_name() {
        assert_eq!(
            RuleProfile::by_name("codice").map(|p| p.name),
            Some("codice")
        );
        assert_eq!(
            RuleProfile::by_name(" Classic ").map(|p| p.name),
            Some("classic")
        );
        assert!(RuleProfile::by_name("casa").is_none());
        assert_eq!(RuleProfile::default_profile().name, "codice");
    }

    #[test]
    fn codice_bonuses() {
        let p = &CODICE;
        assert_eq!(p.bonus(BurracoType::Royal), 300);
        assert_eq!(p.bonus(BurracoType::Super), 250);
        assert_eq!(p.bonus(BurracoType::Clean), 200);
        assert_eq!(p.bonus(BurracoType::SemiClean), 150);
        assert_eq!(p.bonus(BurracoType::Dirty), 100);
        assert_eq!(p.closing_bonus, 100);
        assert_eq!(p.pozzetto_penalty, 100);
    }

    #[test]
    fn classic_counts_royal_and_super_as_clean() {
        let p = &CLASSIC;
        assert!(!p.has_type(BurracoType::Royal));
        assert!(!p.has_type(BurracoType::Super));
        assert_eq!(p.effective_type(BurracoType::Royal), BurracoType::Clean);
        assert_eq!(p.bonus(BurracoType::Royal), 200);
        assert_eq!(p.bonus(BurracoType::Super), 200);
        assert_eq!(p.bonus(BurracoType::SemiClean), 150);
    }

    #[test]
    fn least_points_follow_from_card_values() {
        let c = CODICE.card_points;
        assert_eq!(CODICE.clean.min_points, 7 * c.low);
        assert_eq!(CODICE.semi_clean.min_points, 7 * c.low + c.two);
        assert_eq!(CODICE.dirty.min_points, 6 * c.low + c.two);
        assert_eq!(CODICE.super_.map(|r| r.min_points), Some(8 * c.low));
        assert_eq!(
            CODICE.royal.map(|r| r.min_points),
            Some(c.ace + c.two + 5 * c.low + 6 * c.high)
        );
    }

    #[test]
    fn deck_adds_up() {
        let c = CODICE.card_points;
        // Per deck: 4 aces, 4 twos, 20 low, 24 high; two decks and 4 jokers.
        let deck = 2 * (4 * c.ace + 4 * c.two + 20 * c.low + 24 * c.high) + 4 * c.joker;
        assert_eq!(deck, CODICE.deck_points);
        assert_eq!(2 * 52 + 4, CODICE.deck_cards);
        assert_eq!(2 * 4 + 4, CODICE.wild_cards);
    }
}
