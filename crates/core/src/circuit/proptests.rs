//! Property tests of the season ranking over generated seasons.

use super::*;
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_decimal::Decimal;

fn cents(c: i64) -> Decimal {
    Decimal::new(c, 2)
}

/// `placing` or `table` with values of up to two decimals.
fn arb_place_method() -> impl Strategy<Value = PointsMethod> {
    prop_oneof![
        (prop::option::of(1i64..10_000), 0i64..1_000, 0i64..500,).prop_map(|(first, step, min)| {
            PointsMethod::Placing {
                first: first.map_or(First::Entries, |f| First::Fixed(cents(f))),
                step: cents(step),
                min: cents(min),
            }
        }),
        prop::collection::vec(0i64..5_000, 1..10).prop_map(|t| PointsMethod::Table {
            table: t.into_iter().map(cents).collect(),
        }),
    ]
}

fn arb_method() -> impl Strategy<Value = PointsMethod> {
    prop_oneof![Just(PointsMethod::Vp), arb_place_method()]
}

/// One generated stage of `people` players (keys 0…): `seed` shuffles them
/// into pairs (at most `pairs`), VP 0–40 and MP differences in steps of 50
/// (ties likely), places by (VP, MP difference) with shared places.
/// Sometimes one person plays in two of its pairs.
fn make_stage(people: u8, pairs: usize, seed: u64, finished: bool) -> Stage<u8> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pool: Vec<u8> = (0..people).collect();
    pool.shuffle(&mut rng);
    let count = pairs.clamp(1, pool.len() / 2);
    let mut results: Vec<StageResult<u8>> = pool
        .chunks_exact(2)
        .take(count)
        .enumerate()
        .map(|(i, two)| {
            let player = |k: u8| StagePlayer {
                key: k,
                surname: format!("S{}", k % 5),
                name: format!("N{k}"),
                card: None,
            };
            StageResult {
                pair_number: u32::try_from(i + 1).unwrap(),
                place: 0,
                vp: rng.gen_range(0..=8) * 5,
                mp_diff: rng.gen_range(-3..=3) * 50,
                players: [player(two[0]), player(two[1])],
            }
        })
        .collect();
    // Sometimes one person in two pairs (homonyms the rules cannot tell
    // apart, or a wrong merge): the better result must count, in any order.
    if results.len() >= 2 && rng.gen_bool(0.3) {
        let twin = results[0].players[0].clone();
        if let Some(last) = results.last_mut() {
            last.players[1] = twin;
        }
    }
    results.sort_by_key(|r| std::cmp::Reverse((r.vp, r.mp_diff)));
    let keys: Vec<(i64, i64)> = results.iter().map(|r| (r.vp, r.mp_diff)).collect();
    for i in 0..results.len() {
        let place = if i > 0 && keys[i] == keys[i - 1] {
            results[i - 1].place
        } else {
            u32::try_from(i + 1).unwrap()
        };
        results[i].place = place;
    }
    Stage {
        title: format!("stage {seed}"),
        finished,
        entries: u32::try_from(results.len()).unwrap(),
        results,
    }
}

fn arb_season() -> impl Strategy<Value = Vec<Stage<u8>>> {
    (
        4u8..16,
        prop::collection::vec((1usize..8, any::<u64>(), prop::bool::weighted(0.85)), 1..6),
    )
        .prop_map(|(people, stages)| {
            stages
                .into_iter()
                .map(|(pairs, seed, finished)| make_stage(people, pairs, seed, finished))
                .collect()
        })
}

