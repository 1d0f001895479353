use super::*;
fn dec(n: i64) -> Decimal {
    Decimal::from(n)
}

fn fields<'a>(
    rounds: &'a str,
    count: &'a str,
    tables: &'a str,
    prizes: &'a str,
) -> GroupFields<'a> {
    GroupFields {
        rounds,
        form: "modified",
        count,
        tables,
        prizes,
    }
}

#[test]
fn no_rounds_in_groups_is_no_group_phase() {
    let mut p = Vec::new();
    assert_eq!(
        parse_groups(fields("", "", "", ""), Some(4), Some(3), &mut p),
        None
    );
    assert_eq!(
        parse_groups(fields("0", "3", "", ""), Some(4), Some(3), &mut p),
        None
    );
    assert!(p.is_empty());
}

#[test]
fn the_national_formula_reads() {
    let mut p = Vec::new();
    let g = parse_groups(
        fields(
            "3",
            "",
            "7, 9, 9",
            "A 50: 40 30 20 10\nB 30: 50 30 20\nC 20: 60 40",
        ),
        Some(11),
        Some(6),
        &mut p,
    )
    .unwrap();
    assert!(p.is_empty(), "{p:?}");
    assert_eq!(g.rounds, 3);
    assert!(g.modified);
    assert_eq!(g.plan, GroupPlan::Tables(vec![7, 9, 9]));
    assert_eq!(g.first_round(11), 9);
    let prizes = g.prizes.unwrap();
    assert_eq!(prizes.len(), 3);
    assert_eq!(prizes[1].group, "B");
    assert_eq!(prizes[1].share_percent, dec(30));
    assert_eq!(
        prizes[2].scheme,
        vec![PercentText(dec(60)), PercentText(dec(40))]
    );
    assert_eq!(
        format_group_prizes(&prizes),
        "A 50: 40 30 20 10\nB 30: 50 30 20\nC 20: 60 40"
    );
    assert_eq!(
        parse_group_prizes(&format_group_prizes(&prizes)).unwrap(),
        prizes
    );
}

#[test]
fn group_rounds_must_fit_after_the_mitchell() {
    let mut p = Vec::new();
    parse_groups(fields("3", "2", "", ""), Some(8), Some(6), &mut p);
    assert_eq!(p[0].field, "group_rounds");
    assert_eq!(p[0].key, "settings.error.group_rounds_room");
    assert_eq!(p[0].params, vec![("max", "2".to_string())]);
}

#[test]
fn bad_group_fields_are_named() {
    for (f, field) in [
        (fields("x", "2", "", ""), "group_rounds"),
        (fields("2", "", "", ""), "group_count"),
        (fields("2", "27", "", ""), "group_count"),
        (fields("2", "", "7, 0", ""), "group_tables"),
        (fields("2", "", "7, x", ""), "group_tables"),
        (fields("2", "2", "", "A 50: 60 30"), "group_prizes"),
        (fields("2", "2", "", "A 50: 100\nB 40: 100"), "group_prizes"),
        (fields("2", "2", "", "B 50: 100\nA 50: 100"), "group_prizes"),
        (fields("2", "2", "", "A fifty"), "group_prizes"),
    ] {
        let mut p = Vec::new();
        assert_eq!(parse_groups(f, Some(8), Some(4), &mut p), None, "{field}");
        assert_eq!(p.len(), 1, "{field}: {p:?}");
        assert_eq!(p[0].field, field);
    }
}

#[test]
fn group_prize_letters_may_be_left_out() {
    let prizes = parse_group_prizes("70: 100\n30%: 60, 40").unwrap();
    assert_eq!(prizes[0].group, "A");
    assert_eq!(prizes[1].group, "B");
    assert_eq!(prizes[1].share_percent, dec(30));
}

#[test]
fn the_stored_group_plan_reads_back() {
    for plan in [GroupPlan::Count(3), GroupPlan::Tables(vec![7, 9, 9])] {
        assert_eq!(parse_group_plan_text(&group_plan_text(&plan)), Some(plan));
    }
    assert_eq!(parse_group_plan_text("count:0"), None);
    assert_eq!(parse_group_plan_text("teams:3"), None);
}

#[test]
fn levels_warn_by_the_regulation() {
    assert!(level_warnings(Level::Club, 4, 3).is_empty());
    let w = level_warnings(Level::Club, 5, 3);
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].key, "level.warn.too_many_rounds");
    assert!(level_warnings(Level::Federal, 12, 2).is_empty());
    assert!(level_warnings(Level::Regional, 6, 3).is_empty());
    assert!(level_warnings(Level::Regional, 5, 4).is_empty());
    assert_eq!(
        level_warnings(Level::Regional, 5, 3)[0].key,
        "level.warn.too_few_rounds"
    );
    assert_eq!(level_warnings(Level::Regional, 4, 4).len(), 1);
    assert_eq!(level_warnings(Level::National, 8, 2).len(), 1);
    for l in Level::ALL {
        assert_eq!(Level::parse(l.code()), Some(l));
    }
}
