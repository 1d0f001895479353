//! Team standings (RULES.md §12): one computation for the team pages, the
//! team cards, the match results, the prize list and `burraco-td
//! standings` on a team file. Pure Rust.
//!
//! Per match, each table's sheet is checked and scored as in a pairs round
//! (§4: the same sheet engine, the pairs' VP scale); the two tables become
//! match VP by the tournament's method (`rules::teams`: `tables` → sum of
//! the tables' VP, 0–40; `scale` → the sum of the MP differences on the
//! team scale, 0–20).
//!
//! What counts, per team:
//! - **VP** = match VP of every match played + the team bye award for
//!   every round rested − VP penalties (`vp` penalties and the automatic
//!   −1 of every second warning to the team).
//! - **MP difference** = Σ over its tables of (own MP − opponents' MP)
//!   after MP penalties; an adjusted table adds the referee's MP
//!   difference (0 if none); a rest adds the team bye's MP difference
//!   (`rules::teams`: 2 × the band's lower edge with `tables`).
//! - **MP** = Σ own MP over its tables scored from sheets, after MP
//!   penalties.
//!
//! Order: VP, MP difference, MP (higher first); then, when exactly two
//! teams are still tied and they met, the one with more match VP in their
//! meeting(s); still tied → shared place (1, 2, 2, 4…), listed by number.
//!
//! Penalties (§9 per team and table): `mp` reduces that team's MP at that
//! table before the table's VP conversion (so both tables' VP — and under
//! `scale` the team sum — follow from the reduced total; the opponents' MP
//! stay); on an adjusted table it has no effect, as in pairs. `vp` comes off
//! the team's total. Every second warning to a team (counted over the
//! tournament, in round order, then file order) costs −1 VP, shown with
//! its reason. Withdrawn penalties keep their record and count for nothing.
//!
//! Decisions where §12 is silent:
//! - **A match counts when both its tables are scored** (sheet or adjusted
//!   score). Until then the scored table shows its result on the match and
//!   on the cards, but the standings add nothing for that match (a team's
//!   match VP only exist for the whole match).
//! - **A team withdrawn mid-tournament** keeps what it played (and is an
//!   entry, as a pair would be); from its withdrawal it is absent and
//!   scores nothing. Its scheduled opponents rest with the bye award (the
//!   movement's [`drop_withdrawn`](crate::movement::teams::drop_withdrawn)).
//! - **Prizes** (§10, teams as entries): a team's prize is split evenly
//!   among all its registered players, the odd cents to the first players
//!   listed.
//! - Sheets that break a rule other than `DECLARED_TOTAL_MISMATCH` make the
//!   computation fail, every broken sheet listed with its round, table and
//!   teams; on a mismatch only, the computed totals win and it is flagged.

use super::{
    order_entries, pay, tie_key_note, CardPenalty, Money, Outcome, SheetRef, StandingsError,
    TieBreak,
};
use crate::i18n::{tf, Lang};
use crate::rules::check::check;
use crate::rules::score_sheet::{Line, Violation, ViolationCode};
use crate::rules::teams::{match_score, table_result, TableResult, TableScore};
use crate::tournament_file::{
    validate_teams, LineRef, PenaltyKind, TeamTournamentFile, ValidTeamFile,
};
use rust_decimal::{Decimal, RoundingStrategy};
use serde::Serialize;
use std::collections::HashMap;

/// A team's line in the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TeamRow {
    /// 1-based; tied teams share it (1, 2, 2, 4…).
    pub place: u32,
    pub team: u32,
    /// Net VP (after VP penalties).
    pub vp: i64,
    pub mp_diff: i64,
    pub mp: i64,
    /// Matches played (both tables scored).
    pub played: u32,
    /// Rounds rested with the team bye award.
    pub byes: u32,
    /// VP taken by penalties (`vp` and automatic), ≥ 0.
    pub penalty_vp: i64,
    pub withdrawn: bool,
    /// Set on both teams when head-to-head decided their order.
    pub tie_break: Option<TieBreak>,
}

