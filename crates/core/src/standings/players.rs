//! Individual players as entrants (RULES.md §14): a table is scored as a
//! pairs table ([`score_lines`]) and both players of a line get that line's
//! VP, MP difference and MP. What is theirs: the player card's round (the
//! pair card's, plus the partner and the two opponents) and that mapping.
//! Everything else — byes, penalties per player, head-to-head of two
//! players who sat as opponents, shared places, prizes per player — is
//! the engine's.
//!
//! Penalties name a player: an `mp` penalty reduces the MP of that
//! player's line in that round before the VP conversion (the partner
//! shares the line's result; the MP penalties of both partners add up), a
//! `vp` penalty and the automatic −1 VP of every second warning come off
//! the named player's total only.

use super::kind::{field_of, Field, Kind, Ledger, RoundCard};
use super::pairs::{score_lines, CardRound, TableScore};
use super::{CardPenalty, Standings, StandingsError};
use crate::i18n::Lang;
use crate::rules::score_sheet::Line;
use crate::tournament_file::{validate_individual, IndividualTournamentFile, ValidIndividualFile};
use rust_decimal::Decimal;
use serde::Serialize;

/// An individual player: the entrant of an individual tournament.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Individual;

/// The standings of an individual tournament.
pub type PlayerStandings = Standings<Individual>;

/// A player's card.
pub type PlayerCard = super::Card<Individual>;

/// One round on a player's card: the line's round as a pair card shows it
/// (`opponent` is always null: the opponents are two), the partner and the
/// two opponents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PlayerCardRound {
    #[serde(flatten)]
    pub line: CardRound,
    /// The partner that round (`None` when resting or absent).
    pub partner: Option<u32>,
    /// The two players of the other line (empty when resting or absent).
    pub opponents: Vec<u32>,
}

impl RoundCard for PlayerCardRound {
    fn absent(round: u32) -> PlayerCardRound {
        PlayerCardRound {
            line: CardRound::absent(round),
            partner: None,
            opponents: Vec::new(),
        }
    }

    fn rest(&mut self, vp: i64, mp_diff: i64) {
        self.line.rest(vp, mp_diff);
    }

    fn vp(&self) -> Option<i64> {
        self.line.vp()
    }

    /// A scored round against `other` as one of the two opponents.
    fn met(&self, other: u32) -> Option<(i64, i64)> {
        if !self.opponents.contains(&other) {
            return None;
        }
        self.line.met_any()
    }

    fn mp_counts(&self, table: Option<u32>) -> bool {
        self.line.mp_counts(table)
    }

    fn penalty_vp_mut(&mut self) -> &mut i64 {
        self.line.penalty_vp_mut()
    }

    fn penalties_mut(&mut self) -> &mut Vec<CardPenalty> {
        self.line.penalties_mut()
    }
}

impl Kind for Individual {
    type File = IndividualTournamentFile;
    type Valid<'a> = ValidIndividualFile<'a>;
    type Round = PlayerCardRound;
    type Split = [Decimal; 1];
    type Extra = ();

    const FIELD: &'static str = "player";
    const TIE_NOTE: (&'static str, &'static str) = (
        "file.standings.player_head_to_head_won",
        "file.standings.player_head_to_head_lost",
    );
    const SHEET_PLACE: &'static str = "file.standings.player_sheet_place";

    fn validate(
        file: &IndividualTournamentFile,
    ) -> Result<ValidIndividualFile<'_>, StandingsError> {
        validate_individual(file).map_err(StandingsError::Invalid)
    }

    fn field<'v>(valid: &'v ValidIndividualFile<'_>) -> Field<'v> {
        let file: &'v IndividualTournamentFile = valid.file();
        field_of!(
            file,
            players,
            |e| 1,
            player,
            i64::from(valid.bye_vp()),
            valid.bye_mp_diff()
        )
    }

    /// Each player of a line gets the line's result (RULES.md §14); a
    /// line's MP penalty is its two players' together.
    fn score(valid: &ValidIndividualFile<'_>, ledger: &mut Ledger<'_, Individual>) {
        for (r, round) in valid.file().rounds.iter().enumerate() {
            for table in &round.tables {
                let lines = [table.ns, table.ew];
                if !lines.iter().flatten().all(|&p| ledger.is_entry(p)) {
                    continue;
                }
                for (line, own, other) in [
                    (Line::Ns, table.ns, table.ew),
                    (Line::Ew, table.ew, table.ns),
                ] {
                    for (player, partner) in [(own[0], own[1]), (own[1], own[0])] {
                        if let Some(c) = ledger.card(r, player) {
                            c.line.seat(table.table, line, None);
                            c.partner = Some(partner);
                            c.opponents = other.to_vec();
                        }
                    }
                }
                let pen = lines.map(|line| {
                    line.iter().fold(0i64, |sum, &p| {
                        sum.saturating_add(ledger.mp_penalty(round.number, p, None))
                    })
                });
                let score = TableScore {
                    table: table.table,
                    ns: table.ns[0],
                    ew: table.ew[0],
                    partners: Some([table.ns[1], table.ew[1]]),
                    sheet: table.sheet.as_ref(),
                    adjusted: table.adjusted.as_ref(),
                };
                let Some(results) = score_lines(valid, ledger, round.number, score, pen) else {
                    continue;
                };
                for (line, l) in lines.iter().zip(&results) {
                    for &player in line {
                        ledger.credit(player, l.vp, l.mp_diff, l.mp.map_or(0, |m| m.0));
                        if let Some(c) = ledger.card(r, player) {
                            c.line.score(l);
                        }
                    }
                }
            }
        }
    }

    /// The prize goes to the player.
    fn split(amount: Decimal, _two_way: [Decimal; 2], _players: usize) -> [Decimal; 1] {
        [amount]
    }
}

/// Validates, then computes the standings, the player cards and the prizes
/// of an individual tournament.
pub fn compute_individual_file(
    file: &IndividualTournamentFile,
    lang: Lang,
) -> Result<PlayerStandings, StandingsError> {
    super::engine::compute_file::<Individual>(file, lang)
}

/// Computes the standings, the player cards and the prizes of a valid
/// individual file.
pub fn compute_individual(
    valid: &ValidIndividualFile<'_>,
    lang: Lang,
) -> Result<PlayerStandings, StandingsError> {
    super::engine::compute::<Individual>(valid, lang)
}
