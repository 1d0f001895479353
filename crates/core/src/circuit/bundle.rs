//! A circuit with its stages in one JSON document,
//! `burraco-td/circuit-bundle@1` (the web's export and import):
//! `{"format": "burraco-td/circuit-bundle@1", "circuit": <circuit@1>,
//! "stages": [<tournament@1>, …]}`, the stages in the circuit's order.
//! Each part is read by its own format's reader, so a problem is named as
//! that format names it, prefixed with where it is (`circuit`,
//! `stages[2]`).

use serde::Serialize;

use super::spec::{parse, CircuitSpec};
use crate::i18n::Lang;
use crate::tournament_file::TournamentFile;

/// The bundle's `format`.
pub const BUNDLE_FORMAT: &str = "burraco-td/circuit-bundle@1";

/// A circuit and its stages' tournament files.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CircuitBundle {
    pub format: &'static str,
    pub circuit: CircuitSpec,
    pub stages: Vec<TournamentFile>,
}

impl CircuitBundle {
    pub fn new(circuit: CircuitSpec, stages: Vec<TournamentFile>) -> CircuitBundle {
        CircuitBundle {
            format: BUNDLE_FORMAT,
            circuit,
            stages,
        }
    }
}

/// Reads a bundle: the circuit checked by [`super::validate`], each stage
/// read as a tournament file (its sheets are checked by the caller, as
/// for any imported file). Every problem in words, each with its place.
pub fn parse_bundle(text: &str, lang: Lang) -> Result<CircuitBundle, Vec<String>> {
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| vec![format!("JSON: {e}")])?;
    let mut problems = Vec::new();
    match value.get("format").and_then(|f| f.as_str()) {
        Some(BUNDLE_FORMAT) => {}
        _ => problems.push(format!("format: expected \"{BUNDLE_FORMAT}\"")),
    }
    let circuit = match value.get("circuit") {
        Some(c) => match parse(&c.to_string()) {
            Ok(spec) => Some(spec),
            Err(ps) => {
                problems.extend(ps.iter().map(|p| format!("circuit.{}", p.line(lang))));
                None
            }
        },
        None => {
            problems.push("circuit: missing".to_string());
            None
        }
    };
    let mut stages = Vec::new();
    match value.get("stages").and_then(|s| s.as_array()) {
        Some(list) => {
            for (i, s) in list.iter().enumerate() {
                match crate::tournament_file::parse(&s.to_string()) {
                    Ok(f) => stages.push(f),
                    Err(e) => {
                        problems.push(format!("stages[{i}].{}: {}", e.path(), e.message(lang)))
                    }
                }
            }
        }
        None => problems.push("stages: missing (a list of tournament files)".to_string()),
    }
    match circuit {
        Some(circuit) if problems.is_empty() => Ok(CircuitBundle::new(circuit, stages)),
        _ => Err(problems),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::circuit::PointsMethod;

    #[test]
    fn a_bundle_reads_back_and_names_its_problems() {
        let spec = CircuitSpec::new("Inverno", PointsMethod::Vp);
        let b = CircuitBundle::new(spec.clone(), Vec::new());
        let text = serde_json::to_string(&b).unwrap();
        assert_eq!(parse_bundle(&text, Lang::En).unwrap(), b);
        let bad = r#"{"format": "x", "circuit": {"format": "burraco-td/circuit@1", "name": "", "points": {"method": "vp"}}, "stages": [{"format": 3}]}"#;
        let problems = parse_bundle(bad, Lang::En).unwrap_err();
        assert!(problems[0].starts_with("format"), "{problems:?}");
        assert!(
            problems.iter().any(|p| p.starts_with("circuit.name")),
            "{problems:?}"
        );
        assert!(
            problems.iter().any(|p| p.starts_with("stages[0]")),
            "{problems:?}"
        );
    }
}
