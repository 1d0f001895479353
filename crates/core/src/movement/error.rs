//! Why the movement engine refuses a request, and the checks every kind
//! shares: entrant numbers (none 0, none twice) and the catalog message of
//! an error.

use super::seating::{PairNo, MAX_PAIRS};
use std::fmt;

/// `params!(pairs, min)`: an error's placeholders, each named as its field,
/// with the field's value as text.
macro_rules! params {
    ($($field:ident),* $(,)?) => {
        vec![$((stringify!($field), $field.to_string())),*]
    };
}
pub(crate) use params;

/// Why the engine refuses a request. [`MovementError::code`] is stable (it
/// names the catalog key `movement.error.<CODE>`); `Display` is the plain
/// English reason, identical to the English catalog text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MovementError {
    #[error("{pairs} pairs are too few: at least {min} are needed")]
    TooFewPairs { pairs: usize, min: usize },
    #[error("{pairs} pairs are too many: at most {max} are allowed")]
    TooManyPairs { pairs: usize, max: usize },
    #[error("pair number 0 is not valid: pairs are numbered from 1")]
    InvalidPairNumber,
    #[error("pair {pair} is listed twice")]
    DuplicatePair { pair: PairNo },
    #[error("round {round} is not valid: rounds are numbered from 1")]
    InvalidRound { round: u32 },
    #[error("a Mitchell needs at least 2 tables, not {tables}")]
    TooFewTables { tables: u32 },
    #[error("the number of rounds must be between 1 and {max}, not {rounds}")]
    RoundsOutOfRange { rounds: u32, max: u32 },
    #[error("with {tables} tables the advance must be between 1 and {max} tables, not {advance}")]
    AdvanceOutOfRange { advance: u32, tables: u32, max: u32 },
    #[error(
        "too many rounds for the tables: with {tables} tables every moving pair has met every fixed pair after {tables} rounds, so {rounds} rounds would make pairs meet twice"
    )]
    TooManyRoundsForTables { rounds: u32, tables: u32 },
    #[error(
        "the advance of {advance} shares the factor {factor} with the {tables} tables: the moving pairs would meet the same fixed pairs again after {max_rounds} rounds, so {rounds} rounds would make pairs meet twice; choose an advance with no common factor with {tables} (1 always works)"
    )]
    AdvanceSharesFactor {
        advance: u32,
        tables: u32,
        factor: u32,
        max_rounds: u32,
        rounds: u32,
    },
    #[error("the plan is for {plan} tables but the draw has {layout} tables")]
    TablesMismatch { plan: u32, layout: u32 },
    #[error("the draw is damaged: {detail}")]
    InvalidLayout { detail: String },
    #[error("round {round} is outside the plan, which has rounds 1 to {rounds}")]
    RoundOutOfPlan { round: u32, rounds: u32 },
    #[error("pair {pair} is not playing in this movement")]
    UnknownPair { pair: PairNo },
    #[error("pair {pair} is already playing in this movement")]
    AlreadySeated { pair: PairNo },
    #[error(
        "there is no free place for the late pair {pair}: a late pair can take the place of the phantom or of a withdrawn pair; with an even number of pairs it can join at a Danish round"
    )]
    NoFreeSeat { pair: PairNo },
    #[error(
        "pair {pair} has pair {opponent} as previous opponent, but pair {opponent} does not have pair {pair}"
    )]
    InconsistentOpponents { pair: PairNo, opponent: PairNo },
    #[error(
        "no pairing keeps every pair away from its previous opponent: generate this round as pure Danish"
    )]
    NoLegalPairing,
    #[error(
        "the Danish round can be generated only when every score of the previous round is in: tables {tables} have none yet"
    )]
    PreviousRoundIncomplete { tables: String },
    #[error("the draw can no longer be repeated: a score has already been entered")]
    RedrawAfterScores,
    #[error("the operating system gave no random seed")]
    SeedUnavailable,
}