/// What a team did in a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchOutcome {
    /// Both tables scored: the match counts.
    Played,
    /// In a match not fully scored yet.
    Pending,
    /// Rested (team bye award).
    Bye,
    /// Neither playing nor resting (withdrawn, not yet arrived).
    Absent,
}

/// One table of a match, both lines.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MatchTableResult {
    pub table: u32,
    pub ns: LineRef,
    pub ew: LineRef,
    /// `played` (sheet), `adjusted` or `pending`.
    pub outcome: Outcome,
    /// Each line's MP after its MP penalty (sheets only).
    pub ns_mp: Option<i64>,
    pub ew_mp: Option<i64>,
    /// MP taken from each line by `mp` penalties that count.
    pub ns_mp_penalty: i64,
    pub ew_mp_penalty: i64,
    /// What the table adds to each team's MP difference.
    pub ns_mp_diff: i64,
    pub ew_mp_diff: i64,
    /// The pairs' VP of the table (sheet on the pairs' scale, or the
    /// referee's).
    pub ns_vp: Option<i64>,
    pub ew_vp: Option<i64>,
    pub declared_mismatch: bool,
    /// Penalties of that round naming this table (withdrawn ones too), as
    /// indexes into the file's `penalties`.
    pub penalties: Vec<usize>,
}

/// One match's result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MatchResult {
    pub home: u32,
    pub away: u32,
    pub group: Option<String>,
    pub tables: Vec<MatchTableResult>,
    /// Both tables scored: the match counts.
    pub complete: bool,
    /// Match VP, MP difference and MP of each team (complete matches).
    pub home_vp: Option<i64>,
    pub away_vp: Option<i64>,
    pub home_mp_diff: Option<i64>,
    pub away_mp_diff: Option<i64>,
    pub home_mp: Option<i64>,
    pub away_mp: Option<i64>,
}

/// A round's matches and resting teams.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundResults {
    pub round: u32,
    pub matches: Vec<MatchResult>,
    pub byes: Vec<u32>,
}

/// One table on a team's card, from the team's side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TeamCardTable {
    pub table: u32,
    pub line: Line,
    /// The team's two players at this table (indexes into its players).
    pub players: [u32; 2],
    pub opponent_players: [u32; 2],
    pub outcome: Outcome,
    pub mp_for: Option<i64>,
    pub mp_against: Option<i64>,
    pub mp_penalty: i64,
    pub mp_diff: i64,
    pub vp: Option<i64>,
    pub opponent_vp: Option<i64>,
    pub adjusted: bool,
    pub declared_mismatch: bool,
}

/// One round on a team's card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TeamCardRound {
    pub round: u32,
    pub outcome: MatchOutcome,
    pub opponent: Option<u32>,
    /// Home team of its match.
    pub home: Option<bool>,
    pub group: Option<String>,
    /// Its two tables (the line-up: which players sat where), in table
    /// order.
    pub tables: Vec<TeamCardTable>,
    /// Match VP (complete match) or the bye award, before VP penalties.
    pub vp: Option<i64>,
    pub opponent_vp: Option<i64>,
    /// What the round adds to the MP difference and MP (complete match or
    /// rest).
    pub mp_diff: i64,
    pub mp: i64,
    pub penalty_vp: i64,
    /// Every penalty of the round, withdrawn ones included, each automatic
    /// one right after the warning that caused it.
    pub penalties: Vec<CardPenalty>,
}

impl TeamCardRound {
    fn absent(round: u32) -> TeamCardRound {
        TeamCardRound {
            round,
            outcome: MatchOutcome::Absent,
            opponent: None,
            home: None,
            group: None,
            tables: Vec::new(),
            vp: None,
            opponent_vp: None,
            mp_diff: 0,
            mp: 0,
            penalty_vp: 0,
            penalties: Vec::new(),
        }
    }
}

