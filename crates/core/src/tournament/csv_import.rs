//! Pairs from a CSV file, as Italian clubs have them: one pair per line
//! after a header row; UTF-8 (with or without a byte-order mark) or
//! Windows-1252 (what Excel on Windows saves), detected from the bytes;
//! `;` or `,` (or TAB) between cells, detected from the header line; headers
//! in Italian or English (`cognome1`, `Cognome giocatore 1`, `surname_1`…).
//! Read with the `csv` crate. Nothing is imported while any line is bad: the
//! preview lists every bad line, and shows the names exactly as they will
//! be stored.

use super::pairs::PairEntry;
use super::FieldProblem;

/// The most lines a pairs' (or teams') import takes.
pub const MAX_LINES: usize = 1000;
/// The most rows any uploaded sheet may have (the member list's bound;
/// each import then applies its own).
pub const MAX_SHEET_LINES: usize = 50_000;
/// The largest file accepted (the upload limit of the import page).
pub const MAX_FILE_BYTES: usize = 2 * 1024 * 1024;

/// The fields of a line and the words that name them in a header, in
/// Italian and English (compared without case, accents, spaces or
/// punctuation; the player's number 1 or 2 may stand anywhere).
const ROLES: &[(&str, &[&str])] = &[
    ("surname", &["cognome", "surname", "lastname", "familyname"]),
    ("name", &["nome", "name", "firstname", "givenname"]),
    (
        "card",
        &[
            "tessera",
            "ntessera",
            "numtessera",
            "numerotessera",
            "tesserafibur",
            "card",
            "cardno",
            "cardnumber",
            "federationcard",
        ],
    ),
    (
        "club",
        &["circolo", "club", "associazione", "societa", "asd"],
    ),
];

/// Words around the role that say whose it is ("giocatore 1", "player 2").
const FILLERS: &[&str] = &["giocatore", "player", "gioc"];

/// The form fields of player 1 and 2, by role.
const FIELDS: [[(&str, &str); 4]; 2] = [
    [
        ("surname", "p1_surname"),
        ("name", "p1_name"),
        ("card", "p1_card"),
        ("club", "p1_club"),
    ],
    [
        ("surname", "p2_surname"),
        ("name", "p2_name"),
        ("card", "p2_card"),
        ("club", "p2_club"),
    ],
];

const REQUIRED: &[&str] = &["p1_surname", "p1_name", "p2_surname", "p2_name"];

/// One bad line: its number in the file (1 = the header) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineProblem {
    pub line: usize,
    pub problems: Vec<FieldProblem>,
}

impl LineProblem {
    /// The line's problems in words, each after the column it is about
    /// (`cognome1: Campo obbligatorio.`).
    pub fn message(&self, lang: crate::i18n::Lang) -> String {
        self.problems
            .iter()
            .map(|p| match column_key(p.field) {
                Some(key) => format!("{}: {}", crate::i18n::t(lang, key), p.message(lang)),
                None => p.message(lang),
            })
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The catalog key of a column's name as the header writes it.
fn column_key(field: &str) -> Option<&'static str> {
    Some(match field {
        "p1_surname" => "import.column.p1_surname",
        "p1_name" => "import.column.p1_name",
        "p1_card" => "import.column.p1_card",
        "p1_club" => "import.column.p1_club",
        "p2_surname" => "import.column.p2_surname",
        "p2_name" => "import.column.p2_name",
        "p2_card" => "import.column.p2_card",
        "p2_club" => "import.column.p2_club",
        _ => return None,
    })
}

/// The message of a required column missing from the header.
fn missing_key(field: &str) -> &'static str {
    match field {
        "p1_surname" => "import.error.missing.p1_surname",
        "p1_name" => "import.error.missing.p1_name",
        "p2_surname" => "import.error.missing.p2_surname",
        _ => "import.error.missing.p2_name",
    }
}

/// What the file would add.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Preview {
    pub pairs: Vec<(usize, PairEntry)>,
    pub bad_lines: Vec<LineProblem>,
    /// Header cells that name nothing this import reads, as written: the
    /// preview says they are left out (nothing is dropped without a word).
    pub ignored_columns: Vec<String>,
}

impl Preview {
    pub fn is_clean(&self) -> bool {
        self.bad_lines.is_empty() && !self.pairs.is_empty()
    }
}

