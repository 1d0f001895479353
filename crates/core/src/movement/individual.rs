//! Individual tournaments (RULES.md §14): four players a table, two
//! against two, partners changing every round.
//!
//! - [`individual_draw`]: the random first round — partners, tables and
//!   lines — seeded and reproducible, with the draw's random source
//!   ([`super::draw`]).
//! - [`individual_danish_round`]: the Danish round. The active players in
//!   standings order are taken four at a time, a, b, c, d: a + b against
//!   c + d, unless a and b, or c and d, were partners in the previous
//!   round; then a + c against b + d, unless one of those is a repeat too;
//!   then a + d against b + c. Previous partnerships pair each player with
//!   at most one other, so among four players at most two of them exist,
//!   each in one of the three seatings: one seating is always free. The
//!   side with a sits NS; tables are numbered in that order.
//! - Resting players: when the active players are not a multiple of 4,
//!   the remainder (1–3) rests, chosen one at a time as the lowest-ranked
//!   among those with the fewest rests so far — the first of the Danish
//!   toolkit's [`bye_order`]. They score the bye award (RULES.md §7: 14 VP
//!   and the band's lower edge as MP difference; the standings' job).
//!
//! Decisions where the rules are silent:
//! - The draw sorts the players first (the draw depends only on the set
//!   and the seed), shuffles them, rests the last 1–3 of the shuffled
//!   order and seats the others four at a time: the first two NS, the next
//!   two EW, tables 1, 2, ….
//! - A player's previous partner is the partner of the round with the
//!   highest number; after a rest (or when new) there is none, and a
//!   previous partner no longer active counts as none.
//! - The ranking given is a strict order: the caller breaks shared places
//!   by player number (RULES.md §14).

use super::draw::DrawRng;
use super::error::{catalog_message, check_entrants, params, NumberProblem};
use super::pairing::bye_order;
use super::seating::TableNo;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A player's number in the tournament (1, 2, …).
pub type PlayerNo = u32;

/// Fewest players a round seats: one table.
pub const MIN_PLAYERS: usize = 4;
/// Most players the engine accepts (as many as the pairs of a pairs
/// tournament hold).
pub const MAX_PLAYERS: usize = 2 * super::seating::MAX_PAIRS;

/// One table of an individual round: two players a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FourSeat {
    pub table: TableNo,
    pub ns: [PlayerNo; 2],
    pub ew: [PlayerNo; 2],
}

impl FourSeat {
    /// The partner of `player` at this table, if it sits here.
    pub fn partner_of(&self, player: PlayerNo) -> Option<PlayerNo> {
        [self.ns, self.ew]
            .into_iter()
            .find_map(|[a, b]| match player {
                p if p == a => Some(b),
                p if p == b => Some(a),
                _ => None,
            })
    }

    /// The four players, NS first.
    pub fn players(&self) -> [PlayerNo; 4] {
        let ([a, b], [c, d]) = (self.ns, self.ew);
        [a, b, c, d]
    }
}

/// The seating of one individual round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndividualRound {
    pub round: u32,
    /// In table order.
    pub tables: Vec<FourSeat>,
    /// The resting players, in the order they were chosen.
    pub byes: Vec<PlayerNo>,
}

impl IndividualRound {
    /// The partner of `player` this round (`None` when resting or absent).
    pub fn partner_of(&self, player: PlayerNo) -> Option<PlayerNo> {
        self.tables.iter().find_map(|t| t.partner_of(player))
    }

    /// Whether `player` rests this round.
    pub fn rests(&self, player: PlayerNo) -> bool {
        self.byes.contains(&player)
    }
}

/// One active player in the ranking given to [`individual_danish_round`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct IndividualEntry {
    pub player: PlayerNo,
    /// The partner in the previous round (`None` after a rest or if new).
    pub prev_partner: Option<PlayerNo>,
    /// Rounds rested so far.
    pub rests: u32,
}

/// Why an individual round cannot be made (catalog key
/// `movement.individual_error.<CODE>`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IndividualMovementError {
    #[error("{players} players are too few: at least {min} are needed")]
    TooFewPlayers { players: usize, min: usize },
    #[error("{players} players are too many: at most {max} are allowed")]
    TooManyPlayers { players: usize, max: usize },
    #[error("player number 0 is not valid: players are numbered from 1")]
    InvalidPlayerNumber,
    #[error("player {player} is listed twice")]
    DuplicatePlayer { player: PlayerNo },
    #[error("round {round} is not valid: rounds are numbered from 1")]
    InvalidRound { round: u32 },
}

