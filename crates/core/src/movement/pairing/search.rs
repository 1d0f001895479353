//! The exact search for a pairing under any relation (teams: never a team
//! already met): backtracking from the top with a memory of the hopeless
//! sets, cut short where an entrant has no possible opponent left or the
//! possible meetings split the set into a part of odd size.

use std::collections::HashSet;

/// The search ran past [`DANISH_SEARCH_STEPS`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Exhausted;

/// The games of everyone but the resting position, or `None` when there is
/// no pairing: what a pairing engine gives.
pub(super) type Games = Result<Option<Vec<(usize, usize)>>, Exhausted>;

/// A fixed-size set of ranking positions.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Bits(Vec<u64>);

impl Bits {
    fn full(n: usize) -> Bits {
        let mut b = Bits(vec![0; n.div_ceil(64)]);
        for i in 0..n {
            b.set(i, true);
        }
        b
    }

    fn set(&mut self, i: usize, on: bool) {
        if let Some(w) = self.0.get_mut(i / 64) {
            let bit = 1u64 << (i % 64);
            if on {
                *w |= bit;
            } else {
                *w &= !bit;
            }
        }
    }

    fn has(&self, i: usize) -> bool {
        self.0
            .get(i / 64)
            .is_some_and(|w| w & (1u64 << (i % 64)) != 0)
    }

    fn first(&self) -> Option<usize> {
        self.0.iter().enumerate().find_map(|(k, &w)| {
            (w != 0).then(|| k * 64 + usize::try_from(w.trailing_zeros()).unwrap_or(0))
        })
    }

    fn count(&self) -> usize {
        self.0
            .iter()
            .map(|w| usize::try_from(w.count_ones()).unwrap_or(0))
            .sum()
    }

    fn members(&self, n: usize) -> impl Iterator<Item = usize> + '_ {
        (0..n).filter(move |&i| self.has(i))
    }
}

/// Most steps one search for a pairing may take: beyond, the search gives
/// up and counts as no pairing (far beyond any real field).
pub const DANISH_SEARCH_STEPS: u64 = 2_000_000;

/// A search for a pairing under one `allowed` relation, kept across the
/// bye's candidates (its memory and its step count with it).
pub(super) struct Search<'f> {
    n: usize,
    allowed: &'f dyn Fn(usize, usize) -> bool,
    /// Sets known to have no pairing.
    hopeless: HashSet<Bits>,
    steps: u64,
}

impl<'f> Search<'f> {
    pub(super) fn new(n: usize, allowed: &'f dyn Fn(usize, usize) -> bool) -> Search<'f> {
        Search {
            n,
            allowed,
            hopeless: HashSet::new(),
            steps: 0,
        }
    }

    /// The games of every position but `rest`: see [`Search::pair_up`].
    pub(super) fn pair_without(&mut self, rest: Option<usize>) -> Games {
        let mut set = Bits::full(self.n);
        if let Some(r) = rest {
            set.set(r, false);
        }
        self.pair_up(&mut set)
    }

    /// Whether some member has no allowed partner left, or the allowed
    /// relation splits the set into a part of odd size: no pairing then.
    fn obviously_hopeless(&self, members: &[usize]) -> bool {
        let mut part = vec![usize::MAX; members.len()];
        for start in 0..members.len() {
            if part.get(start).is_some_and(|&p| p != usize::MAX) {
                continue;
            }
            let mut size = 0usize;
            let mut stack = vec![start];
            if let Some(p) = part.get_mut(start) {
                *p = start;
            }
            while let Some(i) = stack.pop() {
                size += 1;
                let Some(&a) = members.get(i) else { continue };
                let mut alone = true;
                for (j, &b) in members.iter().enumerate() {
                    if j == i || !(self.allowed)(a, b) {
                        continue;
                    }
                    alone = false;
                    if let Some(p) = part.get_mut(j).filter(|p| **p == usize::MAX) {
                        *p = start;
                        stack.push(j);
                    }
                }
                if alone {
                    return true;
                }
            }
            if size % 2 == 1 {
                return true;
            }
        }
        false
    }

    /// Pairs every position of `set` (best first), each with the
    /// highest-placed allowed partner that lets the rest be paired. `Err`
    /// when the step budget runs out.
    fn pair_up(&mut self, set: &mut Bits) -> Games {
        let Some(top) = set.first() else {
            return Ok(Some(Vec::new()));
        };
        self.steps += 1;
        if self.steps > DANISH_SEARCH_STEPS {
            return Err(Exhausted);
        }
        if set.count() % 2 == 1 || self.hopeless.contains(set) {
            return Ok(None);
        }
        let members: Vec<usize> = set.members(self.n).collect();
        if !self.obviously_hopeless(&members) {
            set.set(top, false);
            for &q in members.iter().skip(1) {
                if !(self.allowed)(top, q) {
                    continue;
                }
                set.set(q, false);
                let rest = self.pair_up(set);
                set.set(q, true);
                match rest {
                    Ok(Some(mut rest)) => {
                        set.set(top, true);
                        rest.insert(0, (top, q));
                        return Ok(Some(rest));
                    }
                    Ok(None) => {}
                    Err(Exhausted) => {
                        set.set(top, true);
                        return Err(Exhausted);
                    }
                }
            }
            set.set(top, true);
        }
        self.hopeless.insert(set.clone());
        Ok(None)
    }
}
