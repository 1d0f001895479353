//! `burraco-td standings`: the JSON of FORMAT.md and the whole command,
//! for a pairs, team or individual tournament file (by its `kind`).

use super::kind::Kind;
use super::pairs::Pair;
use super::{compute_file, compute_individual_file, compute_teams_file, Row, Standings};
use crate::i18n::{tf, Lang};
use crate::tournament_file::{parse_any, AnyTournamentFile};
use rust_decimal::Decimal;
use serde::ser::{SerializeStruct, Serializer};
use serde::Serialize;
use std::marker::PhantomData;

/// One line of `standings` in the CLI output: the row's place, number
/// (`pair`, or `team` for a team file), VP, MP difference, MP, rounds
/// played and rested.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliRow<K: Kind = Pair>(pub Row<K>);

impl<K: Kind> Serialize for CliRow<K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("CliRow", 9)?;
        self.0.write_head(&mut s)?;
        self.0.write_group(&mut s)?;
        s.end()
    }
}

/// One prize in the CLI output (`amount` a decimal string).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliPrize<K: Kind = Pair> {
    pub number: u32,
    pub place: u32,
    pub amount: Decimal,
    /// The group of a prize per group (RULES.md §13).
    pub group: Option<String>,
    kind: PhantomData<K>,
}

impl<K: Kind> Serialize for CliPrize<K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("CliPrize", 4)?;
        s.serialize_field(K::FIELD, &self.number)?;
        s.serialize_field("place", &self.place)?;
        s.serialize_field("amount", &self.amount)?;
        if self.group.is_some() {
            s.serialize_field("group", &self.group)?;
        }
        s.end()
    }
}

/// `{"standings":[…],"pool":"336.00","prizes":[…]}` (FORMAT.md; a team
/// file's has `team` in place of `pair`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(bound = "")]
pub struct CliStandings<K: Kind = Pair> {
    pub standings: Vec<CliRow<K>>,
    pub pool: Decimal,
    pub prizes: Vec<CliPrize<K>>,
}

impl<K: Kind> Standings<K> {
    /// The CLI output as a value (field names exactly as FORMAT.md).
    pub fn to_cli(&self) -> CliStandings<K> {
        CliStandings {
            standings: self.rows.iter().map(|r| CliRow(r.clone())).collect(),
            pool: self.pool,
            prizes: self
                .prizes
                .iter()
                .map(|p| CliPrize {
                    number: p.number,
                    place: p.place,
                    amount: p.amount,
                    group: p.group.clone(),
                    kind: PhantomData,
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

/// The whole `burraco-td standings` command on the text of a tournament
/// file (pairs, teams or individual): (exit code, stdout, stderr).
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
        AnyTournamentFile::Pairs(file) => compute_file(file, lang).map(|s| s.to_cli_json()),
        AnyTournamentFile::Teams(file) => compute_teams_file(file, lang).map(|s| s.to_cli_json()),
        AnyTournamentFile::Individual(file) => {
            compute_individual_file(file, lang).map(|s| s.to_cli_json())
        }
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
