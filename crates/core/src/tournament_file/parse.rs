//! Reading and writing the JSON text.

use super::{FileKind, IndividualTournamentFile, TeamTournamentFile, TournamentFile};
use crate::i18n::{tf, Lang};
use serde::de::DeserializeOwned;
use serde::Deserialize;

/// The text cannot be read as a tournament file (CLI exit code 2).
///
/// `InvalidField` names the place with 0-based indexes as in the JSON
/// (`rounds[2].tables[4].ew`); a missing field is named as if it were there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FileError {
    /// Not JSON (or cut short, or text after the document).
    #[error("not readable JSON (line {line}, column {column}): {detail}")]
    InvalidJson {
        line: usize,
        column: usize,
        detail: String,
    },
    /// JSON, but a field is missing, of the wrong type or has a value the
    /// format does not know.
    #[error("{path}: {detail}")]
    InvalidField { path: String, detail: String },
    /// A readable file of another kind: a team tournament given where a
    /// pairs tournament is read, or the other way round (place: `kind`).
    #[error("kind: the file is a {found} tournament, not a {expected} tournament")]
    WrongKind { expected: FileKind, found: FileKind },
}

impl FileError {
    /// Stable code: `invalid_json`, `invalid_field` or `wrong_kind`.
    pub fn code(&self) -> &'static str {
        match self {
            FileError::InvalidJson { .. } => "invalid_json",
            FileError::InvalidField { .. } => "invalid_field",
            FileError::WrongKind { .. } => "wrong_kind",
        }
    }

    /// The place in the document (`.` for the whole document or unknown).
    pub fn path(&self) -> &str {
        match self {
            FileError::InvalidJson { .. } => ".",
            FileError::InvalidField { path, .. } => path,
            FileError::WrongKind { .. } => "kind",
        }
    }

    /// The error in words, in `lang` (serde's own detail stays in English).
    pub fn message(&self, lang: Lang) -> String {
        match self {
            FileError::InvalidJson {
                line,
                column,
                detail,
            } => tf(
                lang,
                "file.error.invalid_json",
                &[("line", line), ("column", column), ("detail", detail)],
            ),
            FileError::InvalidField { path, detail } => tf(
                lang,
                "file.error.invalid_field",
                &[("path", path), ("detail", detail)],
            ),
            FileError::WrongKind { found, expected } => {
                let key = match (found, expected) {
                    (_, FileKind::Individual) => "file.error.wrong_kind_not_individual",
                    (FileKind::Individual, _) => "file.error.wrong_kind_individual",
                    (FileKind::Teams, _) => "file.error.wrong_kind_teams",
                    (FileKind::Pairs, _) => "file.error.wrong_kind_pairs",
                };
                tf(lang, key, &[("path", &"kind")])
            }
        }
    }

    /// HTTP status for an import: 400 unreadable JSON, 422 otherwise.
    pub fn http_status(&self) -> u16 {
        match self {
            FileError::InvalidJson { .. } => 400,
            FileError::InvalidField { .. } | FileError::WrongKind { .. } => 422,
        }
    }
}

/// `missing field `ew`` at `rounds[2].tables[4]` → `rounds[2].tables[4].ew`.
fn full_path(path: &str, detail: &str) -> String {
    let missing = detail
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split('`').next());
    match missing {
        Some(field) if path == "." => field.to_string(),
        Some(field) => format!("{path}.{field}"),
        None => path.to_string(),
    }
}

/// Strips serde_json's " at line L column C" suffix (the path says where).
fn strip_position(detail: &str) -> &str {
    match detail.rfind(" at line ") {
        Some(i) => &detail[..i],
        None => detail,
    }
}

/// Only the top-level `kind` of a JSON object (every other field skipped;
/// anything but an object is left to the full read).
struct KindProbe {
    kind: FileKind,
}

impl<'de> Deserialize<'de> for KindProbe {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<KindProbe, D::Error> {
        struct Probe;
        impl<'de> serde::de::Visitor<'de> for Probe {
            type Value = KindProbe;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a tournament file (a JSON object)")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<KindProbe, A::Error> {
                let mut kind = FileKind::default();
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    if key == "kind" {
                        kind = map.next_value()?;
                    } else {
                        map.next_value::<serde::de::IgnoredAny>()?;
                    }
                }
                Ok(KindProbe { kind })
            }
        }
        d.deserialize_map(Probe)
    }
}

/// The file's `kind` (absent: pairs). A `kind` the format does not know is
/// an error naming `kind`; any other fault is left to the full read, which
/// names it better (`Ok(None)`).
fn probe_kind(json: &str) -> Result<Option<FileKind>, FileError> {
    let mut de = serde_json::Deserializer::from_str(json);
    let result: Result<KindProbe, _> = serde_path_to_error::deserialize(&mut de);
    match result {
        Ok(p) => Ok(Some(p.kind)),
        Err(e)
            if e.path().to_string() == "kind"
                && e.inner().classify() == serde_json::error::Category::Data =>
        {
            let detail = strip_position(&e.into_inner().to_string()).to_string();
            Err(FileError::InvalidField {
                path: "kind".to_string(),
                detail,
            })
        }
        Err(_) => Ok(None),
    }
}

