//! Entries from a spreadsheet: the first sheet of an Excel (`.xlsx`, `.xls`)
//! or OpenDocument (`.ods`) file, read with `calamine`, becomes the CSV text
//! the import already reads. So a spreadsheet goes through exactly the same
//! header words (Italian or English), checks, preview and all-or-nothing
//! save as a CSV file, and the preview's confirm form sends back that text.
//!
//! Rows above the header (a title: the header is the first row of two
//! cells or more) are left out. Cells become text as a person reads them: a whole number without
//! decimals (a card typed as a number, `100037`, not `100037.0`), a date as
//! `YYYY-MM-DD`, anything else as shown. Row numbers are kept: line N of the
//! text is row N of the sheet, so a problem names the row the director sees.
//!
//! Bounded: the file is at most [`MAX_FILE_BYTES`], and a zipped file
//! (`.xlsx`, `.ods`) whose parts would unpack to more than
//! [`MAX_UNPACKED_BYTES`] is refused before a byte is unpacked.

use std::io::Cursor;

use calamine::{open_workbook_auto_from_rs, Data, DataType, Reader};

use super::csv_import::{MAX_FILE_BYTES, MAX_SHEET_LINES};
use super::FieldProblem;

/// The most a spreadsheet's zipped parts may unpack to (a real list of a
/// thousand pairs is well under a megabyte of XML).
pub const MAX_UNPACKED_BYTES: u64 = 64 * 1024 * 1024;
/// The most columns read from a row (an entry has a dozen at most).
const MAX_COLUMNS: usize = 64;

const ZIP_MAGIC: &[u8] = b"PK\x03\x04";
/// An old Excel workbook (`.xls`): an OLE compound file.
const OLE_MAGIC: &[u8] = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1";

/// Whether the bytes are a spreadsheet file (a zip or an OLE file) rather
/// than text.
pub fn is_spreadsheet(bytes: &[u8]) -> bool {
    bytes.starts_with(ZIP_MAGIC) || bytes.starts_with(OLE_MAGIC)
}

fn unreadable() -> FieldProblem {
    FieldProblem::new("file", "import.error.spreadsheet")
}

/// The unpacked size a zip declares for its parts; `None` when it is not a
/// zip that can be read.
fn unpacked_size(bytes: &[u8]) -> Option<u64> {
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).ok()?;
    let mut total = 0u64;
    for i in 0..archive.len() {
        let file = archive.by_index_raw(i).ok()?;
        total = total.checked_add(file.size())?;
    }
    Some(total)
}

/// One cell as the text a person reads in it.
fn cell_text(cell: &Data) -> String {
    match cell {
        Data::Empty | Data::Error(_) => String::new(),
        Data::String(s) => s.clone(),
        Data::Int(i) => i.to_string(),
        Data::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{f:.0}"),
        Data::Float(f) => f.to_string(),
        Data::Bool(b) => b.to_string(),
        Data::DateTime(_) | Data::DateTimeIso(_) => cell
            .as_date()
            .map(|d| d.format("%Y-%m-%d").to_string())
            .unwrap_or_else(|| cell.to_string()),
        Data::DurationIso(s) => s.clone(),
    }
}

/// The first sheet of a spreadsheet file as CSV text (`;` between cells),
/// one line per row of the sheet from row 1.
pub fn spreadsheet_to_csv(bytes: &[u8]) -> Result<String, FieldProblem> {
    if bytes.len() > MAX_FILE_BYTES {
        return Err(FieldProblem::new("file", "import.error.too_big")
            .with("max", MAX_FILE_BYTES / (1024 * 1024)));
    }
    if bytes.starts_with(ZIP_MAGIC) {
        match unpacked_size(bytes) {
            Some(n) if n <= MAX_UNPACKED_BYTES => {}
            _ => return Err(unreadable()),
        }
    }
    let mut book = open_workbook_auto_from_rs(Cursor::new(bytes)).map_err(|_| unreadable())?;
    let range = match book.worksheet_range_at(0) {
        Some(Ok(range)) => range,
        Some(Err(_)) => return Err(unreadable()),
        None => return Err(FieldProblem::new("file", "import.error.empty")),
    };
    let Some((first_row, first_col)) = range.start() else {
        return Err(FieldProblem::new("file", "import.error.empty"));
    };
    if range.height() > MAX_SHEET_LINES + 1 + first_row as usize {
        // More rows than any import takes (blank rows included): refused
        // before they are read. Each import then applies its own bound.
        return Err(FieldProblem::new("file", "import.error.too_many").with("max", MAX_SHEET_LINES));
    }
    // Rows above the range are empty lines: line N stays row N.
    let mut text = "\n".repeat(first_row as usize);
    let mut header_seen = false;
    for row in range.rows() {
        let mut cells: Vec<String> = std::iter::repeat_n(String::new(), first_col as usize)
            .chain(row.iter().map(cell_text))
            .take(MAX_COLUMNS)
            .collect();
        while cells.last().is_some_and(|c| c.trim().is_empty()) {
            cells.pop();
        }
        // A title above the header (one cell, often merged across the
        // columns) is no header: the header is the first row of two cells
        // or more.
        header_seen = header_seen || cells.iter().filter(|c| !c.trim().is_empty()).count() >= 2;
        if cells.is_empty() || !header_seen {
            text.push('\n');
            continue;
        }
        let mut line = csv::WriterBuilder::new()
            .delimiter(b';')
            .terminator(csv::Terminator::Any(b'\n'))
            .from_writer(Vec::new());
        line.write_record(&cells).map_err(|_| unreadable())?;
        let bytes = line.into_inner().map_err(|_| unreadable())?;
        text.push_str(&String::from_utf8(bytes).map_err(|_| unreadable())?);
    }
    if text.trim().is_empty() {
        return Err(FieldProblem::new("file", "import.error.empty"));
    }
    Ok(text)
}

/// The text of an uploaded entries file: a spreadsheet's first sheet, or a
/// CSV file's text (see [`super::csv_import::decode_csv`]).
pub fn decode_upload(bytes: &[u8]) -> Result<String, FieldProblem> {
    if is_spreadsheet(bytes) {
        spreadsheet_to_csv(bytes)
    } else {
        super::csv_import::decode_csv(bytes)
    }
}

#[cfg(test)]
#[path = "spreadsheet_tests.rs"]
mod tests;
