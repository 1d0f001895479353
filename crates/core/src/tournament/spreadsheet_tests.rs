//! Spreadsheets read as the CSV import reads text: an `.xlsx` written by a
//! real writer (rust_xlsxwriter) and an `.ods` zipped here, both with the
//! Italian headers clubs use.

use std::io::Write;

use rust_xlsxwriter::{ExcelDateTime, Format, Workbook};

use super::*;
use crate::tournament::csv_import::{preview, MAX_LINES};

const HEADER: [&str; 7] = [
    "Cognome 1",
    "Nome 1",
    "Tessera 1",
    "Cognome 2",
    "Nome 2",
    "Tessera 2",
    "Circolo",
];

/// A club's list in Excel: the header on row 2 (a title above it), a card
/// typed as a number, a blank row, a date column the import ignores, and
/// row 6 without the second player's surname.
fn xlsx() -> Vec<u8> {
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    sheet.write_string(0, 0, "Torneo del venerdì").unwrap();
    for (c, h) in HEADER.iter().enumerate() {
        sheet.write_string(1, c as u16, *h).unwrap();
    }
    sheet.write_string(1, 7, "Iscritto il").unwrap();
    let rows: [[&str; 7]; 2] = [
        [
            "Rossi",
            "Maria",
            "",
            "Bianchi",
            "Luca",
            "FB2",
            "Circolo Aurora",
        ],
        ["Verdi", "Anna", "FB3", "", "Paolo", "FB4", "Circolo Aurora"],
    ];
    for (r, row) in [(2u32, rows[0]), (5, rows[1])] {
        for (c, v) in row.iter().enumerate() {
            if !v.is_empty() {
                sheet.write_string(r, c as u16, *v).unwrap();
            }
        }
    }
    sheet.write_number(2, 2, 100037.0).unwrap();
    let date = Format::new().set_num_format("dd/mm/yyyy");
    sheet
        .write_datetime_with_format(2, 7, ExcelDateTime::from_ymd(2026, 11, 20).unwrap(), &date)
        .unwrap();
    book.save_to_buffer().unwrap()
}

/// The same list as an OpenDocument spreadsheet (what LibreOffice saves).
fn ods() -> Vec<u8> {
    let cell = |v: &str| {
        if v.is_empty() {
            "<table:table-cell/>".to_string()
        } else {
            format!("<table:table-cell office:value-type=\"string\"><text:p>{v}</text:p></table:table-cell>")
        }
    };
    let row = |cells: &[&str]| {
        format!(
            "<table:table-row>{}</table:table-row>",
            cells.iter().map(|c| cell(c)).collect::<String>()
        )
    };
    let number = "<table:table-cell office:value-type=\"float\" office:value=\"100037\"><text:p>100037</text:p></table:table-cell>";
    let rows = [
        row(&["Torneo del venerdì"]),
        row(&HEADER),
        format!(
            "<table:table-row>{}{}{}</table:table-row>",
            cell("Rossi") + &cell("Maria"),
            number,
            ["Bianchi", "Luca", "FB2", "Circolo Aurora"]
                .iter()
                .map(|c| cell(c))
                .collect::<String>()
        ),
        row(&[]),
        row(&[]),
        row(&["Verdi", "Anna", "FB3", "", "Paolo", "FB4", "Circolo Aurora"]),
    ]
    .concat();
    let content = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
<office:document-content xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" \
xmlns:table=\"urn:oasis:names:tc:opendocument:xmlns:table:1.0\" \
xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" office:version=\"1.2\">\
<office:body><office:spreadsheet><table:table table:name=\"Iscritti\">{rows}</table:table>\
</office:spreadsheet></office:body></office:document-content>"
    );
    let manifest = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\
<manifest:manifest xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\" manifest:version=\"1.2\">\
<manifest:file-entry manifest:full-path=\"/\" manifest:media-type=\"application/vnd.oasis.opendocument.spreadsheet\"/>\
<manifest:file-entry manifest:full-path=\"content.xml\" manifest:media-type=\"text/xml\"/>\
</manifest:manifest>";
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let stored =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    zip.start_file("mimetype", stored).unwrap();
    zip.write_all(b"application/vnd.oasis.opendocument.spreadsheet")
        .unwrap();
    zip.start_file("content.xml", zip::write::SimpleFileOptions::default())
        .unwrap();
    zip.write_all(content.as_bytes()).unwrap();
    zip.start_file(
        "META-INF/manifest.xml",
        zip::write::SimpleFileOptions::default(),
    )
    .unwrap();
    zip.write_all(manifest.as_bytes()).unwrap();
    zip.finish().unwrap().into_inner()
}

