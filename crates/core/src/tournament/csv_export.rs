//! The CSV documents a director downloads: the standings and every score
//! sheet. Written with the `csv` crate (semicolons, quotes where needed,
//! UTF-8 with a byte-order mark so that a spreadsheet opens them as UTF-8),
//! headers in the page's language.
//!
//! Formula injection (OWASP "CSV Injection"): every text cell that starts
//! with `=`, `+`, `-`, `@`, a TAB or a CR gets a leading `'`, so a player
//! named `=HYPERLINK(…)` is shown as text, never run. Numbers the program
//! writes itself (VP, MP, totals, which may be negative) stay numbers.

use std::borrow::Cow;

use rust_decimal::Decimal;

use crate::i18n::{t, Lang};
use crate::rules::score_sheet::score_line;
use crate::rules::{Line, RuleProfile};
use crate::standings::Standings;
use crate::tournament_file::TournamentFile;

/// The first characters that make a spreadsheet read a cell as a formula.
pub const FORMULA_PREFIXES: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// A text cell made safe to open in a spreadsheet.
pub fn neutralise(text: &str) -> Cow<'_, str> {
    if text.starts_with(FORMULA_PREFIXES) {
        Cow::Owned(format!("'{text}"))
    } else {
        Cow::Borrowed(text)
    }
}

/// Writing a CSV document in memory failed (it cannot, short of a bug: the
/// error is reported rather than an empty file sent).
#[derive(Debug, thiserror::Error)]
#[error("cannot write the CSV document: {0}")]
pub struct CsvWriteError(String);

/// One cell: text (neutralised) or a number the program computed.
enum Cell<'a> {
    Text(Cow<'a, str>),
    Number(String),
}

impl Cell<'_> {
    fn as_bytes(&self) -> &[u8] {
        match self {
            Cell::Text(s) => s.as_bytes(),
            Cell::Number(s) => s.as_bytes(),
        }
    }
}

fn text(s: &str) -> Cell<'_> {
    Cell::Text(neutralise(s))
}

fn owned_text<'a>(s: String) -> Cell<'a> {
    Cell::Text(Cow::Owned(neutralise(&s).into_owned()))
}

fn num(n: impl std::fmt::Display) -> Cell<'static> {
    Cell::Number(n.to_string())
}

fn empty() -> Cell<'static> {
    Cell::Number(String::new())
}

/// An amount of money with two decimals, the language's decimal mark and
/// thousands separator (`1.234,00` in Italian, what a person reads and an
/// Italian spreadsheet takes as a number).
fn money(lang: Lang, amount: Decimal) -> Cell<'static> {
    Cell::Number(crate::i18n::format::amount(lang, amount))
}

/// Match points (a total, a difference) with the language's thousands
/// separator (`7.265`).
fn points(lang: Lang, n: i64) -> Cell<'static> {
    Cell::Number(crate::i18n::format::integer(lang, n))
}

/// A document being written: records of cells, `;`-separated.
struct Doc {
    writer: csv::Writer<Vec<u8>>,
}

impl Doc {
    fn new() -> Doc {
        let mut buffer = Vec::new();
        buffer.extend_from_slice("\u{feff}".as_bytes());
        Doc {
            writer: csv::WriterBuilder::new()
                .delimiter(b';')
                .quote_style(csv::QuoteStyle::Necessary)
                .from_writer(buffer),
        }
    }

    fn header(&mut self, lang: Lang, keys: &[&str]) -> Result<(), CsvWriteError> {
        let cells: Vec<Cell<'_>> = keys.iter().map(|k| text(t(lang, k))).collect();
        self.record(&cells)
    }