/// A team's card: one entry per round of the tournament.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TeamCard {
    pub team: u32,
    pub rounds: Vec<TeamCardRound>,
}

/// A team that wins money.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TeamPrize {
    pub team: u32,
    pub place: u32,
    pub amount: Decimal,
    /// The prize split among the team's players (odd cents to the first).
    pub per_player: Vec<Decimal>,
}

/// The computed team standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TeamStandings {
    /// `tables` or `scale`.
    pub scoring: &'static str,
    /// The match VP two teams share (40 or 20).
    pub match_vp: u8,
    /// Best first.
    pub rows: Vec<TeamRow>,
    /// One per entry team, in the order of the file's `teams`.
    pub cards: Vec<TeamCard>,
    /// Every round's match results.
    pub rounds: Vec<RoundResults>,
    pub entries: u32,
    pub pool: Decimal,
    pub organiser_fee: Decimal,
    pub scheme: Vec<Decimal>,
    /// The teams that win money, best first.
    pub prizes: Vec<TeamPrize>,
    pub declared_mismatches: Vec<SheetRef>,
    #[serde(skip)]
    card_index: HashMap<u32, usize>,
    #[serde(skip)]
    row_index: HashMap<u32, usize>,
}

impl TeamStandings {
    pub fn card(&self, team: u32) -> Option<&TeamCard> {
        self.card_index.get(&team).and_then(|&i| self.cards.get(i))
    }

    pub fn row(&self, team: u32) -> Option<&TeamRow> {
        self.row_index.get(&team).and_then(|&i| self.rows.get(i))
    }

    pub fn prize(&self, team: u32) -> Option<&TeamPrize> {
        self.prizes.iter().find(|p| p.team == team)
    }

    /// The match `team` played in round `round` (1-based).
    pub fn match_of(&self, round: u32, team: u32) -> Option<&MatchResult> {
        self.rounds
            .iter()
            .find(|r| r.round == round)?
            .matches
            .iter()
            .find(|m| m.home == team || m.away == team)
    }
}

/// A table's sheet in a team match that breaks a rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BrokenTeamSheet {
    pub round: u32,
    pub table: u32,
    /// The teams of the NS and EW lines.
    pub ns: u32,
    pub ew: u32,
    pub violations: Vec<Violation>,
}

