//! What a validation problem is: its stable code, its place in the
//! document and its message (`file.problem.<code>` in the catalog).

use crate::i18n::{t, tf, Lang};
use crate::rules::prize_pool::PrizeError;
use crate::rules::vp::ScaleError;
use crate::tournament::text::has_control;
use std::fmt;

/// The stable codes of validation problems.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ProblemCode {
    NameEmpty,
    TextTooLong,
    OutOfRange,
    ProfileUnknown,
    HandsPerRoundOutOfRange,
    VpScaleMissing,
    VpScaleInvalid,
    ByeVpOutOfRange,
    MoneyNegative,
    MoneyTooPrecise,
    PercentOutOfRange,
    PayoutInvalid,
    NotPositive,
    SuitOrderInvalid,
    TooManyPairs,
    TooManyRounds,
    PairNumberDuplicate,
    PlayersCount,
    PlayerSurnameEmpty,
    PlayerNameEmpty,
    CardInvalid,
    RoundNumberOutOfOrder,
    TableNumberDuplicate,
    PairUnknown,
    PairSeatedTwice,
    PairWithdrawnSeated,
    PairNoShow,
    SheetAndAdjusted,
    TableNotPlayed,
    TableNotPlayedFinished,
    AdjustedVpOutOfRange,
    ValueTooLarge,
    PenaltyRoundUnknown,
    PenaltyPairUnknown,
    PenaltyAmountMissing,
    PenaltyAmountNotPositive,
    PenaltyAmountNotAllowed,
    PenaltyReasonEmpty,
    PenaltyTableMismatch,
    PenaltyMpNotSeated,
    ControlCharacter,
    MoneyTooLarge,
    TooManyTeams,
    TeamNumberDuplicate,
    TeamNameEmpty,
    TeamSize,
    TeamUnknown,
    TeamSeatedTwice,
    TeamWithdrawnSeated,
    TeamNoShow,
    MatchSameTeam,
    MatchTablesCount,
    LineTeamNotInMatch,
    MatchLinesUnbalanced,
    PlayerNotInTeam,
    PlayerSeatedTwice,
    GroupEmpty,
    TeamGroupChanged,
    TeamByeVpOutOfRange,
    PenaltyTeamUnknown,
    PenaltyTeamTableMismatch,
    PenaltyTableMissing,
    TooManyPlayers,
    PlayerNumberDuplicate,
    PlayerUnknown,
    PlayerAlreadySeated,
    PlayerWithdrawnSeated,
    PlayerNoShow,
    PenaltyPlayerUnknown,
    PenaltyPlayerTableMismatch,
    PenaltyPlayerMpNotSeated,
    GroupPlanInvalid,
    GroupPlanMissing,
    GroupNameInvalid,
    GroupNoPairs,
    GroupPairTwice,
    GroupsMissing,
    TableGroupMissing,
    TableGroupUnknown,
    TableGroupMismatch,
    GroupPrizeMissing,
    GroupPrizeUnknown,
    GroupPrizeDuplicate,
    GroupShareOutOfRange,
    GroupSharesNotHundred,
    GroupSchemeInvalid,
}

