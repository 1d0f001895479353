//! The season ranking (RULES.md §11): stage points, best k of n, the order,
//! minimum attendance and finalists. See the module documentation of
//! [`super`] for the decisions where the rules are silent.

use super::identity::normalize_name;
use super::spec::{CircuitSpec, First, PointsMethod, RankBy};
use super::stage::{Stage, StagePlayer, StageResult};
use rust_decimal::prelude::ToPrimitive;
use rust_decimal::{Decimal, RoundingStrategy};
use serde::Serialize;
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::fmt;

/// Decimals of stage points after sharing a place (RULES.md §11).
pub const POINTS_DP: u32 = 2;

/// Who is ranked: one player, or a pair (two players, unordered: the
/// smaller key first, so the same two people in either order are one
/// entrant).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Entrant<K> {
    Player(K),
    Pair(K, K),
}

impl<K: Ord> Entrant<K> {
    /// The pair of `a` and `b`, in either order.
    pub fn pair(a: K, b: K) -> Entrant<K> {
        if a <= b {
            Entrant::Pair(a, b)
        } else {
            Entrant::Pair(b, a)
        }
    }

    /// Whether `key` is this player or one of this pair.
    pub fn contains(&self, key: &K) -> bool {
        match self {
            Entrant::Player(k) => k == key,
            Entrant::Pair(a, b) => a == key || b == key,
        }
    }
}

/// An entrant's result in one stage (a line of a player's season card).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StageScore {
    /// 1-based stage number, in the order the stages were given.
    pub stage: u32,
    /// The pair the entrant played in (its pair card in that tournament).
    pub pair_number: u32,
    pub place: u32,
    pub vp: i64,
    pub mp_diff: i64,
    /// Stage points (shared places already averaged).
    pub points: Decimal,
    /// Among the stages that count (best k of n).
    pub counted: bool,
}

/// An entrant's line in the season ranking.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CircuitRow<K> {
    /// 1-based, shared when tied (1, 2, 2, 4…); `None` when not classified
    /// (fewer attendances than `min_attendances`).
    pub place: Option<u32>,
    pub entrant: Entrant<K>,
    /// The player, or the pair's two players, as shown: name and card of
    /// the latest stage whose entry carried a card, else the name of the
    /// latest stage attended; a pair's players sorted by name.
    pub players: Vec<StagePlayer<K>>,
    /// Total counted points.
    pub points: Decimal,
    /// Σ MP difference over the counted stages.
    pub mp_diff: i64,
    /// Finished stages attended (counted or not).
    pub attendances: u32,
    /// The highest single counted stage's points.
    pub best_stage: Decimal,
    /// Stage numbers (1-based) whose points count, ascending.
    pub counted: Vec<u32>,
    /// One per stage given, in order: the entrant's result, `None` when it
    /// did not play it or the stage is provisional.
    pub stages: Vec<Option<StageScore>>,
}

impl<K> CircuitRow<K> {
    fn order_key(&self) -> (Decimal, i64, u32, Decimal) {
        (self.points, self.mp_diff, self.attendances, self.best_stage)
    }
}

/// Why an entrant is a finalist: the first reason that qualified them,
/// stages (earliest first) before overall.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FinalistReason {
    /// Placed within the stage cut-off.
    Stage { stage: u32, place: u32 },
    /// Placed within the overall cut-off (`place` among the classified
    /// entrants with at least `overall_min_attendances`).
    Overall { place: u32 },
}

impl fmt::Display for FinalistReason {
    /// `stage N, place P` or `overall, place P` (FORMAT.md).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FinalistReason::Stage { stage, place } => write!(f, "stage {stage}, place {place}"),
            FinalistReason::Overall { place } => write!(f, "overall, place {place}"),
        }
    }
}

/// A finalist, listed in the order of the season ranking.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finalist<K> {
    pub entrant: Entrant<K>,
    pub players: Vec<StagePlayer<K>>,
    pub reason: FinalistReason,
}

/// The season ranking of a circuit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CircuitStandings<K> {
    /// The classified (best first), then the unclassified (same order).
    pub rows: Vec<CircuitRow<K>>,
    /// Empty without `finals`.
    pub finalists: Vec<Finalist<K>>,
    /// Stage numbers (1-based) not counted because their tournament is not
    /// finished.
    pub provisional: Vec<u32>,
}

impl<K: Ord> CircuitStandings<K> {
    /// The row of an entrant.
    pub fn row(&self, entrant: &Entrant<K>) -> Option<&CircuitRow<K>> {
        self.rows.iter().find(|r| &r.entrant == entrant)
    }

