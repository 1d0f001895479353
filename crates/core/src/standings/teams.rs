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

use super::kind::{field_of, round_card_fields, Field, Kind, Ledger, RoundCard};
use super::prizes::split_evenly;
use super::{BrokenSheet, Card, CardPenalty, Outcome, Prize, Row, Standings, StandingsError};
use crate::rules::check::check;
use crate::rules::score_sheet::{Line, ViolationCode};
use crate::rules::teams::{match_score, table_result, TableResult, TableScore};
use crate::tournament_file::{
    validate_teams, LineRef, MatchFile, TeamTournamentFile, ValidTeamFile,
};
use rust_decimal::Decimal;
use serde::Serialize;
use std::collections::HashMap;

/// Teams: the entrant of a team tournament.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Team;

/// A team's line in the standings.
pub type TeamRow = Row<Team>;
/// A team's card: one entry per round of the tournament.
pub type TeamCard = Card<Team>;
/// A team that wins money; the prize split among its players.
pub type TeamPrize = Prize<Team>;
/// The computed team standings.
pub type TeamStandings = Standings<Team>;

/// What team standings carry of their own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TeamResults {
    /// `tables` or `scale`.
    pub scoring: &'static str,
    /// The match VP two teams share (40 or 20).
    pub match_vp: u8,
    /// Every round's match results.
    pub rounds: Vec<RoundResults>,
}

/// Validates, then computes (for callers holding a plain file).
pub fn compute_teams_file(
    file: &TeamTournamentFile,
    lang: crate::i18n::Lang,
) -> Result<TeamStandings, StandingsError> {
    super::engine::compute_file::<Team>(file, lang)
}