impl BrokenTeamSheet {
    /// One line per violation: `Round 2, table 4 (NS team 3, EW team 8): …`.
    pub fn lines(&self, lang: Lang) -> Vec<String> {
        let place = tf(
            lang,
            "file.standings.team_sheet_place",
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

#[derive(Debug, Clone, Copy, Default)]
struct Acc {
    vp: i64,
    mp_diff: i64,
    mp: i64,
    played: u32,
    byes: u32,
    penalty_vp: i64,
    warnings: u32,
}

/// Validates, then computes (for callers holding a plain file).
pub fn compute_teams_file(
    file: &TeamTournamentFile,
    lang: Lang,
) -> Result<TeamStandings, StandingsError> {
    let valid = validate_teams(file).map_err(StandingsError::Invalid)?;
    compute_teams(&valid, lang)
}

/// One scored table as the standings need it.
struct Scored {
    result: MatchTableResult,
    /// From the home team's side, when scored.
    score: Option<TableScore>,
}

/// What scoring the tables needs and finds.
struct Scorer<'v, 'a> {
    valid: &'v ValidTeamFile<'a>,
    /// MP penalties that count, per (round, table, team).
    mp_pen: HashMap<(u32, u32, u32), i64>,
    /// Every penalty naming a table, per (round, table).
    marks: HashMap<(u32, u32), Vec<usize>>,
    broken: Vec<BrokenTeamSheet>,
    mismatches: Vec<SheetRef>,
}

impl Scorer<'_, '_> {
    /// Checks and scores one table of a match (`home`: the match's home
    /// team).
    fn score(
        &mut self,
        round: u32,
        home: u32,
        table: &crate::tournament_file::MatchTableFile,
    ) -> Scored {
        let valid = self.valid;
        let mp_pen = &self.mp_pen;
        let pen = |team: u32| {
            mp_pen
                .get(&(round, table.table, team))
                .copied()
                .unwrap_or(0)
        };
        let mut result = MatchTableResult {
            table: table.table,
            ns: table.ns,
            ew: table.ew,
            outcome: Outcome::Pending,
            ns_mp: None,
            ew_mp: None,
            ns_mp_penalty: 0,
            ew_mp_penalty: 0,
            ns_mp_diff: 0,
            ew_mp_diff: 0,
            ns_vp: None,
            ew_vp: None,
            declared_mismatch: false,
            penalties: self
                .marks
                .get(&(round, table.table))
                .cloned()
                .unwrap_or_default(),
        };
        let home_ns = table.ns.team == home;
        // (NS, EW) from (home, away) and back.
        let by_line = |h: i64, a: i64| if home_ns { (h, a) } else { (a, h) };
        let score = if let Some(sheet) = &table.sheet {
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
                self.broken.push(BrokenTeamSheet {
                    round,
                    table: table.table,
                    ns: table.ns.team,
                    ew: table.ew.team,
                    violations: report.violations,
                });
                return Scored {
                    result,
                    score: None,
                };
            }
            if report.has(ViolationCode::DeclaredTotalMismatch) {
                result.declared_mismatch = true;
                self.mismatches.push(SheetRef {
                    round,
                    table: table.table,
                });
            }
            let (pn, pe) = (pen(table.ns.team), pen(table.ew.team));
            let ns_mp = report.totals.ns.saturating_sub(pn);
            let ew_mp = report.totals.ew.saturating_sub(pe);
            result.outcome = Outcome::Played;
            result.ns_mp = Some(ns_mp);
            result.ew_mp = Some(ew_mp);
            result.ns_mp_penalty = pn;
            result.ew_mp_penalty = pe;
            let (home_mp, away_mp) = if home_ns {
                (ns_mp, ew_mp)
            } else {
                (ew_mp, ns_mp)
            };
            Some(TableScore::Sheet { home_mp, away_mp })
        } else if let Some(adj) = &table.adjusted {
            result.outcome = Outcome::Adjusted;
            let (hv, av, hd, ad) = if home_ns {
                (adj.ns_vp, adj.ew_vp, adj.ns_mp_diff, adj.ew_mp_diff)
            } else {
                (adj.ew_vp, adj.ns_vp, adj.ew_mp_diff, adj.ns_mp_diff)
            };
            Some(TableScore::Adjusted {
                home_vp: hv,
                away_vp: av,
                home_mp_diff: hd,
                away_mp_diff: ad,
            })
        } else {
            None
        };
        if let Some(s) = &score {
            let r: TableResult = table_result(valid.scale(), s);
            let (nv, ev) = by_line(r.home_vp, r.away_vp);
            let (nd, ed) = by_line(r.home_mp_diff, r.away_mp_diff);
            result.ns_vp = Some(nv);
            result.ew_vp = Some(ev);
            result.ns_mp_diff = nd;
            result.ew_mp_diff = ed;
        }
        Scored { result, score }
    }
}

/// A table from one team's side.
fn card_table(t: &MatchTableResult, team: u32) -> TeamCardTable {
    let ns = t.ns.team == team;
    let pick = |a: Option<i64>, b: Option<i64>| if ns { (a, b) } else { (b, a) };
    let (mp_for, mp_against) = pick(t.ns_mp, t.ew_mp);
    let (vp, opponent_vp) = pick(t.ns_vp, t.ew_vp);
    TeamCardTable {
        table: t.table,
        line: if ns { Line::Ns } else { Line::Ew },
        players: if ns { t.ns.players } else { t.ew.players },
        opponent_players: if ns { t.ew.players } else { t.ns.players },
        outcome: t.outcome,
        mp_for,
        mp_against,
        mp_penalty: if ns { t.ns_mp_penalty } else { t.ew_mp_penalty },
        mp_diff: if ns { t.ns_mp_diff } else { t.ew_mp_diff },
        vp,
        opponent_vp,
        adjusted: t.outcome == Outcome::Adjusted,
        declared_mismatch: t.declared_mismatch,
    }
}

/// Index of an entry team's number (no-shows are no entries).
fn index_of(valid: &ValidTeamFile<'_>, team: u32) -> Option<usize> {
    valid
        .team_index(team)
        .filter(|&i| valid.file().teams.get(i).is_some_and(|t| t.is_entry()))
}

/// Computes the team standings, cards, match results and prizes of a
/// valid team file. `lang` is the language of the texts inside.
pub fn compute_teams(
    valid: &ValidTeamFile<'_>,
    lang: Lang,
) -> Result<TeamStandings, StandingsError> {
    let file = valid.file();
    let scoring = valid.scoring();
    let mut acc = vec![Acc::default(); file.teams.len()];
    let mut cards: Vec<TeamCard> = file
        .teams
        .iter()
        .map(|t| TeamCard {
            team: t.number,
            rounds: file
                .rounds
                .iter()
                .map(|r| TeamCardRound::absent(r.number))
                .collect(),
        })
        .collect();

    let mut scorer = Scorer {
        valid,
        mp_pen: HashMap::new(),
        marks: HashMap::new(),
        broken: Vec::new(),
        mismatches: Vec::new(),
    };
    for (k, p) in file.penalties.iter().enumerate() {
        let Some(table) = p.table else { continue };
        scorer.marks.entry((p.round, table)).or_default().push(k);
        if !p.withdrawn && p.kind == PenaltyKind::Mp {
            let cell = scorer.mp_pen.entry((p.round, table, p.team)).or_insert(0);
            *cell = cell.saturating_add(p.amount.unwrap_or(0));
        }
    }

    let bye_vp = i64::from(valid.team_bye_vp());
    let bye_diff = valid.team_bye_mp_diff();
    let mut rounds = Vec::with_capacity(file.rounds.len());

    for (r, round) in file.rounds.iter().enumerate() {
        let mut results = RoundResults {
            round: round.number,
            matches: Vec::with_capacity(round.matches.len()),
            byes: round.byes.clone(),
        };
        for game in &round.matches {
            let mut scored: Vec<Scored> = game
                .tables
                .iter()
                .map(|t| scorer.score(round.number, game.home, t))
                .collect();
            scored.sort_by_key(|s| s.result.table);
            let pair = match scored.as_slice() {
                [a, b] => a.score.zip(b.score).map(|(x, y)| [x, y]),
                _ => None,
            };
            let total = pair.map(|tables| match_score(scoring, valid.scale(), &tables));
            let tables: Vec<MatchTableResult> = scored.into_iter().map(|s| s.result).collect();
            for (team, home) in [(game.home, true), (game.away, false)] {
                let Some(i) = index_of(valid, team) else {
                    continue;
                };
                let side = total.map(|m| {
                    if home {
                        (m.home_vp, m.away_vp, m.home_mp_diff, m.home_mp)
                    } else {
                        (m.away_vp, m.home_vp, m.away_mp_diff, m.away_mp)
                    }
                });
                if let (Some((vp, _, diff, mp)), Some(s)) = (side, acc.get_mut(i)) {
                    s.vp = s.vp.saturating_add(vp);
                    s.mp_diff = s.mp_diff.saturating_add(diff);
                    s.mp = s.mp.saturating_add(mp);
                    s.played = s.played.saturating_add(1);
                }
                if let Some(c) = cards.get_mut(i).and_then(|c| c.rounds.get_mut(r)) {
                    c.outcome = if side.is_some() {
                        MatchOutcome::Played
                    } else {
                        MatchOutcome::Pending
                    };
                    c.opponent = game.opponent(team);
                    c.home = Some(home);
                    c.group = game.group.clone();
                    c.tables = tables.iter().map(|t| card_table(t, team)).collect();
                    if let Some((vp, ovp, diff, mp)) = side {
                        c.vp = Some(vp);
                        c.opponent_vp = Some(ovp);
                        c.mp_diff = diff;
                        c.mp = mp;
                    }
                }
            }
            results.matches.push(MatchResult {
                home: game.home,
                away: game.away,
                group: game.group.clone(),
                tables,
                complete: total.is_some(),
                home_vp: total.map(|m| m.home_vp),
                away_vp: total.map(|m| m.away_vp),
                home_mp_diff: total.map(|m| m.home_mp_diff),
                away_mp_diff: total.map(|m| m.away_mp_diff),
                home_mp: total.map(|m| m.home_mp),
                away_mp: total.map(|m| m.away_mp),
            });
        }
        for &team in &round.byes {
            let Some(i) = index_of(valid, team) else {
                continue;
            };
            if let Some(s) = acc.get_mut(i) {
                s.vp = s.vp.saturating_add(bye_vp);
                s.mp_diff = s.mp_diff.saturating_add(bye_diff);
                s.byes = s.byes.saturating_add(1);
            }
            if let Some(c) = cards.get_mut(i).and_then(|c| c.rounds.get_mut(r)) {
                c.outcome = MatchOutcome::Bye;
                c.vp = Some(bye_vp);
                c.mp_diff = bye_diff;
            }
        }
        rounds.push(results);
    }
    if !scorer.broken.is_empty() {
        return Err(StandingsError::TeamSheetRuleBroken(scorer.broken));
    }

    apply_penalties(valid, &mut acc, &mut cards, lang);
    let rows = rank(valid, &acc, &cards, lang);
    let cards: Vec<TeamCard> = cards
        .into_iter()
        .zip(&file.teams)
        .filter_map(|(c, t)| t.is_entry().then_some(c))
        .collect();
    let entries = u32::try_from(rows.len()).unwrap_or(u32::MAX);
    let places: Vec<u32> = rows.iter().map(|r| r.place).collect();
    let (pool, organiser_fee, scheme, paid) = pay(
        Money {
            entry_fee: file.entry_fee,
            prize_share_percent: file.prize_share_percent,
            guaranteed_pool: file.guaranteed_pool,
            payout: &file.payout,
        },
        &places,
    )?;
    let prizes = paid
        .into_iter()
        .filter_map(|(k, amount, _)| {
            let row = rows.get(k)?;
            let players = valid
                .team_index(row.team)
                .and_then(|i| file.teams.get(i))
                .map_or(1, |t| t.players.len());
            Some(TeamPrize {
                team: row.team,
                place: row.place,
                amount,
                per_player: split_evenly(amount, players),
            })
        })
        .collect();
    let card_index = cards.iter().enumerate().map(|(i, c)| (c.team, i)).collect();
    let row_index = rows.iter().enumerate().map(|(i, r)| (r.team, i)).collect();
    Ok(TeamStandings {
        scoring: scoring.code(),
        match_vp: scoring.total_vp(),
        rows,
        cards,
        rounds,
        entries,
        pool,
        organiser_fee,
        scheme,
        prizes,
        declared_mismatches: scorer.mismatches,
        card_index,
        row_index,
    })
}

/// `amount` in `ways` shares to the cent, the odd cents to the first.
pub fn split_evenly(amount: Decimal, ways: usize) -> Vec<Decimal> {
    let ways = ways.max(1);
    let count = Decimal::from(u32::try_from(ways).unwrap_or(u32::MAX));
    let base = (amount / count).round_dp_with_strategy(2, RoundingStrategy::ToZero);
    let mut left = amount - base * count;
    let cent = Decimal::new(1, 2);
    (0..ways)
        .map(|_| {
            if left >= cent {
                left -= cent;
                base + cent
            } else {
                base
            }
        })
        .collect()
}

/// Puts every penalty on its team's card; counts VP penalties and warnings.
fn apply_penalties(valid: &ValidTeamFile<'_>, acc: &mut [Acc], cards: &mut [TeamCard], lang: Lang) {
    let file = valid.file();
    let mut order: Vec<usize> = (0..file.penalties.len()).collect();
    order.sort_by_key(|&k| file.penalties.get(k).map_or(0, |p| p.round));
    for k in order {
        let Some(p) = file.penalties.get(k) else {
            continue;
        };
        let Some(i) = index_of(valid, p.team) else {
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
                    entry.counts = c
                        .tables
                        .iter()
                        .any(|t| Some(t.table) == p.table && t.outcome == Outcome::Played);
                }
            }
        }
        c.penalties.push(entry);
        if let Some(a) = automatic {
            c.penalties.push(a);
        }
    }
}

