//! The order of RULES.md §5 (and §12, §13 inside a group): VP, MP
//! difference, MP, then the meeting of exactly two tied entrants; shared
//! places. A leaf of the engine, shared by the whole field's standings and
//! the groups'.

use super::kind::{Acc, Field, Kind, RoundCard};
use super::{Card, Row, TieBreak};
use crate::i18n::{tf, Lang};
use std::cmp::Ordering;
use std::marker::PhantomData;

/// VP the entrant of card `a` and entrant `b` took in their scored
/// meetings, if they met (summed when they met more than once).
fn head_to_head<K: Kind>(cards: &[Card<K>], a: usize, b: u32) -> Option<(i64, i64)> {
    let card = cards.get(a)?;
    let mut met = false;
    let (mut mine, mut theirs) = (0i64, 0i64);
    for (vp, other_vp) in card.rounds.iter().filter_map(|c| c.met(b)) {
        met = true;
        mine = mine.saturating_add(vp);
        theirs = theirs.saturating_add(other_vp);
    }
    met.then_some((mine, theirs))
}

/// Head-to-head decided the order of two tied entries (indexes into the
/// list given to [`order_entries`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HeadToHead {
    pub other: usize,
    pub vp_for: i64,
    pub vp_against: i64,
    pub won: bool,
}

/// One entry in the order: its index in the list given, its place and the
/// head-to-head that placed it, if any.
pub(crate) type Placed = (usize, u32, Option<HeadToHead>);

/// The order of RULES.md §5 and §12: `(vp, mp_diff, mp)` higher first, then
/// the number; when exactly two entries are tied and `h2h(a, b)` gives what
/// `a` and `b` took in their meetings, the one with more goes first; still
/// tied → the same place (1, 2, 2, 4…).
pub(crate) fn order_entries(
    entries: &[(u32, (i64, i64, i64))],
    h2h: impl Fn(usize, usize) -> Option<(i64, i64)>,
) -> Vec<Placed> {
    let key = |i: usize| entries.get(i).map(|e| e.1).unwrap_or_default();
    let number = |i: usize| entries.get(i).map_or(0, |e| e.0);
    let mut out: Vec<Placed> = (0..entries.len()).map(|i| (i, 0, None)).collect();
    out.sort_by(|x, y| key(y.0).cmp(&key(x.0)).then(number(x.0).cmp(&number(y.0))));
    let mut start = 0usize;
    while start < out.len() {
        let k = out.get(start).map(|e| key(e.0));
        let mut end = start.saturating_add(1);
        while end < out.len() && out.get(end).map(|e| key(e.0)) == k {
            end = end.saturating_add(1);
        }
        let place = u32::try_from(start.saturating_add(1)).unwrap_or(u32::MAX);
        let mut places = [place; 2];
        if end.saturating_sub(start) == 2 {
            if let (Some(&(a, _, _)), Some(&(b, _, _))) = (out.get(start), out.get(start + 1)) {
                if let Some((va, vb)) = h2h(a, b) {
                    let order = va.cmp(&vb);
                    if order != Ordering::Equal {
                        let (hi, lo, vhi, vlo) = if order == Ordering::Greater {
                            (a, b, va, vb)
                        } else {
                            (b, a, vb, va)
                        };
                        places = [place, place.saturating_add(1)];
                        let side = |other, vp_for, vp_against, won| HeadToHead {
                            other,
                            vp_for,
                            vp_against,
                            won,
                        };
                        if let Some(e) = out.get_mut(start) {
                            *e = (hi, 0, Some(side(lo, vhi, vlo, true)));
                        }
                        if let Some(e) = out.get_mut(start + 1) {
                            *e = (lo, 0, Some(side(hi, vlo, vhi, false)));
                        }
                    }
                }
            }
        }
        if let Some(group) = out.get_mut(start..end) {
            for (offset, e) in group.iter_mut().enumerate() {
                e.1 = places.get(offset).copied().unwrap_or(place);
            }
        }
        start = end;
    }
    out
}

/// The head-to-head note of the kind (`{pair}`/`{team}`/`{player}`, `{other}`,
/// `{vp_for}`, `{vp_against}`).
fn tie_note<K: Kind>(lang: Lang, t: &HeadToHead, me: u32, other: u32) -> String {
    let key = if t.won { K::TIE_NOTE.0 } else { K::TIE_NOTE.1 };
    tf(
        lang,
        key,
        &[
            (K::FIELD, &me),
            ("other", &other),
            ("vp_for", &t.vp_for),
            ("vp_against", &t.vp_against),
        ],
    )
}

/// Orders the entries and gives the places.
pub(super) fn rank<K: Kind>(
    field: &Field<'_>,
    acc: &[Acc],
    cards: &[Card<K>],
    lang: Lang,
) -> Vec<Row<K>> {
    let rows: Vec<Row<K>> = field
        .entrants
        .iter()
        .filter(|e| e.entry)
        .enumerate()
        .map(|(i, e)| {
            let s = acc.get(i).copied().unwrap_or_default();
            Row {
                place: 0,
                number: e.number,
                vp: s.vp.saturating_sub(s.penalty_vp),
                mp_diff: s.mp_diff,
                mp: s.mp,
                played: s.played,
                byes: s.byes,
                penalty_vp: s.penalty_vp,
                withdrawn: e.withdrawn,
                tie_break: None,
                group: None,
                group_place: None,
                kind: PhantomData,
            }
        })
        .collect();
    order_rows(&rows, cards, lang)
}

/// `rows` in the order of RULES.md §5 among themselves, each with its
/// place (1, 2, 2, 4… within `rows`) and the head-to-head of exactly two
/// of them still tied: the whole field, or one group (RULES.md §13).
pub(crate) fn order_rows<K: Kind>(rows: &[Row<K>], cards: &[Card<K>], lang: Lang) -> Vec<Row<K>> {
    let keys: Vec<(u32, (i64, i64, i64))> = rows
        .iter()
        .map(|r| (r.number, (r.vp, r.mp_diff, r.mp)))
        .collect();
    let card_of = |number: u32| cards.iter().position(|c| c.number == number);
    let h2h = |a: usize, b: usize| {
        head_to_head(cards, card_of(rows.get(a)?.number)?, rows.get(b)?.number)
    };
    order_entries(&keys, h2h)
        .into_iter()
        .filter_map(|(k, place, tie)| {
            let mut row = rows.get(k)?.clone();
            row.place = place;
            row.tie_break = tie.and_then(|t| {
                let other = rows.get(t.other)?.number;
                Some(TieBreak {
                    other,
                    vp_for: t.vp_for,
                    vp_against: t.vp_against,
                    won: t.won,
                    note: tie_note::<K>(lang, &t, row.number, other),
                })
            });
            Some(row)
        })
        .collect()
}
