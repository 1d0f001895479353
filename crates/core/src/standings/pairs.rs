//! Pairs as entrants (RULES.md §5): a table gives each line — a pair — its
//! VP and MP. What is theirs: the pair card's round and the scoring of a
//! table into its two lines' results ([`score_lines`], which individual
//! players share, §14: `players.rs`).

use super::kind::{field_of, round_card_fields, Field, GroupRef, Kind, Ledger, RoundCard};
use super::{BrokenSheet, CardPenalty, Outcome, StandingsError};
use crate::rules::check::check;
use crate::rules::score_sheet::{Line, ViolationCode};
use crate::tournament_file::{validate, Adjusted, SheetFile, TournamentFile, Valid, ValidFile};
use rust_decimal::Decimal;
use serde::Serialize;

/// Pairs: the entrant of a pairs tournament.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pair;

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

impl RoundCard for CardRound {
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

    round_card_fields!(Outcome::Bye, Outcome::Played | Outcome::Adjusted);

    fn mp_counts(&self, _table: Option<u32>) -> bool {
        self.outcome == Outcome::Played
    }
}

/// A line's result at a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineResult {
    pub outcome: Outcome,
    pub vp: i64,
    pub opponent_vp: i64,
    /// What the table adds to the line's MP difference.
    pub mp_diff: i64,
    /// Own and opponents' MP after their MP penalties (sheets only).
    pub mp: Option<(i64, i64)>,
    /// MP taken by the line's `mp` penalties (sheets only).
    pub mp_penalty: i64,
    pub declared_mismatch: bool,
}

/// A table as [`score_lines`] scores it: its number, whom its lines seat
/// (named when its sheet breaks a rule) and its score.
#[derive(Debug, Clone, Copy)]
pub struct TableScore<'t> {
    pub table: u32,
    /// The NS and EW pairs (an individual line's first player).
    pub ns: u32,
    pub ew: u32,
    /// The partners of `ns` and `ew` (individual tournaments).
    pub partners: Option<[u32; 2]>,
    pub sheet: Option<&'t SheetFile>,
    pub adjusted: Option<&'t Adjusted>,
}

/// Scores a table (RULES.md §5, §9) of a file of any kind with tables of
/// two lines (pairs, individual players) into its (NS, EW) lines' results:
/// `pen` is each line's MP penalties, taken before the VP conversion (an
/// adjusted table ignores them). `None` while the table is not scored, or
/// when its sheet breaks a rule (then in the ledger).
pub fn score_lines<K: Kind, F, O>(
    valid: &Valid<'_, F, O>,
    ledger: &mut Ledger<'_, K>,
    round: u32,
    table: TableScore<'_>,
    pen: [i64; 2],
) -> Option<[LineResult; 2]> {
    if let Some(sheet) = table.sheet {
        let report = check(
            &sheet.to_score_sheet(),
            valid.profile(),
            valid.hands_per_round(),
            valid.scale(),
        );
        let breaks = report
            .violations
            .iter()
            .any(|v| v.code != ViolationCode::DeclaredTotalMismatch);
        if breaks {
            ledger.broken(BrokenSheet {
                round,
                table: table.table,
                ns: table.ns,
                ew: table.ew,
                partners: table.partners,
                violations: report.violations,
                place_key: K::SHEET_PLACE,
            });
            return None;
        }
        let mismatch = report.has(ViolationCode::DeclaredTotalMismatch);
        if mismatch {
            ledger.mismatch(round, table.table);
        }
        let [pen_a, pen_b] = pen;
        let mp_a = report.totals.ns.saturating_sub(pen_a);
        let mp_b = report.totals.ew.saturating_sub(pen_b);
        let diff = mp_a.saturating_sub(mp_b);
        let (vp_a, vp_b) = valid.scale().vp_for_difference(diff);
        let line = |own, other, pen, d, vp: u8, ovp: u8| LineResult {
            outcome: Outcome::Played,
            vp: i64::from(vp),
            opponent_vp: i64::from(ovp),
            mp_diff: d,
            mp: Some((own, other)),
            mp_penalty: pen,
            declared_mismatch: mismatch,
        };
        Some([
            line(mp_a, mp_b, pen_a, diff, vp_a, vp_b),
            line(mp_b, mp_a, pen_b, diff.saturating_neg(), vp_b, vp_a),
        ])
    } else {
        let adj = table.adjusted?;
        let line = |vp, ovp, d: Option<i64>| LineResult {
            outcome: Outcome::Adjusted,
            vp,
            opponent_vp: ovp,
            mp_diff: d.unwrap_or(0),
            mp: None,
            mp_penalty: 0,
            declared_mismatch: false,
        };
        Some([
            line(adj.ns_vp, adj.ew_vp, adj.ns_mp_diff),
            line(adj.ew_vp, adj.ns_vp, adj.ew_mp_diff),
        ])
    }
}