impl IndividualMovementError {
    /// The stable code (upper snake case).
    pub fn code(&self) -> &'static str {
        use IndividualMovementError as E;
        match self {
            E::TooFewPlayers { .. } => "TOO_FEW_PLAYERS",
            E::TooManyPlayers { .. } => "TOO_MANY_PLAYERS",
            E::InvalidPlayerNumber => "INVALID_PLAYER_NUMBER",
            E::DuplicatePlayer { .. } => "DUPLICATE_PLAYER",
            E::InvalidRound { .. } => "INVALID_ROUND",
        }
    }

    /// The catalog key of this error's message.
    pub fn catalog_key(&self) -> String {
        format!("movement.individual_error.{}", self.code())
    }

    /// The values of the message's `{name}` placeholders.
    pub fn params(&self) -> Vec<(&'static str, String)> {
        use IndividualMovementError as E;
        match self {
            E::InvalidPlayerNumber => vec![],
            E::TooFewPlayers { players, min } => params!(players, min),
            E::TooManyPlayers { players, max } => params!(players, max),
            E::DuplicatePlayer { player } => params!(player),
            E::InvalidRound { round } => params!(round),
        }
    }

    /// The message in `lang`, from the catalog (`movement.*.json`).
    pub fn message(&self, lang: crate::i18n::Lang) -> String {
        catalog_message(lang, &self.catalog_key(), &self.params())
    }
}

/// Checks the players of a round: between [`MIN_PLAYERS`] and
/// [`MAX_PLAYERS`], none numbered 0, none twice.
fn check_players(players: &[PlayerNo]) -> Result<(), IndividualMovementError> {
    use IndividualMovementError as E;
    let count = players.len();
    check_entrants(players, MIN_PLAYERS, MAX_PLAYERS).map_err(|e| match e {
        NumberProblem::TooFew { min } => E::TooFewPlayers {
            players: count,
            min,
        },
        NumberProblem::TooMany { max } => E::TooManyPlayers {
            players: count,
            max,
        },
        NumberProblem::Zero => E::InvalidPlayerNumber,
        NumberProblem::Twice(player) => E::DuplicatePlayer { player },
    })
}

/// Seats `order` four at a time (a + b NS against c + d EW), tables from 1.
fn seat_fours(order: &[PlayerNo]) -> Vec<FourSeat> {
    order
        .chunks_exact(4)
        .zip(1..)
        .map(|(four, table)| FourSeat {
            table,
            ns: [four[0], four[1]],
            ew: [four[2], four[3]],
        })
        .collect()
}

/// The random first round (RULES.md §14) of `players` (any order) from
/// `seed`: partners, tables and lines at random; the remainder of a field
/// that is not a multiple of 4 rests (see the module doc).
pub fn individual_draw(
    players: &[PlayerNo],
    seed: u64,
) -> Result<IndividualRound, IndividualMovementError> {
    check_players(players)?;
    let mut order = players.to_vec();
    order.sort_unstable();
    DrawRng::new(seed).shuffle(&mut order);
    let seated = order.len() - order.len() % 4;
    let byes = order.split_off(seated);
    Ok(IndividualRound {
        round: 1,
        tables: seat_fours(&order),
        byes,
    })
}

/// The entries of `ranking` (active players, best first) after the rounds
/// played so far (any order; the previous round is the one with the
/// highest number).
pub fn individual_entries_from_history(
    ranking: &[PlayerNo],
    history: &[IndividualRound],
) -> Vec<IndividualEntry> {
    let last = history.iter().max_by_key(|r| r.round);
    ranking
        .iter()
        .map(|&player| IndividualEntry {
            player,
            prev_partner: last.and_then(|r| r.partner_of(player)),
            rests: u32::try_from(history.iter().filter(|r| r.rests(player)).count())
                .unwrap_or(u32::MAX),
        })
        .collect()
}

/// The Danish round `round` of `ranking` (active players, best first): the
/// resting players, then foursomes in ranking order without a partnership
/// of the previous round (see the module doc).
pub fn individual_danish_round(
    round: u32,
    ranking: &[IndividualEntry],
) -> Result<IndividualRound, IndividualMovementError> {
    if round == 0 {
        return Err(IndividualMovementError::InvalidRound { round });
    }
    let players: Vec<PlayerNo> = ranking.iter().map(|e| e.player).collect();
    check_players(&players)?;
    let rests: Vec<u32> = ranking.iter().map(|e| e.rests).collect();
    let resting: Vec<usize> = bye_order(&rests)
        .into_iter()
        .take(players.len() % 4)
        .collect();
    let prev: HashMap<PlayerNo, PlayerNo> = ranking
        .iter()
        .filter_map(|e| e.prev_partner.map(|p| (e.player, p)))
        .collect();
    let repeat = |x: PlayerNo, y: PlayerNo| prev.get(&x) == Some(&y) || prev.get(&y) == Some(&x);
    let mut order = Vec::with_capacity(players.len());
    for four in players
        .iter()
        .enumerate()
        .filter(|(i, _)| !resting.contains(i))
        .map(|(_, &p)| p)
        .collect::<Vec<_>>()
        .chunks_exact(4)
    {
        let &[a, b, c, d] = four else { continue };
        let seating = if !repeat(a, b) && !repeat(c, d) {
            [a, b, c, d]
        } else if !repeat(a, c) && !repeat(b, d) {
            [a, c, b, d]
        } else {
            [a, d, b, c]
        };
        order.extend(seating);
    }
    Ok(IndividualRound {
        round,
        tables: seat_fours(&order),
        byes: resting.iter().map(|&i| players[i]).collect(),
    })
}
