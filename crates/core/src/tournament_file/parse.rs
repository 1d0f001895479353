//! Reading and writing the JSON text.

use super::types::TournamentFile;
use crate::i18n::{tf, Lang};

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
}

impl FileError {
    /// Stable code: `invalid_json` or `invalid_field`.
    pub fn code(&self) -> &'static str {
        match self {
            FileError::InvalidJson { .. } => "invalid_json",
            FileError::InvalidField { .. } => "invalid_field",
        }
    }

    /// The place in the document (`.` for the whole document or unknown).
    pub fn path(&self) -> &str {
        match self {
            FileError::InvalidJson { .. } => ".",
            FileError::InvalidField { path, .. } => path,
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
        }
    }

    /// HTTP status for an import: 400 unreadable JSON, 422 otherwise.
    pub fn http_status(&self) -> u16 {
        match self {
            FileError::InvalidJson { .. } => 400,
            FileError::InvalidField { .. } => 422,
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

/// Reads a tournament file. Unknown fields are ignored. Does not validate
/// references and ranges: see [`super::validate`].
pub fn parse(json: &str) -> Result<TournamentFile, FileError> {
    from_json(json)
}

/// Reads one JSON document into `T`, naming the place of a missing or
/// ill-typed field (shared with the other file formats, e.g. the circuit
/// file).
pub(crate) fn from_json<T: serde::de::DeserializeOwned>(json: &str) -> Result<T, FileError> {
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