/// Computes the team standings, cards, match results and prizes of a
/// valid team file. `lang` is the language of the texts inside.
pub fn compute_teams(
    valid: &ValidTeamFile<'_>,
    lang: crate::i18n::Lang,
) -> Result<TeamStandings, StandingsError> {
    super::engine::compute::<Team>(valid, lang)
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

/// One scored table as the standings need it.
struct Scored {
    result: MatchTableResult,
    /// From the home team's side, when scored.
    score: Option<TableScore>,
}

/// What scoring the tables needs and finds.
struct Scorer<'v, 'a, 'l, 'f> {
    valid: &'v ValidTeamFile<'a>,
    ledger: &'l mut Ledger<'f, Team>,
    /// Every penalty naming a table, per (round, table).
    marks: HashMap<(u32, u32), Vec<usize>>,
}

impl Scorer<'_, '_, '_, '_> {
    /// Checks and scores one table of a match (`home`: the match's home
    /// team).
    fn score(
        &mut self,
        round: u32,
        home: u32,
        table: &crate::tournament_file::MatchTableFile,
    ) -> Scored {
        let valid = self.valid;
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
                self.ledger.broken(BrokenSheet {
                    round,
                    table: table.table,
                    ns: table.ns.team,
                    ew: table.ew.team,
                    partners: None,
                    violations: report.violations,
                    place_key: Team::SHEET_PLACE,
                });
                return Scored {
                    result,
                    score: None,
                };
            }
            if report.has(ViolationCode::DeclaredTotalMismatch) {
                result.declared_mismatch = true;
                self.ledger.mismatch(round, table.table);
            }
            let pen = |team: u32| self.ledger.mp_penalty(round, team, Some(table.table));
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

/// Scores one match: its tables, then (both scored) the match result that
/// each team gets (RULES.md §12).
fn score_match(
    scorer: &mut Scorer<'_, '_, '_, '_>,
    r: usize,
    round: u32,
    game: &MatchFile,
) -> MatchResult {
    let valid = scorer.valid;
    let mut scored: Vec<Scored> = game
        .tables
        .iter()
        .map(|t| scorer.score(round, game.home, t))
        .collect();
    scored.sort_by_key(|s| s.result.table);
    let both = match scored.as_slice() {
        [a, b] => a.score.zip(b.score).map(|(x, y)| [x, y]),
        _ => None,
    };
    let total = both.map(|tables| match_score(valid.scoring(), valid.scale(), &tables));
    let tables: Vec<MatchTableResult> = scored.into_iter().map(|s| s.result).collect();
    for (team, home) in [(game.home, true), (game.away, false)] {
        if !scorer.ledger.is_entry(team) {
            continue;
        }
        let side = total.map(|m| {
            if home {
                (m.home_vp, m.away_vp, m.home_mp_diff, m.home_mp)
            } else {
                (m.away_vp, m.home_vp, m.away_mp_diff, m.away_mp)
            }
        });
        if let Some((vp, _, diff, mp)) = side {
            scorer.ledger.credit(team, vp, diff, mp);
        }
        if let Some(c) = scorer.ledger.card(r, team) {
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
    MatchResult {
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
    }
}

impl RoundCard for TeamCardRound {
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

    round_card_fields!(MatchOutcome::Bye, MatchOutcome::Played);

    fn mp_counts(&self, table: Option<u32>) -> bool {
        self.tables
            .iter()
            .any(|t| Some(t.table) == table && t.outcome == Outcome::Played)
    }
}

impl Kind for Team {
    type File = TeamTournamentFile;
    type Valid<'a> = ValidTeamFile<'a>;
    type Round = TeamCardRound;
    type Split = Vec<Decimal>;
    type Extra = TeamResults;

    const FIELD: &'static str = "team";
    const TIE_NOTE: (&'static str, &'static str) = (
        "file.standings.team_head_to_head_won",
        "file.standings.team_head_to_head_lost",
    );
    const SHEET_PLACE: &'static str = "file.standings.team_sheet_place";

    fn validate(file: &TeamTournamentFile) -> Result<ValidTeamFile<'_>, StandingsError> {
        validate_teams(file).map_err(StandingsError::Invalid)
    }

    fn field<'v>(valid: &'v ValidTeamFile<'_>) -> Field<'v> {
        let file: &'v TeamTournamentFile = valid.file();
        field_of!(
            file,
            teams,
            |e| e.players.len(),
            team,
            i64::from(valid.team_bye_vp()),
            valid.team_bye_mp_diff()
        )
    }

    /// Each team of a complete match gets its match result.
    fn score(valid: &ValidTeamFile<'_>, ledger: &mut Ledger<'_, Team>) -> TeamResults {
        let file = valid.file();
        let mut scorer = Scorer {
            valid,
            ledger,
            marks: HashMap::new(),
        };
        for (k, p) in file.penalties.iter().enumerate() {
            if let Some(table) = p.table {
                scorer.marks.entry((p.round, table)).or_default().push(k);
            }
        }
        let rounds = file
            .rounds
            .iter()
            .enumerate()
            .map(|(r, round)| RoundResults {
                round: round.number,
                matches: round
                    .matches
                    .iter()
                    .map(|game| score_match(&mut scorer, r, round.number, game))
                    .collect(),
                byes: round.byes.clone(),
            })
            .collect();
        TeamResults {
            scoring: valid.scoring().code(),
            match_vp: valid.scoring().total_vp(),
            rounds,
        }
    }

    /// Split evenly among all its registered players.
    fn split(amount: Decimal, _two_way: [Decimal; 2], players: usize) -> Vec<Decimal> {
        split_evenly(amount, players)
    }
}

impl Standings<Team> {
    /// `tables` or `scale`.
    pub fn scoring(&self) -> &'static str {
        self.extra.scoring
    }

    /// The match VP two teams share (40 or 20).
    pub fn match_vp(&self) -> u8 {
        self.extra.match_vp
    }

    /// Every round's match results.
    pub fn rounds(&self) -> &[RoundResults] {
        &self.extra.rounds
    }

    /// The match `team` played in round `round` (1-based).
    pub fn match_of(&self, round: u32, team: u32) -> Option<&MatchResult> {
        self.rounds()
            .iter()
            .find(|r| r.round == round)?
            .matches
            .iter()
            .find(|m| m.home == team || m.away == team)
    }
}