    /// The rows a person is in (one when ranking players; every pair they
    /// played in when ranking pairs): their season card.
    pub fn rows_of<'a>(&'a self, key: &'a K) -> impl Iterator<Item = &'a CircuitRow<K>> + 'a {
        self.rows.iter().filter(move |r| r.entrant.contains(key))
    }

    /// The finalist entry of an entrant.
    pub fn finalist(&self, entrant: &Entrant<K>) -> Option<&Finalist<K>> {
        self.finalists.iter().find(|f| &f.entrant == entrant)
    }
}

fn stage_number(index: usize) -> u32 {
    u32::try_from(index.saturating_add(1)).unwrap_or(u32::MAX)
}

/// The points of one place before any sharing: `placing` and `table`;
/// `None` for `vp` (points are the VP, not a function of the place).
pub fn place_points(method: &PointsMethod, entries: u32, place: u32) -> Option<Decimal> {
    match method {
        PointsMethod::Vp => None,
        PointsMethod::Placing { first, step, min } => {
            let first = match first {
                First::Entries => Decimal::from(entries),
                First::Fixed(n) => *n,
            };
            let behind = Decimal::from(place.saturating_sub(1));
            let points = first.saturating_sub(step.saturating_mul(behind));
            Some(points.max(*min))
        }
        PointsMethod::Table { table } => Some(
            usize::try_from(place.saturating_sub(1))
                .ok()
                .filter(|_| place > 0)
                .and_then(|i| table.get(i))
                .copied()
                .unwrap_or(Decimal::ZERO),
        ),
    }
}

/// The points of `sharing` entrants who share `place` (places `place` …
/// `place + sharing − 1`): the mean of those places' points, rounded half
/// up to two decimals. `None` for `vp`.
pub fn shared_points(
    method: &PointsMethod,
    entries: u32,
    place: u32,
    sharing: u32,
) -> Option<Decimal> {
    let sharing = sharing.max(1);
    let mut sum = Decimal::ZERO;
    for offset in 0..sharing {
        sum = sum.saturating_add(place_points(method, entries, place.saturating_add(offset))?);
    }
    let mean = sum.checked_div(Decimal::from(sharing)).unwrap_or(sum);
    Some(mean.round_dp_with_strategy(POINTS_DP, RoundingStrategy::MidpointAwayFromZero))
}

/// Each result's stage points, in the order of `stage.results`: the VP
/// total for `vp`; otherwise the place's points, averaged over the places
/// a shared place covers (the number of results with that place).
pub fn stage_points<K>(method: &PointsMethod, stage: &Stage<K>) -> Vec<Decimal> {
    if matches!(method, PointsMethod::Vp) {
        return stage.results.iter().map(|r| Decimal::from(r.vp)).collect();
    }
    let mut sharing: BTreeMap<u32, u32> = BTreeMap::new();
    for r in &stage.results {
        let n = sharing.entry(r.place).or_insert(0);
        *n = n.saturating_add(1);
    }
    stage
        .results
        .iter()
        .map(|r| {
            let k = sharing.get(&r.place).copied().unwrap_or(1);
            shared_points(method, stage.entries, r.place, k).unwrap_or(Decimal::ZERO)
        })
        .collect()
}

/// The cut-off place of the top `percent` % of `count`:
/// ceil(percent × count / 100).
pub fn cut_off(percent: Decimal, count: u32) -> u32 {
    let raw = percent
        .saturating_mul(Decimal::from(count))
        .checked_div(Decimal::ONE_HUNDRED)
        .unwrap_or(Decimal::ZERO)
        .ceil();
    if raw.is_sign_negative() {
        return 0;
    }
    raw.to_u32().unwrap_or(u32::MAX)
}

/// The better of two results of one entrant in one stage (two homonyms in
/// one tournament, or a wrong merge of two people): lower place, then more
/// points, then higher MP difference, then the lower pair number.
fn better(a: &StageScore, b: &StageScore) -> bool {
    (b.place, a.points, a.mp_diff, b.pair_number) > (a.place, b.points, b.mp_diff, a.pair_number)
}

/// An entrant's result kept in one stage and its players as that result
/// shows them.
type Kept<K> = Option<(StageScore, Vec<StagePlayer<K>>)>;

/// What is gathered of an entrant before ranking: one slot per stage.
struct Acc<K> {
    stages: Vec<Kept<K>>,
}

