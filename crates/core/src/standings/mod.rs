//! The standings (RULES.md §5, §9, §10): one computation for the whole
//! program. Team tournaments (§12) have theirs in [`teams`], sharing the
//! order, the head-to-head rule, the penalties' cards and the prizes. The public page, the pair cards, the prize list, the CSV export
//! and `burraco-td standings` all call [`compute`]. Pure Rust: no web,
//! database or template code here.
//!
//! What counts, per pair:
//! - **VP** = table VP of every round played (from the sheet, or the
//!   adjusted score) + the bye award for every round rested − VP penalties
//!   (`vp` penalties and the automatic −1 of every second warning).
//! - **MP difference** = Σ (own MP − opponents' MP) over the sheets, after
//!   MP penalties; + the referee's MP difference of an adjusted score (0 if
//!   none); + for a bye the lower edge of the bye award's band on the
//!   tournament's scale (14 VP → 355 on 3 hands, 705 on 4).
//! - **MP** = Σ own MP over the sheets, after MP penalties (a bye or an
//!   adjusted score adds 0).
//!
//! Penalties (RULES.md §9, decisions of the team):
//! - `mp`: N MP are taken from the pair's MP of that round *before* the VP
//!   conversion; both lines' VP are computed from the penalised difference
//!   (they still add up to 20); the opponents' own MP stay as they are. On a
//!   table not yet played it waits for the sheet; on an adjusted table it has
//!   no effect (the referee's score replaces the sheet and already says
//!   everything about that round).
//! - `vp`: N VP taken from the pair's total, in the round given.
//! - `warning`: every second warning to a pair (2nd, 4th…, counted over the
//!   tournament in round order, then in file order within a round; withdrawn
//!   warnings not counted) adds an automatic −1 VP in the round of that
//!   warning, shown with its reason. The opponents gain nothing.
//! - A withdrawn penalty keeps its record (shown on the pair card) and counts
//!   for nothing.
//!
//! Order: VP, MP difference, MP, all higher first. Then, when exactly two
//! pairs are still tied and they met, the one with more VP in their
//! meeting(s) (summed when they met more than once) goes first. Pairs still
//! tied share the place (1, 2, 2, 4…) and are listed by pair number.
//!
//! Sheets: any rule violation other than `DECLARED_TOTAL_MISMATCH` makes the
//! computation fail ([`StandingsError::SheetRuleBroken`], every broken sheet
//! listed); on a mismatch only, the computed totals win and the card flags it.
//!
//! Entries (RULES.md §10): every pair of the file except the no-shows
//! (`no_show`, or withdrawn from round 1: they never played). A pair
//! withdrawn after it played paid its entry and stays. No-shows have no
//! row, no card and no share of the pool.
//!
//! Prizes: places from these standings (shared places share the prizes);
//! the tier with the largest `min_entries` not above the entries.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod cli;
#[cfg(test)]
mod proptests;
#[cfg(test)]
mod team_proptests;
#[cfg(test)]
mod team_tests;
pub mod teams;
#[cfg(test)]
mod tests;

pub use cli::{
    run_cli, CliPrize, CliRow, CliStandings, TeamCliPrize, TeamCliRow, TeamCliStandings,
};
pub use teams::{
    compute_teams, compute_teams_file, split_evenly, BrokenTeamSheet, MatchOutcome, MatchResult,
    MatchTableResult, RoundResults, TeamCard, TeamCardRound, TeamCardTable, TeamPrize, TeamRow,
    TeamStandings,
};

use crate::i18n::{tf, Lang};
use crate::rules::check::check;
use crate::rules::prize_pool::{self, PayoutTier, PrizeError, PrizeInput};
use crate::rules::score_sheet::{Line, Violation, ViolationCode};
use crate::tournament_file::{
    tiers_of, validate, FileProblem, PayoutTierFile, PenaltyKind, TournamentFile, ValidFile,
};
use chrono::{DateTime, Utc};
use rust_decimal::Decimal;
use serde::Serialize;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt;

