//! The next round of an individual file (FORMAT.md `burraco-td
//! next-round`, RULES.md §14), as the director's button seats it.
//!
//! - Round, plan and completeness as for pairs: the plan's length
//!   (`movements`, else `planned_rounds`), and no round while a table of
//!   the last round has no result.
//! - Round 1: the random draw ([`individual_draw`], `--seed`) of every
//!   player not marked `no_show` or withdrawn.
//! - Later rounds: Danish ([`individual_danish_round`]) over the active
//!   players in standings order (shared places in player-number order, as
//!   the standings list them), with the previous round's partners and the
//!   rests so far from the file. A `draw` planned after round 1 is seated
//!   as Danish too: only the first round is drawn (RULES.md §14).

use super::error::NextRoundError;
use crate::i18n::Lang;
use crate::movement::individual::{
    individual_danish_round, individual_draw, individual_entries_from_history, FourSeat,
    IndividualRound, PlayerNo,
};
use crate::standings::{compute_individual, StandingsError};
use crate::tournament_file::{
    validate_individual, IndividualMovementKind, IndividualPlayerFile, IndividualRoundFile,
    IndividualTableFile, IndividualTournamentFile,
};
use serde::Serialize;

/// The next round of an individual file: a round of the file (no results).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NextIndividualRound {
    #[serde(flatten)]
    pub round: IndividualRoundFile,
}

/// The round the program would seat next for an individual `file` (see
/// the module doc); `seed` is used only by the first draw.
pub fn next_individual_round(
    file: &IndividualTournamentFile,
    seed: u64,
) -> Result<NextIndividualRound, NextRoundError> {
    let valid = validate_individual(file).map_err(StandingsError::Invalid)?;
    let (n, _) =
        super::plan::next_of(&file.rounds, file.movements.as_deref(), file.planned_rounds)?;
    let active: Vec<PlayerNo> = file
        .players
        .iter()
        .filter(|p| plays_in(p, n))
        .map(|p| p.number)
        .collect();
    let (movement, round) = if file.rounds.is_empty() {
        let mut drawn = individual_draw(&active, seed)?;
        drawn.round = n;
        (IndividualMovementKind::Draw, drawn)
    } else {
        let standings = compute_individual(&valid, Lang::En)?;
        let ranking: Vec<PlayerNo> = standings
            .rows
            .iter()
            .map(|r| r.number)
            .filter(|p| active.contains(p))
            .collect();
        let history: Vec<IndividualRound> = file.rounds.iter().map(seating_of).collect();
        let entries = individual_entries_from_history(&ranking, &history);
        (
            IndividualMovementKind::Danish,
            individual_danish_round(n, &entries)?,
        )
    };
    Ok(NextIndividualRound {
        round: IndividualRoundFile {
            number: n,
            movement: Some(movement),
            tables: round
                .tables
                .iter()
                .map(|t| IndividualTableFile {
                    table: t.table,
                    ns: t.ns,
                    ew: t.ew,
                    sheet: None,
                    adjusted: None,
                })
                .collect(),
            byes: round.byes,
        },
    })
}

/// The player plays round `n`: an entry not withdrawn by then.
fn plays_in(p: &IndividualPlayerFile, n: u32) -> bool {
    p.is_entry() && p.withdrawn_from_round.is_none_or(|w| w > n)
}

/// A round of the file as the movement reads it.
pub(crate) fn seating_of(round: &IndividualRoundFile) -> IndividualRound {
    IndividualRound {
        round: round.number,
        tables: round
            .tables
            .iter()
            .map(|t| FourSeat {
                table: t.table,
                ns: t.ns,
                ew: t.ew,
            })
            .collect(),
        byes: round.byes.clone(),
    }
}
