//! Teams from a CSV file (issue 25): one player per line after a header
//! row, the team's name in its own column; a team is every line with the
//! same name (case and accents aside), its players in file order. The same
//! reading as the pairs' import ([`super::csv_import`]): UTF-8 or
//! Windows-1252, `;` `,` or TAB, headers in Italian or English
//! (`squadra;cognome;nome;tessera;circolo` or `team;surname;name;card;club`).
//! Nothing is imported while any line or team is bad: the preview lists
//! every problem with its line.

use super::csv_import::{header_word, read, LineProblem, Lines};
use super::pairs::{fold, Player, PlayerForm};
use super::FieldProblem;

/// Players of a team: four to six (RULES.md §12).
pub const MIN_PLAYERS: usize = 4;
pub const MAX_PLAYERS: usize = 6;
/// The longest team name.
pub const MAX_TEAM_NAME: usize = 60;

/// The columns and the words that name them in a header.
const COLUMNS: &[(&str, &[&str])] = &[
    (
        "team",
        &["squadra", "nomesquadra", "team", "teamname", "squad"],
    ),
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

/// A team as the file gives it: the line of its first player, its name,
/// its players.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamLine {
    pub line: usize,
    pub name: String,
    pub players: Vec<Player>,
}

/// What the file would add.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TeamPreview {
    pub teams: Vec<TeamLine>,
    pub bad_lines: Vec<LineProblem>,
    /// Header cells this import does not read, as written.
    pub ignored_columns: Vec<String>,
}

impl TeamPreview {
    pub fn is_clean(&self) -> bool {
        self.bad_lines.is_empty() && !self.teams.is_empty()
    }
}

