//! The pairs part of the validator: two players a pair, tables of two
//! pairs, a penalty's table where the pair sat. Everything else is the
//! shared skeleton's.

use super::groups::{check_groups, check_round_groups, group_of, GroupOf};
use super::problem::{At, FileProblem, ProblemCode};
use super::settings::{tiers_of, Settings, MAX_PAIRS};
use super::skeleton::{check_penalty_table, EntrantNames, KindChecks, RoundChecks, Seats};
use super::valid::{validate_file, ValidFile};
use crate::rules::prize_pool::PayoutTier;
use crate::tournament_file::{PairFile, PenaltyFile, RoundFile, TournamentFile};

/// Checks everything but the score sheets' rules. All problems are listed,
/// in document order (settings, pairs, rounds, penalties).
pub fn validate(file: &TournamentFile) -> Result<ValidFile<'_>, Vec<FileProblem>> {
    validate_file(file)
}

/// The payout tiers as the prize engine takes them.
pub fn payout_tiers(file: &TournamentFile) -> Vec<PayoutTier> {
    tiers_of(&file.payout)
}

/// True when the pool is certainly zero (no fee share and no guarantee): a
/// tournament without prizes may then leave `payout` empty.
pub fn pool_is_zero(file: &TournamentFile) -> bool {
    file.settings().pool_is_zero()
}

impl KindChecks for TournamentFile {
    /// The table the pair sits at (0 for a bye).
    type Seat = u32;
    type Own = ();
    type RoundState<'f> = GroupOf<'f>;

    const NAMES: EntrantNames = EntrantNames {
        list: "pairs",
        one: "pair",
        max: MAX_PAIRS,
        too_many: ProblemCode::TooManyPairs,
        number_duplicate: ProblemCode::PairNumberDuplicate,
        unknown: ProblemCode::PairUnknown,
        seated_twice: ProblemCode::PairSeatedTwice,
        withdrawn_seated: ProblemCode::PairWithdrawnSeated,
        no_show: ProblemCode::PairNoShow,
        penalty_unknown: ProblemCode::PenaltyPairUnknown,
        penalty_table_mismatch: ProblemCode::PenaltyTableMismatch,
        penalty_not_seated: ProblemCode::PenaltyMpNotSeated,
    };
    const RESTS: u32 = 0;

    fn settings(&self) -> Settings<'_> {
        Settings {
            mitchell_advance: self.mitchell_advance,
            ..self.common_settings()
        }
    }

    fn check_own_settings(&self, _bye_vp: Option<u8>, out: &mut Vec<FileProblem>) -> Option<()> {
        check_groups(self, out);
        Some(())
    }

    fn check_entrant(at: &At<'_>, pair: &PairFile, out: &mut Vec<FileProblem>) {
        if pair.players.len() != 2 {
            out.push(
                FileProblem::new(format!("{at}.players"), ProblemCode::PlayersCount)
                    .with("count", pair.players.len()),
            );
        }
    }

    fn round_state(&self) -> GroupOf<'_> {
        group_of(self)
    }

    fn check_round<'f>(
        &'f self,
        checks: &mut RoundChecks<'_, Self>,
        state: &mut GroupOf<'f>,
        round: &'f RoundFile,
        out: &mut Vec<FileProblem>,
    ) {
        check_round_groups(self, state, checks.index(), round, out);
        let at = At::root("rounds", checks.index());
        for (j, table) in round.tables.iter().enumerate() {
            let tat = at.item("tables", j);
            checks.table_number(&tat, table.table, out);
            checks.seat(tat.field("ns"), table.ns, table.table, out);
            checks.seat(tat.field("ew"), table.ew, table.table, out);
            checks.table_score(&tat, table.sheet.as_ref(), table.adjusted.as_ref(), out);
        }
    }

    fn check_penalty_place(
        &self,
        at: &At<'_>,
        p: &PenaltyFile,
        place: Option<(usize, usize)>,
        seats: &Seats<u32>,
        out: &mut Vec<FileProblem>,
    ) {
        check_penalty_table::<Self>(at, p, p.table, place, seats, out);
    }
}