/// The text of a CSV file from its bytes: UTF-8 (a byte-order mark is
/// dropped) or, when the bytes are not UTF-8, Windows-1252 as detected by
/// `chardetng`. A file in another encoding (UTF-16, a Cyrillic code page…)
/// or that is no text at all (a spreadsheet's `.xlsx`, control bytes) is
/// refused with a message that says so: nothing is guessed into garbage.
pub fn decode_csv(bytes: &[u8]) -> Result<String, FieldProblem> {
    let refused = || FieldProblem::new("file", "import.error.encoding");
    if bytes.len() > MAX_FILE_BYTES {
        return Err(FieldProblem::new("file", "import.error.too_big")
            .with("max", MAX_FILE_BYTES / (1024 * 1024)));
    }
    let text = if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF") {
        std::str::from_utf8(rest)
            .map_err(|_| refused())?
            .to_string()
    } else if bytes.starts_with(b"\xFF\xFE") || bytes.starts_with(b"\xFE\xFF") {
        return Err(refused());
    } else if let Ok(text) = std::str::from_utf8(bytes) {
        text.to_string()
    } else {
        let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
        detector.feed(bytes, true);
        let guess = detector.guess(Some(b"it"), chardetng::Utf8Detection::Deny);
        if guess != encoding_rs::WINDOWS_1252 {
            return Err(refused());
        }
        guess
            .decode_without_bom_handling_and_without_replacement(bytes)
            .ok_or_else(refused)?
            .into_owned()
    };
    // Text has no control characters but line ends and tabs: a NUL is a
    // binary file or UTF-16, C1 controls are bytes Windows-1252 lacks.
    if text
        .chars()
        .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
    {
        return Err(refused());
    }
    Ok(text)
}

/// A header cell without case, accents, spaces or punctuation.
pub(crate) fn header_word(cell: &str) -> String {
    super::pairs::fold(cell)
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect()
}

/// The form fields a header cell names (`Cognome 1` → `p1_surname`; a
/// club column without a player's number, `Circolo`, is both players').
fn column_fields(cell: &str) -> Vec<&'static str> {
    let word = header_word(cell);
    if ROLES
        .iter()
        .find(|(role, _)| *role == "club")
        .is_some_and(|(_, words)| words.contains(&word.as_str()))
    {
        return vec!["p1_club", "p2_club"];
    }
    column_field(cell).into_iter().collect()
}

/// The form field a header cell names for one player (`Cognome 1` → `p1_surname`).
fn column_field(cell: &str) -> Option<&'static str> {
    let word = header_word(cell);
    let digits: Vec<char> = word.chars().filter(char::is_ascii_digit).collect();
    let player = match digits.as_slice() {
        ['1'] => 0,
        ['2'] => 1,
        _ => return None,
    };
    let mut role: String = word.chars().filter(|c| !c.is_ascii_digit()).collect();
    for filler in FILLERS {
        if let Some(rest) = role.strip_suffix(filler) {
            role = rest.to_string();
        } else if let Some(rest) = role.strip_prefix(filler) {
            role = rest.to_string();
        }
    }
    let (role, _) = ROLES
        .iter()
        .find(|(_, words)| words.contains(&role.as_str()))?;
    FIELDS[player]
        .iter()
        .find(|(r, _)| r == role)
        .map(|(_, field)| *field)
}

/// The separator of a file: the most frequent of `;`, `,` and TAB in the
/// header line (`,` when none).
fn delimiter(header: &str) -> u8 {
    [b';', b',', b'\t']
        .into_iter()
        .max_by_key(|d| (header.matches(char::from(*d)).count(), *d == b','))
        .filter(|d| header.contains(char::from(*d)))
        .unwrap_or(b',')
}

/// Where each line of a text starts, to name a record's line: the `csv`
/// crate's own line count passes over blank lines, and a blank line in the
/// middle of a file (or blank rows of a spreadsheet) must not shift the
/// numbers the preview shows.
pub(crate) struct Lines<'a> {
    text: &'a [u8],
    newlines: Vec<usize>,
}

impl Lines<'_> {
    pub(crate) fn new(text: &str) -> Lines<'_> {
        Lines {
            text: text.as_bytes(),
            newlines: text
                .bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i)
                .collect(),
        }
    }

    /// The line number of a record in its file (1 = the first line).
    pub(crate) fn of(&self, record: &csv::StringRecord) -> usize {
        let mut byte = record
            .position()
            .map_or(0, |p| usize::try_from(p.byte()).unwrap_or(usize::MAX));
        // The record's position is where the reader resumed, before the
        // blank lines it passed over.
        while self
            .text
            .get(byte)
            .is_some_and(|b| matches!(b, b'\r' | b'\n'))
        {
            byte += 1;
        }
        // Newlines before the record's first byte, plus one.
        self.newlines.partition_point(|&nl| nl < byte) + 1
    }
}

