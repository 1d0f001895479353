//! Property tests of the movement engine: any pair count from 4 to 600, any
//! legal plan, any seed; the Danish toolkit and every kind's Danish round
//! against one exhaustive reference; the team round robin. Case counts are
//! kept so the module's tests run in a few seconds in debug mode.

use super::mitchell::gcd;
use super::pairing::{danish_pairing, Avoid, Pairing};
use super::teams::tests::{check_rounds, history, meetings};
use super::*;
use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{HashMap, HashSet};

fn numbers(n: usize) -> Vec<PairNo> {
    (1..=n as u32).collect()
}

fn team_numbers(n: usize) -> Vec<TeamNo> {
    numbers(n)
}

/// A legal plan for `tables` tables, from two arbitrary picks.
fn legal_plan(tables: u32, adv_pick: u32, rounds_pick: u32) -> MitchellPlan {
    let advance = 1 + adv_pick % (tables - 1);
    let rounds = 1 + rounds_pick % max_rounds(tables, advance);
    MitchellPlan {
        tables,
        rounds,
        advance,
        allow_repeats: false,
    }
}

/// Who plays in round `r`, given the layout and the changes.
fn active_at(layout: &Layout, changes: &[RosterChange], r: u32) -> HashSet<PairNo> {
    let mut set: HashSet<PairNo> = layout.pairs().collect();
    for c in changes {
        match *c {
            RosterChange::Withdrawn { pair, from_round } if from_round <= r => {
                set.remove(&pair);
            }
            RosterChange::Joined { pair, from_round } if from_round <= r => {
                set.insert(pair);
            }
            _ => {}
        }
    }
    set
}

/// What a schedule looked like, for further checks.
struct Stats {
    byes: HashMap<PairNo, u32>,
    repeats: usize,
}

