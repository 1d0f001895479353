//! What an entrant is, as the one standings engine sees it (ARCHITECTURE.md,
//! "Kinds of tournament, one engine").
//!
//! A kind of tournament says *who* its entrants are and *what a table gives
//! each of them*; everything else — accumulating, penalties, head-to-head,
//! ranking with shared places, prizes — is the engine's ([`super::engine`]),
//! written once.
//!
//! A kind is a marker type implementing [`Kind`]:
//! - its file and validated file, and [`Kind::field`]: the entrants (by
//!   number, in file order), the rounds, the byes, the penalties and the
//!   money, each naming an entrant by its number;
//! - [`Kind::score`]: walks its rounds and hands each entrant its result
//!   through the [`Ledger`] (`credit`), filling its own card rounds;
//! - its card round ([`Kind::Round`], through [`RoundCard`]), its prize
//!   split, what its standings carry of their own ([`Kind::Extra`]) and its
//!   words (the JSON field naming the entrant, the catalog keys).
//!
//! Pairs ([`super::Pair`]): a table gives each line its VP and MP. Teams
//! ([`super::Team`]): a match's two tables, summed or rescaled, give each
//! team its match result. Individual players ([`super::Individual`],
//! RULES.md §14) score a table as pairs do
//! ([`super::pairs::score_lines`]) and credit the line's result to each of
//! the line's two players; their penalties name a player and a line's MP
//! penalty sums its players' ([`Ledger::mp_penalty`]) — only that mapping,
//! the card round and the file are theirs.

use super::{CardPenalty, SheetRef, StandingsError};
use crate::tournament_file::{GroupPrizeFile, PayoutTierFile, PenaltyKind};
use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde::Serialize;
use std::collections::HashMap;
use std::fmt;

/// A kind of entrant (pair, team, individual player).
///
/// Every entrant is known by its number (pair, team or player number), a
/// `u32`, as in the tournament file.
pub trait Kind: Sized + Copy + fmt::Debug + PartialEq + Eq + 'static {
    /// The tournament file of this kind.
    type File;
    /// The validated file.
    type Valid<'a>;
    /// One round on an entrant's card.
    type Round: RoundCard + Clone + fmt::Debug + PartialEq + Eq + Serialize;
    /// A prize split among the entrant's players.
    type Split: AsRef<[Decimal]> + Clone + fmt::Debug + PartialEq + Eq + Serialize;
    /// What the kind's standings carry of their own (teams: the match
    /// results).
    type Extra: Clone + fmt::Debug + PartialEq + Eq + Serialize;

    /// The JSON field naming the entrant (`pair`, `team`).
    const FIELD: &'static str;
    /// Catalog keys of the head-to-head note: (won, lost); `{pair}` or
    /// `{team}` is the entrant, `{other}` the other one.
    const TIE_NOTE: (&'static str, &'static str);
    /// Catalog key naming a broken sheet's place (`{round}`, `{table}`,
    /// `{ns}`, `{ew}`).
    const SHEET_PLACE: &'static str;

    /// Validates a plain file.
    fn validate(file: &Self::File) -> Result<Self::Valid<'_>, StandingsError>;

    /// What the engine reads from the file.
    fn field<'v>(valid: &'v Self::Valid<'_>) -> Field<'v>;

    /// Scores every round: what each table or match gives each entrant
    /// ([`Ledger::credit`]) and the kind's card rounds. Broken sheets and
    /// wrong declared totals go to the ledger.
    fn score(valid: &Self::Valid<'_>, ledger: &mut Ledger<'_, Self>) -> Self::Extra;

    /// The prize split: `two_way` is the pool's split between two players,
    /// `players` the entrant's number of players.
    fn split(amount: Decimal, two_way: [Decimal; 2], players: usize) -> Self::Split;
}

/// What the engine needs of a card round.
pub trait RoundCard {
    /// A round the entrant neither played nor rested.
    fn absent(round: u32) -> Self;
    /// Rested with the bye award.
    fn rest(&mut self, vp: i64, mp_diff: i64);
    /// The round's VP before penalties (table, match or bye), if any.
    fn vp(&self) -> Option<i64>;
    /// The VP (own, other's) of a scored meeting with entrant `other` in
    /// this round, if there was one (head-to-head).
    fn met(&self, other: u32) -> Option<(i64, i64)>;
    /// An `mp` penalty at `table` counts: the table was scored from its
    /// sheet.
    fn mp_counts(&self, table: Option<u32>) -> bool;
    /// VP taken by penalties this round.
    fn penalty_vp_mut(&mut self) -> &mut i64;
    /// The round's penalties, in order.
    fn penalties_mut(&mut self) -> &mut Vec<CardPenalty>;
}

