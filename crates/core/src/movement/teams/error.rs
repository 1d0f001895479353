//! Why a team movement is refused, and the check of a list of teams.

use super::plan::{TeamNo, MAX_TEAMS, MIN_TEAMS};
use crate::movement::error::{catalog_message, check_entrants, params, NumberProblem};

/// Why a team movement is refused. [`TeamMovementError::code`] is stable
/// (catalog key `movement.team_error.<CODE>`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TeamMovementError {
    #[error("{teams} teams are too few: at least {min} are needed")]
    TooFewTeams { teams: usize, min: usize },
    #[error("{teams} teams are too many: at most {max} are allowed")]
    TooManyTeams { teams: usize, max: usize },
    #[error("team number 0 is not valid: teams are numbered from 1")]
    InvalidTeamNumber,
    #[error("team {team} is listed twice")]
    DuplicateTeam { team: TeamNo },
    #[error("round {round} is not valid: rounds are numbered from 1")]
    InvalidRound { round: u32 },
    #[error("the number of groups must be between 1 and {max}, not {groups}")]
    GroupsOutOfRange { groups: usize, max: usize },
    #[error("group {group} has {teams} teams: a group needs at least {min}")]
    GroupTooSmall {
        group: String,
        teams: usize,
        min: usize,
    },
    #[error("group {group} is listed twice")]
    DuplicateGroup { group: String },
    #[error("a line-up needs a team of at least {min} players, not {players}")]
    LineUpTooFewPlayers { players: usize, min: usize },
    #[error("player {index} is not in the team, which has players 0 to {last}")]
    LineUpPlayerUnknown { index: u32, last: usize },
    #[error("player {index} is in the line-up twice")]
    LineUpPlayerTwice { index: u32 },
}

impl TeamMovementError {
    /// The stable code (upper snake case).
    pub fn code(&self) -> &'static str {
        use TeamMovementError as E;
        match self {
            E::TooFewTeams { .. } => "TOO_FEW_TEAMS",
            E::TooManyTeams { .. } => "TOO_MANY_TEAMS",
            E::InvalidTeamNumber => "INVALID_TEAM_NUMBER",
            E::DuplicateTeam { .. } => "DUPLICATE_TEAM",
            E::InvalidRound { .. } => "INVALID_ROUND",
            E::GroupsOutOfRange { .. } => "GROUPS_OUT_OF_RANGE",
            E::GroupTooSmall { .. } => "GROUP_TOO_SMALL",
            E::DuplicateGroup { .. } => "DUPLICATE_GROUP",
            E::LineUpTooFewPlayers { .. } => "LINEUP_TOO_FEW_PLAYERS",
            E::LineUpPlayerUnknown { .. } => "LINEUP_PLAYER_UNKNOWN",
            E::LineUpPlayerTwice { .. } => "LINEUP_PLAYER_TWICE",
        }
    }

    /// The catalog key of this error's message.
    pub fn catalog_key(&self) -> String {
        format!("movement.team_error.{}", self.code())
    }

    /// The values of the message's `{name}` placeholders.
    pub fn params(&self) -> Vec<(&'static str, String)> {
        use TeamMovementError as E;
        match self {
            E::InvalidTeamNumber => vec![],
            E::TooFewTeams { teams, min } => params!(teams, min),
            E::TooManyTeams { teams, max } => params!(teams, max),
            E::DuplicateTeam { team } => params!(team),
            E::InvalidRound { round } => params!(round),
            E::GroupsOutOfRange { groups, max } => params!(groups, max),
            E::GroupTooSmall { group, teams, min } => params!(group, teams, min),
            E::DuplicateGroup { group } => params!(group),
            E::LineUpTooFewPlayers { players, min } => params!(players, min),
            E::LineUpPlayerUnknown { index, last } => params!(index, last),
            E::LineUpPlayerTwice { index } => params!(index),
        }
    }

    /// The message in `lang`, from the catalog.
    pub fn message(&self, lang: crate::i18n::Lang) -> String {
        catalog_message(lang, &self.catalog_key(), &self.params())
    }
}

/// Checks a list of teams: between [`MIN_TEAMS`] and [`MAX_TEAMS`] of
/// them, none numbered 0, none twice.
pub(super) fn check_teams(teams: &[TeamNo]) -> Result<(), TeamMovementError> {
    let count = teams.len();
    check_entrants(teams, MIN_TEAMS, MAX_TEAMS).map_err(|e| match e {
        NumberProblem::TooFew { min } => TeamMovementError::TooFewTeams { teams: count, min },
        NumberProblem::TooMany { max } => TeamMovementError::TooManyTeams { teams: count, max },
        NumberProblem::Zero => TeamMovementError::InvalidTeamNumber,
        NumberProblem::Twice(team) => TeamMovementError::DuplicateTeam { team },
    })
}