/// The Mitchell invariants: every active pair seated exactly once per round
/// (resting exactly when facing a phantom); fixed pairs never move; moving
/// pairs advance exactly `advance` tables; repeats counted.
fn check_mitchell(
    layout: &Layout,
    plan: &MitchellPlan,
    sched: &[RoundSeating],
    changes: &[RosterChange],
) -> Result<Stats, TestCaseError> {
    let t = plan.tables;
    prop_assert_eq!(sched.len(), plan.rounds as usize);
    let mut fixed_table: HashMap<PairNo, TableNo> = HashMap::new();
    let mut moving_prev: HashMap<PairNo, (u32, TableNo)> = HashMap::new();
    let mut met: HashSet<(PairNo, PairNo)> = HashSet::new();
    let mut repeats = 0;
    let mut byes: HashMap<PairNo, u32> = HashMap::new();
    for (i, r) in sched.iter().enumerate() {
        let round = i as u32 + 1;
        prop_assert_eq!(r.round, round);
        prop_assert_eq!(r.tables.len(), t as usize);
        let active = active_at(layout, changes, round);
        let mut seen = HashSet::new();
        let mut resting = Vec::new();
        for (j, s) in r.tables.iter().enumerate() {
            prop_assert_eq!(s.table, j as u32 + 1);
            for p in s.ns.iter().chain(s.ew.iter()) {
                prop_assert!(
                    seen.insert(*p),
                    "pair {} seated twice in round {}",
                    p,
                    round
                );
                prop_assert!(active.contains(p), "inactive pair {} seated", p);
            }
            if let Some(p) = s.ns {
                let was = *fixed_table.entry(p).or_insert(s.table);
                prop_assert_eq!(was, s.table, "fixed pair {} moved", p);
                prop_assert!(!moving_prev.contains_key(&p), "pair {} changed line", p);
            }
            if let Some(p) = s.ew {
                prop_assert!(!fixed_table.contains_key(&p), "pair {} changed line", p);
                if let Some(&(pr, pt)) = moving_prev.get(&p) {
                    if pr + 1 == round {
                        prop_assert_eq!(
                            s.table,
                            (pt - 1 + plan.advance) % t + 1,
                            "pair {} advance",
                            p
                        );
                    }
                }
                moving_prev.insert(p, (round, s.table));
            }
            match (s.ns, s.ew) {
                (Some(a), Some(b)) => {
                    if !met.insert((a.min(b), a.max(b))) {
                        repeats += 1;
                    }
                }
                (Some(p), None) | (None, Some(p)) => resting.push(p),
                (None, None) => {}
            }
        }
        prop_assert_eq!(seen.len(), active.len(), "every active pair is seated");
        prop_assert_eq!(&r.byes, &resting);
        for p in resting {
            *byes.entry(p).or_default() += 1;
        }
    }
    // Round 1 is the draw.
    if let Some(first) = sched.first() {
        if changes.iter().all(|c| {
            !matches!(
                c,
                RosterChange::Withdrawn { from_round: 1, .. }
                    | RosterChange::Joined { from_round: 1, .. }
            )
        }) {
            prop_assert_eq!(first, &layout.first_round());
        }
    }
    Ok(Stats { byes, repeats })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn draw_is_a_reproducible_permutation(n in 3usize..=600, seed in any::<u64>(), rot in any::<usize>()) {
        let pairs = numbers(n);
        let a = first_round_draw(&pairs, seed).unwrap();
        let mut shuffled = pairs.clone();
        shuffled.reverse();
        shuffled.rotate_left(rot % n);
        let b = first_round_draw(&shuffled, seed).unwrap();
        prop_assert_eq!(&a, &b);
        prop_assert_eq!(a.seed, seed);
        prop_assert_eq!(a.tables as usize, n.div_ceil(2));
        let mut got: Vec<_> = a.pairs().collect();
        got.sort_unstable();
        prop_assert_eq!(got, pairs);
        let phantoms: Vec<_> = a.fixed.iter().chain(&a.moving).enumerate().filter(|(_, p)| p.is_none()).map(|(i, _)| i).collect();
        if n % 2 == 1 {
            prop_assert_eq!(phantoms, vec![a.tables as usize - 1], "phantom fixed at the last table");
        } else {
            prop_assert!(phantoms.is_empty());
        }
    }

    #[test]
    fn legal_mitchell_plans_keep_every_promise(
        n in 4usize..=600, seed in any::<u64>(), adv in any::<u32>(), rounds in any::<u32>()
    ) {
        let layout = first_round_draw(&numbers(n), seed).unwrap();
        let plan = legal_plan(layout.tables, adv, rounds);
        prop_assert!(plan.validate().is_ok());
        let sched = schedule(&layout, &plan, &[]).unwrap();
        let stats = check_mitchell(&layout, &plan, &sched, &[])?;
        prop_assert_eq!(stats.repeats, 0);
        prop_assert!(stats.byes.values().all(|&b| b == 1), "no pair rests twice");
        let expected = if n % 2 == 1 { plan.rounds as usize } else { 0 };
        prop_assert_eq!(stats.byes.len(), expected, "one bye a round with a phantom");
        prop_assert!(stats.byes.keys().all(|p| layout.moving.contains(&Some(*p))), "only moving pairs rest");
    }

    #[test]
    fn plan_refusal_is_exactly_when_opponents_would_repeat(
        tables in 2u32..=80, adv in any::<u32>(), rounds_pick in any::<u32>(), odd in any::<bool>(), seed in any::<u64>()
    ) {
        let n = (2 * tables - u32::from(odd)) as usize;
        prop_assume!(n >= MIN_PAIRS);
        let layout = first_round_draw(&numbers(n), seed).unwrap();
        let advance = 1 + adv % (tables - 1);
        let rounds = 1 + rounds_pick % (2 * tables + 2);
        let strict = MitchellPlan { tables, rounds, advance, allow_repeats: false };
        let loose = MitchellPlan { allow_repeats: true, ..strict };
        let sched = schedule(&layout, &loose, &[]).unwrap();
        let stats = check_mitchell(&layout, &loose, &sched, &[])?;
        match strict.validate() {
            Ok(()) => prop_assert_eq!(stats.repeats, 0),
            Err(e) => {
                prop_assert!(stats.repeats > 0, "refused without a repeat: {}", e);
                let code = if rounds > tables { "TOO_MANY_ROUNDS_FOR_TABLES" } else { "ADVANCE_SHARES_FACTOR" };
                prop_assert_eq!(e.code(), code);
            }
        }
        // Byes spread: with an advance coprime to the tables, rests differ by
        // at most one among the moving pairs, even when repeats are allowed.
        if odd && gcd(advance, tables) == 1 {
            let moving: Vec<PairNo> = layout.moving.iter().flatten().copied().collect();
            let counts: Vec<u32> = moving.iter().map(|p| stats.byes.get(p).copied().unwrap_or(0)).collect();
            let (lo, hi) = (counts.iter().min().copied().unwrap_or(0), counts.iter().max().copied().unwrap_or(0));
            prop_assert!(hi - lo <= 1, "byes {}..{}", lo, hi);
        }
    }

    #[test]
    fn withdrawn_and_late_pairs_keep_the_movement(
        n in 4usize..=200, seed in any::<u64>(), adv in any::<u32>(), rounds in any::<u32>(),
        picks in proptest::collection::vec((any::<u32>(), any::<u32>()), 0..4),
        late in proptest::option::of(any::<u32>())
    ) {
        let layout = first_round_draw(&numbers(n), seed).unwrap();
        let plan = legal_plan(layout.tables, adv, rounds);
        let mut changes = Vec::new();
        let mut gone = HashSet::new();
        for (who, when) in picks {
            let pair = 1 + who % n as u32;
            if gone.insert(pair) {
                changes.push(RosterChange::Withdrawn { pair, from_round: 1 + when % plan.rounds });
            }
        }
        if let Some(when) = late {
            let from_round = 1 + when % plan.rounds;
            changes.push(RosterChange::Joined { pair: n as u32 + 1, from_round });
        }
        let free_at = |r: u32| (n % 2) + changes.iter().filter(|c| matches!(c, RosterChange::Withdrawn { from_round, .. } if *from_round <= r)).count();
        let result = schedule(&layout, &plan, &changes);
        if let Some(RosterChange::Joined { from_round, pair }) = changes.last().copied() {
            if free_at(from_round) == 0 {
                prop_assert_eq!(result, Err(MovementError::NoFreeSeat { pair }));
                return Ok(());
            }
        }
        let sched = result.unwrap();
        let stats = check_mitchell(&layout, &plan, &sched, &changes)?;
        prop_assert_eq!(stats.repeats, 0, "withdrawals and late pairs never repeat an opponent");
        // Without withdrawals, a late pair ends the byes for good.
        if gone.is_empty() {
            if let Some(RosterChange::Joined { from_round, .. }) = changes.last().copied() {
                prop_assert!(sched[from_round as usize - 1..].iter().all(|r| r.byes.is_empty()));
            }
        }
    }
}

