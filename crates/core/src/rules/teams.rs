//! Team matches (RULES.md §12): the numbers of a team tournament and the
//! conversion of a match's two tables into match VP. Pure data and
//! arithmetic; the standings (`standings::teams`) call [`match_score`].
//!
//! A match is two tables: at the first the home team's first pair sits NS
//! against the away team's first pair, at the second the away team's second
//! pair sits NS against the home team's second pair. Each table is scored
//! as a pairs round (§4, §5); then:
//! - method [`TeamScoring::Tables`] (default): a team's match VP is the sum
//!   of its two tables' VP on the pairs' scale (0–40; the two teams' add up
//!   to 40 when no table is adjusted);
//! - method [`TeamScoring::Scale`]: each team's two MP differences are added
//!   and converted on the team scale the director enters (0–20, the two add
//!   up to 20 when no table is adjusted).
//!
//! Decisions where §12 is silent:
//! - **Adjusted table, method `tables`**: the referee's VP of that table
//!   count as its VP (they need not add up to 20, so the match need not add
//!   up to 40).
//! - **Adjusted table, method `scale`**: the table enters the team sum with
//!   an MP difference per side: the referee's `*_mp_diff` when set, else the
//!   lower edge of the band of the referee's VP on the pairs' scale (14 VP →
//!   +355, 6 VP → −355 on 3 hands). Each team's sum is converted on its own,
//!   so a match with an adjusted table need not add up to 20 either. The MP
//!   difference that counts in the standings is the pairs' one (the
//!   referee's, or 0): the band edge only places the table on the scale.
//! - **Team bye award**: method `tables` → twice the pairs' bye award (28
//!   VP), MP difference the sum of two tables at the lower edge of their
//!   bands (2 × 355 = 710 on 3 hands; an odd award is split as evenly as
//!   possible: 29 → 15 + 14). Method `scale` → the pairs' bye award (14 VP:
//!   28 cannot fit a 0–20 scale), MP difference the lower edge of its band
//!   on the team scale. A file's `team_bye_vp` overrides the award
//!   (0–40 with `tables`, 0–20 with `scale`).

use super::vp::{VpScale, TOTAL_VP};
use serde::Serialize;

/// Fewest and most players a team registers (§12).
pub const MIN_TEAM_PLAYERS: usize = 4;
pub const MAX_TEAM_PLAYERS: usize = 6;
/// Tables of one match.
pub const TABLES_PER_MATCH: usize = 2;
/// Players of one line (a pair).
pub const PLAYERS_PER_LINE: usize = 2;
/// The team bye award is this many times the pairs' bye award (method
/// `tables`).
pub const TEAM_BYE_FACTOR: u8 = 2;

/// How a match's two tables become match VP.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TeamScoring {
    /// Sum of the two tables' VP (0–40).
    Tables,
    /// Sum of the two tables' MP differences on a team scale (0–20).
    Scale(VpScale),
}

impl TeamScoring {
    /// `tables` or `scale`.
    pub fn code(&self) -> &'static str {
        match self {
            TeamScoring::Tables => "tables",
            TeamScoring::Scale(_) => "scale",
        }
    }

    /// The VP the two teams of a match share: 40 or 20.
    pub fn total_vp(&self) -> u8 {
        match self {
            TeamScoring::Tables => TOTAL_VP.saturating_mul(2),
            TeamScoring::Scale(_) => TOTAL_VP,
        }
    }

    /// The team bye award when the file gives none: 2 × the pairs' award
    /// (`tables`), the pairs' award (`scale`).
    pub fn default_bye_vp(&self, pairs_bye_vp: u8) -> u8 {
        match self {
            TeamScoring::Tables => pairs_bye_vp.saturating_mul(TEAM_BYE_FACTOR),
            TeamScoring::Scale(_) => pairs_bye_vp,
        }
        .min(self.total_vp())
    }

    /// The MP difference a resting team counts (see the module doc).
    pub fn bye_mp_diff(&self, pairs_scale: &VpScale, team_bye_vp: u8) -> i64 {
        match self {
            TeamScoring::Tables => {
                let v = team_bye_vp.min(self.total_vp());
                let low = v / 2;
                let high = v.saturating_sub(low);
                pairs_scale
                    .lower_edge_of(high)
                    .saturating_add(pairs_scale.lower_edge_of(low))
            }
            TeamScoring::Scale(scale) => scale.lower_edge_of(team_bye_vp),
        }
    }
}

/// One table of a match as the home team sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableScore {
    /// Scored from the sheet: each side's MP after its MP penalties.
    Sheet { home_mp: i64, away_mp: i64 },
    /// The referee's adjusted score (RULES.md §9).
    Adjusted {
        home_vp: i64,
        away_vp: i64,
        home_mp_diff: Option<i64>,
        away_mp_diff: Option<i64>,
    },
}

