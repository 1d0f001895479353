//! Teams from a CSV file (issue 25): one player per line after a header
//! row, the team's name in its own column; a team is every line with the
//! same name (case and accents aside), its players in file order. The same
//! reading as the pairs' import ([`super::csv_import`]): UTF-8 or
//! Windows-1252, `;` `,` or TAB, headers in Italian or English
//! (`squadra;cognome;nome;tessera;circolo` or `team;surname;name;card;club`).
//! Nothing is imported while any line or team is bad: the preview lists
//! every problem with its line.

use super::csv_import::{read, LineProblem, Lines};
use super::pairs::{fold, Player};
use super::player_columns::{Columns, Header, PLAYER_COLUMNS, PLAYER_NEEDS};
use super::FieldProblem;

/// Players of a team: four to six (RULES.md §12).
pub const MIN_PLAYERS: usize = 4;
pub const MAX_PLAYERS: usize = 6;
/// The longest team name.
pub const MAX_TEAM_NAME: usize = 60;

/// The team's column and the words that name it in a header (a player's
/// columns are [`PLAYER_COLUMNS`]).
const TEAM_COLUMN: Columns = &[(
    "team",
    &["squadra", "nomesquadra", "team", "teamname", "squad"],
)];

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
    let header = Header::read(&header, &[TEAM_COLUMN, PLAYER_COLUMNS]);
    header.require(&[("team", "teams.import.missing_team")])?;
    header.require(PLAYER_NEEDS)?;
    let mut out = TeamPreview {
        ignored_columns: header.ignored.clone(),
        ..TeamPreview::default()
    };
    // Teams in the order of their first line; each player checked alone.
    let mut teams: Vec<(String, TeamLine)> = Vec::new();
    let lines = Lines::new(text);
    for record in records {
        let line = lines.of(&record);
        let team = header.get(&record, "team").trim().to_string();
        let mut problems = Vec::new();
        if team.is_empty() {
            problems.push(FieldProblem::new("team", "pairs.error.required"));
        } else if team.chars().count() > MAX_TEAM_NAME {
            problems.push(FieldProblem::new("team", "teams.import.name_long"));
        }
        let player = match header.player(&record) {
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
