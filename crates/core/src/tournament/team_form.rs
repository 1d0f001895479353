//! A team as typed (the director's form, the API, the public entry form):
//! a name and four to six players (RULES.md §12), the first four required.

use super::pairs::{Player, PlayerForm};
use super::team_csv::{MAX_PLAYERS, MAX_TEAM_NAME, MIN_PLAYERS};
use super::FieldProblem;

/// The team form: a name and up to six players (the first four required).
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default)]
pub struct TeamForm {
    pub name: String,
    pub players: Vec<PlayerForm>,
}

/// The form names of player `i`'s fields.
pub fn player_fields(i: usize) -> [&'static str; 4] {
    const F: [[&str; 4]; MAX_PLAYERS] = [
        ["p1_surname", "p1_name", "p1_card", "p1_club"],
        ["p2_surname", "p2_name", "p2_card", "p2_club"],
        ["p3_surname", "p3_name", "p3_card", "p3_club"],
        ["p4_surname", "p4_name", "p4_card", "p4_club"],
        ["p5_surname", "p5_name", "p5_card", "p5_club"],
        ["p6_surname", "p6_name", "p6_card", "p6_club"],
    ];
    F[i.min(MAX_PLAYERS - 1)]
}

/// A valid team: a name, four to six players, nobody twice.
pub fn parse_team(f: &TeamForm) -> Result<(String, Vec<Player>), Vec<FieldProblem>> {
    let mut problems = Vec::new();
    let name = match super::text::clean_line("name", &f.name, MAX_TEAM_NAME) {
        Ok(n) if n.is_empty() => {
            problems.push(FieldProblem::new("name", "pairs.error.required"));
            n
        }
        Ok(n) => n,
        Err(e) => {
            problems.push(e);
            String::new()
        }
    };
    let mut players: Vec<Player> = Vec::new();
    for (i, p) in f.players.iter().enumerate().take(MAX_PLAYERS) {
        let blank = [&p.surname, &p.name, &p.card, &p.club]
            .iter()
            .all(|s| s.trim().is_empty());
        // Players 5 and 6 are optional: a blank row is nobody.
        if blank && i >= MIN_PLAYERS {
            continue;
        }
        match Player::parse(p, player_fields(i)) {
            Ok(player) => {
                if players.iter().any(|q| q.same_person(&player)) {
                    problems.push(FieldProblem::new(
                        player_fields(i)[0],
                        "teams.error.player_twice",
                    ));
                }
                players.push(player);
            }
            Err(mut e) => problems.append(&mut e),
        }
    }
    if f.players.len() < MIN_PLAYERS {
        for i in f.players.len()..MIN_PLAYERS {
            problems.push(FieldProblem::new(
                player_fields(i)[0],
                "pairs.error.required",
            ));
        }
    }
    if f.players.len() > MAX_PLAYERS {
        problems.push(FieldProblem::new("players", "teams.error.too_many_players"));
    }
    if problems.is_empty() {
        Ok((name, players))
    } else {
        Err(problems)
    }
}
