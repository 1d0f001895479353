//! The one standings engine (RULES.md §5, §9, §10, §12): whatever the kind
//! of entrant, once its rounds are scored into the [`Ledger`], the byes,
//! the penalties, the order with head-to-head and shared places, the cards
//! and the prizes are computed here.

use super::kind::{Acc, Field, Kind, Ledger, PenaltyRef, RoundCard};
use super::prizes::prizes;
use super::{Card, CardPenalty, Row, Standings, StandingsError, TieBreak};
use crate::i18n::{tf, Lang};
use crate::tournament_file::PenaltyKind;
use std::cmp::Ordering;
use std::marker::PhantomData;

/// Validates a plain file, then computes.
pub fn compute_file<K: Kind>(file: &K::File, lang: Lang) -> Result<Standings<K>, StandingsError> {
    let valid = K::validate(file)?;
    compute::<K>(&valid, lang)
}

/// Computes the standings, the cards and the prizes of a valid file of
/// kind `K`. `lang` is the language of the texts inside (automatic
/// penalties' reason, head-to-head notes).
pub fn compute<K: Kind>(valid: &K::Valid<'_>, lang: Lang) -> Result<Standings<K>, StandingsError> {
    let mut ledger = Ledger::<K>::new(K::field(valid));
    let extra = K::score(valid, &mut ledger);
    if !ledger.broken.is_empty() {
        return Err(StandingsError::SheetRuleBroken(ledger.broken));
    }
    rest(&mut ledger);
    apply_penalties(&mut ledger, lang);
    let Ledger {
        field,
        acc,
        cards,
        mismatches,
        ..
    } = ledger;
    let rows = rank(&field, &acc, &cards, lang);
    let entries = u32::try_from(rows.len()).unwrap_or(u32::MAX);
    let (pool, organiser_fee, scheme, prizes) = prizes(&field, &rows)?;
    let card_index = cards
        .iter()
        .enumerate()
        .map(|(i, c)| (c.number, i))
        .collect();
    let row_index = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r.number, i))
        .collect();
    Ok(Standings {
        rows,
        cards,
        entries,
        pool,
        organiser_fee,
        scheme,
        prizes,
        declared_mismatches: mismatches,
        extra,
        card_index,
        row_index,
    })
}

/// The resting entrants score the bye award.
fn rest<K: Kind>(ledger: &mut Ledger<'_, K>) {
    let (vp, diff) = (ledger.field.bye_vp, ledger.field.bye_mp_diff);
    for (r, (_, byes)) in ledger.field.rounds.iter().enumerate() {
        for &number in byes.iter() {
            let Some(i) = ledger.index_of(number) else {
                continue;
            };
            if let Some(s) = ledger.acc.get_mut(i) {
                s.vp = s.vp.saturating_add(vp);
                s.mp_diff = s.mp_diff.saturating_add(diff);
                s.byes = s.byes.saturating_add(1);
            }
            if let Some(c) = ledger.cards.get_mut(i).and_then(|c| c.rounds.get_mut(r)) {
                c.rest(vp, diff);
            }
        }
    }
}

/// A penalty of the file as its card shows it.
fn card_penalty(k: usize, p: &PenaltyRef<'_>) -> CardPenalty {
    CardPenalty {
        index: Some(k),
        kind: p.kind,
        amount: p.amount,
        reason: p.reason.to_string(),
        withdrawn: p.withdrawn,
        automatic: false,
        warning_no: None,
        counts: false,
        table: p.table,
        by: p.by.map(str::to_string),
        at: p.at,
        withdrawn_by: p.withdrawn_by.map(str::to_string),
        withdrawn_at: p.withdrawn_at,
    }
}

/// Puts every penalty on its card and counts the VP ones and the warnings
/// (RULES.md §9): every second warning to an entrant, counted over the
/// tournament in round order then file order, costs an automatic −1 VP.
fn apply_penalties<K: Kind>(ledger: &mut Ledger<'_, K>, lang: Lang) {
    let field = &ledger.field;
    let mut order: Vec<usize> = (0..field.penalties.len()).collect();
    // Stable: file order within a round.
    order.sort_by_key(|&k| field.penalties.get(k).map_or(0, |p| p.round));
    for k in order {
        let Some(p) = field.penalties.get(k) else {
            continue;
        };
        let Some(i) = ledger.index.get(&p.number).copied() else {
            continue;
        };
        let r = usize::try_from(p.round).unwrap_or(0).saturating_sub(1);
        let (Some(s), Some(c)) = (
            ledger.acc.get_mut(i),
            ledger.cards.get_mut(i).and_then(|c| c.rounds.get_mut(r)),
        ) else {
            continue;
        };
        let mut entry = card_penalty(k, p);
        let mut automatic = None;
        if !p.withdrawn {
            match p.kind {
                PenaltyKind::Warning => {
                    s.warnings = s.warnings.saturating_add(1);
                    entry.warning_no = Some(s.warnings);
                    entry.counts = true;
                    if s.warnings % 2 == 0 {
                        s.penalty_vp = s.penalty_vp.saturating_add(1);
                        let vp = c.penalty_vp_mut();
                        *vp = vp.saturating_add(1);
                        automatic = Some(CardPenalty {
                            index: None,
                            kind: PenaltyKind::Vp,
                            amount: Some(1),
                            reason: tf(
                                lang,
                                "file.standings.auto_warning",
                                &[("count", &s.warnings)],
                            ),
                            withdrawn: false,
                            automatic: true,
                            warning_no: None,
                            counts: true,
                            table: p.table,
                            by: None,
                            at: p.at,
                            withdrawn_by: None,
                            withdrawn_at: None,
                        });
                    }
                }
                PenaltyKind::Vp => {
                    let amount = p.amount.unwrap_or(0);
                    s.penalty_vp = s.penalty_vp.saturating_add(amount);
                    let vp = c.penalty_vp_mut();
                    *vp = vp.saturating_add(amount);
                    entry.counts = true;
                }
                PenaltyKind::Mp => {
                    entry.counts = c.mp_counts(p.table);
                }
            }
        }
        c.penalties_mut().push(entry);
        if let Some(a) = automatic {
            c.penalties_mut().push(a);
        }
    }
}

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

/// The head-to-head note of the kind (`{pair}`/`{team}`, `{other}`,
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
fn rank<K: Kind>(field: &Field<'_>, acc: &[Acc], cards: &[Card<K>], lang: Lang) -> Vec<Row<K>> {
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
                kind: PhantomData,
            }
        })
        .collect();
    let keys: Vec<(u32, (i64, i64, i64))> = rows
        .iter()
        .map(|r| (r.number, (r.vp, r.mp_diff, r.mp)))
        .collect();
    let h2h = |a: usize, b: usize| head_to_head(cards, a, rows.get(b)?.number);
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
