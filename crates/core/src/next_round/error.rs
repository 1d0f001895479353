//! Why no next round can be seated, and its message (`file.next_round.*`,
//! or the movement's own catalog).

use crate::i18n::{tf, Lang};
use crate::movement::groups::GroupPlanError;
use crate::movement::{IndividualMovementError, MovementError, TeamMovementError};
use crate::standings::StandingsError;

/// Why `next-round` seats nothing. [`NextRoundError::exit_code`]: 2 for a
/// file that is unreadable or invalid, 1 otherwise (FORMAT.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NextRoundError {
    /// The file cannot be scored (invalid, or a sheet breaks a rule).
    Standings(StandingsError),
    /// Every round of the plan is seated.
    PlanComplete { rounds: u32 },
    /// Tables of the last round have no result yet.
    RoundIncomplete { round: u32, tables: String },
    /// Round 1 cannot be read as a Mitchell draw (several pairs rested).
    NoMitchellLayout,
    /// A round in groups with neither groups nor a group plan.
    NoGroupPlan,
    /// The group plan cannot cut this field.
    GroupPlan(GroupPlanError),
    /// The movement refuses (no legal pairing, too few pairs…).
    Movement(MovementError),
    /// The teams' movement refuses.
    TeamMovement(TeamMovementError),
    /// The individual movement refuses (too few players…).
    IndividualMovement(IndividualMovementError),
}

impl From<IndividualMovementError> for NextRoundError {
    fn from(e: IndividualMovementError) -> Self {
        NextRoundError::IndividualMovement(e)
    }
}

impl From<MovementError> for NextRoundError {
    fn from(e: MovementError) -> Self {
        NextRoundError::Movement(e)
    }
}

impl From<StandingsError> for NextRoundError {
    fn from(e: StandingsError) -> Self {
        NextRoundError::Standings(e)
    }
}

impl From<GroupPlanError> for NextRoundError {
    fn from(e: GroupPlanError) -> Self {
        NextRoundError::GroupPlan(e)
    }
}

impl NextRoundError {
    /// 2 for an invalid file, 1 when no round can be seated.
    pub fn exit_code(&self) -> i32 {
        match self {
            NextRoundError::Standings(e) => e.exit_code(),
            _ => 1,
        }
    }

    /// The reason in `lang`.
    pub fn message(&self, lang: Lang) -> String {
        match self {
            NextRoundError::Standings(e) => e.message(lang),
            NextRoundError::PlanComplete { rounds } => {
                tf(lang, "file.next_round.plan_complete", &[("rounds", rounds)])
            }
            NextRoundError::RoundIncomplete { round, tables } => tf(
                lang,
                "file.next_round.round_incomplete",
                &[("round", round), ("tables", tables)],
            ),
            NextRoundError::NoMitchellLayout => tf(lang, "file.next_round.no_layout", &[]),
            NextRoundError::NoGroupPlan => tf(lang, "file.next_round.no_group_plan", &[]),
            NextRoundError::GroupPlan(e) => e.message(lang),
            NextRoundError::Movement(e) => e.message(lang),
            NextRoundError::TeamMovement(e) => e.message(lang),
            NextRoundError::IndividualMovement(e) => e.message(lang),
        }
    }
}