/// Reads a CSV text of teams; `existing` are the players of the teams
/// already registered (a player plays for one team).
pub fn preview(text: &str, existing: &[Player]) -> Result<TeamPreview, FieldProblem> {
    let text = text.trim_start_matches('\u{feff}');
    let (header, records) = read(text)?;
    let mut index: Vec<(&'static str, usize)> = Vec::new();
    let mut out = TeamPreview::default();
    for (i, cell) in header.iter().enumerate() {
        let word = header_word(cell);
        match COLUMNS
            .iter()
            .find(|(_, words)| words.contains(&word.as_str()))
        {
            Some((col, _)) if !index.iter().any(|(c, _)| c == col) => index.push((col, i)),
            Some(_) => {}
            None if !cell.trim().is_empty() => out.ignored_columns.push(cell.trim().to_string()),
            None => {}
        }
    }
    for (col, key) in [
        ("team", "teams.import.missing_team"),
        ("surname", "teams.import.missing_surname"),
        ("name", "teams.import.missing_name"),
    ] {
        if !index.iter().any(|(c, _)| *c == col) {
            return Err(FieldProblem::new("file", key));
        }
    }
    // Teams in the order of their first line; each player checked alone.
    let mut teams: Vec<(String, TeamLine)> = Vec::new();
    let lines = Lines::new(text);
    for record in records {
        let line = lines.of(&record);
        let get = |col: &str| {
            index
                .iter()
                .find(|(c, _)| *c == col)
                .and_then(|(_, i)| record.get(*i))
                .unwrap_or_default()
                .to_string()
        };
        let team = get("team").trim().to_string();
        let mut problems = Vec::new();
        if team.is_empty() {
            problems.push(FieldProblem::new("team", "pairs.error.required"));
        } else if team.chars().count() > MAX_TEAM_NAME {
            problems.push(FieldProblem::new("team", "teams.import.name_long"));
        }
        let form = PlayerForm {
            surname: get("surname"),
            name: get("name"),
            card: get("card"),
            club: get("club"),
        };
        let player = match Player::parse(&form, ["surname", "name", "card", "club"]) {
            Ok(p) => Some(p),
            Err(mut e) => {
                problems.append(&mut e);
                None
            }
        };
        if let Some(p) = &player {
            let taken = existing.iter().any(|q| q.same_person(p))
                || teams
                    .iter()
                    .any(|(_, t)| t.players.iter().any(|q| q.same_person(p)));
            if taken {
                problems.push(
                    FieldProblem::new("file", "import.error.duplicate")
                        .with("player", p.full_name()),
                );
            }
        }
        match (player, problems.is_empty()) {
            (Some(p), true) => {
                let key = fold(&team);
                match teams.iter_mut().find(|(k, _)| *k == key) {
                    Some((_, t)) => t.players.push(p),
                    None => teams.push((
                        key,
                        TeamLine {
                            line,
                            name: team,
                            players: vec![p],
                        },
                    )),
                }
            }
            _ => out.bad_lines.push(LineProblem { line, problems }),
        }
    }
    for (_, t) in teams {
        if (MIN_PLAYERS..=MAX_PLAYERS).contains(&t.players.len()) {
            out.teams.push(t);
        } else {
            out.bad_lines.push(LineProblem {
                line: t.line,
                problems: vec![FieldProblem::new("file", "teams.import.size")
                    .with("team", &t.name)
                    .with("players", t.players.len())],
            });
        }
    }
    out.bad_lines.sort_by_key(|b| b.line);
    if out.teams.is_empty() && out.bad_lines.is_empty() {
        return Err(FieldProblem::new("file", "teams.import.none"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "squadra;cognome;nome;tessera;circolo\n\
        Sole;Rossi;Maria;AB1;Circolo Sole\n\
        Sole;Bianchi;Luca;;\n\
        Luna;Verdi;Anna;;\n\
        Sole;Neri;Paolo;;\n\
        Luna;Gialli;Ugo;;\n\
        SOLE;Blu;Ada;;\n\
        Luna;Rosa;Eva;;\n\
        Luna;Viola;Ivo;;\n";

    #[test]
    fn one_player_per_line_grouped_by_team_name() {
        let p = preview(GOOD, &[]).unwrap();
        assert!(p.is_clean(), "{:?}", p.bad_lines);
        assert_eq!(p.teams.len(), 2);
        assert_eq!(p.teams[0].name, "Sole");
        assert_eq!(p.teams[0].line, 2);
        let sole: Vec<&str> = p.teams[0].players.iter().map(|x| x.surname()).collect();
        assert_eq!(sole, ["Rossi", "Bianchi", "Neri", "Blu"]);
        assert_eq!(p.teams[0].players[0].card(), "AB1");
        assert_eq!(p.teams[1].players.len(), 4);
    }

    #[test]
    fn english_headers_and_commas() {
        let text = "Team,Surname,Name\nA,W,X\nA,Y,Z\nA,K,L\nA,M,N\n";
        let p = preview(text, &[]).unwrap();
        assert!(p.is_clean());
        assert_eq!(p.teams[0].players.len(), 4);
    }

    #[test]
    fn a_team_of_three_a_player_twice_and_a_missing_name_are_listed() {
        let text = "squadra;cognome;nome\n\
            Tre;A;B\nTre;C;D\nTre;E;F\n\
            Quattro;G;H\nQuattro;I;J\nQuattro;K;L\nQuattro;A;B\n\
            Cinque;;X\n";
        let p = preview(text, &[]).unwrap();
        assert!(!p.is_clean());
        let lines: Vec<(usize, &str)> = p
            .bad_lines
            .iter()
            .map(|b| (b.line, b.problems[0].key.as_str()))
            .collect();
        assert_eq!(
            lines,
            [
                (2, "teams.import.size"),
                // Quattro is short once its duplicate is left out.
                (5, "teams.import.size"),
                (8, "import.error.duplicate"),
                (9, "pairs.error.required"),
            ]
        );
    }

    #[test]
    fn a_player_of_a_registered_team_is_refused() {
        let taken = Player::from_stored("Rossi", "Maria", "", "");
        let p = preview(GOOD, &[taken]).unwrap();
        assert_eq!(p.bad_lines[0].line, 2);
        assert_eq!(p.bad_lines[0].problems[0].key, "import.error.duplicate");
    }

    #[test]
    fn a_header_without_the_team_column_is_refused() {
        let e = preview("cognome;nome\nA;B\n", &[]).unwrap_err();
        assert_eq!(e.key, "teams.import.missing_team");
        assert_eq!(preview("", &[]).unwrap_err().key, "import.error.empty");
    }
}
