//! Pairs from a CSV file: one pair per line after a header row. Commas or
//! semicolons (what an Italian spreadsheet writes), double quotes for fields
//! that contain them, UTF-8 (a byte-order mark is ignored). Nothing is
//! imported while any line is bad: the preview lists every bad line.

use super::pairs::PairEntry;
use super::FieldProblem;

pub const MAX_LINES: usize = 1000;

/// Column names accepted in the header (English or Italian).
const COLUMNS: &[(&str, &[&str])] = &[
    (
        "p1_surname",
        &["surname1", "cognome1", "surname_1", "cognome_1"],
    ),
    ("p1_name", &["name1", "nome1", "name_1", "nome_1"]),
    ("p1_card", &["card1", "tessera1", "card_1", "tessera_1"]),
    ("p1_club", &["club1", "circolo1", "club_1", "circolo_1"]),
    (
        "p2_surname",
        &["surname2", "cognome2", "surname_2", "cognome_2"],
    ),
    ("p2_name", &["name2", "nome2", "name_2", "nome_2"]),
    ("p2_card", &["card2", "tessera2", "card_2", "tessera_2"]),
    ("p2_club", &["club2", "circolo2", "club_2", "circolo_2"]),
];

const REQUIRED: &[&str] = &["p1_surname", "p1_name", "p2_surname", "p2_name"];

/// One bad line: its number in the file (1 = the header) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineProblem {
    pub line: usize,
    pub problems: Vec<FieldProblem>,
}

/// What the file would add.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Preview {
    pub pairs: Vec<(usize, PairEntry)>,
    pub bad_lines: Vec<LineProblem>,
}

impl Preview {
    pub fn is_clean(&self) -> bool {
        self.bad_lines.is_empty() && !self.pairs.is_empty()
    }
}

/// Splits one CSV line (RFC 4180 quoting, a chosen delimiter).
fn split_line(line: &str, delim: char) -> Result<Vec<String>, ()> {
    let mut out = Vec::new();
    let mut field = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    let mut at_start = true;
    while let Some(c) = chars.next() {
        if quoted {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    field.push('"');
                    chars.next();
                } else {
                    quoted = false;
                }
            } else {
                field.push(c);
            }
        } else if c == '"' && at_start {
            quoted = true;
            at_start = false;
        } else if c == delim {
            out.push(std::mem::take(&mut field));
            at_start = true;
        } else {
            field.push(c);
            if !c.is_whitespace() {
                at_start = false;
            }
        }
    }
    if quoted {
        return Err(());
    }
    out.push(field);
    Ok(out)
}

/// Reads a CSV text; `existing` are the pairs already registered (a player
/// may not appear twice in one tournament).
pub fn preview(text: &str, existing: &[PairEntry]) -> Result<Preview, FieldProblem> {
    let text = text.trim_start_matches('\u{feff}');
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((_, header)) = lines.next() else {
        return Err(FieldProblem::new("file", "import.error.empty"));
    };
    let delim = if header.matches(';').count() > header.matches(',').count() {
        ';'
    } else {
        ','
    };
    let names =
        split_line(header, delim).map_err(|_| FieldProblem::new("file", "import.error.header"))?;
    let mut index: Vec<(&'static str, usize)> = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let n = name.trim().to_lowercase().replace(' ', "");
        if let Some((field, _)) = COLUMNS
            .iter()
            .find(|(_, aliases)| aliases.contains(&n.as_str()))
        {
            index.push((field, i));
        }
    }
    for req in REQUIRED {
        if !index.iter().any(|(f, _)| f == req) {
            return Err(
                FieldProblem::new("file", "import.error.missing_column").with("column", req)
            );
        }
    }
    let mut out = Preview::default();
    let mut accepted: Vec<PairEntry> = existing.to_vec();
    for (i, line) in lines {
        let line_no = i + 1;
        if out.pairs.len() + out.bad_lines.len() >= MAX_LINES {
            return Err(FieldProblem::new("file", "import.error.too_many").with("max", MAX_LINES));
        }
        let Ok(cells) = split_line(line, delim) else {
            out.bad_lines.push(LineProblem {
                line: line_no,
                problems: vec![FieldProblem::new("file", "import.error.quotes")],
            });
            continue;
        };
        let get = |field: &str| {
            index
                .iter()
                .find(|(f, _)| *f == field)
                .and_then(|(_, i)| cells.get(*i))
                .cloned()
                .unwrap_or_default()
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
        assert_eq!(e.key, "import.error.missing_column");
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
}