fn arb_spec() -> impl Strategy<Value = CircuitSpec> {
    (
        arb_method(),
        prop::bool::ANY,
        prop::option::of(1u32..4),
        prop::option::of(1u32..4),
        prop::option::of((
            prop::option::of(0i64..=100),
            prop::option::of(0i64..=100),
            0u32..3,
        )),
    )
        .prop_map(|(points, pair, best_of, min, finals)| {
            let mut c = CircuitSpec::new("P", points);
            c.rank = if pair { RankBy::Pair } else { RankBy::Player };
            c.best_of = best_of;
            c.min_attendances = min;
            c.finals = finals.map(|(s, o, m)| Finals {
                stage_top_percent: s.map(Decimal::from),
                overall_top_percent: o.map(Decimal::from),
                overall_min_attendances: m,
            });
            c
        })
}

fn order_key<K>(r: &CircuitRow<K>) -> (Decimal, i64, u32, Decimal) {
    (r.points, r.mp_diff, r.attendances, r.best_stage)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Sharing a place moves points between the sharers only: each group
    /// sums to what its places give unshared, up to the rounding of the
    /// mean (half a cent per sharer), exactly when the mean needs none.
    #[test]
    fn shared_places_keep_the_stage_total(
        method in arb_place_method(),
        groups in prop::collection::vec(1u32..5, 1..10),
        extra in 0u32..5,
    ) {
        let n: u32 = groups.iter().sum();
        let entries = n + extra;
        let mut place = 1u32;
        for &k in &groups {
            let shared = shared_points(&method, entries, place, k).unwrap();
            let unshared: Decimal = (place..place + k)
                .map(|q| place_points(&method, entries, q).unwrap())
                .sum();
            let total = shared * Decimal::from(k);
            let slack = cents(1) / Decimal::TWO * Decimal::from(k);
            prop_assert!((total - unshared).abs() <= slack, "{} vs {}", total, unshared);
            if (unshared * Decimal::ONE_HUNDRED) % Decimal::from(k) == Decimal::ZERO {
                prop_assert_eq!(total, unshared);
            }
            place += k;
        }

        // The same through `stage_points` on a stage with these places.
        let mut results = Vec::new();
        let mut place = 1u32;
        for &k in &groups {
            for _ in 0..k {
                let i = u8::try_from(results.len()).unwrap();
                let p = |key: u8| StagePlayer { key, surname: String::new(), name: String::new(), card: None };
                results.push(StageResult {
                    pair_number: u32::from(i) + 1,
                    place,
                    vp: 0,
                    mp_diff: 0,
                    players: [p(2 * i), p(2 * i + 1)],
                });
            }
            place += k;
        }
        let stage = Stage { title: String::new(), finished: true, entries, results };
        let shared: Decimal = stage_points(&method, &stage).into_iter().sum();
        let unshared: Decimal = (1..=n).map(|q| place_points(&method, entries, q).unwrap()).sum();
        prop_assert!((shared - unshared).abs() <= cents(1) / Decimal::TWO * Decimal::from(n));
    }

    /// Without best_of, a further stage never lowers anyone's total.
    #[test]
    fn adding_a_stage_never_lowers_a_total(
        mut spec in arb_spec(),
        season in arb_season(),
    ) {
        spec.best_of = None;
        for n in 1..season.len() {
            let before = compute(&spec, &season[..n]);
            let after = compute(&spec, &season[..=n]);
            for row in &before.rows {
                let later = after.row(&row.entrant);
                prop_assert!(later.is_some());
                prop_assert!(later.map(|r| r.points) >= Some(row.points));
                prop_assert!(later.map(|r| r.attendances) >= Some(row.attendances));
            }
        }
    }

    /// Places are 1-based, shared when tied and skipping after (1, 2, 2,
    /// 4); the unclassified come last without a place; best_of counts
    /// min(k, attendances) stages; finalists are rows.
    #[test]
    fn places_are_one_based_shared_and_skipping(
        spec in arb_spec(),
        season in arb_season(),
    ) {
        let s = compute(&spec, &season);
        let classified = s.rows.iter().take_while(|r| r.place.is_some()).count();
        prop_assert!(s.rows[classified..].iter().all(|r| r.place.is_none()));
        let min = spec.min_attendances.unwrap_or(0);
        for (i, r) in s.rows.iter().enumerate() {
            prop_assert_eq!(r.place.is_some(), r.attendances >= min);
            let want = r.attendances.min(spec.best_of.unwrap_or(u32::MAX));
            prop_assert_eq!(u32::try_from(r.counted.len()).unwrap(), want);
            let marked: Vec<u32> = r.stages.iter().flatten().filter(|s| s.counted).map(|s| s.stage).collect();
            prop_assert_eq!(&marked, &r.counted);
            let counted_points: Decimal = r.stages.iter().flatten().filter(|s| s.counted).map(|s| s.points).sum();
            prop_assert_eq!(counted_points, r.points);
            if i == 0 || i == classified {
                continue;
            }
            let prev = &s.rows[i - 1];
            prop_assert!(order_key(prev) >= order_key(r));
            if i < classified {
                let position = u32::try_from(i + 1).unwrap();
                if order_key(prev) == order_key(r) {
                    prop_assert_eq!(r.place, prev.place);
                } else {
                    prop_assert_eq!(r.place, Some(position));
                }
            }
        }
        if classified > 0 {
            prop_assert_eq!(s.rows[0].place, Some(1));
        }
        for st in &s.provisional {
            let i = usize::try_from(*st).unwrap() - 1;
            prop_assert!(!season[i].finished);
            prop_assert!(s.rows.iter().all(|r| r.stages[i].is_none()));
        }
        for f in &s.finalists {
            prop_assert!(s.row(&f.entrant).is_some());
        }
    }

    /// The order of the results within a stage changes nothing.
    #[test]
    fn results_order_within_a_stage_does_not_matter(
        spec in arb_spec(),
        season in arb_season(),
        seed in any::<u64>(),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut shuffled = season.clone();
        for st in &mut shuffled {
            st.results.shuffle(&mut rng);
            // The two players of a pair in the other order, sometimes.
            for r in &mut st.results {
                if rng.gen_bool(0.5) {
                    r.players.swap(0, 1);
                }
            }
        }
        prop_assert_eq!(compute(&spec, &season), compute(&spec, &shuffled));
    }

    /// The resolver's keys do not depend on the order entries are seen in.
    #[test]
    fn resolver_keys_do_not_depend_on_the_order(
        people in prop::collection::vec((0usize..4, 0usize..3, prop::option::of(0usize..3)), 1..20),
        seed in any::<u64>(),
    ) {
        let surnames = ["Rossi", "ROSSI ", "Bianchi", "Rossì"];
        let names = ["Maria", " maria", "Luca"];
        let cards = ["AB1", " ab1", "CD2"];
        let list: Vec<PersonName> = people
            .iter()
            .map(|&(s, n, c)| PersonName::new(surnames[s], names[n], c.map(|c| cards[c])))
            .collect();
        let mut a = Resolver::new();
        for p in &list {
            a.observe(p);
        }
        let mut order = list.clone();
        order.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
        let mut b = Resolver::new();
        for p in &order {
            b.observe(p);
        }
        for p in &list {
            let key = a.key(p);
            prop_assert_eq!(&key, &b.key(p));
            // Two different card holders never share a key; a card holder
            // keeps its card's key.
            if let Some(card) = p.normalized_card() {
                prop_assert_eq!(key, PersonKey::Card(card));
            }
        }
        // A card-less entry joins a card holder only when exactly one card
        // is seen with its name; otherwise it keeps its name.
        for p in list.iter().filter(|p| p.normalized_card().is_none()) {
            let mut holders: Vec<String> = list
                .iter()
                .filter(|q| q.normalized_name() == p.normalized_name())
                .filter_map(PersonName::normalized_card)
                .collect();
            holders.sort();
            holders.dedup();
            let want = match holders.as_slice() {
                [one] => PersonKey::Card(one.clone()),
                _ => PersonKey::Name(p.normalized_name()),
            };
            prop_assert_eq!(a.key(p), want);
        }
    }
}