/// A CSV text's header row and its other non-blank rows (the separator
/// from the header line; at most [`MAX_LINES`] rows).
pub(crate) fn read(
    text: &str,
) -> Result<(csv::StringRecord, Vec<csv::StringRecord>), FieldProblem> {
    read_up_to(text, MAX_LINES)
}

/// [`read`] with at most `max_lines` rows.
pub(crate) fn read_up_to(
    text: &str,
    max_lines: usize,
) -> Result<(csv::StringRecord, Vec<csv::StringRecord>), FieldProblem> {
    let Some(header_line) = text.lines().find(|l| !l.trim().is_empty()) else {
        return Err(FieldProblem::new("file", "import.error.empty"));
    };
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter(header_line))
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut records = reader.records();
    let header = loop {
        match records.next() {
            None => return Err(FieldProblem::new("file", "import.error.empty")),
            Some(Err(_)) => return Err(FieldProblem::new("file", "import.error.header")),
            Some(Ok(r)) if r.iter().all(|c| c.trim().is_empty()) => continue,
            Some(Ok(r)) => break r,
        }
    };
    let mut rows = Vec::new();
    for record in records {
        let record = record.map_err(|_| FieldProblem::new("file", "import.error.header"))?;
        if record.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        if rows.len() >= max_lines {
            return Err(FieldProblem::new("file", "import.error.too_many").with("max", max_lines));
        }
        rows.push(record);
    }
    Ok((header, rows))
}

