//! The individual part of the validator (RULES.md §14): a player is one
//! player (its names at its own place, `players[3].surname`), a table seats
//! two players a line (each checked at `rounds[0].tables[2].ns[1]`), a
//! penalty names a player and its table is the player's. Everything else
//! is the shared skeleton's.

use super::problem::{At, FileProblem, ProblemCode};
use super::settings::Settings;
use super::skeleton::{
    check_penalty_table, check_player, EntrantNames, KindChecks, RoundChecks, Seats,
};
use super::valid::{validate_file, Valid};
use crate::tournament_file::{
    IndividualPenaltyFile, IndividualPlayerFile, IndividualRoundFile, IndividualTournamentFile,
};

/// Most players in an individual tournament file (as many as the pairs of
/// a pairs file hold).
pub const MAX_PLAYERS: usize = 2 * super::settings::MAX_PAIRS;

/// An individual file that passed [`validate_individual`].
pub type ValidIndividualFile<'a> = Valid<'a, IndividualTournamentFile>;

impl ValidIndividualFile<'_> {
    /// Index in `file().players` of a player number.
    pub fn player_index(&self, number: u32) -> Option<usize> {
        self.entrant_index(number)
    }
}

/// Checks an individual tournament: everything but the score sheets' rules
/// (the standings' job). All problems are listed, in document order
/// (settings, players, rounds, penalties).
pub fn validate_individual(
    file: &IndividualTournamentFile,
) -> Result<ValidIndividualFile<'_>, Vec<FileProblem>> {
    validate_file(file)
}

impl KindChecks for IndividualTournamentFile {
    /// The table the player sits at (0 when resting).
    type Seat = u32;
    type Own = ();
    type RoundState<'f> = ();

    const NAMES: EntrantNames = EntrantNames {
        list: "players",
        one: "player",
        max: MAX_PLAYERS,
        too_many: ProblemCode::TooManyPlayers,
        number_duplicate: ProblemCode::PlayerNumberDuplicate,
        unknown: ProblemCode::PlayerUnknown,
        seated_twice: ProblemCode::PlayerAlreadySeated,
        withdrawn_seated: ProblemCode::PlayerWithdrawnSeated,
        no_show: ProblemCode::PlayerNoShow,
        penalty_unknown: ProblemCode::PenaltyPlayerUnknown,
        penalty_table_mismatch: ProblemCode::PenaltyPlayerTableMismatch,
        penalty_not_seated: ProblemCode::PenaltyPlayerMpNotSeated,
    };
    const RESTS: u32 = 0;

    fn settings(&self) -> Settings<'_> {
        self.common_settings()
    }

    fn check_own_settings(&self, _bye_vp: Option<u8>, _out: &mut Vec<FileProblem>) -> Option<()> {
        Some(())
    }

    fn check_entrant(_at: &At<'_>, _player: &IndividualPlayerFile, _out: &mut Vec<FileProblem>) {}

    /// The player's names are the entrant's own fields.
    fn check_entrant_players(
        at: &At<'_>,
        player: &IndividualPlayerFile,
        out: &mut Vec<FileProblem>,
    ) {
        check_player(at, &player.player, out);
    }

    fn round_state(&self) {}

    fn check_round<'f>(
        &'f self,
        checks: &mut RoundChecks<'_, Self>,
        _state: &mut (),
        round: &'f IndividualRoundFile,
        out: &mut Vec<FileProblem>,
    ) {
        let at = At::root("rounds", checks.index());
        for (j, table) in round.tables.iter().enumerate() {
            let tat = at.item("tables", j);
            checks.table_number(&tat, table.table, out);
            for (name, line) in [("ns", table.ns), ("ew", table.ew)] {
                for (k, player) in line.into_iter().enumerate() {
                    checks.seat(tat.item(name, k), player, table.table, out);
                }
            }
            checks.table_score(&tat, table.sheet.as_ref(), table.adjusted.as_ref(), out);
        }
    }

    fn check_penalty_place(
        &self,
        at: &At<'_>,
        p: &IndividualPenaltyFile,
        place: Option<(usize, usize)>,
        seats: &Seats<u32>,
        out: &mut Vec<FileProblem>,
    ) {
        check_penalty_table::<Self>(at, p, p.table, place, seats, out);
    }
}