/// The entrants a result counts for, each with the players shown.
fn entrants_of<K: Ord + Clone>(
    rank: RankBy,
    result: &StageResult<K>,
) -> Vec<(Entrant<K>, Vec<StagePlayer<K>>)> {
    let [a, b] = &result.players;
    match rank {
        RankBy::Pair => vec![(
            Entrant::pair(a.key.clone(), b.key.clone()),
            vec![a.clone(), b.clone()],
        )],
        RankBy::Player if a.key == b.key => {
            vec![(Entrant::Player(a.key.clone()), vec![a.clone()])]
        }
        RankBy::Player => vec![
            (Entrant::Player(a.key.clone()), vec![a.clone()]),
            (Entrant::Player(b.key.clone()), vec![b.clone()]),
        ],
    }
}

/// The players of an entrant as shown: per key, the name and card of the
/// latest stage where the entry carried a card (a card comes with the
/// federation's spelling), else the name of the latest stage attended;
/// sorted by normalised name, then key.
fn display<K: Ord + Clone>(entrant: &Entrant<K>, stages: &[Kept<K>]) -> Vec<StagePlayer<K>> {
    let keys: Vec<&K> = match entrant {
        Entrant::Player(k) => vec![k],
        Entrant::Pair(a, b) if a == b => vec![a],
        Entrant::Pair(a, b) => vec![a, b],
    };
    let seen = || {
        stages
            .iter()
            .rev()
            .flatten()
            .flat_map(|(_, players)| players.iter())
    };
    let mut out: Vec<StagePlayer<K>> = keys
        .into_iter()
        .filter_map(|k| {
            let latest = seen().find(|p| &p.key == k)?;
            let carded = seen().filter(|p| &p.key == k).find(|p| p.card.is_some());
            Some(carded.unwrap_or(latest).clone())
        })
        .collect();
    out.sort_by(|x, y| {
        normalize_name(&x.surname, &x.name)
            .cmp(&normalize_name(&y.surname, &y.name))
            .then_with(|| x.key.cmp(&y.key))
    });
    out
}

/// Which stages count: the `best_of` highest points; between equal points
/// the higher MP difference, then the earlier stage.
fn choose_counted(scores: &mut [&mut StageScore], best_of: Option<u32>) {
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&i, &j| match (scores.get(i), scores.get(j)) {
        (Some(a), Some(b)) => b
            .points
            .cmp(&a.points)
            .then(b.mp_diff.cmp(&a.mp_diff))
            .then(a.stage.cmp(&b.stage)),
        _ => Ordering::Equal,
    });
    let take = best_of.map_or(order.len(), |k| {
        usize::try_from(k).unwrap_or(usize::MAX).min(order.len())
    });
    for &i in order.iter().take(take) {
        if let Some(s) = scores.get_mut(i) {
            s.counted = true;
        }
    }
}

/// Gives places 1, 2, 2, 4… to `rows` (already in order) by `order_key`.
fn places<T>(rows: &[T], key: impl Fn(&T) -> (Decimal, i64, u32, Decimal)) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::with_capacity(rows.len());
    for (i, row) in rows.iter().enumerate() {
        let tied = i
            .checked_sub(1)
            .and_then(|j| rows.get(j))
            .is_some_and(|prev| key(prev) == key(row));
        let place = match (tied, out.last()) {
            (true, Some(&p)) => p,
            _ => stage_number(i),
        };
        out.push(place);
    }
    out
}

