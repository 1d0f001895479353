//! The JSON of `burraco-td movement mitchell --pairs N --rounds R
//! [--advance K] [--seed S]` (the command-line parsing lives with the CLI):
//!
//! ```json
//! {"tables":T,"rounds":[{"round":1,"tables":[{"table":1,"fixed":3,"moving":8}],"bye":null}]}
//! ```
//!
//! Decisions: pairs are numbered 1..=N and drawn with the seed; `"tables"` is
//! the number of tables of the movement, ⌈N/2⌉; a round's `"tables"` lists
//! only the tables where two pairs play, so the phantom's table is left out
//! in the rounds where a pair rests and every pair appears exactly once per
//! round, at a table or as `"bye"` (null when nobody rests). An impossible
//! plan is an `Err` whose `Display` is the reason: the CLI prints it and
//! exits with status 2.

use super::draw::first_round_draw;
use super::error::MovementError;
use super::mitchell::{schedule, MitchellPlan};
use super::seating::{PairNo, TableNo, MAX_PAIRS, MIN_PAIRS};
use serde::{Deserialize, Serialize};

/// The whole printed document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MitchellJson {
    pub tables: u32,
    pub rounds: Vec<MitchellJsonRound>,
}

/// One round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MitchellJsonRound {
    pub round: u32,
    pub tables: Vec<MitchellJsonTable>,
    pub bye: Option<PairNo>,
}

/// One played table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MitchellJsonTable {
    pub table: TableNo,
    pub fixed: PairNo,
    pub moving: PairNo,
}

/// Draws pairs 1..=`pairs` with `seed` and lays out `rounds` Mitchell rounds
/// advancing `advance` tables (the CLI's default is 1).
pub fn mitchell_json(
    pairs: u32,
    rounds: u32,
    advance: u32,
    seed: u64,
    allow_repeats: bool,
) -> Result<MitchellJson, MovementError> {
    let n = pairs as usize;
    if n < MIN_PAIRS {
        return Err(MovementError::TooFewPairs {
            pairs: n,
            min: MIN_PAIRS,
        });
    }
    if n > MAX_PAIRS {
        return Err(MovementError::TooManyPairs {
            pairs: n,
            max: MAX_PAIRS,
        });
    }
    let numbers: Vec<PairNo> = (1..=pairs).collect();
    let layout = first_round_draw(&numbers, seed)?;
    let plan = MitchellPlan {
        tables: layout.tables,
        rounds,
        advance,
        allow_repeats,
    };
    plan.validate()?;
    let rounds = schedule(&layout, &plan, &[])?
        .into_iter()
        .map(|r| MitchellJsonRound {
            round: r.round,
            tables: r
                .tables
                .iter()
                .filter_map(|s| match (s.ns, s.ew) {
                    (Some(fixed), Some(moving)) => Some(MitchellJsonTable {
                        table: s.table,
                        fixed,
                        moving,
                    }),
                    _ => None,
                })
                .collect(),
            bye: r.byes.first().copied(),
        })
        .collect();
    Ok(MitchellJson {
        tables: layout.tables,
        rounds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shape_matches_the_documented_json() {
        let doc = mitchell_json(8, 2, 1, 1, false).unwrap();
        let v = serde_json::to_value(&doc).unwrap();
        assert_eq!(v["tables"], 4);
        assert_eq!(v["rounds"].as_array().unwrap().len(), 2);
        let r1 = &v["rounds"][0];
        assert_eq!(r1["round"], 1);
        assert!(r1["bye"].is_null());
        let t1 = &r1["tables"][0];
        assert_eq!(t1["table"], 1);
        assert!(t1["fixed"].is_u64() && t1["moving"].is_u64());
        let text = serde_json::to_string(&doc).unwrap();
        assert!(text.starts_with(
            "{\"tables\":4,\"rounds\":[{\"round\":1,\"tables\":[{\"table\":1,\"fixed\":"
        ));
    }

    #[test]
    fn odd_count_has_one_bye_and_leaves_the_phantom_table_out() {
        let doc = mitchell_json(11, 6, 1, 99, false).unwrap();
        assert_eq!(doc.tables, 6);
        let mut rested = Vec::new();
        for r in &doc.rounds {
            assert_eq!(r.tables.len(), 5);
            let bye = r.bye.unwrap();
            assert!(r.tables.iter().all(|t| t.fixed != bye && t.moving != bye));
            rested.push(bye);
        }
        rested.sort_unstable();
        rested.dedup();
        assert_eq!(rested.len(), 6, "six different pairs rest");
    }

    #[test]
    fn impossible_plans_give_the_reason() {
        let e = mitchell_json(8, 5, 1, 1, false).unwrap_err();
        assert_eq!(e.code(), "TOO_MANY_ROUNDS_FOR_TABLES");
        assert!(e.to_string().contains("too many rounds for the tables"));
        let e = mitchell_json(12, 4, 2, 1, false).unwrap_err();
        assert_eq!(e.code(), "ADVANCE_SHARES_FACTOR");
        assert!(
            e.to_string()
                .contains("shares the factor 2 with the 6 tables"),
            "{e}"
        );
        assert!(mitchell_json(12, 3, 2, 1, false).is_ok());
        assert!(mitchell_json(12, 4, 2, 1, true).is_ok());
        assert!(matches!(
            mitchell_json(2, 1, 1, 1, false),
            Err(MovementError::TooFewPairs { .. })
        ));
        assert!(matches!(
            mitchell_json(8, 1, 4, 1, false),
            Err(MovementError::AdvanceOutOfRange { .. })
        ));
        assert!(matches!(
            mitchell_json(8, 0, 1, 1, false),
            Err(MovementError::RoundsOutOfRange { .. })
        ));
    }
}