fn check_list(bytes: &[u8]) {
    assert!(is_spreadsheet(bytes));
    let text = decode_upload(bytes).expect("read");
    let p = preview(&text, &[]).expect("preview");
    // Row 3 is the first pair; row 6 lacks the second player's surname.
    assert_eq!(p.pairs.len(), 1, "{text}\n{p:?}");
    let (line, pair) = &p.pairs[0];
    assert_eq!(*line, 3);
    assert_eq!(pair.players[0].surname(), "Rossi");
    assert_eq!(pair.players[0].card(), "100037", "a card typed as a number");
    assert_eq!(pair.players[1].card(), "FB2");
    assert_eq!(p.bad_lines.len(), 1);
    assert_eq!(p.bad_lines[0].line, 6, "the sheet's own row number");
    assert_eq!(p.bad_lines[0].problems[0].field, "p2_surname");
}

#[test]
fn an_excel_list_reads_like_its_csv() {
    check_list(&xlsx());
    // The date column becomes an ISO date (the member list reads dates).
    let text = spreadsheet_to_csv(&xlsx()).unwrap();
    assert!(text.contains("2026-11-20"), "{text}");
    assert!(
        text.starts_with("\nCognome 1;"),
        "the title left out: {text}"
    );
}

#[test]
fn an_opendocument_list_reads_like_its_csv() {
    check_list(&ods());
}

#[test]
fn a_csv_file_is_still_text() {
    let csv = "cognome1;nome1;cognome2;nome2\nRossi;Maria;Bianchi;Luca\n";
    assert!(!is_spreadsheet(csv.as_bytes()));
    assert_eq!(decode_upload(csv.as_bytes()).unwrap(), csv);
}

#[test]
fn a_damaged_or_swollen_spreadsheet_is_refused_in_words() {
    // Zip magic, then nothing a spreadsheet reader can open.
    let broken = b"PK\x03\x04 not really a zip".to_vec();
    assert_eq!(
        decode_upload(&broken).unwrap_err().key,
        "import.error.spreadsheet"
    );
    let mut cut = xlsx();
    cut.truncate(cut.len() / 2);
    assert_eq!(
        decode_upload(&cut).unwrap_err().key,
        "import.error.spreadsheet"
    );
    // A small file whose parts unpack to more than the bound: refused
    // before anything is unpacked.
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    zip.start_file("content.xml", zip::write::SimpleFileOptions::default())
        .unwrap();
    let zeros = vec![b' '; 1024 * 1024];
    for _ in 0..=(MAX_UNPACKED_BYTES / (1024 * 1024)) {
        zip.write_all(&zeros).unwrap();
    }
    let bomb = zip.finish().unwrap().into_inner();
    assert!(bomb.len() < MAX_FILE_BYTES, "{} bytes", bomb.len());
    assert_eq!(
        decode_upload(&bomb).unwrap_err().key,
        "import.error.spreadsheet"
    );
}

#[test]
fn a_sheet_longer_than_an_import_is_refused() {
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    for (c, h) in ["cognome1", "nome1", "cognome2", "nome2"]
        .iter()
        .enumerate()
    {
        sheet.write_string(0, c as u16, *h).unwrap();
    }
    for r in 1..=(MAX_LINES as u32 + 1) {
        sheet.write_string(r, 0, "Rossi").unwrap();
    }
    let bytes = book.save_to_buffer().unwrap();
    let text = decode_upload(&bytes).unwrap();
    assert_eq!(
        preview(&text, &[]).unwrap_err().key,
        "import.error.too_many"
    );
}
#[test]
fn blank_lines_do_not_shift_the_line_numbers() {
    let csv =
        "\ncognome1;nome1;cognome2;nome2\nRossi;Maria;Bianchi;Luca\n\n\r\n\nVerdi;Anna;;Paolo\n";
    let p = preview(csv, &[]).unwrap();
    assert_eq!(p.pairs[0].0, 3);
    assert_eq!(p.bad_lines[0].line, 7, "{:?}", p.bad_lines);
}

#[test]
fn a_team_list_in_excel_reads_like_its_csv() {
    let mut book = Workbook::new();
    let sheet = book.add_worksheet();
    let rows = [
        ["Squadra", "Cognome", "Nome", "Tessera"],
        ["Sole", "Rossi", "Maria", ""],
        ["Sole", "Bianchi", "Luca", "FB2"],
        ["Sole", "Neri", "Paolo", ""],
        ["Sole", "Blu", "Ada", ""],
    ];
    for (r, row) in rows.iter().enumerate() {
        for (c, v) in row.iter().enumerate() {
            if !v.is_empty() {
                sheet.write_string(r as u32, c as u16, *v).unwrap();
            }
        }
    }
    sheet.write_number(1, 3, 100037.0).unwrap();
    let text = decode_upload(&book.save_to_buffer().unwrap()).unwrap();
    let p = crate::tournament::team_csv::preview(&text, &[]).unwrap();
    assert!(p.is_clean(), "{:?}", p.bad_lines);
    assert_eq!(p.teams[0].name, "Sole");
    assert_eq!(p.teams[0].players.len(), 4);
    assert_eq!(p.teams[0].players[0].card(), "100037");
}