impl ProblemCode {
    pub const ALL: [ProblemCode; 86] = [
        ProblemCode::NameEmpty,
        ProblemCode::TextTooLong,
        ProblemCode::OutOfRange,
        ProblemCode::ProfileUnknown,
        ProblemCode::HandsPerRoundOutOfRange,
        ProblemCode::VpScaleMissing,
        ProblemCode::VpScaleInvalid,
        ProblemCode::ByeVpOutOfRange,
        ProblemCode::MoneyNegative,
        ProblemCode::MoneyTooPrecise,
        ProblemCode::PercentOutOfRange,
        ProblemCode::PayoutInvalid,
        ProblemCode::NotPositive,
        ProblemCode::SuitOrderInvalid,
        ProblemCode::TooManyPairs,
        ProblemCode::TooManyRounds,
        ProblemCode::PairNumberDuplicate,
        ProblemCode::PlayersCount,
        ProblemCode::PlayerSurnameEmpty,
        ProblemCode::PlayerNameEmpty,
        ProblemCode::CardInvalid,
        ProblemCode::RoundNumberOutOfOrder,
        ProblemCode::TableNumberDuplicate,
        ProblemCode::PairUnknown,
        ProblemCode::PairSeatedTwice,
        ProblemCode::PairWithdrawnSeated,
        ProblemCode::PairNoShow,
        ProblemCode::SheetAndAdjusted,
        ProblemCode::TableNotPlayed,
        ProblemCode::TableNotPlayedFinished,
        ProblemCode::AdjustedVpOutOfRange,
        ProblemCode::ValueTooLarge,
        ProblemCode::PenaltyRoundUnknown,
        ProblemCode::PenaltyPairUnknown,
        ProblemCode::PenaltyAmountMissing,
        ProblemCode::PenaltyAmountNotPositive,
        ProblemCode::PenaltyAmountNotAllowed,
        ProblemCode::PenaltyReasonEmpty,
        ProblemCode::PenaltyTableMismatch,
        ProblemCode::PenaltyMpNotSeated,
        ProblemCode::ControlCharacter,
        ProblemCode::MoneyTooLarge,
        ProblemCode::TooManyTeams,
        ProblemCode::TeamNumberDuplicate,
        ProblemCode::TeamNameEmpty,
        ProblemCode::TeamSize,
        ProblemCode::TeamUnknown,
        ProblemCode::TeamSeatedTwice,
        ProblemCode::TeamWithdrawnSeated,
        ProblemCode::TeamNoShow,
        ProblemCode::MatchSameTeam,
        ProblemCode::MatchTablesCount,
        ProblemCode::LineTeamNotInMatch,
        ProblemCode::MatchLinesUnbalanced,
        ProblemCode::PlayerNotInTeam,
        ProblemCode::PlayerSeatedTwice,
        ProblemCode::GroupEmpty,
        ProblemCode::TeamGroupChanged,
        ProblemCode::TeamByeVpOutOfRange,
        ProblemCode::PenaltyTeamUnknown,
        ProblemCode::PenaltyTeamTableMismatch,
        ProblemCode::PenaltyTableMissing,
        ProblemCode::TooManyPlayers,
        ProblemCode::PlayerNumberDuplicate,
        ProblemCode::PlayerUnknown,
        ProblemCode::PlayerAlreadySeated,
        ProblemCode::PlayerWithdrawnSeated,
        ProblemCode::PlayerNoShow,
        ProblemCode::PenaltyPlayerUnknown,
        ProblemCode::PenaltyPlayerTableMismatch,
        ProblemCode::PenaltyPlayerMpNotSeated,
        ProblemCode::GroupPlanInvalid,
        ProblemCode::GroupPlanMissing,
        ProblemCode::GroupNameInvalid,
        ProblemCode::GroupNoPairs,
        ProblemCode::GroupPairTwice,
        ProblemCode::GroupsMissing,
        ProblemCode::TableGroupMissing,
        ProblemCode::TableGroupUnknown,
        ProblemCode::TableGroupMismatch,
        ProblemCode::GroupPrizeMissing,
        ProblemCode::GroupPrizeUnknown,
        ProblemCode::GroupPrizeDuplicate,
        ProblemCode::GroupShareOutOfRange,
        ProblemCode::GroupSharesNotHundred,
        ProblemCode::GroupSchemeInvalid,
    ];

