//! The whole `burraco-td next-round` command on the text of a tournament
//! file (pairs, teams or individual).

use super::error::NextRoundError;
use super::individual::next_individual_round;
use super::pairs::next_pairs_round;
use super::teams::next_team_round;
use crate::i18n::{tf, Lang};
use crate::tournament_file::{parse_any, AnyTournamentFile};

/// The next round of a file of any kind, as compact JSON (FORMAT.md).
pub fn next_round_json(file: &AnyTournamentFile, seed: u64) -> Result<String, NextRoundError> {
    // Plain structs of numbers and strings: serialization cannot fail.
    Ok(match file {
        AnyTournamentFile::Pairs(f) => {
            serde_json::to_string(&next_pairs_round(f, seed)?).unwrap_or_default()
        }
        AnyTournamentFile::Teams(f) => {
            serde_json::to_string(&next_team_round(f, seed)?).unwrap_or_default()
        }
        AnyTournamentFile::Individual(f) => {
            serde_json::to_string(&next_individual_round(f, seed)?).unwrap_or_default()
        }
    })
}

/// `burraco-td next-round`: (exit code, stdout, stderr).
///
/// - 0: stdout has the round as JSON and a newline;
/// - 1: no round can be seated (the plan is complete, a table of the last
///   round has no result, no legal pairing, a sheet breaks a rule): stderr
///   gives the reason;
/// - 2: the file is unreadable or invalid: stderr names each problem.
pub fn run_cli(input: &str, seed: u64, lang: Lang) -> (i32, String, String) {
    let file = match parse_any(input) {
        Ok(f) => f,
        Err(e) => {
            let msg = tf(lang, "file.cli.unreadable", &[("detail", &e.message(lang))]);
            return (2, String::new(), format!("{msg}\n"));
        }
    };
    match next_round_json(&file, seed) {
        Ok(json) => (0, format!("{json}\n"), String::new()),
        Err(e) => (
            e.exit_code(),
            String::new(),
            format!("{}\n", e.message(lang)),
        ),
    }
}