/// The season ranking of `stages` (in stage order) under `spec`. Generic
/// over the person key: a player-directory id on the web, a
/// [`super::PersonKey`] for files.
///
/// Unfinished stages are listed in `provisional` and count nowhere. With
/// `best_of` k, an entrant's k highest stage points count; between stages
/// with equal points the one with the higher MP difference counts, then the
/// earlier one. The result does not depend on the order of the results
/// within a stage.
pub fn compute<K: Ord + Clone>(spec: &CircuitSpec, stages: &[Stage<K>]) -> CircuitStandings<K> {
    let mut acc: BTreeMap<Entrant<K>, Acc<K>> = BTreeMap::new();
    let mut provisional = Vec::new();
    for (s, stage) in stages.iter().enumerate() {
        let number = stage_number(s);
        if !stage.finished {
            provisional.push(number);
            continue;
        }
        let points = stage_points(&spec.points, stage);
        for (result, pts) in stage.results.iter().zip(points) {
            let score = StageScore {
                stage: number,
                pair_number: result.pair_number,
                place: result.place,
                vp: result.vp,
                mp_diff: result.mp_diff,
                points: pts,
                counted: false,
            };
            for (entrant, players) in entrants_of(spec.rank, result) {
                let a = acc.entry(entrant).or_insert_with(|| Acc {
                    stages: vec![None; stages.len()],
                });
                let Some(slot) = a.stages.get_mut(s) else {
                    continue;
                };
                let keep_old = slot.as_ref().is_some_and(|(old, _)| !better(&score, old));
                if !keep_old {
                    *slot = Some((score.clone(), players));
                }
            }
        }
    }

    let mut rows: Vec<CircuitRow<K>> = acc
        .into_iter()
        .map(|(entrant, mut a)| {
            let players = display(&entrant, &a.stages);
            let mut scores: Vec<&mut StageScore> =
                a.stages.iter_mut().flatten().map(|(s, _)| s).collect();
            choose_counted(&mut scores, spec.best_of);
            let attendances = u32::try_from(scores.len()).unwrap_or(u32::MAX);
            let counted: Vec<&StageScore> =
                scores.iter().map(|s| &**s).filter(|s| s.counted).collect();
            let points = counted
                .iter()
                .fold(Decimal::ZERO, |t, s| t.saturating_add(s.points));
            let mp_diff = counted
                .iter()
                .fold(0i64, |t, s| t.saturating_add(s.mp_diff));
            let best_stage = counted
                .iter()
                .map(|s| s.points)
                .max()
                .unwrap_or(Decimal::ZERO);
            let counted = counted.iter().map(|s| s.stage).collect();
            CircuitRow {
                place: None,
                entrant,
                players,
                points,
                mp_diff,
                attendances,
                best_stage,
                counted,
                stages: a
                    .stages
                    .into_iter()
                    .map(|s| s.map(|(score, _)| score))
                    .collect(),
            }
        })
        .collect();

    let min = spec.min_attendances.unwrap_or(0);
    let names = |r: &CircuitRow<K>| -> Vec<String> {
        r.players
            .iter()
            .map(|p| normalize_name(&p.surname, &p.name))
            .collect()
    };
    rows.sort_by(|x, y| {
        (y.attendances >= min)
            .cmp(&(x.attendances >= min))
            .then(y.order_key().cmp(&x.order_key()))
            .then_with(|| names(x).cmp(&names(y)))
            .then_with(|| x.entrant.cmp(&y.entrant))
    });
    let classified = rows.iter().take_while(|r| r.attendances >= min).count();
    if let Some(head) = rows.get_mut(..classified) {
        let given = places(head, CircuitRow::order_key);
        for (row, place) in head.iter_mut().zip(given) {
            row.place = Some(place);
        }
    }

    let finalists = match &spec.finals {
        None => Vec::new(),
        Some(finals) => {
            let mut reasons: Vec<Option<FinalistReason>> = vec![None; rows.len()];
            if let Some(percent) = finals.stage_top_percent {
                for (s, stage) in stages.iter().enumerate() {
                    if !stage.finished {
                        continue;
                    }
                    let cut = cut_off(percent, stage.entries);
                    for (row, reason) in rows.iter().zip(reasons.iter_mut()) {
                        if reason.is_some() {
                            continue;
                        }
                        if let Some(Some(score)) = row.stages.get(s) {
                            if score.place <= cut {
                                *reason = Some(FinalistReason::Stage {
                                    stage: score.stage,
                                    place: score.place,
                                });
                            }
                        }
                    }
                }
            }
            if let Some(percent) = finals.overall_top_percent {
                let pool: Vec<usize> = (0..rows.len())
                    .filter(|&i| {
                        rows.get(i).is_some_and(|r| {
                            r.place.is_some() && r.attendances >= finals.overall_min_attendances
                        })
                    })
                    .collect();
                let pool_rows: Vec<&CircuitRow<K>> =
                    pool.iter().filter_map(|&i| rows.get(i)).collect();
                let cut = cut_off(percent, u32::try_from(pool.len()).unwrap_or(u32::MAX));
                let ranked = places(&pool_rows, |r| r.order_key());
                for (&i, place) in pool.iter().zip(ranked) {
                    if place <= cut {
                        if let Some(reason @ None) = reasons.get_mut(i) {
                            *reason = Some(FinalistReason::Overall { place });
                        }
                    }
                }
            }
            rows.iter()
                .zip(reasons)
                .filter_map(|(row, reason)| {
                    reason.map(|reason| Finalist {
                        entrant: row.entrant.clone(),
                        players: row.players.clone(),
                        reason,
                    })
                })
                .collect()
        }
    };

    CircuitStandings {
        rows,
        finalists,
        provisional,
    }
}