/// One table's result, per side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct TableResult {
    /// Pairs' VP of the table (the sheet's on the pairs' scale, or the
    /// referee's).
    pub home_vp: i64,
    pub away_vp: i64,
    /// What the table adds to each side's MP difference in the standings.
    pub home_mp_diff: i64,
    pub away_mp_diff: i64,
    /// Each side's MP (sheets only).
    pub home_mp: Option<i64>,
    pub away_mp: Option<i64>,
}

/// A whole match's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MatchScore {
    pub home_vp: i64,
    pub away_vp: i64,
    /// Σ of the tables' MP differences (standings).
    pub home_mp_diff: i64,
    pub away_mp_diff: i64,
    /// Σ of the MP of the tables scored from their sheets.
    pub home_mp: i64,
    pub away_mp: i64,
    pub tables: [TableResult; TABLES_PER_MATCH],
}

/// One table on the pairs' scale.
pub fn table_result(pairs_scale: &VpScale, score: &TableScore) -> TableResult {
    match *score {
        TableScore::Sheet { home_mp, away_mp } => {
            let diff = home_mp.saturating_sub(away_mp);
            let (h, a) = pairs_scale.vp_for_difference(diff);
            TableResult {
                home_vp: i64::from(h),
                away_vp: i64::from(a),
                home_mp_diff: diff,
                away_mp_diff: diff.saturating_neg(),
                home_mp: Some(home_mp),
                away_mp: Some(away_mp),
            }
        }
        TableScore::Adjusted {
            home_vp,
            away_vp,
            home_mp_diff,
            away_mp_diff,
        } => TableResult {
            home_vp,
            away_vp,
            home_mp_diff: home_mp_diff.unwrap_or(0),
            away_mp_diff: away_mp_diff.unwrap_or(0),
            home_mp: None,
            away_mp: None,
        },
    }
}

/// The MP difference a table puts into a team's sum under the `scale`
/// method, for one side (see the module doc for adjusted tables).
fn scale_diff(pairs_scale: &VpScale, score: &TableScore, home: bool) -> i64 {
    match *score {
        TableScore::Sheet { home_mp, away_mp } => {
            let d = home_mp.saturating_sub(away_mp);
            if home {
                d
            } else {
                d.saturating_neg()
            }
        }
        TableScore::Adjusted {
            home_vp,
            away_vp,
            home_mp_diff,
            away_mp_diff,
        } => {
            let (vp, given) = if home {
                (home_vp, home_mp_diff)
            } else {
                (away_vp, away_mp_diff)
            };
            given.unwrap_or_else(|| {
                let vp = u8::try_from(vp.clamp(0, i64::from(TOTAL_VP))).unwrap_or(0);
                pairs_scale.lower_edge_of(vp)
            })
        }
    }
}