/// A pair's line in the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Row {
    /// 1-based; tied pairs share it (1, 2, 2, 4…).
    pub place: u32,
    pub pair: u32,
    /// Net VP (after VP penalties).
    pub vp: i64,
    pub mp_diff: i64,
    pub mp: i64,
    /// Rounds played (sheet or adjusted score).
    pub played: u32,
    /// Rounds rested with the bye award.
    pub byes: u32,
    /// VP taken by penalties (`vp` penalties and automatic warning VP), ≥ 0.
    pub penalty_vp: i64,
    /// The pair has withdrawn (it stays in the standings).
    pub withdrawn: bool,
    /// Set on both pairs when head-to-head decided their order.
    pub tie_break: Option<TieBreak>,
}

/// Head-to-head decided the order of two tied pairs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TieBreak {
    /// The other pair of the tie.
    pub other: u32,
    /// VP this pair and the other took in their meeting(s).
    pub vp_for: i64,
    pub vp_against: i64,
    /// This pair went first.
    pub won: bool,
    /// The note in words (`Davanti alla coppia 7 per lo scontro diretto…`).
    pub note: String,
}

/// What a pair did in a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Played, scored from the sheet.
    Played,
    /// Played, the referee set the score.
    Adjusted,
    /// Rested (bye award).
    Bye,
    /// Seated, sheet not entered yet.
    Pending,
    /// Not seated this round (late arrival, withdrawn).
    Absent,
}

/// A penalty on a pair's card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CardPenalty {
    /// Position in the file's `penalties`; `None` for an automatic one.
    pub index: Option<usize>,
    pub kind: PenaltyKind,
    pub amount: Option<i64>,
    pub reason: String,
    pub withdrawn: bool,
    /// Added by the program (−1 VP for every second warning).
    pub automatic: bool,
    /// For a counted warning: its number for this pair (1, 2, 3…).
    pub warning_no: Option<u32>,
    /// It changes the standings now (not withdrawn; an `mp` penalty only on a
    /// table scored from its sheet).
    pub counts: bool,
    pub table: Option<u32>,
    pub by: Option<String>,
    pub at: Option<DateTime<Utc>>,
    pub withdrawn_by: Option<String>,
    pub withdrawn_at: Option<DateTime<Utc>>,
}

/// One round on a pair's card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CardRound {
    pub round: u32,
    pub outcome: Outcome,
    pub table: Option<u32>,
    pub line: Option<Line>,
    /// The pair met; `None` for a bye (the phantom pair) or when absent.
    pub opponent: Option<u32>,
    /// Own MP after this pair's MP penalty (sheets only).
    pub mp_for: Option<i64>,
    /// The opponents' MP (after their own MP penalty; sheets only).
    pub mp_against: Option<i64>,
    /// MP taken from this pair by `mp` penalties that count this round.
    pub mp_penalty: i64,
    /// What the round adds to the MP difference.
    pub mp_diff: i64,
    /// VP of the table or of the bye (before VP penalties).
    pub vp: Option<i64>,
    /// VP of the opponents at that table.
    pub opponent_vp: Option<i64>,
    pub adjusted: bool,
    /// The totals written on the sheet differ from the computed ones (the
    /// computed totals count).
    pub declared_mismatch: bool,
    /// VP taken by penalties in this round (`vp` and automatic).
    pub penalty_vp: i64,
    /// Every penalty of the round, withdrawn ones included, in file order,
    /// each automatic penalty right after the warning that caused it.
    pub penalties: Vec<CardPenalty>,
}

impl CardRound {
    fn absent(round: u32) -> CardRound {
        CardRound {
            round,
            outcome: Outcome::Absent,
            table: None,
            line: None,
            opponent: None,
            mp_for: None,
            mp_against: None,
            mp_penalty: 0,
            mp_diff: 0,
            vp: None,
            opponent_vp: None,
            adjusted: false,
            declared_mismatch: false,
            penalty_vp: 0,
            penalties: Vec::new(),
        }
    }
}

