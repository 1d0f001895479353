//! The groups of a big field in a pairs file (FORMAT.md "Plans, groups and
//! prizes per group", RULES.md §13): the groups as cut and the prizes per
//! group. How the groups are made (`group_plan`) is the movement's
//! [`GroupPlan`](crate::movement::groups::GroupPlan).

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// One group as it was cut: its name (`A`, `B`…) and its pairs in the
/// standings order of the cut.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GroupFile {
    pub name: String,
    pub pairs: Vec<u32>,
}

/// A group's prizes: its share of the pool (percent) and its payout scheme
/// (percent per place in the group).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct GroupPrizeFile {
    pub group: String,
    pub share_percent: Decimal,
    pub scheme: Vec<Decimal>,
}