    /// The stable snake_case code (`pair_seated_twice`…).
    pub fn code(self) -> &'static str {
        match self {
            ProblemCode::NameEmpty => "name_empty",
            ProblemCode::TextTooLong => "text_too_long",
            ProblemCode::OutOfRange => "out_of_range",
            ProblemCode::ProfileUnknown => "profile_unknown",
            ProblemCode::HandsPerRoundOutOfRange => "hands_per_round_out_of_range",
            ProblemCode::VpScaleMissing => "vp_scale_missing",
            ProblemCode::VpScaleInvalid => "vp_scale_invalid",
            ProblemCode::ByeVpOutOfRange => "bye_vp_out_of_range",
            ProblemCode::MoneyNegative => "money_negative",
            ProblemCode::MoneyTooPrecise => "money_too_precise",
            ProblemCode::PercentOutOfRange => "percent_out_of_range",
            ProblemCode::PayoutInvalid => "payout_invalid",
            ProblemCode::NotPositive => "not_positive",
            ProblemCode::SuitOrderInvalid => "suit_order_invalid",
            ProblemCode::TooManyPairs => "too_many_pairs",
            ProblemCode::TooManyRounds => "too_many_rounds",
            ProblemCode::PairNumberDuplicate => "pair_number_duplicate",
            ProblemCode::PlayersCount => "players_count",
            ProblemCode::PlayerSurnameEmpty => "player_surname_empty",
            ProblemCode::PlayerNameEmpty => "player_name_empty",
            ProblemCode::CardInvalid => "card_invalid",
            ProblemCode::RoundNumberOutOfOrder => "round_number_out_of_order",
            ProblemCode::TableNumberDuplicate => "table_number_duplicate",
            ProblemCode::PairUnknown => "pair_unknown",
            ProblemCode::PairSeatedTwice => "pair_seated_twice",
            ProblemCode::PairWithdrawnSeated => "pair_withdrawn_seated",
            ProblemCode::PairNoShow => "pair_no_show",
            ProblemCode::SheetAndAdjusted => "sheet_and_adjusted",
            ProblemCode::TableNotPlayed => "table_not_played",
            ProblemCode::TableNotPlayedFinished => "table_not_played_finished",
            ProblemCode::AdjustedVpOutOfRange => "adjusted_vp_out_of_range",
            ProblemCode::ValueTooLarge => "value_too_large",
            ProblemCode::PenaltyRoundUnknown => "penalty_round_unknown",
            ProblemCode::PenaltyPairUnknown => "penalty_pair_unknown",
            ProblemCode::PenaltyAmountMissing => "penalty_amount_missing",
            ProblemCode::PenaltyAmountNotPositive => "penalty_amount_not_positive",
            ProblemCode::PenaltyAmountNotAllowed => "penalty_amount_not_allowed",
            ProblemCode::PenaltyReasonEmpty => "penalty_reason_empty",
            ProblemCode::PenaltyTableMismatch => "penalty_table_mismatch",
            ProblemCode::PenaltyMpNotSeated => "penalty_mp_not_seated",
            ProblemCode::ControlCharacter => "control_character",
            ProblemCode::MoneyTooLarge => "money_too_large",
            ProblemCode::TooManyTeams => "too_many_teams",
            ProblemCode::TeamNumberDuplicate => "team_number_duplicate",
            ProblemCode::TeamNameEmpty => "team_name_empty",
            ProblemCode::TeamSize => "team_size",
            ProblemCode::TeamUnknown => "team_unknown",
            ProblemCode::TeamSeatedTwice => "team_seated_twice",
            ProblemCode::TeamWithdrawnSeated => "team_withdrawn_seated",
            ProblemCode::TeamNoShow => "team_no_show",
            ProblemCode::MatchSameTeam => "match_same_team",
            ProblemCode::MatchTablesCount => "match_tables_count",
            ProblemCode::LineTeamNotInMatch => "line_team_not_in_match",
            ProblemCode::MatchLinesUnbalanced => "match_lines_unbalanced",
            ProblemCode::PlayerNotInTeam => "player_not_in_team",
            ProblemCode::PlayerSeatedTwice => "player_seated_twice",
            ProblemCode::GroupEmpty => "group_empty",
            ProblemCode::TeamGroupChanged => "team_group_changed",
            ProblemCode::TeamByeVpOutOfRange => "team_bye_vp_out_of_range",
            ProblemCode::PenaltyTeamUnknown => "penalty_team_unknown",
            ProblemCode::PenaltyTeamTableMismatch => "penalty_team_table_mismatch",
            ProblemCode::PenaltyTableMissing => "penalty_table_missing",
            ProblemCode::TooManyPlayers => "too_many_players",
            ProblemCode::PlayerNumberDuplicate => "player_number_duplicate",
            ProblemCode::PlayerUnknown => "player_unknown",
            ProblemCode::PlayerAlreadySeated => "player_already_seated",
            ProblemCode::PlayerWithdrawnSeated => "player_withdrawn_seated",
            ProblemCode::PlayerNoShow => "player_no_show",
            ProblemCode::PenaltyPlayerUnknown => "penalty_player_unknown",
            ProblemCode::PenaltyPlayerTableMismatch => "penalty_player_table_mismatch",
            ProblemCode::PenaltyPlayerMpNotSeated => "penalty_player_mp_not_seated",
            ProblemCode::GroupPlanInvalid => "group_plan_invalid",
            ProblemCode::GroupPlanMissing => "group_plan_missing",
            ProblemCode::GroupNameInvalid => "group_name_invalid",
            ProblemCode::GroupNoPairs => "group_no_pairs",
            ProblemCode::GroupPairTwice => "group_pair_twice",
            ProblemCode::GroupsMissing => "groups_missing",
            ProblemCode::TableGroupMissing => "table_group_missing",
            ProblemCode::TableGroupUnknown => "table_group_unknown",
            ProblemCode::TableGroupMismatch => "table_group_mismatch",
            ProblemCode::GroupPrizeMissing => "group_prize_missing",
            ProblemCode::GroupPrizeUnknown => "group_prize_unknown",
            ProblemCode::GroupPrizeDuplicate => "group_prize_duplicate",
            ProblemCode::GroupShareOutOfRange => "group_share_out_of_range",
            ProblemCode::GroupSharesNotHundred => "group_shares_not_hundred",
            ProblemCode::GroupSchemeInvalid => "group_scheme_invalid",
        }
    }

    /// `file.problem.<code>`.
    pub fn catalog_key(self) -> String {
        format!("file.problem.{}", self.code())
    }
}

