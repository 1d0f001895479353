//! Players of an individual tournament from a CSV file (issue 35): one
//! player per line after a header row. The same reading as the pairs' and
//! teams' imports ([`super::csv_import`]): UTF-8 or Windows-1252, `;` `,`
//! or TAB, headers in Italian or English (`cognome;nome;tessera;circolo` or
//! `surname;name;card;club`). Nothing is imported while any line is bad:
//! the preview lists every problem with its line.

use super::csv_import::{read, LineProblem, Lines};
use super::pairs::Player;
use super::player_columns::{Header, PLAYER_COLUMNS, PLAYER_NEEDS};
use super::FieldProblem;

/// A player as the file gives it, with its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerLine {
    pub line: usize,
    pub player: Player,
}

/// What the file would add.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PlayerPreview {
    pub players: Vec<PlayerLine>,
    pub bad_lines: Vec<LineProblem>,
    /// Header cells this import does not read, as written.
    pub ignored_columns: Vec<String>,
}

impl PlayerPreview {
    pub fn is_clean(&self) -> bool {
        self.bad_lines.is_empty() && !self.players.is_empty()
    }
}

/// Reads a CSV text of players; `existing` are the players already
/// registered (nobody plays twice).
pub fn preview(text: &str, existing: &[Player]) -> Result<PlayerPreview, FieldProblem> {
    let text = text.trim_start_matches('\u{feff}');
    let (header, records) = read(text)?;
    let header = Header::read(&header, &[PLAYER_COLUMNS]);
    header.require(PLAYER_NEEDS)?;
    let mut out = PlayerPreview {
        ignored_columns: header.ignored.clone(),
        ..PlayerPreview::default()
    };
    let lines = Lines::new(text);
    for record in records {
        let line = lines.of(&record);
        match header.player(&record) {
            Ok(p) => {
                let taken = existing.iter().any(|q| q.same_person(&p))
                    || out.players.iter().any(|q| q.player.same_person(&p));
                if taken {
                    out.bad_lines.push(LineProblem {
                        line,
                        problems: vec![FieldProblem::new("file", "import.error.duplicate")
                            .with("player", p.full_name())],
                    });
                } else {
                    out.players.push(PlayerLine { line, player: p });
                }
            }
            Err(problems) => out.bad_lines.push(LineProblem { line, problems }),
        }
    }
    if out.players.is_empty() && out.bad_lines.is_empty() {
        return Err(FieldProblem::new("file", "individual.import.none"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "cognome;nome;tessera;circolo;note\n\
        Rossi;Maria;AB1;Circolo Sole;x\n\
        Bianchi;Luca;;;\n\
        Verdi;Anna;;;\n";

    #[test]
    fn one_player_per_line_in_file_order() {
        let p = preview(GOOD, &[]).unwrap();
        assert!(p.is_clean(), "{:?}", p.bad_lines);
        let names: Vec<String> = p.players.iter().map(|l| l.player.full_name()).collect();
        assert_eq!(names, ["Rossi Maria", "Bianchi Luca", "Verdi Anna"]);
        assert_eq!(p.players[0].line, 2);
        assert_eq!(p.players[0].player.card(), "AB1");
        assert_eq!(p.ignored_columns, ["note"]);
    }

    #[test]
    fn english_headers_and_commas() {
        let p = preview("surname,name,card,club\nRossi,Maria,,\n", &[]).unwrap();
        assert!(p.is_clean());
        assert_eq!(p.players.len(), 1);
    }

    #[test]
    fn a_player_twice_or_already_registered_is_a_bad_line() {
        let text = "cognome;nome\nRossi;Maria\nROSSI;maria\nBianchi;Luca\n";
        let p = preview(text, &[]).unwrap();
        assert!(!p.is_clean());
        assert_eq!(p.bad_lines.len(), 1);
        assert_eq!(p.bad_lines[0].line, 3);
        let existing = [p.players[1].player.clone()];
        let again = preview("cognome;nome\nBianchi;Luca\n", &existing).unwrap();
        assert_eq!(again.bad_lines.len(), 1);
        assert!(again.players.is_empty());
    }

    #[test]
    fn a_missing_name_is_a_bad_line_and_no_surname_column_refuses_the_file() {
        let p = preview("cognome;nome\nRossi;\n", &[]).unwrap();
        assert_eq!(p.bad_lines[0].line, 2);
        assert!(preview("nome;tessera\nMaria;1\n", &[]).is_err());
    }
}