/// Reads a CSV text; `existing` are the pairs already registered (a player
/// may not appear twice in one tournament).
pub fn preview(text: &str, existing: &[PairEntry]) -> Result<Preview, FieldProblem> {
    let text = text.trim_start_matches('\u{feff}');
    let (header, records) = read(text)?;
    let mut index: Vec<(&'static str, usize)> = Vec::new();
    let mut ignored_columns = Vec::new();
    for (i, cell) in header.iter().enumerate() {
        let fields = column_fields(cell);
        if fields.is_empty() && !cell.trim().is_empty() {
            ignored_columns.push(cell.trim().to_string());
        }
        for field in fields {
            if !index.iter().any(|(f, _)| *f == field) {
                index.push((field, i));
            }
        }
    }
    for req in REQUIRED {
        if !index.iter().any(|(f, _)| f == req) {
            return Err(FieldProblem::new("file", missing_key(req)));
        }
    }
    let mut out = Preview {
        ignored_columns,
        ..Preview::default()
    };
    let mut accepted: Vec<PairEntry> = existing.to_vec();
    let lines = Lines::new(text);
    let rows: Vec<(u64, usize, csv::StringRecord)> = records
        .into_iter()
        .map(|record| {
            let start = record.position().map_or(0, |p| p.byte());
            (start, lines.of(&record), record)
        })
        .collect();
    let count = rows.len();
    for (k, (start, line_no, cells)) in rows.into_iter().enumerate() {
        // The `csv` crate reads an unclosed quote to the end of the file:
        // the last record then holds an odd number of quote characters.
        let raw = text
            .as_bytes()
            .get(usize::try_from(start).unwrap_or(usize::MAX)..)
            .unwrap_or_default();
        if k + 1 == count && raw.iter().filter(|b| **b == b'"').count() % 2 == 1 {
            out.bad_lines.push(LineProblem {
                line: line_no,
                problems: vec![FieldProblem::new("file", "import.error.quotes")],
            });
            continue;
        }
        let get = |field: &str| {
            index
                .iter()
                .find(|(f, _)| *f == field)
                .and_then(|(_, i)| cells.get(*i))
                .unwrap_or_default()
                .to_string()
        };
        let form = super::pairs::PairForm {
            p1_surname: get("p1_surname"),
            p1_name: get("p1_name"),
            p1_card: get("p1_card"),
            p1_club: get("p1_club"),
            p2_surname: get("p2_surname"),
            p2_name: get("p2_name"),
            p2_card: get("p2_card"),
            p2_club: get("p2_club"),
        };
        match PairEntry::parse(&form) {
            Ok(entry) => {
                if let Some((_, who)) = entry.clashes_with(accepted.iter()) {
                    out.bad_lines.push(LineProblem {
                        line: line_no,
                        problems: vec![
                            FieldProblem::new("file", "import.error.duplicate").with("player", who)
                        ],
                    });
                } else {
                    accepted.push(entry.clone());
                    out.pairs.push((line_no, entry));
                }
            }
            Err(problems) => out.bad_lines.push(LineProblem {
                line: line_no,
                problems,
            }),
        }
    }
    if out.pairs.is_empty() && out.bad_lines.is_empty() {
        return Err(FieldProblem::new("file", "import.error.no_pairs"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str =
        "\u{feff}cognome1;nome1;tessera1;circolo1;cognome2;nome2;tessera2;circolo2\n\
        Rossi;Maria;AB1;Circolo Sole;Bianchi;Luca;;\n\
        \"D'Angelo\";Nicolò;;\"Club \"\"Il Fante\"\"\";Esposito;Chiara;;\n";

    #[test]
    fn reads_semicolons_quotes_and_accents() {
        let p = preview(GOOD, &[]).unwrap();
        assert!(p.is_clean());
        assert_eq!(p.pairs.len(), 2);
        let second = &p.pairs[1].1;
        assert_eq!(p.pairs[1].0, 3);
        assert_eq!(second.players[0].surname(), "D'Angelo");
        assert_eq!(second.players[0].name(), "Nicolò");
        assert_eq!(second.players[0].club(), "Club \"Il Fante\"");
    }

    #[test]
    fn every_bad_line_is_listed_with_its_number() {
        let text = "surname1,name1,surname2,name2\nRossi,Maria,Bianchi,Luca\n,Anna,Verdi,Ugo\nNeri,Ada,Rossi,Maria\n\"Open,quote,x,y\n";
        let p = preview(text, &[]).unwrap();
        assert!(!p.is_clean());
        let lines: Vec<usize> = p.bad_lines.iter().map(|b| b.line).collect();
        assert_eq!(lines, [3, 4, 5]);
        assert_eq!(p.bad_lines[1].problems[0].key, "import.error.duplicate");
    }

    #[test]
    fn a_header_without_the_needed_columns_is_refused() {
        let e = preview("a,b,c\n1,2,3\n", &[]).unwrap_err();
        assert_eq!(e.key, "import.error.missing.p1_surname");
        assert_eq!(preview("", &[]).unwrap_err().key, "import.error.empty");
    }

    #[test]
    fn players_already_registered_are_refused() {
        let existing = preview(GOOD, &[])
            .unwrap()
            .pairs
            .into_iter()
            .map(|(_, e)| e)
            .collect::<Vec<_>>();
        let p = preview(
            "surname1,name1,surname2,name2\nBIANCHI,luca,Neri,Ada\n",
            &existing,
        )
        .unwrap();
        assert_eq!(p.bad_lines.len(), 1);
    }

    fn cp1252(text: &str) -> Vec<u8> {
        let (bytes, _, unmappable) = encoding_rs::WINDOWS_1252.encode(text);
        assert!(!unmappable);
        bytes.into_owned()
    }

    #[test]
    fn windows_1252_and_utf8_with_or_without_bom_are_decoded() {
        let text = "cognome1;nome1;circolo1;cognome2;nome2\r\nRossi;Niccolò;Società Bocciofila;Bianchi;Luca\r\n";
        let bytes = cp1252(text);
        assert!(std::str::from_utf8(&bytes).is_err(), "really not UTF-8");
        assert_eq!(decode_csv(&bytes).unwrap(), text);
        assert_eq!(decode_csv(text.as_bytes()).unwrap(), text);
        let with_bom = [b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat();
        assert_eq!(decode_csv(&with_bom).unwrap(), text);
        let p = preview(&decode_csv(&bytes).unwrap(), &[]).unwrap();
        assert_eq!(p.pairs[0].1.players[0].name(), "Niccolò");
        assert_eq!(p.pairs[0].1.players[0].club(), "Società Bocciofila");
    }

    #[test]
    fn bytes_that_are_no_text_are_refused_with_a_message() {
        let bom_then_latin1 = [b"\xEF\xBB\xBF".as_slice(), &cp1252("cognome1;Niccolò")].concat();
        let utf16 = [b"\xFF\xFE".as_slice(), b"c\0o\0g\0"].concat();
        let xlsx = b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00\xb4\xe7\xff\xfe".to_vec();
        let nul = b"cognome1;nome1\nRos\0si;Maria\n".to_vec();
        let c1 = b"cognome1;nome1\nRossi\x81;Maria\n".to_vec();
        for bad in [bom_then_latin1, utf16, xlsx, nul, c1] {
            let e = decode_csv(&bad).unwrap_err();
            assert_eq!(e.key, "import.error.encoding", "{bad:?}");
            for lang in crate::i18n::Lang::ALL {
                assert!(e.message(lang).contains("UTF-8"), "{}", e.message(lang));
            }
        }
        let big = vec![b'a'; MAX_FILE_BYTES + 1];
        assert_eq!(decode_csv(&big).unwrap_err().key, "import.error.too_big");
    }

    #[test]
    fn headers_in_italian_or_english_however_written() {
        for header in [
            "Cognome giocatore 1;Nome giocatore 1;N. tessera 1;Circolo 1;Cognome giocatore 2;Nome giocatore 2;N. tessera 2;Circolo 2",
            "COGNOME_1;NOME_1;TESSERA_1;SOCIETÀ 1;COGNOME_2;NOME_2;TESSERA_2;SOCIETÀ 2",
            "Last name 1,First name 1,Card number 1,Club 1,Last name 2,First name 2,Card number 2,Club 2",
            "Player 1 surname\tPlayer 1 name\tPlayer 1 card\tPlayer 1 club\tPlayer 2 surname\tPlayer 2 name\tPlayer 2 card\tPlayer 2 club",
        ] {
            let sep = delimiter(header) as char;
            let row = ["Rossi", "Maria", "AB1", "Circolo Sole", "Bianchi", "Luca", "", "Club"].join(&sep.to_string());
            let p = preview(&format!("{header}\n{row}\n"), &[]).unwrap();
            assert!(p.is_clean(), "{header}: {p:?}");
            let [a, b] = &p.pairs[0].1.players;
            assert_eq!((a.surname(), a.name(), a.card(), a.club()), ("Rossi", "Maria", "AB1", "Circolo Sole"), "{header}");
            assert_eq!((b.surname(), b.club()), ("Bianchi", "Club"));
        }
        let e = preview("cognome1;nome1;cognome2\nRossi;Maria;Bianchi\n", &[]).unwrap_err();
        assert_eq!(e.key, "import.error.missing.p2_name");
        assert!(e.message(crate::i18n::Lang::It).contains("nome2"));
    }

    #[test]
    fn separators_in_quotes_and_control_characters_in_cells() {
        let text = "cognome1;nome1;circolo1;cognome2;nome2\n\"Rossi; De Luca\";Maria;\"Circolo, \"\"Sole\"\"\";Bianchi;Luca\n\"Neri\nVerdi\";Ada;;Gallo;Ugo\nEsposito;Anna\u{1};;Conti;Ezio\n";
        let p = preview(text, &[]).unwrap();
        assert_eq!(p.pairs.len(), 1);
        assert_eq!(p.pairs[0].1.players[0].surname(), "Rossi; De Luca");
        assert_eq!(p.pairs[0].1.players[0].club(), "Circolo, \"Sole\"");
        let lines: Vec<usize> = p.bad_lines.iter().map(|b| b.line).collect();
        assert_eq!(lines, [3, 5]);
        assert_eq!(p.bad_lines[0].problems[0].key, "text.error.control");
        assert_eq!(p.bad_lines[1].problems[0].field, "p1_name");
        let msg = p.bad_lines[1].message(crate::i18n::Lang::It);
        assert!(msg.starts_with("nome1: "), "{msg}");
    }

    #[test]
    fn a_club_column_for_the_pair_is_read_and_unknown_columns_are_named() {
        let text =
            "Cognome1;Nome1;Cognome2;Nome2;Circolo;Note\nRossi;Anna;Bianchi;Luca;Circolo Sole;x\n";
        let p = preview(text, &[]).unwrap();
        assert_eq!(p.pairs.len(), 1);
        let pair = &p.pairs[0].1;
        assert_eq!(pair.players[0].club(), "Circolo Sole");
        assert_eq!(pair.players[1].club(), "Circolo Sole");
        assert_eq!(p.ignored_columns, vec!["Note".to_string()]);
    }
}