/// A match's VP, MP difference and MP for both teams.
pub fn match_score(
    scoring: &TeamScoring,
    pairs_scale: &VpScale,
    tables: &[TableScore; TABLES_PER_MATCH],
) -> MatchScore {
    let results = tables.map(|t| table_result(pairs_scale, &t));
    let sum =
        |f: fn(&TableResult) -> i64| results.iter().fold(0i64, |acc, r| acc.saturating_add(f(r)));
    let (home_vp, away_vp) = match scoring {
        TeamScoring::Tables => (sum(|r| r.home_vp), sum(|r| r.away_vp)),
        TeamScoring::Scale(team_scale) => {
            let side = |home: bool| {
                tables.iter().fold(0i64, |acc, t| {
                    acc.saturating_add(scale_diff(pairs_scale, t, home))
                })
            };
            let adjusted = tables
                .iter()
                .any(|t| matches!(t, TableScore::Adjusted { .. }));
            let (h, a) = team_scale.vp_for_difference(side(true));
            if adjusted {
                let (a_own, _) = team_scale.vp_for_difference(side(false));
                (i64::from(h), i64::from(a_own))
            } else {
                (i64::from(h), i64::from(a))
            }
        }
    };
    MatchScore {
        home_vp,
        away_vp,
        home_mp_diff: sum(|r| r.home_mp_diff),
        away_mp_diff: sum(|r| r.away_mp_diff),
        home_mp: sum(|r| r.home_mp.unwrap_or(0)),
        away_mp: sum(|r| r.away_mp.unwrap_or(0)),
        tables: results,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn sheet(home_mp: i64, away_mp: i64) -> TableScore {
        TableScore::Sheet { home_mp, away_mp }
    }

    /// A team scale twice the 3-hand pairs' scale.
    fn team_scale() -> VpScale {
        VpScale::parse(vec![100, 300, 500, 700, 1000, 1300, 1600, 2000, 2500, 3000]).unwrap()
    }

    #[test]
    fn tables_method_adds_the_two_tables_vp() {
        let s = VpScale::three_hands();
        // Table 1: home +400 → 14–6. Table 2: home −160 → 8–12.
        let m = match_score(
            &TeamScoring::Tables,
            &s,
            &[sheet(900, 500), sheet(300, 460)],
        );
        assert_eq!((m.home_vp, m.away_vp), (22, 18));
        assert_eq!((m.home_mp_diff, m.away_mp_diff), (240, -240));
        assert_eq!((m.home_mp, m.away_mp), (1200, 960));
        assert_eq!(m.tables[0].home_vp, 14);
        assert_eq!(m.tables[1].away_vp, 12);
        // A rout at both tables: 40–0.
        let m = match_score(&TeamScoring::Tables, &s, &[sheet(2000, 0), sheet(1600, 0)]);
        assert_eq!((m.home_vp, m.away_vp), (40, 0));
    }

    #[test]
    fn scale_method_converts_the_sum_of_differences() {
        let s = VpScale::three_hands();
        let team = TeamScoring::Scale(team_scale());
        // +400 and −160: sum +240 → band ≤300 → 11–9 on the team scale.
        let m = match_score(&team, &s, &[sheet(900, 500), sheet(300, 460)]);
        assert_eq!((m.home_vp, m.away_vp), (11, 9));
        assert_eq!((m.home_mp_diff, m.away_mp_diff), (240, -240));
        // Tables still show their pairs' VP.
        assert_eq!((m.tables[0].home_vp, m.tables[1].home_vp), (14, 8));
        // +1000 and +1100: 2100 → 18–2; the tables method gives 17 + 18.
        let m = match_score(&team, &s, &[sheet(1000, 0), sheet(1100, 0)]);
        assert_eq!((m.home_vp, m.away_vp), (18, 2));
        let m = match_score(&TeamScoring::Tables, &s, &[sheet(1000, 0), sheet(1100, 0)]);
        assert_eq!((m.home_vp, m.away_vp), (17 + 18, 3 + 2));
    }

    #[test]
    fn adjusted_tables() {
        let s = VpScale::three_hands();
        let adj = TableScore::Adjusted {
            home_vp: 14,
            away_vp: 6,
            home_mp_diff: None,
            away_mp_diff: None,
        };
        // tables: 14 + 10 = 24, 6 + 10 = 16.
        let m = match_score(&TeamScoring::Tables, &s, &[adj, sheet(500, 500)]);
        assert_eq!((m.home_vp, m.away_vp), (24, 16));
        assert_eq!((m.home_mp_diff, m.away_mp_diff), (0, 0));
        // scale: the adjusted 14 VP counts +355 (its band's edge), 6 VP −355.
        let team = TeamScoring::Scale(team_scale());
        let m = match_score(&team, &s, &[adj, sheet(500, 500)]);
        assert_eq!((m.home_vp, m.away_vp), (12, 8));
        // Both lines punished: 6 and 6 → −355 each → each team 8.
        let both = TableScore::Adjusted {
            home_vp: 6,
            away_vp: 6,
            home_mp_diff: None,
            away_mp_diff: None,
        };
        let m = match_score(&team, &s, &[both, sheet(500, 500)]);
        assert_eq!((m.home_vp, m.away_vp), (8, 8));
        // A referee's MP difference wins over the band edge.
        let set = TableScore::Adjusted {
            home_vp: 14,
            away_vp: 6,
            home_mp_diff: Some(1200),
            away_mp_diff: Some(-1200),
        };
        let m = match_score(&team, &s, &[set, sheet(500, 500)]);
        assert_eq!((m.home_vp, m.away_vp), (15, 5));
        assert_eq!((m.home_mp_diff, m.away_mp_diff), (1200, -1200));
    }

    #[test]
    fn team_bye_award_and_its_mp_difference() {
        let three = VpScale::three_hands();
        let four = VpScale::four_hands();
        let t = TeamScoring::Tables;
        assert_eq!(t.default_bye_vp(14), 28);
        assert_eq!(t.bye_mp_diff(&three, 28), 710);
        assert_eq!(t.bye_mp_diff(&four, 28), 1410);
        assert_eq!(t.bye_mp_diff(&three, 29), 505 + 355);
        assert_eq!(t.bye_mp_diff(&three, 20), 0);
        assert_eq!(t.total_vp(), 40);
        let sc = TeamScoring::Scale(team_scale());
        assert_eq!(sc.default_bye_vp(14), 14);
        assert_eq!(sc.bye_mp_diff(&three, 14), 705);
        assert_eq!(sc.total_vp(), 20);
        assert_eq!((t.code(), sc.code()), ("tables", "scale"));
    }

    proptest! {
        #[test]
        fn match_vp_add_up_without_adjusted_tables(
            a in -300i64..300, b in -300i64..300, c in -300i64..300, d in -300i64..300,
        ) {
            let s = VpScale::three_hands();
            let tables = [sheet(a * 5, b * 5), sheet(c * 5, d * 5)];
            let m = match_score(&TeamScoring::Tables, &s, &tables);
            prop_assert_eq!(m.home_vp + m.away_vp, 40);
            prop_assert_eq!(m.home_mp_diff, -m.away_mp_diff);
            let m = match_score(&TeamScoring::Scale(team_scale()), &s, &tables);
            prop_assert_eq!(m.home_vp + m.away_vp, 20);
            prop_assert!((0..=20).contains(&m.home_vp));
        }
    }
}