    fn record(&mut self, cells: &[Cell<'_>]) -> Result<(), CsvWriteError> {
        self.writer
            .write_record(cells.iter().map(Cell::as_bytes))
            .map_err(|e| CsvWriteError(e.to_string()))
    }

    fn finish(self) -> Result<String, CsvWriteError> {
        let bytes = self
            .writer
            .into_inner()
            .map_err(|e| CsvWriteError(e.error().to_string()))?;
        String::from_utf8(bytes).map_err(|e| CsvWriteError(e.to_string()))
    }
}

const STANDINGS_HEADER: [&str; 11] = [
    "standings.place",
    "pairs.pair",
    "pairs.player1",
    "pairs.player2",
    "csv.vp",
    "standings.mp_diff",
    "csv.mp",
    "standings.played",
    "standings.byes",
    "standings.penalty_vp",
    "standings.prize",
];

/// The columns of an individual tournament's standings.
const PLAYER_STANDINGS_HEADER: [&str; 11] = [
    "standings.place",
    "individual.player",
    "field.surname",
    "field.first_name",
    "field.club",
    "csv.vp",
    "standings.mp_diff",
    "csv.mp",
    "standings.played",
    "standings.byes",
    "standings.prize",
];

/// An individual tournament's standings, best first (RULES.md §14): place,
/// player number, surname, name, club, VP, MP difference, MP, rounds
/// played, rests, prize.
pub fn player_standings_csv(
    file: &crate::tournament_file::IndividualTournamentFile,
    standings: &crate::standings::PlayerStandings,
    lang: Lang,
) -> Result<String, CsvWriteError> {
    let mut doc = Doc::new();
    doc.header(lang, &PLAYER_STANDINGS_HEADER)?;
    for r in &standings.rows {
        let p = file.players.iter().find(|p| p.number == r.number);
        let field = |f: fn(&crate::tournament_file::Player) -> String| {
            p.map(|p| f(&p.player)).unwrap_or_default()
        };
        let prize = standings
            .prize(r.number)
            .map_or_else(empty, |p| money(lang, p.amount));
        doc.record(&[
            num(r.place),
            num(r.number),
            owned_text(field(|p| p.surname.clone())),
            owned_text(field(|p| p.name.clone())),
            owned_text(field(|p| p.club.clone().unwrap_or_default())),
            num(r.vp),
            points(lang, r.mp_diff),
            points(lang, r.mp),
            num(r.played),
            num(r.byes),
            prize,
        ])?;
    }
    doc.finish()
}

/// The standings, best first: place, pair, both players ("Surname Name"),
/// VP, MP difference, MP, rounds played, byes, penalty VP, prize.
pub fn standings_csv(
    file: &TournamentFile,
    standings: &Standings,
    lang: Lang,
) -> Result<String, CsvWriteError> {
    let mut doc = Doc::new();
    doc.header(lang, &STANDINGS_HEADER)?;
    for r in &standings.rows {
        let pair = file.pairs.iter().find(|p| p.number == r.number);
        let player = |i: usize| {
            pair.and_then(|p| p.players.get(i))
                .map(|pl| format!("{} {}", pl.surname, pl.name))
                .unwrap_or_default()
        };
        let prize = standings
            .prize(r.number)
            .map_or_else(empty, |p| money(lang, p.amount));
        doc.record(&[
            num(r.place),
            num(r.number),
            owned_text(player(0)),
            owned_text(player(1)),
            num(r.vp),
            points(lang, r.mp_diff),
            points(lang, r.mp),
            num(r.played),
            num(r.byes),
            num(r.penalty_vp),
            prize,
        ])?;
    }
    doc.finish()
}

/// A circuit's season ranking (RULES.md §11), best first, the unclassified
/// last without a place: place, the player or pair ("Surname Name", a
/// pair's two joined by " – "), points, MP difference, attendances, each
/// stage's points (empty where the entrant did not play it) and the stages
/// that count.
pub fn circuit_csv<K>(
    standings: &crate::circuit::CircuitStandings<K>,
    stages: usize,
    lang: Lang,
) -> Result<String, CsvWriteError> {
    let mut doc = Doc::new();
    let mut header: Vec<Cell<'_>> = [
        "standings.place",
        "circuit.csv.entrant",
        "circuit.csv.points",
        "standings.mp_diff",
        "circuit.csv.attendances",
    ]
    .iter()
    .map(|k| text(t(lang, k)))
    .collect();
    for n in 1..=stages {
        header.push(owned_text(format!("{} {n}", t(lang, "circuit.csv.stage"))));
    }
    header.push(text(t(lang, "circuit.csv.counted")));
    doc.record(&header)?;
    let points = |d: Decimal| Cell::Number(crate::i18n::format::decimal(lang, d));
    for r in &standings.rows {
        let names = r
            .players
            .iter()
            .map(|p| format!("{} {}", p.surname, p.name))
            .collect::<Vec<_>>()
            .join(" – ");
        let mut cells = vec![
            r.place.map_or_else(empty, num),
            owned_text(names),
            points(r.points),
            self::points(lang, r.mp_diff),
            num(r.attendances),
        ];
        for i in 0..stages {
            cells.push(
                r.stages
                    .get(i)
                    .and_then(Option::as_ref)
                    .map_or_else(empty, |s| points(s.points)),
            );
        }
        cells.push(Cell::Number(
            r.counted
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(" "),
        ));
        doc.record(&cells)?;
    }
    doc.finish()
}

