//! The one standings engine (RULES.md §5, §9, §10, §12): whatever the kind
//! of entrant, once its rounds are scored into the [`Ledger`], the byes,
//! the penalties, the order with head-to-head and shared places, the cards
//! and the prizes are computed here.

use super::groups::{group_prizes, in_groups};
use super::kind::{Kind, Ledger, PenaltyRef, RoundCard};
use super::order::rank;
use super::prizes::prizes;
use super::{CardPenalty, Standings, StandingsError};
use crate::i18n::{tf, Lang};
use crate::tournament_file::PenaltyKind;

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
    let mut rows = rank(&field, &acc, &cards, lang);
    if !field.groups.is_empty() {
        rows = in_groups(&rows, &field.groups, &cards, lang);
    }
    let entries = u32::try_from(rows.len()).unwrap_or(u32::MAX);
    let (pool, organiser_fee, scheme, prizes) = match field.group_prizes {
        Some(shares) if !field.groups.is_empty() => group_prizes(&field, &rows, shares)?,
        _ => prizes(&field, &rows)?,
    };
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