impl MovementError {
    /// The stable code (upper snake case, like the rules engine's codes).
    pub fn code(&self) -> &'static str {
        match self {
            MovementError::TooFewPairs { .. } => "TOO_FEW_PAIRS",
            MovementError::TooManyPairs { .. } => "TOO_MANY_PAIRS",
            MovementError::InvalidPairNumber => "INVALID_PAIR_NUMBER",
            MovementError::DuplicatePair { .. } => "DUPLICATE_PAIR",
            MovementError::InvalidRound { .. } => "INVALID_ROUND",
            MovementError::TooFewTables { .. } => "TOO_FEW_TABLES",
            MovementError::RoundsOutOfRange { .. } => "ROUNDS_OUT_OF_RANGE",
            MovementError::AdvanceOutOfRange { .. } => "ADVANCE_OUT_OF_RANGE",
            MovementError::TooManyRoundsForTables { .. } => "TOO_MANY_ROUNDS_FOR_TABLES",
            MovementError::AdvanceSharesFactor { .. } => "ADVANCE_SHARES_FACTOR",
            MovementError::TablesMismatch { .. } => "TABLES_MISMATCH",
            MovementError::InvalidLayout { .. } => "INVALID_LAYOUT",
            MovementError::RoundOutOfPlan { .. } => "ROUND_OUT_OF_PLAN",
            MovementError::UnknownPair { .. } => "UNKNOWN_PAIR",
            MovementError::AlreadySeated { .. } => "ALREADY_SEATED",
            MovementError::NoFreeSeat { .. } => "NO_FREE_SEAT",
            MovementError::InconsistentOpponents { .. } => "INCONSISTENT_OPPONENTS",
            MovementError::NoLegalPairing => "NO_LEGAL_PAIRING",
            MovementError::PreviousRoundIncomplete { .. } => "PREVIOUS_ROUND_INCOMPLETE",
            MovementError::RedrawAfterScores => "REDRAW_AFTER_SCORES",
            MovementError::SeedUnavailable => "SEED_UNAVAILABLE",
        }
    }

    /// The catalog key of this error's message.
    pub fn catalog_key(&self) -> String {
        format!("movement.error.{}", self.code())
    }

    /// The values of the message's `{name}` placeholders.
    pub fn params(&self) -> Vec<(&'static str, String)> {
        use MovementError as E;
        match self {
            E::InvalidPairNumber
            | E::NoLegalPairing
            | E::RedrawAfterScores
            | E::SeedUnavailable => vec![],
            E::TooFewPairs { pairs, min } => params!(pairs, min),
            E::TooManyPairs { pairs, max } => params!(pairs, max),
            E::DuplicatePair { pair } => params!(pair),
            E::InvalidRound { round } => params!(round),
            E::TooFewTables { tables } => params!(tables),
            E::RoundsOutOfRange { rounds, max } => params!(rounds, max),
            E::AdvanceOutOfRange {
                advance,
                tables,
                max,
            } => params!(advance, tables, max),
            E::TooManyRoundsForTables { rounds, tables } => params!(rounds, tables),
            E::AdvanceSharesFactor {
                advance,
                tables,
                factor,
                max_rounds,
                rounds,
            } => params!(advance, tables, factor, max_rounds, rounds),
            E::TablesMismatch { plan, layout } => params!(plan, layout),
            E::InvalidLayout { detail } => params!(detail),
            E::RoundOutOfPlan { round, rounds } => params!(round, rounds),
            E::UnknownPair { pair } => params!(pair),
            E::AlreadySeated { pair } => params!(pair),
            E::NoFreeSeat { pair } => params!(pair),
            E::InconsistentOpponents { pair, opponent } => params!(pair, opponent),
            E::PreviousRoundIncomplete { tables } => params!(tables),
        }
    }

    /// The message in `lang`, from the catalog (`movement.*.json`).
    pub fn message(&self, lang: crate::i18n::Lang) -> String {
        catalog_message(lang, &self.catalog_key(), &self.params())
    }
}

/// Checks the pairs of a movement: between `min` and [`MAX_PAIRS`] of
/// them, none numbered 0, none twice.
pub(crate) fn check_pairs(pairs: &[PairNo], min: usize) -> Result<(), MovementError> {
    check_entrants(pairs, min, MAX_PAIRS).map_err(|e| pair_error(e, pairs.len()))
}

/// Checks a list of pair numbers: none is 0, none repeats.
pub(crate) fn check_pair_numbers(pairs: &[PairNo]) -> Result<(), MovementError> {
    check_entrants(pairs, 0, usize::MAX).map_err(|e| pair_error(e, pairs.len()))
}

fn pair_error(problem: NumberProblem, pairs: usize) -> MovementError {
    match problem {
        NumberProblem::TooFew { min } => MovementError::TooFewPairs { pairs, min },
        NumberProblem::TooMany { max } => MovementError::TooManyPairs { pairs, max },
        NumberProblem::Zero => MovementError::InvalidPairNumber,
        NumberProblem::Twice(pair) => MovementError::DuplicatePair { pair },
    }
}

/// What is wrong with a list of entrants (pairs, teams, players).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NumberProblem {
    /// Fewer than `min` entrants.
    TooFew { min: usize },
    /// More than `max` entrants.
    TooMany { max: usize },
    /// A number is 0: entrants are numbered from 1.
    Zero,
    /// This number is listed twice.
    Twice(u32),
}

/// Entrant numbers: between `min` and `max` of them, none 0, none twice
/// (the count first, then the first fault in list order).
pub(crate) fn check_entrants(numbers: &[u32], min: usize, max: usize) -> Result<(), NumberProblem> {
    if numbers.len() < min {
        return Err(NumberProblem::TooFew { min });
    }
    if numbers.len() > max {
        return Err(NumberProblem::TooMany { max });
    }
    let mut seen = std::collections::HashSet::with_capacity(numbers.len());
    for &n in numbers {
        if n == 0 {
            return Err(NumberProblem::Zero);
        }
        if !seen.insert(n) {
            return Err(NumberProblem::Twice(n));
        }
    }
    Ok(())
}

/// An error's message in `lang`: the catalog's text for `key` with the
/// `{name}` placeholders filled from `params`.
pub(crate) fn catalog_message(
    lang: crate::i18n::Lang,
    key: &str,
    params: &[(&'static str, String)],
) -> String {
    let args: Vec<(&str, &dyn fmt::Display)> = params
        .iter()
        .map(|(k, v)| (*k, v as &dyn fmt::Display))
        .collect();
    crate::i18n::tf(lang, key, &args)
}