/// A random previous round for `ranking`: some pairs met, the others rested
/// or are new; random bye counts and last lines.
fn random_entries(n: usize, seed: u64) -> Vec<DanishEntry> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut ranking = numbers(n);
    ranking.shuffle(&mut rng);
    let mut meet = ranking.clone();
    meet.shuffle(&mut rng);
    let played = rng.gen_range(0..=n / 2);
    let mut prev: HashMap<PairNo, PairNo> = HashMap::new();
    for c in meet.chunks(2).take(played) {
        if let [a, b] = *c {
            prev.insert(a, b);
            prev.insert(b, a);
        }
    }
    ranking
        .iter()
        .map(|&pair| DanishEntry {
            pair,
            prev_opponent: prev.get(&pair).copied(),
            last_line: match rng.gen_range(0..3) {
                0 => None,
                1 => Some(Line::Ns),
                _ => Some(Line::Ew),
            },
            byes: rng.gen_range(0..=2),
        })
        .collect()
}

/// The exhaustive reference for every Danish round (RULES.md §7, §12): the
/// resting position by (fewest rests, lowest-placed) among those leaving a
/// pairing under `allowed`; then, from the top, the highest-placed allowed
/// opponent for which a full pairing of the rest exists.
fn reference(rests: &[u32], allowed: &dyn Fn(usize, usize) -> bool) -> Option<Pairing> {
    let n = rests.len();
    fn search(
        rem: &[usize],
        allowed: &dyn Fn(usize, usize) -> bool,
    ) -> Option<Vec<(usize, usize)>> {
        let Some((&top, rest)) = rem.split_first() else {
            return Some(vec![]);
        };
        for &q in rest {
            if !allowed(top, q) {
                continue;
            }
            let next: Vec<usize> = rest.iter().copied().filter(|&x| x != q).collect();
            if let Some(mut m) = search(&next, allowed) {
                m.insert(0, (top, q));
                return Some(m);
            }
        }
        None
    }
    if n.is_multiple_of(2) {
        let all: Vec<usize> = (0..n).collect();
        return search(&all, allowed).map(|games| Pairing { rest: None, games });
    }
    let mut cands: Vec<usize> = (0..n).collect();
    cands.sort_by_key(|&i| (rests[i], std::cmp::Reverse(i)));
    for r in cands {
        let rem: Vec<usize> = (0..n).filter(|&i| i != r).collect();
        if let Some(games) = search(&rem, allowed) {
            return Some(Pairing {
                rest: Some(r),
                games,
            });
        }
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn danish_rounds_keep_every_promise(n in 2usize..=600, seed in any::<u64>(), modified in any::<bool>()) {
        let e = random_entries(n, seed);
        let rank: HashMap<PairNo, usize> = e.iter().enumerate().map(|(i, x)| (x.pair, i)).collect();
        let r = match danish_round(7, &e, modified) {
            Ok(r) => r,
            Err(MovementError::NoLegalPairing) => {
                prop_assert!(modified && n == 2 && e[0].prev_opponent == Some(e[1].pair));
                return Ok(());
            }
            Err(other) => return Err(TestCaseError::fail(other.to_string())),
        };
        prop_assert_eq!(r.round, 7);
        prop_assert_eq!(r.byes.len(), n % 2);
        let mut seen: HashSet<PairNo> = r.byes.iter().copied().collect();
        let mut last_hi = None;
        for (j, s) in r.tables.iter().enumerate() {
            prop_assert_eq!(s.table, j as u32 + 1);
            let (a, b) = (s.ns.unwrap(), s.ew.unwrap());
            prop_assert!(seen.insert(a) && seen.insert(b));
            let (hi, lo) = if rank[&a] < rank[&b] { (a, b) } else { (b, a) };
            prop_assert!(last_hi < Some(rank[&hi]), "tables in ranking order");
            last_hi = Some(rank[&hi]);
            let (he, le) = (&e[rank[&hi]], &e[rank[&lo]]);
            if modified {
                prop_assert_ne!(he.prev_opponent, Some(lo), "previous opponents meet again");
            }
            let hi_line = s.line_of(hi).unwrap();
            match (he.last_line, le.last_line) {
                (Some(l), _) => prop_assert_eq!(hi_line, l.other(), "higher pair alternates"),
                (None, Some(l)) => prop_assert_eq!(hi_line, l),
                (None, None) => prop_assert_eq!(hi_line, Line::Ns),
            }
        }
        prop_assert_eq!(seen.len(), n, "every pair plays once or rests");
        if let Some(&rest) = r.byes.first() {
            let fewest = e.iter().map(|x| x.byes).min().unwrap();
            let expected = e.iter().rev().find(|x| x.byes == fewest).unwrap().pair;
            if !(modified && n == 3) {
                prop_assert_eq!(rest, expected, "lowest-ranked pair with the fewest byes rests");
            }
        }
        if !modified {
            let order: Vec<PairNo> = e.iter().map(|x| x.pair).filter(|p| !r.byes.contains(p)).collect();
            for (s, c) in r.tables.iter().zip(order.chunks(2)) {
                let mut got = [s.ns.unwrap(), s.ew.unwrap()];
                got.sort_unstable();
                let mut want = [c[0], c[1]];
                want.sort_unstable();
                prop_assert_eq!(got, want, "pure Danish: 1 v 2, 3 v 4, …");
            }
        }
    }

    #[test]
    fn modified_danish_matches_exhaustive_search(n in 2usize..=12, seed in any::<u64>()) {
        let e = random_entries(n, seed);
        let rank: HashMap<PairNo, usize> = e.iter().enumerate().map(|(i, x)| (x.pair, i)).collect();
        let got = danish_round(2, &e, true);
        let rests: Vec<u32> = e.iter().map(|x| x.byes).collect();
        match reference(&rests, &|a, b| e[a].prev_opponent != Some(e[b].pair)) {
            None => prop_assert_eq!(got, Err(MovementError::NoLegalPairing)),
            Some(Pairing { rest, games }) => {
                let r = got.unwrap();
                prop_assert_eq!(r.byes.first().map(|p| rank[p]), rest);
                let pairs: Vec<(usize, usize)> = r
                    .tables
                    .iter()
                    .map(|s| {
                        let (a, b) = (rank[&s.ns.unwrap()], rank[&s.ew.unwrap()]);
                        (a.min(b), a.max(b))
                    })
                    .collect();
                prop_assert_eq!(pairs, games);
            }
        }
    }

    #[test]
    fn the_toolkit_matches_exhaustive_search(
        n in 0usize..=12, seed in any::<u64>(), kind in 0u8..3,
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let rests: Vec<u32> = (0..n).map(|_| rng.gen_range(0..=2)).collect();
        let got = match kind {
            // Pure Danish: nobody is avoided.
            0 => {
                prop_assert_eq!(danish_pairing(&rests, Avoid::Nobody), reference(&rests, &|_, _| true));
                return Ok(());
            }
            // Modified Danish: a random matching of previous opponents.
            1 => {
                let mut order: Vec<usize> = (0..n).collect();
                order.shuffle(&mut rng);
                let mut prev = vec![None; n];
                for c in order.chunks_exact(2).take(rng.gen_range(0..=n / 2)) {
                    prev[c[0]] = Some(c[1]);
                    prev[c[1]] = Some(c[0]);
                }
                prop_assert_eq!(pairing::check_matching(&prev), Ok(()));
                let allowed = |a: usize, b: usize| prev[a] != Some(b);
                (danish_pairing(&rests, Avoid::PreviousOpponent(&prev)), reference(&rests, &allowed))
            }
            // Any relation (teams: never a team already met).
            _ => {
                let density = rng.gen_range(0.0..1.0);
                let mut ok = vec![false; n * n];
                for a in 0..n {
                    for b in a + 1..n {
                        let v = rng.gen_bool(density);
                        ok[a * n + b] = v;
                        ok[b * n + a] = v;
                    }
                }
                let allowed = |a: usize, b: usize| ok[a * n + b];
                (danish_pairing(&rests, Avoid::Allowed(&allowed)), reference(&rests, &allowed))
            }
        };
        prop_assert_eq!(got.0, got.1);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn round_robin_meets_everyone_once(n in 2usize..30, seed in any::<u64>()) {
        let teams = draw_order(&team_numbers(n), seed);
        let plans = round_robin(&teams, 1).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(plans.len(), round_robin_rounds(n));
        check_rounds(&plans, &teams)?;
        let m = meetings(&plans);
        prop_assert_eq!(m.len(), n * (n - 1) / 2);
        prop_assert!(m.values().all(|&c| c == 1));
        for &t in &teams {
            let rests = plans.iter().filter(|p| p.rests(t)).count();
            prop_assert_eq!(rests, n % 2);
            let homes = plans.iter().filter(|p| p.is_home(t) == Some(true)).count();
            let aways = plans.iter().filter(|p| p.is_home(t) == Some(false)).count();
            prop_assert!(homes.abs_diff(aways) <= 1, "team {} home {} away {}", t, homes, aways);
        }
    }

    #[test]
    fn round_robin_in_groups_meets_everyone_of_the_group_once(
        n in 4usize..40, g in 1usize..7, seed in any::<u64>(),
    ) {
        let g = g.min(n / 2);
        let teams = draw_order(&team_numbers(n), seed);
        let groups = split_into_groups(&teams, g).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let sizes: Vec<usize> = groups.iter().map(|x| x.teams.len()).collect();
        prop_assert!(sizes.iter().max().unwrap() - sizes.iter().min().unwrap() <= 1);
        let plans = round_robin_groups(&groups, 1).map_err(|e| TestCaseError::fail(e.to_string()))?;
        check_rounds(&plans, &teams)?;
        let m = meetings(&plans);
        let group_of: HashMap<TeamNo, usize> = groups.iter().enumerate()
            .flat_map(|(k, x)| x.teams.iter().map(move |&t| (t, k))).collect();
        let expected: usize = sizes.iter().map(|s| s * (s - 1) / 2).sum();
        prop_assert_eq!(m.len(), expected);
        for (&(a, b), &c) in &m {
            prop_assert_eq!(c, 1);
            prop_assert_eq!(group_of[&a], group_of[&b]);
        }
        prop_assert_eq!(plans.len(), sizes.iter().map(|&s| round_robin_rounds(s)).max().unwrap());
    }

    #[test]
    fn team_danish_avoids_rematches_whenever_possible(
        n in 2usize..10, rounds in 0usize..6, seed in any::<u64>(),
    ) {
        let hist = history(n, rounds, seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
        let ranking = draw_order(&team_numbers(n), rng.gen());
        let e = team_entries_from_history(&ranking, &hist);
        let r = team_danish_round(u32::try_from(rounds + 1).unwrap(), &e)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        check_rounds(std::slice::from_ref(&r.plan), &ranking)?;
        prop_assert_eq!(r.plan.byes.len(), n % 2);
        let met = meetings(&hist);
        let fresh = |a: usize, b: usize| {
            let (x, y) = (ranking[a], ranking[b]);
            !met.contains_key(&(x.min(y), x.max(y)))
        };
        let rests: Vec<u32> = e.iter().map(|x| x.byes).collect();
        let position = |t: TeamNo| ranking.iter().position(|&x| x == t).unwrap();
        match reference(&rests, &fresh) {
            // A pairing without rematch exists: it is the reference's.
            Some(Pairing { rest, games }) => {
                prop_assert!(r.rematches.is_empty(), "{:?}", r.rematches);
                prop_assert_eq!(r.plan.byes.first().map(|&t| position(t)), rest);
                let got: Vec<(usize, usize)> = r.plan.matches.iter()
                    .map(|m| {
                        let (a, b) = (position(m.home), position(m.away));
                        (a.min(b), a.max(b))
                    })
                    .collect();
                prop_assert_eq!(got, games);
            }
            None => prop_assert!(!r.rematches.is_empty()),
        }
    }
}