/// The [`RoundCard`] methods of a card round with the fields `outcome`,
/// `opponent`, `vp`, `opponent_vp`, `mp_diff`, `penalty_vp` and
/// `penalties`: `$bye` is its resting outcome, `$scored` the outcomes of a
/// scored meeting (head-to-head counts those).
macro_rules! round_card_fields {
    ($bye:expr, $scored:pat) => {
        fn rest(&mut self, vp: i64, mp_diff: i64) {
            self.outcome = $bye;
            self.vp = Some(vp);
            self.mp_diff = mp_diff;
        }

        fn vp(&self) -> Option<i64> {
            self.vp
        }

        fn met(&self, other: u32) -> Option<(i64, i64)> {
            (matches!(self.outcome, $scored) && self.opponent == Some(other))
                .then(|| (self.vp.unwrap_or(0), self.opponent_vp.unwrap_or(0)))
        }

        fn penalty_vp_mut(&mut self) -> &mut i64 {
            &mut self.penalty_vp
        }

        fn penalties_mut(&mut self) -> &mut Vec<CardPenalty> {
            &mut self.penalties
        }
    };
}
pub(crate) use round_card_fields;

/// One entrant of the file.
#[derive(Debug, Clone, Copy)]
pub struct Entrant {
    pub number: u32,
    /// Not a no-show (RULES.md §10): it has a row, a card and a share.
    pub entry: bool,
    pub withdrawn: bool,
    /// Its players (the prize split).
    pub players: usize,
}

/// A penalty of the file, naming its entrant by number.
#[derive(Debug, Clone, Copy)]
pub struct PenaltyRef<'f> {
    pub round: u32,
    pub number: u32,
    pub table: Option<u32>,
    pub kind: PenaltyKind,
    pub amount: Option<i64>,
    pub reason: &'f str,
    pub withdrawn: bool,
    pub by: Option<&'f str>,
    pub at: Option<DateTime<Utc>>,
    pub withdrawn_by: Option<&'f str>,
    pub withdrawn_at: Option<DateTime<Utc>>,
}

/// The money settings of a tournament.
#[derive(Debug, Clone, Copy)]
pub struct Money<'a> {
    pub entry_fee: Decimal,
    pub prize_share_percent: Decimal,
    pub guaranteed_pool: Decimal,
    pub payout: &'a [PayoutTierFile],
}

/// What the engine reads from a kind's file.
#[derive(Debug, Clone)]
pub struct Field<'f> {
    /// Every entrant, in file order.
    pub entrants: Vec<Entrant>,
    /// Each round's number and resting entrants.
    pub rounds: Vec<(u32, &'f [u32])>,
    /// In file order.
    pub penalties: Vec<PenaltyRef<'f>>,
    pub money: Money<'f>,
    /// The bye award: VP and MP difference.
    pub bye_vp: i64,
    pub bye_mp_diff: i64,
    /// The groups as cut (RULES.md §13), A first; empty without groups.
    pub groups: Vec<GroupRef<'f>>,
    /// The prizes per group, when the file gives them.
    pub group_prizes: Option<&'f [GroupPrizeFile]>,
}

/// A group of the file: its name and its entrants.
#[derive(Debug, Clone, Copy)]
pub struct GroupRef<'f> {
    pub name: &'f str,
    pub members: &'f [u32],
}

/// The [`Field`] of a tournament file (pairs' and teams' files share
/// these fields' names, not a type): `$entrants` lists the entrants
/// (`number`, `is_entry()`, `withdrawn_from_round`), `$players` is an
/// entrant `$e`'s number of players, `$who` the field of a penalty naming
/// its entrant, then the bye award's VP and MP difference.
macro_rules! field_of {
    ($file:expr, $entrants:ident, |$e:ident| $players:expr, $who:ident, $bye_vp:expr, $bye_diff:expr) => {{
        let file = $file;
        $crate::standings::kind::Field {
            entrants: file
                .$entrants
                .iter()
                .map(|$e| $crate::standings::kind::Entrant {
                    number: $e.number,
                    entry: $e.is_entry(),
                    withdrawn: $e.withdrawn_from_round.is_some(),
                    players: $players,
                })
                .collect(),
            rounds: file
                .rounds
                .iter()
                .map(|r| (r.number, r.byes.as_slice()))
                .collect(),
            penalties: file
                .penalties
                .iter()
                .map(|p| $crate::standings::kind::PenaltyRef {
                    round: p.round,
                    number: p.$who,
                    table: p.table,
                    kind: p.kind,
                    amount: p.amount,
                    reason: &p.reason,
                    withdrawn: p.withdrawn,
                    by: p.by.as_deref(),
                    at: p.at,
                    withdrawn_by: p.withdrawn_by.as_deref(),
                    withdrawn_at: p.withdrawn_at,
                })
                .collect(),
            money: $crate::standings::kind::Money {
                entry_fee: file.entry_fee,
                prize_share_percent: file.prize_share_percent,
                guaranteed_pool: file.guaranteed_pool,
                payout: &file.payout,
            },
            bye_vp: $bye_vp,
            bye_mp_diff: $bye_diff,
            groups: Vec::new(),
            group_prizes: None,
        }
    }};
}
pub(crate) use field_of;