/// Reads a pairs tournament file (`kind` absent or `"pairs"`). Unknown
/// fields are ignored. Does not validate references and ranges: see
/// [`super::validate`]. A team file is refused with
/// [`FileError::WrongKind`] (read it with [`parse_any`]).
pub fn parse(json: &str) -> Result<TournamentFile, FileError> {
    parse_kind(json, FileKind::Pairs)
}

/// Reads a file of kind `expected`; a readable file of another kind is
/// [`FileError::WrongKind`].
fn parse_kind<T: DeserializeOwned>(json: &str, expected: FileKind) -> Result<T, FileError> {
    match probe_kind(json)? {
        Some(found) if found != expected => Err(FileError::WrongKind { expected, found }),
        _ => from_json(json),
    }
}

/// Reads an individual tournament file (`"kind": "individual"`); a file of
/// another kind is refused with [`FileError::WrongKind`]. Does not
/// validate: see [`super::validate_individual`].
pub fn parse_individual(json: &str) -> Result<IndividualTournamentFile, FileError> {
    parse_kind(json, FileKind::Individual)
}

/// Reads a team tournament file (`"kind": "teams"`); a pairs file is refused
/// with [`FileError::WrongKind`]. Does not validate: see
/// [`super::validate_teams`].
pub fn parse_teams(json: &str) -> Result<TeamTournamentFile, FileError> {
    parse_kind(json, FileKind::Teams)
}

/// A tournament file of any kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnyTournamentFile {
    Pairs(TournamentFile),
    Teams(TeamTournamentFile),
    Individual(IndividualTournamentFile),
}

impl AnyTournamentFile {
    pub fn kind(&self) -> FileKind {
        match self {
            AnyTournamentFile::Pairs(_) => FileKind::Pairs,
            AnyTournamentFile::Teams(_) => FileKind::Teams,
            AnyTournamentFile::Individual(_) => FileKind::Individual,
        }
    }

    /// The export of any kind (pretty, deterministic).
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        match self {
            AnyTournamentFile::Pairs(f) => to_json(f),
            AnyTournamentFile::Teams(f) => teams_to_json(f),
            AnyTournamentFile::Individual(f) => serde_json::to_string_pretty(f),
        }
    }
}

/// Reads a tournament file of any kind, by its `kind`.
pub fn parse_any(json: &str) -> Result<AnyTournamentFile, FileError> {
    match probe_kind(json)? {
        Some(FileKind::Teams) => from_json(json).map(AnyTournamentFile::Teams),
        Some(FileKind::Individual) => from_json(json).map(AnyTournamentFile::Individual),
        // Pairs, or a fault the pairs read names.
        _ => from_json(json).map(AnyTournamentFile::Pairs),
    }
}

/// Reads a document as `T`, naming the place of a missing or ill-typed field.
/// Reads one JSON document into `T`, naming the place of a missing or
/// ill-typed field (every file format: tournaments of both kinds, circuits).
pub(crate) fn from_json<T: DeserializeOwned>(json: &str) -> Result<T, FileError> {
    let mut de = serde_json::Deserializer::from_str(json);
    let result: Result<T, _> = serde_path_to_error::deserialize(&mut de);
    match result {
        Ok(file) => match de.end() {
            Ok(()) => Ok(file),
            Err(e) => Err(FileError::InvalidJson {
                line: e.line(),
                column: e.column(),
                detail: strip_position(&e.to_string()).to_string(),
            }),
        },
        Err(e) => {
            let path = e.path().to_string();
            let inner = e.into_inner();
            let detail = strip_position(&inner.to_string()).to_string();
            if inner.classify() == serde_json::error::Category::Data {
                Err(FileError::InvalidField {
                    path: full_path(&path, &detail),
                    detail,
                })
            } else {
                Err(FileError::InvalidJson {
                    line: inner.line(),
                    column: inner.column(),
                    detail,
                })
            }
        }
    }
}

/// Writes the file as pretty JSON (two-space indent, fields in a fixed
/// order): export → import → export gives the same text.
pub fn to_json(file: &TournamentFile) -> Result<String, serde_json::Error> {
    // Every map key is a string and every value serializable, so this should
    // not fail; if it ever does, the caller says so instead of writing an
    // empty file.
    serde_json::to_string_pretty(file)
}

/// Writes the file as compact JSON (one line).
pub fn to_json_compact(file: &TournamentFile) -> Result<String, serde_json::Error> {
    serde_json::to_string(file)
}

/// Writes a team file as pretty JSON (fields in a fixed order): export →
/// import → export gives the same text.
pub fn teams_to_json(file: &TeamTournamentFile) -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(file)
}

/// Writes a team file as compact JSON (one line).
pub fn teams_to_json_compact(file: &TeamTournamentFile) -> Result<String, serde_json::Error> {
    serde_json::to_string(file)
}