const SHEETS_HEADER: [&str; 18] = [
    "csv.sheets.round",
    "csv.sheets.table",
    "csv.sheets.ns",
    "csv.sheets.ew",
    "csv.sheets.hand",
    "csv.sheets.end",
    "csv.sheets.line",
    "csv.sheets.royal",
    "csv.sheets.super",
    "csv.sheets.clean",
    "csv.sheets.semi_clean",
    "csv.sheets.dirty",
    "csv.sheets.melded_points",
    "csv.sheets.hand_points",
    "csv.sheets.closed",
    "csv.sheets.took_pozzetto",
    "csv.sheets.hand_total",
    "csv.sheets.adjusted_vp",
];

/// Every sheet: one record per table, hand and line (the line's total
/// computed by the rules of the tournament's profile); an adjusted score is
/// one record per line with its VP.
pub fn sheets_csv(file: &TournamentFile, lang: Lang) -> Result<String, CsvWriteError> {
    let profile = RuleProfile::by_name(&file.profile).unwrap_or_else(RuleProfile::default_profile);
    let line_cell = |line: Line| text(t(lang, &format!("rules.line.{}", line.code())));
    let yes_no = |b: bool| text(t(lang, if b { "csv.yes" } else { "csv.no" }));
    let mut doc = Doc::new();
    doc.header(lang, &SHEETS_HEADER)?;
    for r in &file.rounds {
        for tb in &r.tables {
            let seat = [num(r.number), num(tb.table), num(tb.ns), num(tb.ew)];
            if let Some(a) = &tb.adjusted {
                for (line, vp) in [(Line::Ns, a.ns_vp), (Line::Ew, a.ew_vp)] {
                    let mut cells: Vec<Cell<'_>> = seat.iter().map(clone_cell).collect();
                    cells.extend([empty(), empty(), line_cell(line)]);
                    cells.extend((0..10).map(|_| empty()));
                    cells.push(num(vp));
                    doc.record(&cells)?;
                }
            }
            let Some(sheet) = &tb.sheet else { continue };
            for (i, h) in sheet.hands.iter().enumerate() {
                for (line, me, other) in [(Line::Ns, &h.ns, &h.ew), (Line::Ew, &h.ew, &h.ns)] {
                    let total = score_line(me, other, h.end, profile).total;
                    let mut cells: Vec<Cell<'_>> = seat.iter().map(clone_cell).collect();
                    cells.extend([
                        num(i.saturating_add(1)),
                        text(t(lang, &format!("rules.end.{}", h.end.code()))),
                        line_cell(line),
                        num(me.royal),
                        num(me.super_),
                        num(me.clean),
                        num(me.semi_clean),
                        num(me.dirty),
                        points(lang, me.melded_points),
                        points(lang, me.hand_points),
                        yes_no(me.closed),
                        yes_no(me.took_pozzetto),
                        points(lang, total),
                        empty(),
                    ]);
                    doc.record(&cells)?;
                }
            }
        }
    }
    doc.finish()
}