/// Match VP this team (card `a`) and team `b` took in their complete
/// meetings, if they met.
fn head_to_head(cards: &[TeamCard], a: usize, b: u32) -> Option<(i64, i64)> {
    let card = cards.get(a)?;
    let mut met = false;
    let (mut mine, mut theirs) = (0i64, 0i64);
    for c in &card.rounds {
        if c.outcome == MatchOutcome::Played && c.opponent == Some(b) {
            met = true;
            mine = mine.saturating_add(c.vp.unwrap_or(0));
            theirs = theirs.saturating_add(c.opponent_vp.unwrap_or(0));
        }
    }
    met.then_some((mine, theirs))
}

fn rank(valid: &ValidTeamFile<'_>, acc: &[Acc], cards: &[TeamCard], lang: Lang) -> Vec<TeamRow> {
    let file = valid.file();
    let rows: Vec<(usize, TeamRow)> = file
        .teams
        .iter()
        .enumerate()
        .filter(|(_, t)| t.is_entry())
        .map(|(i, t)| {
            let s = acc.get(i).copied().unwrap_or_default();
            (
                i,
                TeamRow {
                    place: 0,
                    team: t.number,
                    vp: s.vp.saturating_sub(s.penalty_vp),
                    mp_diff: s.mp_diff,
                    mp: s.mp,
                    played: s.played,
                    byes: s.byes,
                    penalty_vp: s.penalty_vp,
                    withdrawn: t.withdrawn_from_round.is_some(),
                    tie_break: None,
                },
            )
        })
        .collect();
    let keys: Vec<(u32, (i64, i64, i64))> = rows
        .iter()
        .map(|(_, r)| (r.team, (r.vp, r.mp_diff, r.mp)))
        .collect();
    let h2h = |a: usize, b: usize| {
        let (ia, _) = rows.get(a)?;
        let (_, rb) = rows.get(b)?;
        head_to_head(cards, *ia, rb.team)
    };
    order_entries(&keys, h2h)
        .into_iter()
        .filter_map(|(k, place, tie)| {
            let mut row = rows.get(k)?.1.clone();
            row.place = place;
            row.tie_break = tie.and_then(|t| {
                let other = rows.get(t.other)?.1.team;
                let key = if t.won {
                    "file.standings.team_head_to_head_won"
                } else {
                    "file.standings.team_head_to_head_lost"
                };
                Some(TieBreak {
                    other,
                    vp_for: t.vp_for,
                    vp_against: t.vp_against,
                    won: t.won,
                    note: tie_key_note(lang, key, row.team, other, t.vp_for, t.vp_against),
                })
            });
            Some(row)
        })
        .collect()
}