/// A pair's card: its rounds, one per round of the tournament.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PairCard {
    pub pair: u32,
    pub rounds: Vec<CardRound>,
}

/// A pair that wins money.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Prize {
    pub pair: u32,
    pub place: u32,
    pub amount: Decimal,
    /// The prize split between the two players (odd cent to the first).
    pub per_player: [Decimal; 2],
}

/// A sheet (round, table) whose declared totals were wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SheetRef {
    pub round: u32,
    pub table: u32,
}

/// The computed standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Standings {
    /// Best first.
    pub rows: Vec<Row>,
    /// One per pair, in the order of the file's `pairs`.
    pub cards: Vec<PairCard>,
    /// Every pair in the file.
    pub entries: u32,
    pub pool: Decimal,
    /// Entries × fee − pool (negative when a guarantee tops the pool up).
    pub organiser_fee: Decimal,
    /// The payout scheme that applied (empty when none).
    pub scheme: Vec<Decimal>,
    /// The pairs that win money, best first.
    pub prizes: Vec<Prize>,
    /// Sheets scored from the computed totals because the declared ones
    /// were wrong.
    pub declared_mismatches: Vec<SheetRef>,
    #[serde(skip)]
    card_index: HashMap<u32, usize>,
    #[serde(skip)]
    row_index: HashMap<u32, usize>,
}

impl Standings {
    /// A pair's card.
    pub fn card(&self, pair: u32) -> Option<&PairCard> {
        self.card_index.get(&pair).and_then(|&i| self.cards.get(i))
    }

    /// A pair's row.
    pub fn row(&self, pair: u32) -> Option<&Row> {
        self.row_index.get(&pair).and_then(|&i| self.rows.get(i))
    }

    /// A pair's prize, if it wins money.
    pub fn prize(&self, pair: u32) -> Option<&Prize> {
        self.prizes.iter().find(|p| p.pair == pair)
    }
}

/// A sheet that breaks a rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenSheet {
    pub round: u32,
    pub table: u32,
    pub ns: u32,
    pub ew: u32,
    /// Every violation of the sheet (a `DECLARED_TOTAL_MISMATCH` among them
    /// is listed too).
    pub violations: Vec<Violation>,
}

impl BrokenSheet {
    /// One line per violation: `Round 2, table 4 (NS 3, EW 8): …`.
    pub fn lines(&self, lang: Lang) -> Vec<String> {
        let place = tf(
            lang,
            "file.standings.sheet_place",
            &[
                ("round", &self.round),
                ("table", &self.table),
                ("ns", &self.ns),
                ("ew", &self.ew),
            ],
        );
        self.violations
            .iter()
            .map(|v| format!("{place}: {} [{}]", v.message(lang), v.code.code()))
            .collect()
    }
}

/// Why standings cannot be computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StandingsError {
    /// The file is not valid (CLI exit code 2).
    Invalid(Vec<FileProblem>),
    /// One or more sheets break a rule (CLI exit code 1).
    SheetRuleBroken(Vec<BrokenSheet>),
    /// One or more sheets of a team tournament break a rule (CLI exit
    /// code 1).
    TeamSheetRuleBroken(Vec<BrokenTeamSheet>),
    /// The prizes cannot be computed (cannot happen for a validated file;
    /// CLI exit code 2).
    Prize(PrizeError),
}

impl StandingsError {
    /// CLI exit code: 1 for a broken sheet, 2 otherwise.
    pub fn exit_code(&self) -> i32 {
        match self {
            StandingsError::SheetRuleBroken(_) | StandingsError::TeamSheetRuleBroken(_) => 1,
            StandingsError::Invalid(_) | StandingsError::Prize(_) => 2,
        }
    }

