//! The seating of an individual round as the hall reads it (RULES.md §14:
//! partners change every round, so there are no movement cards): by table
//! (the four players, two a line) and by player name (table, line and
//! partner), with the players resting.

use super::loaded::{ensure_individual, load_ind};
use super::rounds::file_of_loaded;
use crate::db::Db;
use crate::ids::TournamentId;
use crate::services::{read_rows, Actor, Need, ServiceError};
use crate::tournament_file::{IndividualMovementKind, IndividualTournamentFile};

/// A player as a seating list names them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named {
    pub number: u32,
    /// "Rossi Maria".
    pub name: String,
}

/// One table: two players a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatedTable {
    pub table: u32,
    pub ns: [Named; 2],
    pub ew: [Named; 2],
}

/// One player's seat that round (`table` `None`: resting).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerSeat {
    pub player: Named,
    pub table: Option<u32>,
    /// `NS` or `EW` (empty when resting).
    pub line: &'static str,
    pub partner: Option<Named>,
}

/// The seating of round `number`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundSeating {
    pub number: u32,
    pub drawn: bool,
    pub tables: Vec<SeatedTable>,
    pub resting: Vec<Named>,
    /// Every player of the round, by surname and name.
    pub by_name: Vec<PlayerSeat>,
    /// The rounds seated so far (for the links between them).
    pub rounds: Vec<u32>,
}

/// The seating of round `n` of an individual file, or `None` when the
/// file has no such round.
pub fn seating_of_file(f: &IndividualTournamentFile, n: u32) -> Option<RoundSeating> {
    let round = f.rounds.iter().find(|r| r.number == n)?;
    let named = |number: u32| Named {
        number,
        name: f
            .players
            .iter()
            .find(|p| p.number == number)
            .map(|p| format!("{} {}", p.player.surname, p.player.name))
            .unwrap_or_else(|| number.to_string()),
    };
    let tables: Vec<SeatedTable> = round
        .tables
        .iter()
        .map(|t| SeatedTable {
            table: t.table,
            ns: t.ns.map(named),
            ew: t.ew.map(named),
        })
        .collect();
    let mut by_name: Vec<PlayerSeat> = Vec::new();
    for t in &round.tables {
        for (line, [a, b]) in [("NS", t.ns), ("EW", t.ew)] {
            for (me, partner) in [(a, b), (b, a)] {
                by_name.push(PlayerSeat {
                    player: named(me),
                    table: Some(t.table),
                    line,
                    partner: Some(named(partner)),
                });
            }
        }
    }
    for &p in &round.byes {
        by_name.push(PlayerSeat {
            player: named(p),
            table: None,
            line: "",
            partner: None,
        });
    }
    by_name.sort_by_cached_key(|s| {
        (
            crate::tournament::pairs::fold(&s.player.name),
            s.player.number,
        )
    });
    Some(RoundSeating {
        number: n,
        drawn: round.movement == Some(IndividualMovementKind::Draw),
        tables,
        resting: round.byes.iter().map(|&p| named(p)).collect(),
        by_name,
        rounds: f.rounds.iter().map(|r| r.number).collect(),
    })
}

/// The seating of round `n` (staff: directors and referees).
pub async fn round_seating(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    n: u32,
) -> Result<(String, RoundSeating), ServiceError> {
    db.read(move |c| {
        let rows = read_rows(c, &actor, tid, Need::Referee)?;
        let t = load_ind(c, rows)?;
        ensure_individual(&t)?;
        let file = file_of_loaded(c, &t, chrono_tz::UTC)?;
        let seating = seating_of_file(&file, n).ok_or(ServiceError::NotFound)?;
        Ok((t.l.t.name.clone(), seating))
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament_file::{
        IndividualPlayerFile, IndividualRoundFile, IndividualTableFile, Player,
    };

    fn file() -> IndividualTournamentFile {
        let mut f = IndividualTournamentFile::new(
            "Individuale",
            chrono::NaiveDate::from_ymd_opt(2026, 11, 20).unwrap_or_default(),
        );
        let surnames = [
            "Zeta", "Bianchi", "Rossi", "Verdi", "Neri", "Gialli", "Alfa", "Blu", "Rosa",
        ];
        f.players = (1..=9u32)
            .map(|n| IndividualPlayerFile {
                number: n,
                player: Player {
                    surname: surnames[n as usize - 1].into(),
                    name: "Anna".into(),
                    card: None,
                    club: None,
                },
                checked_in: Some(true),
                withdrawn_from_round: None,
                no_show: false,
            })
            .collect();
        let table = |table, ns, ew| IndividualTableFile {
            table,
            ns,
            ew,
            sheet: None,
            adjusted: None,
        };
        f.rounds.push(IndividualRoundFile {
            number: 1,
            movement: Some(IndividualMovementKind::Draw),
            tables: vec![table(1, [3, 7], [1, 9]), table(2, [2, 5], [4, 6])],
            byes: vec![8],
        });
        f
    }

    #[test]
    fn by_table_and_by_name_with_partners_and_rests() {
        let s = seating_of_file(&file(), 1).unwrap();
        assert!(s.drawn);
        assert_eq!(s.tables[0].ns[1].number, 7);
        assert_eq!(s.tables[0].ns[1].name, "Alfa Anna");
        assert_eq!(s.resting[0].number, 8);
        assert_eq!(s.by_name.len(), 9);
        assert_eq!(s.by_name[0].player.name, "Alfa Anna");
        let seven = &s.by_name[0];
        assert_eq!((seven.table, seven.line), (Some(1), "NS"));
        assert_eq!(seven.partner.as_ref().unwrap().number, 3);
        let eight = s.by_name.iter().find(|p| p.player.number == 8).unwrap();
        assert_eq!((eight.table, eight.partner.is_none()), (None, true));
        assert!(seating_of_file(&file(), 2).is_none());
    }
}
