//! The groups of a pairs file (FORMAT.md "Plans, groups and prizes per
//! group"): reading, writing and the validation problems.

use super::super::*;
use super::pairs::base;
use super::{assert_has, assert_messages_filled, problems_of};
use serde_json::{json, Value};

/// The base file with a plan of 1 Mitchell and 2 rounds in groups: round 2
/// is played in groups A (1, 4) and B (2, 3), with prizes per group.
fn grouped() -> Value {
    let mut v = base();
    v["planned_rounds"] = json!(3);
    v["movements"] = json!([
        "mitchell",
        "danish_groups_modified",
        "danish_groups_modified"
    ]);
    v["group_plan"] = json!({"tables": [1, 1]});
    v["separate_clubs"] = json!(true);
    v["groups"] = json!([{"name": "A", "pairs": [1, 4]}, {"name": "B", "pairs": [2, 3]}]);
    v["group_prizes"] = json!([
        {"group": "A", "share_percent": "60", "scheme": ["100"]},
        {"group": "B", "share_percent": "40", "scheme": ["70", "30"]}
    ]);
    v["rounds"][1]["movement"] = json!("danish_groups_modified");
    v["rounds"][1]["tables"][0]["group"] = json!("A");
    v["rounds"][1]["tables"][1]["group"] = json!("B");
    v
}

fn problems(v: &Value) -> Vec<FileProblem> {
    problems_of(v, parse, |f| validate(f).err())
}

#[test]
fn a_grouped_file_reads_validates_and_writes_back_the_same() {
    let file = parse(&grouped().to_string()).unwrap();
    assert!(validate(&file).is_ok(), "{:?}", validate(&file).err());
    assert_eq!(
        file.group_plan,
        Some(crate::movement::groups::GroupPlan::Tables(vec![1, 1]))
    );
    assert_eq!(
        file.rounds[1].movement,
        Some(MovementKind::DanishGroupsModified)
    );
    assert_eq!(file.rounds[1].tables[1].group.as_deref(), Some("B"));
    let text = to_json(&file).unwrap();
    assert_eq!(parse(&text).unwrap(), file);
    assert_eq!(to_json(&parse(&text).unwrap()).unwrap(), text);
    let pos = |k: &str| text.find(&format!("\"{k}\"")).unwrap();
    assert!(pos("movements") < pos("group_plan"));
    assert!(pos("group_plan") < pos("separate_clubs"));
    assert!(pos("separate_clubs") < pos("groups"));
    assert!(pos("groups") < pos("group_prizes"));
    assert!(
        text.contains("\"table\": 1,\n          \"group\": \"A\""),
        "{text}"
    );
    // `{"count": g}` reads too.
    let mut v = grouped();
    v["group_plan"] = json!({"count": 2});
    let file = parse(&v.to_string()).unwrap();
    assert_eq!(
        file.group_plan,
        Some(crate::movement::groups::GroupPlan::Count(2))
    );
    // Without groups nothing of them is written.
    let plain = to_json(&parse(&base().to_string()).unwrap()).unwrap();
    for absent in ["group", "separate_clubs"] {
        assert!(!plain.contains(absent), "{absent}");
    }
}

/// (change, path, code): each change to the grouped file gives that
/// problem.
type Case = (fn(&mut Value), &'static str, ProblemCode);

#[test]
fn group_problems_name_their_place() {
    let cases: Vec<Case> = vec![
        (
            |v| v["group_plan"] = json!({"count": 0}),
            "group_plan",
            ProblemCode::GroupPlanInvalid,
        ),
        (
            |v| v["group_plan"] = json!({"tables": [2, 0]}),
            "group_plan",
            ProblemCode::GroupPlanInvalid,
        ),
        (
            |v| {
                v.as_object_mut().unwrap().remove("group_plan");
                v.as_object_mut().unwrap().remove("groups");
            },
            "group_plan",
            ProblemCode::GroupPlanMissing,
        ),
        (
            |v| {
                v.as_object_mut().unwrap().remove("groups");
            },
            "rounds[1].movement",
            ProblemCode::GroupsMissing,
        ),
        (
            |v| v["groups"][1]["name"] = json!("C"),
            "groups[1].name",
            ProblemCode::GroupNameInvalid,
        ),
        (
            |v| v["groups"][1]["pairs"] = json!([]),
            "groups[1].pairs",
            ProblemCode::GroupNoPairs,
        ),
        (
            |v| v["groups"][1]["pairs"] = json!([2, 3, 1]),
            "groups[1].pairs[2]",
            ProblemCode::GroupPairTwice,
        ),
        (
            |v| v["groups"][1]["pairs"] = json!([2, 3, 9]),
            "groups[1].pairs[2]",
            ProblemCode::PairUnknown,
        ),
        (
            |v| {
                v["rounds"][1]["tables"][0]
                    .as_object_mut()
                    .unwrap()
                    .remove("group");
            },
            "rounds[1].tables[0].group",
            ProblemCode::TableGroupMissing,
        ),
        (
            |v| v["rounds"][1]["tables"][0]["group"] = json!("Z"),
            "rounds[1].tables[0].group",
            ProblemCode::TableGroupUnknown,
        ),
        (
            |v| v["rounds"][1]["tables"][0]["group"] = json!("B"),
            "rounds[1].tables[0].ns",
            ProblemCode::TableGroupMismatch,
        ),
        (
            |v| {
                v["group_prizes"].as_array_mut().unwrap().pop();
            },
            "group_prizes",
            ProblemCode::GroupPrizeMissing,
        ),
        (
            |v| {
                v["group_prizes"].as_array_mut().unwrap().pop();
            },
            "group_prizes",
            ProblemCode::GroupSharesNotHundred,
        ),
        (
            |v| v["group_prizes"][1]["group"] = json!("C"),
            "group_prizes[1].group",
            ProblemCode::GroupPrizeUnknown,
        ),
        (
            |v| v["group_prizes"][1]["group"] = json!("A"),
            "group_prizes[1].group",
            ProblemCode::GroupPrizeDuplicate,
        ),
        (
            |v| v["group_prizes"][0]["share_percent"] = json!("120"),
            "group_prizes[0].share_percent",
            ProblemCode::GroupShareOutOfRange,
        ),
        (
            |v| v["group_prizes"][1]["scheme"] = json!(["70"]),
            "group_prizes[1].scheme",
            ProblemCode::GroupSchemeInvalid,
        ),
    ];
    for (change, path, code) in cases {
        let mut v = grouped();
        change(&mut v);
        let p = problems(&v);
        assert_has(&p, path, code);
        assert_messages_filled(&p);
    }
}

#[test]
fn group_prizes_before_the_cut_follow_the_plan_and_a_zero_share_needs_no_scheme() {
    let mut v = grouped();
    v["group_prizes"] = json!([
        {"group": "A", "share_percent": "100", "scheme": ["100"]},
        {"group": "B", "share_percent": "0", "scheme": []}
    ]);
    assert!(problems(&v).is_empty(), "{:?}", problems(&v));
    // Before the cut: the plan's groups (count 3: A, B, C).
    let mut v = grouped();
    v.as_object_mut().unwrap().remove("groups");
    v["movements"] = json!(["mitchell", "mitchell", "danish_groups"]);
    v["rounds"][1]["movement"] = json!("mitchell");
    v["group_plan"] = json!({"count": 3});
    let p = problems(&v);
    assert_has(&p, "group_prizes", ProblemCode::GroupPrizeMissing);
    assert_eq!(p.len(), 1, "{p:?}");
}