    /// Stable code: `invalid_file`, `sheet_rule_broken`, `prize_error`.
    pub fn code(&self) -> &'static str {
        match self {
            StandingsError::Invalid(_) => "invalid_file",
            StandingsError::SheetRuleBroken(_) | StandingsError::TeamSheetRuleBroken(_) => {
                "sheet_rule_broken"
            }
            StandingsError::Prize(_) => "prize_error",
        }
    }

    /// The error in words: a heading, then one line per problem.
    pub fn message(&self, lang: Lang) -> String {
        let mut out = String::new();
        match self {
            StandingsError::Invalid(problems) => {
                out.push_str(&tf(
                    lang,
                    "file.cli.invalid_file",
                    &[("count", &problems.len())],
                ));
                for p in problems {
                    out.push_str("\n  ");
                    out.push_str(&p.line(lang));
                }
            }
            StandingsError::SheetRuleBroken(sheets) => {
                out.push_str(&tf(
                    lang,
                    "file.cli.sheet_rule_broken",
                    &[("count", &sheets.len())],
                ));
                for s in sheets {
                    for line in s.lines(lang) {
                        out.push_str("\n  ");
                        out.push_str(&line);
                    }
                }
            }
            StandingsError::TeamSheetRuleBroken(sheets) => {
                out.push_str(&tf(
                    lang,
                    "file.cli.sheet_rule_broken",
                    &[("count", &sheets.len())],
                ));
                for s in sheets {
                    for line in s.lines(lang) {
                        out.push_str("\n  ");
                        out.push_str(&line);
                    }
                }
            }
            StandingsError::Prize(e) => {
                out.push_str(&tf(
                    lang,
                    "file.cli.prize_error",
                    &[("detail", &e.to_string())],
                ));
            }
        }
        out
    }
}

impl fmt::Display for StandingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for StandingsError {}

/// Running totals of a pair.
#[derive(Debug, Clone, Copy, Default)]
struct Acc {
    table_vp: i64,
    mp_diff: i64,
    mp: i64,
    played: u32,
    byes: u32,
    penalty_vp: i64,
    warnings: u32,
}

/// Index of an entry's pair number; `None` for an unknown pair or a pair
/// that is not an entry (a no-show: it never played, RULES.md §10).
fn index_of(valid: &ValidFile<'_>, pair: u32) -> Option<usize> {
    valid
        .pair_index(pair)
        .filter(|&i| valid.file().pairs.get(i).is_some_and(|p| p.is_entry()))
}

/// Validates, then computes (for callers holding a plain file).
pub fn compute_file(file: &TournamentFile, lang: Lang) -> Result<Standings, StandingsError> {
    let valid = validate(file).map_err(StandingsError::Invalid)?;
    compute(&valid, lang)
}

