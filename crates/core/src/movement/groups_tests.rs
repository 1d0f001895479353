//! The cut into groups: the worked cases of RULES.md §13.

use super::*;

fn field(n: u32) -> Vec<u32> {
    (1..=n).collect()
}

#[test]
fn tables_given_per_group_cut_in_standings_order() {
    // 50 pairs: A 7 tables (14 pairs), B 9 (18), C takes the 18 left.
    let ranking: Vec<u32> = (1..=50).rev().collect();
    let groups = cut_into_groups(&ranking, &GroupPlan::Tables(vec![7, 9, 9])).unwrap();
    let names: Vec<_> = groups.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(names, ["A", "B", "C"]);
    let sizes: Vec<_> = groups.iter().map(|g| g.members.len()).collect();
    assert_eq!(sizes, [14, 18, 18]);
    assert_eq!(groups[0].members[..3], [50, 49, 48], "the leaders in A");
    assert_eq!(first_tables(&groups), [1, 8, 17]);
    // The last group takes every pair left, whatever its own number says:
    // 51 pairs put the resting one in C.
    let groups = cut_into_groups(&field(51), &GroupPlan::Tables(vec![7, 9, 1])).unwrap();
    assert_eq!(groups[2].members.len(), 19);
    assert_eq!(
        tables_per_group(51, &GroupPlan::Tables(vec![7, 9, 1])).unwrap(),
        [7, 9, 9]
    );
}

#[test]
fn a_number_of_groups_shares_the_tables_evenly_the_extra_ones_last() {
    // 25 tables in 3 groups: 8, 8, 9.
    assert_eq!(
        tables_per_group(50, &GroupPlan::Count(3)).unwrap(),
        [8, 8, 9]
    );
    assert_eq!(
        tables_per_group(51, &GroupPlan::Count(3)).unwrap(),
        [8, 8, 9]
    );
    let groups = cut_into_groups(&field(51), &GroupPlan::Count(3)).unwrap();
    let sizes: Vec<_> = groups.iter().map(|g| g.members.len()).collect();
    assert_eq!(sizes, [16, 16, 19], "the odd pair rests in the last group");
    // 26 tables in 4: 6, 6, 7, 7.
    assert_eq!(
        tables_per_group(52, &GroupPlan::Count(4)).unwrap(),
        [6, 6, 7, 7]
    );
    assert_eq!(tables_per_group(8, &GroupPlan::Count(1)).unwrap(), [4]);
}

#[test]
fn plans_that_cannot_cut_the_field_are_refused() {
    assert!(matches!(
        tables_per_group(10, &GroupPlan::Count(0)),
        Err(GroupPlanError::GroupsOutOfRange { .. })
    ));
    assert!(matches!(
        tables_per_group(10, &GroupPlan::Count(6)),
        Err(GroupPlanError::GroupsOutOfRange { .. })
    ));
    assert!(matches!(
        tables_per_group(10, &GroupPlan::Tables(vec![])),
        Err(GroupPlanError::GroupsOutOfRange { .. })
    ));
    assert_eq!(
        tables_per_group(10, &GroupPlan::Tables(vec![2, 0, 2])),
        Err(GroupPlanError::EmptyGroup { group: "B".into() })
    );
    // A 3 and B 2 tables take 10 pairs: C would be empty.
    let e = tables_per_group(11, &GroupPlan::Tables(vec![3, 2, 1])).unwrap_err();
    assert_eq!(
        e,
        GroupPlanError::TooFewEntrants {
            entrants: 11,
            taken: 10
        }
    );
    assert_eq!(e.code(), "TOO_FEW_ENTRANTS_FOR_GROUPS");
}

#[test]
fn the_group_plan_reads_as_the_file_writes_it() {
    let t: GroupPlan = serde_json::from_str(r#"{"tables": [7, 9, 9]}"#).unwrap();
    assert_eq!(t, GroupPlan::Tables(vec![7, 9, 9]));
    let c: GroupPlan = serde_json::from_str(r#"{"count": 3}"#).unwrap();
    assert_eq!(c, GroupPlan::Count(3));
    assert_eq!(serde_json::to_string(&c).unwrap(), r#"{"count":3}"#);
}