impl CardRound {
    /// Seated at `table` on `line` against `opponent` (an individual
    /// player's opponents are on its own card round), not scored yet.
    pub(super) fn seat(&mut self, table: u32, line: Line, opponent: Option<u32>) {
        self.outcome = Outcome::Pending;
        self.table = Some(table);
        self.line = Some(line);
        self.opponent = opponent;
    }

    /// The VP (own, opponents') of a scored meeting this round, whoever
    /// the opponents were (an individual player's are on its card round).
    pub(super) fn met_any(&self) -> Option<(i64, i64)> {
        matches!(self.outcome, Outcome::Played | Outcome::Adjusted)
            .then(|| (self.vp.unwrap_or(0), self.opponent_vp.unwrap_or(0)))
    }

    /// The line's result.
    pub(super) fn score(&mut self, l: &LineResult) {
        self.outcome = l.outcome;
        self.adjusted = l.outcome == Outcome::Adjusted;
        self.mp_for = l.mp.map(|m| m.0);
        self.mp_against = l.mp.map(|m| m.1);
        self.mp_penalty = l.mp_penalty;
        self.mp_diff = l.mp_diff;
        self.vp = Some(l.vp);
        self.opponent_vp = Some(l.opponent_vp);
        self.declared_mismatch = l.declared_mismatch;
    }
}

impl Kind for Pair {
    type File = TournamentFile;
    type Valid<'a> = ValidFile<'a>;
    type Round = CardRound;
    type Split = [Decimal; 2];
    type Extra = ();

    const FIELD: &'static str = "pair";
    const TIE_NOTE: (&'static str, &'static str) = (
        "file.standings.head_to_head_won",
        "file.standings.head_to_head_lost",
    );
    const SHEET_PLACE: &'static str = "file.standings.sheet_place";

    fn validate(file: &TournamentFile) -> Result<ValidFile<'_>, StandingsError> {
        validate(file).map_err(StandingsError::Invalid)
    }

    fn field<'v>(valid: &'v ValidFile<'_>) -> Field<'v> {
        let file: &'v TournamentFile = valid.file();
        let mut field = field_of!(
            file,
            pairs,
            |e| 2,
            pair,
            i64::from(valid.bye_vp()),
            valid.bye_mp_diff()
        );
        field.groups = file
            .groups
            .iter()
            .flatten()
            .map(|g| GroupRef {
                name: &g.name,
                members: &g.pairs,
            })
            .collect();
        field.group_prizes = file.group_prizes.as_deref();
        field
    }

    /// Each line's pair gets the line's result (RULES.md §5): table VP,
    /// MP difference and (sheets only) MP.
    fn score(valid: &ValidFile<'_>, ledger: &mut Ledger<'_, Pair>) {
        for (r, round) in valid.file().rounds.iter().enumerate() {
            for table in &round.tables {
                if !(ledger.is_entry(table.ns) && ledger.is_entry(table.ew)) {
                    continue;
                }
                for (pair, line, opponent) in [
                    (table.ns, Line::Ns, table.ew),
                    (table.ew, Line::Ew, table.ns),
                ] {
                    if let Some(c) = ledger.card(r, pair) {
                        c.seat(table.table, line, Some(opponent));
                    }
                }
                let pen = [table.ns, table.ew].map(|p| ledger.mp_penalty(round.number, p, None));
                let score = TableScore {
                    table: table.table,
                    ns: table.ns,
                    ew: table.ew,
                    partners: None,
                    sheet: table.sheet.as_ref(),
                    adjusted: table.adjusted.as_ref(),
                };
                let Some(lines) = score_lines(valid, ledger, round.number, score, pen) else {
                    continue;
                };
                for (pair, l) in [table.ns, table.ew].into_iter().zip(&lines) {
                    ledger.credit(pair, l.vp, l.mp_diff, l.mp.map_or(0, |m| m.0));
                    if let Some(c) = ledger.card(r, pair) {
                        c.score(l);
                    }
                }
            }
        }
    }

    fn split(_amount: Decimal, two_way: [Decimal; 2], _players: usize) -> [Decimal; 2] {
        two_way
    }
}