/// Computes the standings, the pair cards and the prizes of a valid file.
/// `lang` is the language of the texts inside (automatic penalties' reason,
/// head-to-head notes).
pub fn compute(valid: &ValidFile<'_>, lang: Lang) -> Result<Standings, StandingsError> {
    let file = valid.file();
    let n = file.pairs.len();
    let rounds = file.rounds.len();
    let profile = valid.profile();
    let scale = valid.scale();
    let hpr = valid.hands_per_round();

    let mut acc = vec![Acc::default(); n];
    let mut cards: Vec<PairCard> = file
        .pairs
        .iter()
        .map(|p| PairCard {
            pair: p.number,
            rounds: file
                .rounds
                .iter()
                .map(|r| CardRound::absent(r.number))
                .collect(),
        })
        .collect();

    // MP penalties that count, per (round, pair).
    let mut mp_pen = vec![0i64; n.saturating_mul(rounds)];
    let slot = |r: usize, i: usize| r.saturating_mul(n).saturating_add(i);
    for p in file.penalties.iter().filter(|p| !p.withdrawn) {
        if p.kind != PenaltyKind::Mp {
            continue;
        }
        let r = usize::try_from(p.round).unwrap_or(0).saturating_sub(1);
        if let (Some(i), Some(amount)) = (index_of(valid, p.pair), p.amount) {
            if let Some(cell) = mp_pen.get_mut(slot(r, i)) {
                *cell = cell.saturating_add(amount);
            }
        }
    }

    let mut broken: Vec<BrokenSheet> = Vec::new();
    let mut mismatches: Vec<SheetRef> = Vec::new();
    let bye_vp = i64::from(valid.bye_vp());
    let bye_diff = valid.bye_mp_diff();

    for (r, round) in file.rounds.iter().enumerate() {
        for table in &round.tables {
            let (Some(a), Some(b)) = (index_of(valid, table.ns), index_of(valid, table.ew)) else {
                continue;
            };
            let mut seat = |i: usize, line: Line, opponent: u32| {
                if let Some(c) = cards.get_mut(i).and_then(|c| c.rounds.get_mut(r)) {
                    c.outcome = Outcome::Pending;
                    c.table = Some(table.table);
                    c.line = Some(line);
                    c.opponent = Some(opponent);
                }
            };
            seat(a, Line::Ns, table.ew);
            seat(b, Line::Ew, table.ns);
            if let Some(sheet) = &table.sheet {
                let report = check(&sheet.to_score_sheet(), profile, hpr, scale);
                let breaks = report
                    .violations
                    .iter()
                    .any(|v| v.code != ViolationCode::DeclaredTotalMismatch);
                if breaks {
                    broken.push(BrokenSheet {
                        round: round.number,
                        table: table.table,
                        ns: table.ns,
                        ew: table.ew,
                        violations: report.violations,
                    });
                    continue;
                }
                let mismatch = report.has(ViolationCode::DeclaredTotalMismatch);
                if mismatch {
                    mismatches.push(SheetRef {
                        round: round.number,
                        table: table.table,
                    });
                }
                let pen_a = mp_pen.get(slot(r, a)).copied().unwrap_or(0);
                let pen_b = mp_pen.get(slot(r, b)).copied().unwrap_or(0);
                let mp_a = report.totals.ns.saturating_sub(pen_a);
                let mp_b = report.totals.ew.saturating_sub(pen_b);
                let diff = mp_a.saturating_sub(mp_b);
                let (vp_a, vp_b) = scale.vp_for_difference(diff);
                for (i, own, other, pen, d, vp, ovp) in [
                    (a, mp_a, mp_b, pen_a, diff, vp_a, vp_b),
                    (b, mp_b, mp_a, pen_b, diff.saturating_neg(), vp_b, vp_a),
                ] {
                    if let Some(s) = acc.get_mut(i) {
                        s.table_vp = s.table_vp.saturating_add(i64::from(vp));
                        s.mp_diff = s.mp_diff.saturating_add(d);
                        s.mp = s.mp.saturating_add(own);
                        s.played = s.played.saturating_add(1);
                    }
                    if let Some(c) = cards.get_mut(i).and_then(|c| c.rounds.get_mut(r)) {
                        c.outcome = Outcome::Played;
                        c.mp_for = Some(own);
                        c.mp_against = Some(other);
                        c.mp_penalty = pen;
                        c.mp_diff = d;
                        c.vp = Some(i64::from(vp));
                        c.opponent_vp = Some(i64::from(ovp));
                        c.declared_mismatch = mismatch;
                    }
                }
            } else if let Some(adj) = &table.adjusted {
                for (i, vp, ovp, d) in [
                    (a, adj.ns_vp, adj.ew_vp, adj.ns_mp_diff.unwrap_or(0)),
                    (b, adj.ew_vp, adj.ns_vp, adj.ew_mp_diff.unwrap_or(0)),
                ] {
                    if let Some(s) = acc.get_mut(i) {
                        s.table_vp = s.table_vp.saturating_add(vp);
                        s.mp_diff = s.mp_diff.saturating_add(d);
                        s.played = s.played.saturating_add(1);
                    }
                    if let Some(c) = cards.get_mut(i).and_then(|c| c.rounds.get_mut(r)) {
                        c.outcome = Outcome::Adjusted;
                        c.adjusted = true;
                        c.mp_diff = d;
                        c.vp = Some(vp);
                        c.opponent_vp = Some(ovp);
                    }
                }
            }
        }
        for &pair in &round.byes {
            let Some(i) = index_of(valid, pair) else {
                continue;
            };
            if let Some(s) = acc.get_mut(i) {
                s.table_vp = s.table_vp.saturating_add(bye_vp);
                s.mp_diff = s.mp_diff.saturating_add(bye_diff);
                s.byes = s.byes.saturating_add(1);
            }
            if let Some(c) = cards.get_mut(i).and_then(|c| c.rounds.get_mut(r)) {
                c.outcome = Outcome::Bye;
                c.vp = Some(bye_vp);
                c.mp_diff = bye_diff;
            }
        }
    }
    if !broken.is_empty() {
        return Err(StandingsError::SheetRuleBroken(broken));
    }

    apply_penalties(valid, &mut acc, &mut cards, lang);

    let rows = rank(valid, &acc, &cards, lang);
    // No-shows are not entries: no row (see `rank`), no card.
    let cards: Vec<PairCard> = cards
        .into_iter()
        .zip(&file.pairs)
        .filter_map(|(c, p)| p.is_entry().then_some(c))
        .collect();
    let entries = u32::try_from(rows.len()).unwrap_or(u32::MAX);
    let (pool, organiser_fee, scheme, prizes) = prizes(valid, &rows)?;
    let card_index = cards.iter().enumerate().map(|(i, c)| (c.pair, i)).collect();
    let row_index = rows.iter().enumerate().map(|(i, r)| (r.pair, i)).collect();
    Ok(Standings {
        rows,
        cards,
        entries,
        pool,
        organiser_fee,
        scheme,
        prizes,
        declared_mismatches: mismatches,
        card_index,
        row_index,
    })
}