/// Running totals of an entrant.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Acc {
    /// Table (or match) and bye VP, before penalties.
    pub vp: i64,
    pub mp_diff: i64,
    pub mp: i64,
    pub played: u32,
    pub byes: u32,
    pub penalty_vp: i64,
    pub warnings: u32,
}

/// Counting `mp` penalties per (round, entrant): (table, amount).
type MpPenalties = HashMap<(u32, u32), Vec<(Option<u32>, i64)>>;

/// Where a kind writes what each round gives its entrants.
pub struct Ledger<'f, K: Kind> {
    pub(crate) field: Field<'f>,
    /// Entries only, in file order.
    pub(crate) acc: Vec<Acc>,
    pub(crate) cards: Vec<super::Card<K>>,
    pub(crate) index: HashMap<u32, usize>,
    mp_pen: MpPenalties,
    pub(crate) broken: Vec<super::BrokenSheet>,
    pub(crate) mismatches: Vec<SheetRef>,
}

impl<'f, K: Kind> Ledger<'f, K> {
    pub(crate) fn new(field: Field<'f>) -> Self {
        let entries: Vec<u32> = field
            .entrants
            .iter()
            .filter(|e| e.entry)
            .map(|e| e.number)
            .collect();
        let cards = entries
            .iter()
            .map(|&number| {
                super::Card::new(number, field.rounds.iter().map(|r| K::Round::absent(r.0)))
            })
            .collect();
        let index = entries.iter().enumerate().map(|(i, &n)| (n, i)).collect();
        let mut mp_pen = MpPenalties::new();
        for p in &field.penalties {
            if !p.withdrawn && p.kind == PenaltyKind::Mp {
                if let Some(amount) = p.amount {
                    mp_pen
                        .entry((p.round, p.number))
                        .or_default()
                        .push((p.table, amount));
                }
            }
        }
        Ledger {
            acc: vec![Acc::default(); entries.len()],
            cards,
            index,
            mp_pen,
            field,
            broken: Vec::new(),
            mismatches: Vec::new(),
        }
    }

    /// Index of an entry's number; `None` for an unknown number or an
    /// entrant that is not an entry (a no-show never played, RULES.md §10).
    pub(crate) fn index_of(&self, number: u32) -> Option<usize> {
        self.index.get(&number).copied()
    }

    /// Entrant `number` is an entry.
    pub fn is_entry(&self, number: u32) -> bool {
        self.index.contains_key(&number)
    }

    /// The card round of entry `number` in round `r` (0-based).
    pub fn card(&mut self, r: usize, number: u32) -> Option<&mut K::Round> {
        let i = self.index_of(number)?;
        self.cards.get_mut(i).and_then(|c| c.rounds.get_mut(r))
    }

    /// What a table (or match) gives entry `number`: counts as played.
    pub fn credit(&mut self, number: u32, vp: i64, mp_diff: i64, mp: i64) {
        if let Some(s) = self.index_of(number).and_then(|i| self.acc.get_mut(i)) {
            s.vp = s.vp.saturating_add(vp);
            s.mp_diff = s.mp_diff.saturating_add(mp_diff);
            s.mp = s.mp.saturating_add(mp);
            s.played = s.played.saturating_add(1);
        }
    }

    /// MP taken from entrant `number` in round `round` (its number) by `mp`
    /// penalties that count: at `table`, or at any table when `None`.
    pub fn mp_penalty(&self, round: u32, number: u32, table: Option<u32>) -> i64 {
        self.mp_pen.get(&(round, number)).map_or(0, |list| {
            list.iter()
                .filter(|(t, _)| table.is_none() || *t == table)
                .fold(0i64, |sum, (_, amount)| sum.saturating_add(*amount))
        })
    }

    /// A sheet that breaks a rule (the computation fails).
    pub fn broken(&mut self, sheet: super::BrokenSheet) {
        self.broken.push(sheet);
    }

    /// A sheet scored from its computed totals: the declared ones were
    /// wrong.
    pub fn mismatch(&mut self, round: u32, table: u32) {
        self.mismatches.push(SheetRef { round, table });
    }
}