fn clone_cell<'a>(c: &Cell<'a>) -> Cell<'a> {
    match c {
        Cell::Text(s) => Cell::Text(s.clone()),
        Cell::Number(s) => Cell::Number(s.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament_file::fixtures;

    /// Reads a document back with the `csv` crate: records of strings.
    fn read(doc: &str) -> Vec<Vec<String>> {
        let body = doc.strip_prefix('\u{feff}').expect("a BOM first");
        csv::ReaderBuilder::new()
            .delimiter(b';')
            .has_headers(false)
            .from_reader(body.as_bytes())
            .records()
            .map(|r| r.unwrap().iter().map(str::to_string).collect())
            .collect()
    }

    #[test]
    fn an_individual_tournament_s_standings_have_a_line_per_player() {
        let f = crate::tournament_file::individual_kit::one_round();
        let st = crate::standings::compute_individual_file(&f, Lang::En).unwrap();
        let rows = read(&player_standings_csv(&f, &st, Lang::En).unwrap());
        assert_eq!(rows.len(), 9, "a header and 8 players");
        assert_eq!(rows[0].len(), 11);
        // 1+2 beat 3+4 (14–6): both partners share the line's VP.
        let line = |n: &str| rows.iter().find(|r| r[1] == n).unwrap().clone();
        assert_eq!(line("1")[5], line("2")[5]);
        assert_eq!(line("1")[5], "14");
        assert_eq!(line("3")[5], "6");
    }

    #[test]
    fn formula_prefixes_get_a_quote_and_other_text_does_not() {
        for (raw, safe) in [
            (
                "=HYPERLINK(\"http://x\",\"y\")",
                "'=HYPERLINK(\"http://x\",\"y\")",
            ),
            ("+1", "'+1"),
            ("-1", "'-1"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tx", "'\tx"),
            ("\rx", "'\rx"),
            ("Rossi", "Rossi"),
            ("D'Angelo", "D'Angelo"),
            ("", ""),
            ("a=b", "a=b"),
        ] {
            assert_eq!(neutralise(raw), safe, "{raw:?}");
        }
    }

    fn file_with_names(names: &[&str]) -> (TournamentFile, Standings) {
        let mut file = fixtures::sample_tournament(8, 3, 7);
        let st = crate::standings::compute_file(&file, Lang::It).unwrap();
        // Names stored before control characters were refused, or typed
        // with a formula prefix (allowed: "-" and "+" are not controls).
        for (pair, name) in file.pairs.iter_mut().zip(names) {
            pair.players[0].surname = (*name).to_string();
        }
        (file, st)
    }

    #[test]
    fn the_standings_keep_names_as_text_and_numbers_as_numbers() {
        let evil = [
            "=HYPERLINK(\"http://x\",\"y\")",
            "+1",
            "@SUM(A1)",
            "\tx",
            "\rx",
            "Rossi; \"Mario\"",
        ];
        let (file, st) = file_with_names(&evil);
        let doc = standings_csv(&file, &st, Lang::It).unwrap();
        let records = read(&doc);
        assert_eq!(records[0][0], "Posto");
        assert_eq!(records[0][4], "PV");
        assert_eq!(records.len(), st.rows.len() + 1);
        let mut seen = Vec::new();
        for rec in &records[1..] {
            assert_eq!(rec.len(), STANDINGS_HEADER.len());
            for cell in [&rec[2], &rec[3]] {
                assert!(!cell.starts_with(FORMULA_PREFIXES), "{cell:?}");
            }
            seen.push(rec[2].clone());
            // Numbers stay numbers (thousands grouped as Italians write
            // them), a negative MP difference included.
            for n in [&rec[0], &rec[1], &rec[4], &rec[5], &rec[6]] {
                assert!(n.replace('.', "").parse::<i64>().is_ok(), "{n:?}");
            }
        }
        assert!(
            records[1..].iter().any(|r| r[5].starts_with('-')),
            "a negative number stays a number"
        );
        for name in evil {
            let expected = format!("{} ", neutralise(name));
            assert!(
                seen.iter().any(|s| s.starts_with(&expected)),
                "{name:?} in {seen:?}"
            );
        }
        // Money with the language's decimal mark.
        let prize = &records[1][10];
        assert!(prize.ends_with(",00") || prize.contains(','), "{prize}");
        let en = read(&standings_csv(&file, &st, Lang::En).unwrap());
        assert_eq!(en[0][0], "Place");
        assert!(en[1][10].contains('.'));
    }

    #[test]
    fn the_sheets_are_one_record_per_hand_and_line() {
        let (file, _) = file_with_names(&[]);
        let records = read(&sheets_csv(&file, Lang::It).unwrap());
        assert_eq!(records[0].len(), SHEETS_HEADER.len());
        assert_eq!(records[0][0], "Turno");
        let hands: usize = file
            .rounds
            .iter()
            .flat_map(|r| &r.tables)
            .map(|t| t.sheet.as_ref().map_or(2, |s| s.hands.len() * 2))
            .sum();
        assert_eq!(records.len(), hands + 1);
        for rec in &records[1..] {
            assert_eq!(rec.len(), SHEETS_HEADER.len());
            if !rec[16].is_empty() {
                assert!(
                    rec[16].replace('.', "").parse::<i64>().is_ok(),
                    "a total, maybe negative: {rec:?}"
                );
            }
        }
        assert!(
            records[1..].iter().any(|r| r[16].starts_with('-')),
            "negative totals stay numbers"
        );
    }
}
