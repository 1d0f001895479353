//! `burraco-td circuit CIRCUIT.json T1.json T2.json …`: the JSON of
//! FORMAT.md and the whole command.

use super::compute::{compute, CircuitStandings, Entrant, POINTS_DP};
use super::identity::Resolver;
use super::spec::parse;
use super::stage::{stage_of_file, Stage, StagePlayer};
use crate::i18n::{tf, Lang};
use crate::tournament_file::{self, TournamentFile};
use rust_decimal::{Decimal, RoundingStrategy};
use serde::Serialize;

/// A player in the CLI output: `{"card": …, "surname": …, "name": …}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CliPlayer {
    pub card: Option<String>,
    pub surname: String,
    pub name: String,
}

/// A pair in the CLI output: `{"players": [player, player]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CliPair {
    pub players: Vec<CliPlayer>,
}

/// `"player": {…}` or `"pair": {…}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum CliEntrant {
    Player(CliPlayer),
    Pair(CliPair),
}

/// One line of `standings` (fields in the order of FORMAT.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CliRow {
    pub place: Option<u32>,
    #[serde(flatten)]
    pub entrant: CliEntrant,
    /// Two decimals (`"52.50"`).
    pub points: String,
    pub mp_diff: i64,
    pub attendances: u32,
    pub counted: Vec<u32>,
}

/// One finalist: the entrant and `"stage N, place P"` or `"overall, place P"`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CliFinalist {
    #[serde(flatten)]
    pub entrant: CliEntrant,
    pub reason: String,
}

/// `{"standings": […], "finalists": […]}` (FORMAT.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CliCircuit {
    pub standings: Vec<CliRow>,
    pub finalists: Vec<CliFinalist>,
}

/// Points as FORMAT.md writes them: a decimal string with two decimals.
pub fn points_text(points: Decimal) -> String {
    let mut p = points.round_dp_with_strategy(POINTS_DP, RoundingStrategy::MidpointAwayFromZero);
    p.rescale(POINTS_DP);
    p.to_string()
}

fn cli_player<K>(p: &StagePlayer<K>) -> CliPlayer {
    CliPlayer {
        card: p.card.clone(),
        surname: p.surname.clone(),
        name: p.name.clone(),
    }
}

fn cli_entrant<K>(entrant: &Entrant<K>, players: &[StagePlayer<K>]) -> CliEntrant {
    match entrant {
        Entrant::Player(_) => {
            CliEntrant::Player(players.first().map(cli_player).unwrap_or(CliPlayer {
                card: None,
                surname: String::new(),
                name: String::new(),
            }))
        }
        Entrant::Pair(..) => CliEntrant::Pair(CliPair {
            players: players.iter().map(cli_player).collect(),
        }),
    }
}

impl<K> CircuitStandings<K> {
    /// The CLI output as a value (field names exactly as FORMAT.md).
    pub fn to_cli(&self) -> CliCircuit {
        CliCircuit {
            standings: self
                .rows
                .iter()
                .map(|r| CliRow {
                    place: r.place,
                    entrant: cli_entrant(&r.entrant, &r.players),
                    points: points_text(r.points),
                    mp_diff: r.mp_diff,
                    attendances: r.attendances,
                    counted: r.counted.clone(),
                })
                .collect(),
            finalists: self
                .finalists
                .iter()
                .map(|f| CliFinalist {
                    entrant: cli_entrant(&f.entrant, &f.players),
                    reason: f.reason.to_string(),
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

/// `file: detail` for the error output.
fn in_file(lang: Lang, file: &str, detail: &str) -> String {
    tf(
        lang,
        "circuit.cli.in_file",
        &[("file", &file), ("detail", &detail)],
    )
}

/// The whole `burraco-td circuit` command on the texts of a circuit file
/// and its stages' tournament files (each with the name it is shown by, in
/// stage order): (exit code, stdout, stderr).
///
/// - 0: stdout has the JSON of FORMAT.md and a newline;
/// - 1: the circuit file or a stage file is not readable JSON, not valid,
///   or has a sheet that breaks a rule: stderr names each file and every
///   problem in it (the place in the file, or the round and table), as
///   `burraco-td standings` words them. Every file is checked before
///   answering.
///
/// A file that cannot be read from disk is the caller's error (exit 2, as
/// for `standings`).
pub fn run_cli(
    circuit_name: &str,
    circuit_text: &str,
    stage_files: &[(String, String)],
    lang: Lang,
) -> (i32, String, String) {
    let mut errors: Vec<String> = Vec::new();
    let spec = match parse(circuit_text) {
        Ok(spec) => Some(spec),
        Err(problems) => {
            let mut detail = tf(
                lang,
                "circuit.cli.invalid_circuit",
                &[("count", &problems.len())],
            );
            for p in &problems {
                detail.push_str("\n  ");
                detail.push_str(&p.line(lang));
            }
            errors.push(in_file(lang, circuit_name, &detail));
            None
        }
    };

    let mut files: Vec<(&str, TournamentFile)> = Vec::with_capacity(stage_files.len());
    for (name, text) in stage_files {
        match tournament_file::parse(text) {
            Ok(f) => files.push((name, f)),
            Err(e) => {
                let detail = tf(lang, "file.cli.unreadable", &[("detail", &e.message(lang))]);
                errors.push(in_file(lang, name, &detail));
            }
        }
    }
    let resolver = Resolver::from_files(files.iter().map(|(_, f)| f));
    let mut stages: Vec<Stage<_>> = Vec::with_capacity(files.len());
    for (name, file) in &files {
        match stage_of_file(file, |p| resolver.key_of(p), lang) {
            Ok(stage) => stages.push(stage),
            Err(e) => errors.push(in_file(lang, name, &e.message(lang))),
        }
    }

    match spec {
        Some(spec) if errors.is_empty() => {
            let standings = compute(&spec, &stages);
            (0, format!("{}\n", standings.to_cli_json()), String::new())
        }
        _ => (1, String::new(), format!("{}\n", errors.join("\n"))),
    }
}
