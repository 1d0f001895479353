//! `burraco-td standings`: the JSON of FORMAT.md and the whole command,
//! for a pairs or a team tournament file (by its `kind`).

use super::teams::{compute_teams, TeamStandings};
use super::{compute, Standings, StandingsError};
use crate::i18n::{tf, Lang};
use crate::tournament_file::{parse_any, validate, validate_teams, AnyTournamentFile};
use rust_decimal::Decimal;
use serde::Serialize;

/// One line of `standings` in the CLI output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CliRow {
    pub place: u32,
    pub pair: u32,
    pub vp: i64,
    pub mp_diff: i64,
    pub mp: i64,
    pub played: u32,
    pub byes: u32,
}

/// One prize in the CLI output (`amount` a decimal string).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CliPrize {
    pub pair: u32,
    pub place: u32,
    pub amount: Decimal,
}

/// `{"standings":[…],"pool":"336.00","prizes":[…]}` (FORMAT.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CliStandings {
    pub standings: Vec<CliRow>,
    pub pool: Decimal,
    pub prizes: Vec<CliPrize>,
}

impl Standings {
    /// The CLI output as a value (field names exactly as FORMAT.md).
    pub fn to_cli(&self) -> CliStandings {
        CliStandings {
            standings: self
                .rows
                .iter()
                .map(|r| CliRow {
                    place: r.place,
                    pair: r.pair,
                    vp: r.vp,
                    mp_diff: r.mp_diff,
                    mp: r.mp,
                    played: r.played,
                    byes: r.byes,
                })
                .collect(),
            pool: self.pool,
            prizes: self
                .prizes
                .iter()
                .map(|p| CliPrize {
                    pair: p.pair,
                    place: p.place,
                    amount: p.amount,
                })
                .collect(),
        }
    }

    /// The CLI output as compact JSON (one line, no trailing newline).
    pub fn to_cli_json(&self) -> String {
        // Plain structs of numbers and strings: serialization cannot fail.
        serde_json::to_string(&self.to_cli()).unwrap_or_default()
    }
}

/// One line of a team file's `standings` in the CLI output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TeamCliRow {
    pub place: u32,
    pub team: u32,
    pub vp: i64,
    pub mp_diff: i64,
    pub mp: i64,
    pub played: u32,
    pub byes: u32,
}

/// One team prize in the CLI output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TeamCliPrize {
    pub team: u32,
    pub place: u32,
    pub amount: Decimal,
}

/// The team file's output: the pairs' shape with `team` for `pair`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TeamCliStandings {
    pub standings: Vec<TeamCliRow>,
    pub pool: Decimal,
    pub prizes: Vec<TeamCliPrize>,
}

impl TeamStandings {
    /// The CLI output as a value (FORMAT.md, `team` in place of `pair`).
    pub fn to_cli(&self) -> TeamCliStandings {
        TeamCliStandings {
            standings: self
                .rows
                .iter()
                .map(|r| TeamCliRow {
                    place: r.place,
                    team: r.team,
                    vp: r.vp,
                    mp_diff: r.mp_diff,
                    mp: r.mp,
                    played: r.played,
                    byes: r.byes,
                })
                .collect(),
            pool: self.pool,
            prizes: self
                .prizes
                .iter()
                .map(|p| TeamCliPrize {
                    team: p.team,
                    place: p.place,
                    amount: p.amount,
                })
                .collect(),
        }
    }

    /// The CLI output as compact JSON (one line, no trailing newline).
    pub fn to_cli_json(&self) -> String {
        serde_json::to_string(&self.to_cli()).unwrap_or_default()
    }
}

/// The whole `burraco-td standings` command on the text of a tournament
/// file (pairs or teams): (exit code, stdout, stderr).
///
/// - 0: stdout has the JSON of FORMAT.md and a newline;
/// - 1: a sheet breaks a rule: stderr lists every violation with its round
///   and table;
/// - 2: the file is unreadable or invalid: stderr names the place of each
///   problem.
pub fn run_cli(input: &str, lang: Lang) -> (i32, String, String) {
    let file = match parse_any(input) {
        Ok(f) => f,
        Err(e) => {
            let msg = tf(lang, "file.cli.unreadable", &[("detail", &e.message(lang))]);
            return (2, String::new(), format!("{msg}\n"));
        }
    };
    let result = match &file {
        AnyTournamentFile::Pairs(file) => validate(file)
            .map_err(StandingsError::Invalid)
            .and_then(|valid| compute(&valid, lang))
            .map(|s| s.to_cli_json()),
        AnyTournamentFile::Teams(file) => validate_teams(file)
            .map_err(StandingsError::Invalid)
            .and_then(|valid| compute_teams(&valid, lang))
            .map(|s| s.to_cli_json()),
    };
    match result {
        Ok(json) => (0, format!("{json}\n"), String::new()),
        Err(e) => (
            e.exit_code(),
            String::new(),
            format!("{}\n", e.message(lang)),
        ),
    }
}
