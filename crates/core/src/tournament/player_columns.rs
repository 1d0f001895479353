//! The columns of a file with one player per line, as the teams' and the
//! individual players' imports read them: the header's words in Italian or
//! English, each column once (the first cell naming it), the cells an
//! import does not read set aside, and each line's player.

use super::csv_import::header_word;
use super::pairs::{Player, PlayerForm};
use super::FieldProblem;

/// A set of columns and the words that name them in a header.
pub(crate) type Columns = &'static [(&'static str, &'static [&'static str])];

/// A player's columns.
pub(crate) const PLAYER_COLUMNS: Columns = &[
    ("surname", &["cognome", "surname", "lastname", "familyname"]),
    ("name", &["nome", "name", "firstname", "givenname"]),
    (
        "card",
        &[
            "tessera",
            "ntessera",
            "numtessera",
            "numerotessera",
            "card",
            "cardno",
            "cardnumber",
        ],
    ),
    (
        "club",
        &["circolo", "club", "associazione", "societa", "asd"],
    ),
];

/// The columns a header names.
pub(crate) struct Header {
    index: Vec<(&'static str, usize)>,
    /// Header cells the import does not read, as written.
    pub ignored: Vec<String>,
}

impl Header {
    /// Reads `header` against `columns` (each set in turn).
    pub(crate) fn read(header: &csv::StringRecord, columns: &[Columns]) -> Header {
        let mut out = Header {
            index: Vec::new(),
            ignored: Vec::new(),
        };
        for (i, cell) in header.iter().enumerate() {
            let word = header_word(cell);
            match columns
                .iter()
                .flat_map(|set| set.iter())
                .find(|(_, words)| words.contains(&word.as_str()))
            {
                Some((col, _)) if !out.index.iter().any(|(c, _)| c == col) => {
                    out.index.push((col, i))
                }
                Some(_) => {}
                None if !cell.trim().is_empty() => out.ignored.push(cell.trim().to_string()),
                None => {}
            }
        }
        out
    }

    /// The file's problem when a needed column (with the key that names
    /// it) is missing.
    pub(crate) fn require(&self, needed: &[(&str, &'static str)]) -> Result<(), FieldProblem> {
        match needed
            .iter()
            .find(|(col, _)| !self.index.iter().any(|(c, _)| c == col))
        {
            Some((_, key)) => Err(FieldProblem::new("file", *key)),
            None => Ok(()),
        }
    }

    /// A line's cell in column `col` ('' when the file has none).
    pub(crate) fn get(&self, record: &csv::StringRecord, col: &str) -> String {
        self.index
            .iter()
            .find(|(c, _)| *c == col)
            .and_then(|(_, i)| record.get(*i))
            .unwrap_or_default()
            .to_string()
    }

    /// A line's player, each problem named by its column.
    pub(crate) fn player(&self, record: &csv::StringRecord) -> Result<Player, Vec<FieldProblem>> {
        let form = PlayerForm {
            surname: self.get(record, "surname"),
            name: self.get(record, "name"),
            card: self.get(record, "card"),
            club: self.get(record, "club"),
        };
        Player::parse(&form, ["surname", "name", "card", "club"])
    }
}

/// The columns a player's import needs.
pub(crate) const PLAYER_NEEDS: &[(&str, &str)] = &[
    ("surname", "teams.import.missing_surname"),
    ("name", "teams.import.missing_name"),
];