impl fmt::Display for ProblemCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// An error of another module whose message is reused (the rules catalog).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProblemCause {
    Scale(ScaleError),
    /// The team scale of `team_scoring` (team tournaments).
    TeamScale(ScaleError),
    Prize(PrizeError),
}

impl ProblemCause {
    fn message(&self, lang: Lang) -> String {
        match self {
            ProblemCause::Scale(e) => {
                let (key, mut params) = e.catalog();
                params.push(("field", t(lang, "file.field.vp_scale").to_string()));
                render(lang, key, &params)
            }
            ProblemCause::TeamScale(e) => {
                let (key, mut params) = e.catalog();
                params.push(("field", t(lang, "file.field.team_scale").to_string()));
                render(lang, key, &params)
            }
            ProblemCause::Prize(e) => crate::rules::api::prize_error_message(e, lang),
        }
    }
}

pub(crate) fn render(lang: Lang, key: &str, params: &[(&'static str, String)]) -> String {
    let args: Vec<(&str, &dyn fmt::Display)> = params
        .iter()
        .map(|(k, v)| (*k, v as &dyn fmt::Display))
        .collect();
    tf(lang, key, &args)
}

/// One thing wrong in a file: where (`rounds[1].tables[0].ew`), what
/// (a stable code) and the values its message shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileProblem {
    pub path: String,
    pub code: ProblemCode,
    pub params: Vec<(&'static str, String)>,
    /// Set when the message is another module's (a VP scale, a payout).
    pub cause: Option<ProblemCause>,
}

impl FileProblem {
    pub(crate) fn new(path: impl Into<String>, code: ProblemCode) -> FileProblem {
        FileProblem {
            path: path.into(),
            code,
            params: Vec::new(),
            cause: None,
        }
    }

    pub(crate) fn with(mut self, name: &'static str, value: impl ToString) -> FileProblem {
        self.params.push((name, value.to_string()));
        self
    }

    /// The problem in words (without the place).
    pub fn message(&self, lang: Lang) -> String {
        let mut params = self.params.clone();
        if let Some(cause) = &self.cause {
            params.push(("detail", cause.message(lang)));
        }
        render(lang, &self.code.catalog_key(), &params)
    }

    /// `path: message`, one line.
    pub fn line(&self, lang: Lang) -> String {
        format!("{}: {}", self.path, self.message(lang))
    }
}

/// A place in the document, written only when a problem needs it (no
/// allocation for the places that are fine): `rounds[1].tables[0].ns`.
#[derive(Clone, Copy)]
pub(crate) struct At<'a> {
    parent: Option<&'a At<'a>>,
    name: &'static str,
    index: Option<usize>,
}

impl<'a> At<'a> {
    pub(crate) fn root(name: &'static str, index: usize) -> At<'static> {
        At {
            parent: None,
            name,
            index: Some(index),
        }
    }

    pub(crate) fn field(&'a self, name: &'static str) -> At<'a> {
        At {
            parent: Some(self),
            name,
            index: None,
        }
    }

    pub(crate) fn item(&'a self, name: &'static str, index: usize) -> At<'a> {
        At {
            parent: Some(self),
            name,
            index: Some(index),
        }
    }
}

impl fmt::Display for At<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = self.parent {
            write!(f, "{p}.")?;
        }
        f.write_str(self.name)?;
        if let Some(i) = self.index {
            write!(f, "[{i}]")?;
        }
        Ok(())
    }
}

/// A text's length, and no control characters (as the forms check it).
pub(crate) fn too_long(
    path: impl fmt::Display,
    text: &str,
    max: usize,
    out: &mut Vec<FileProblem>,
) {
    if has_control(text) {
        out.push(FileProblem::new(
            path.to_string(),
            ProblemCode::ControlCharacter,
        ));
    } else if text.chars().count() > max {
        out.push(FileProblem::new(path.to_string(), ProblemCode::TextTooLong).with("max", max));
    }
}

/// A text that must not be blank: `empty` when it is, else its length and
/// characters as [`too_long`] checks them.
pub(crate) fn required_text(
    path: At<'_>,
    text: &str,
    max: usize,
    empty: ProblemCode,
    out: &mut Vec<FileProblem>,
) {
    if text.trim().is_empty() {
        out.push(FileProblem::new(path.to_string(), empty));
    } else {
        too_long(path, text, max, out);
    }
}

pub(crate) fn not_positive(path: impl Into<String>) -> FileProblem {
    FileProblem::new(path, ProblemCode::NotPositive)
}