/// Puts every penalty on its card and counts the VP ones and the warnings.
fn apply_penalties(valid: &ValidFile<'_>, acc: &mut [Acc], cards: &mut [PairCard], lang: Lang) {
    let file = valid.file();
    let mut order: Vec<usize> = (0..file.penalties.len()).collect();
    // Stable: file order within a round.
    order.sort_by_key(|&k| file.penalties.get(k).map_or(0, |p| p.round));
    for k in order {
        let Some(p) = file.penalties.get(k) else {
            continue;
        };
        let Some(i) = index_of(valid, p.pair) else {
            continue;
        };
        let r = usize::try_from(p.round).unwrap_or(0).saturating_sub(1);
        let (Some(s), Some(c)) = (
            acc.get_mut(i),
            cards.get_mut(i).and_then(|c| c.rounds.get_mut(r)),
        ) else {
            continue;
        };
        let mut entry = CardPenalty {
            index: Some(k),
            kind: p.kind,
            amount: p.amount,
            reason: p.reason.clone(),
            withdrawn: p.withdrawn,
            automatic: false,
            warning_no: None,
            counts: false,
            table: p.table,
            by: p.by.clone(),
            at: p.at,
            withdrawn_by: p.withdrawn_by.clone(),
            withdrawn_at: p.withdrawn_at,
        };
        let mut automatic = None;
        if !p.withdrawn {
            match p.kind {
                PenaltyKind::Warning => {
                    s.warnings = s.warnings.saturating_add(1);
                    entry.warning_no = Some(s.warnings);
                    entry.counts = true;
                    if s.warnings % 2 == 0 {
                        s.penalty_vp = s.penalty_vp.saturating_add(1);
                        c.penalty_vp = c.penalty_vp.saturating_add(1);
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
                    c.penalty_vp = c.penalty_vp.saturating_add(amount);
                    entry.counts = true;
                }
                PenaltyKind::Mp => {
                    entry.counts = c.outcome == Outcome::Played;
                }
            }
        }
        c.penalties.push(entry);
        if let Some(a) = automatic {
            c.penalties.push(a);
        }
    }
}

/// VP this pair (`a`) and `b` took in their meetings, if they met.
fn head_to_head(cards: &[PairCard], a: usize, b: u32) -> Option<(i64, i64)> {
    let card = cards.get(a)?;
    let mut met = false;
    let (mut mine, mut theirs) = (0i64, 0i64);
    for c in &card.rounds {
        let scored = matches!(c.outcome, Outcome::Played | Outcome::Adjusted);
        if scored && c.opponent == Some(b) {
            met = true;
            mine = mine.saturating_add(c.vp.unwrap_or(0));
            theirs = theirs.saturating_add(c.opponent_vp.unwrap_or(0));
        }
    }
    met.then_some((mine, theirs))
}

fn tie_note(lang: Lang, won: bool, pair: u32, other: u32, vp_for: i64, vp_against: i64) -> String {
    let key = if won {
        "file.standings.head_to_head_won"
    } else {
        "file.standings.head_to_head_lost"
    };
    tie_key_note(lang, key, pair, other, vp_for, vp_against)
}

/// A head-to-head note from `key` (`{pair}` or `{team}`, `{other}`,
/// `{vp_for}`, `{vp_against}`).
pub(crate) fn tie_key_note(
    lang: Lang,
    key: &str,
    me: u32,
    other: u32,
    vp_for: i64,
    vp_against: i64,
) -> String {
    tf(
        lang,
        key,
        &[
            ("pair", &me),
            ("team", &me),
            ("other", &other),
            ("vp_for", &vp_for),
            ("vp_against", &vp_against),
        ],
    )
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
                        if let Some(e) = out.get_mut(start) {
                            *e = (
                                hi,
                                0,
                                Some(HeadToHead {
                                    other: lo,
                                    vp_for: vhi,
                                    vp_against: vlo,
                                    won: true,
                                }),
                            );
                        }
                        if let Some(e) = out.get_mut(start + 1) {
                            *e = (
                                lo,
                                0,
                                Some(HeadToHead {
                                    other: hi,
                                    vp_for: vlo,
                                    vp_against: vhi,
                                    won: false,
                                }),
                            );
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

/// Orders the pairs and gives the places.
fn rank(valid: &ValidFile<'_>, acc: &[Acc], cards: &[PairCard], lang: Lang) -> Vec<Row> {
    let file = valid.file();
    let rows: Vec<(usize, Row)> = file
        .pairs
        .iter()
        .enumerate()
        .filter(|(_, p)| p.is_entry())
        .map(|(i, p)| {
            let s = acc.get(i).copied().unwrap_or_default();
            (
                i,
                Row {
                    place: 0,
                    pair: p.number,
                    vp: s.table_vp.saturating_sub(s.penalty_vp),
                    mp_diff: s.mp_diff,
                    mp: s.mp,
                    played: s.played,
                    byes: s.byes,
                    penalty_vp: s.penalty_vp,
                    withdrawn: p.withdrawn_from_round.is_some(),
                    tie_break: None,
                },
            )
        })
        .collect();
    let keys: Vec<(u32, (i64, i64, i64))> = rows
        .iter()
        .map(|(_, r)| (r.pair, (r.vp, r.mp_diff, r.mp)))
        .collect();
    let h2h = |a: usize, b: usize| {
        let (ia, _) = rows.get(a)?;
        let (_, rb) = rows.get(b)?;
        head_to_head(cards, *ia, rb.pair)
    };
    order_entries(&keys, h2h)
        .into_iter()
        .filter_map(|(k, place, tie)| {
            let mut row = rows.get(k)?.1.clone();
            row.place = place;
            row.tie_break = tie.and_then(|t| {
                let other = rows.get(t.other)?.1.pair;
                Some(TieBreak {
                    other,
                    vp_for: t.vp_for,
                    vp_against: t.vp_against,
                    won: t.won,
                    note: tie_note(lang, t.won, row.pair, other, t.vp_for, t.vp_against),
                })
            });
            Some(row)
        })
        .collect()
}

type PrizeParts = (Decimal, Decimal, Vec<Decimal>, Vec<Prize>);

/// The money settings of a tournament (pairs or teams).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Money<'a> {
    pub entry_fee: Decimal,
    pub prize_share_percent: Decimal,
    pub guaranteed_pool: Decimal,
    pub payout: &'a [PayoutTierFile],
}

/// Pool, organiser's fee, the scheme applied, and per entry (in the order
/// of `places`) its prize and the two-way split, for the entries that win.
pub(crate) type Payout = (
    Decimal,
    Decimal,
    Vec<Decimal>,
    Vec<(usize, Decimal, [Decimal; 2])>,
);

/// The prizes for entries at `places` (RULES.md §10).
pub(crate) fn pay(money: Money<'_>, places: &[u32]) -> Result<Payout, StandingsError> {
    let entries = u32::try_from(places.len()).unwrap_or(u32::MAX);
    if entries == 0 {
        return Ok((
            Decimal::new(0, 2),
            Decimal::new(0, 2),
            Vec::new(),
            Vec::new(),
        ));
    }
    let whole = || {
        vec![PayoutTier {
            min_entries: 0,
            scheme: vec![Decimal::ONE_HUNDRED],
        }]
    };
    let mut input = PrizeInput {
        entries,
        entry_fee: money.entry_fee,
        prize_share_percent: money.prize_share_percent,
        guaranteed_pool: money.guaranteed_pool,
        payout: if money.payout.is_empty() {
            whole()
        } else {
            tiers_of(money.payout)
        },
        places: places.to_vec(),
    };
    let (computed, pay) = match prize_pool::compute(&input) {
        Ok(p) => (p, true),
        // A draft without a scheme for its entries yet: the pool, no prizes.
        Err(PrizeError::NoTierFor { .. }) => {
            input.payout = whole();
            let p = prize_pool::compute(&input).map_err(StandingsError::Prize)?;
            (p, false)
        }
        Err(e) => return Err(StandingsError::Prize(e)),
    };
    let paying = pay && !money.payout.is_empty();
    let mut list = Vec::new();
    if paying {
        for (k, (amount, split)) in computed.prizes.iter().zip(&computed.per_player).enumerate() {
            if !amount.is_zero() {
                list.push((k, *amount, *split));
            }
        }
    }
    let scheme = if paying { computed.scheme } else { Vec::new() };
    Ok((computed.pool, computed.organiser_fee, scheme, list))
}

/// Pool, organiser's fee, the scheme applied and the pairs that win money.
fn prizes(valid: &ValidFile<'_>, rows: &[Row]) -> Result<PrizeParts, StandingsError> {
    let file = valid.file();
    let places: Vec<u32> = rows.iter().map(|r| r.place).collect();
    let (pool, fee, scheme, paid) = pay(
        Money {
            entry_fee: file.entry_fee,
            prize_share_percent: file.prize_share_percent,
            guaranteed_pool: file.guaranteed_pool,
            payout: &file.payout,
        },
        &places,
    )?;
    let list = paid
        .into_iter()
        .filter_map(|(k, amount, per_player)| {
            let row = rows.get(k)?;
            Some(Prize {
                pair: row.pair,
                place: row.place,
                amount,
                per_player,
            })
        })
        .collect();
    Ok((pool, fee, scheme, list))
}
