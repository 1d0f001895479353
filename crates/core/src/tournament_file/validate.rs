//! Validation: a parsed file is checked as strictly as the program's forms
//! check what a director types. Every problem names its place in the
//! document (`pairs[3].players[0].surname`, 0-based indexes as in the JSON),
//! has a stable code and a message from the catalog (`file.problem.<code>`).
//!
//! Score sheets are not checked against the rules here: that is the
//! standings step's job (`SheetRuleBroken`, CLI exit code 1).

use super::types::{
    Adjusted, PayoutTierFile, PenaltyKind, Player, SheetFile, Status, TournamentFile,
};
use crate::i18n::{t, tf, Lang};
use crate::rules::prize_pool::{compute, PayoutTier, PrizeError, PrizeInput, MONEY_DECIMALS};
use crate::rules::profile::RuleProfile;
use crate::rules::seat_draw::SuitOrder;
use crate::rules::vp::{ScaleError, VpScale, TOTAL_VP};
use crate::tournament::money::{MoneyField, ENTRY_FEE, GUARANTEED_POOL};
use crate::tournament::settings::{MAX_PAYOUT_ENTRIES, MAX_PAYOUT_TIERS};
use crate::tournament::text::{has_control, MAX_REASON_CHARS};
use rust_decimal::Decimal;
use std::collections::{HashMap, HashSet};
use std::fmt;

/// Most pairs in a tournament file.
pub const MAX_PAIRS: usize = 1000;
/// Most rounds in a tournament file: the settings form's limit, one number.
pub const MAX_ROUNDS: usize = crate::tournament::settings::MAX_ROUNDS as usize;
/// Fewest and most hands per round.
pub const MIN_HANDS_PER_ROUND: i64 = 2;
pub const MAX_HANDS_PER_ROUND: i64 = 4;
/// Largest MP amount (an `mp` penalty, an adjusted MP difference): far
/// above any real round, it only keeps sums far from overflowing.
pub const MAX_MP_AMOUNT: i64 = 100_000;
/// Largest VP amount of a `vp` penalty.
pub const MAX_VP_AMOUNT: i64 = 100;
/// Text limits, as in the forms: tournament name and venue; a player's
/// surname and name; card number; club.
pub const MAX_TOURNAMENT_NAME_CHARS: usize = 120;
pub const MAX_PLAYER_NAME_CHARS: usize = 60;
pub const MAX_CARD_CHARS: usize = 20;
pub const MAX_CLUB_CHARS: usize = 80;
/// Ranges of the settings form.
pub const MINUTES_PER_ROUND: std::ops::RangeInclusive<u32> = 10..=180;
pub const MITCHELL_ADVANCE: std::ops::RangeInclusive<u32> = 1..=10;

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
}

impl ProblemCode {
    pub const ALL: [ProblemCode; 62] = [
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

fn render(lang: Lang, key: &str, params: &[(&'static str, String)]) -> String {
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
    pub(super) fn new(path: impl Into<String>, code: ProblemCode) -> FileProblem {
        FileProblem {
            path: path.into(),
            code,
            params: Vec::new(),
            cause: None,
        }
    }

    pub(super) fn with(mut self, name: &'static str, value: impl ToString) -> FileProblem {
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

/// A file that passed [`validate`], with what the standings need resolved.
#[derive(Debug, Clone)]
pub struct ValidFile<'a> {
    file: &'a TournamentFile,
    profile: &'static RuleProfile,
    scale: VpScale,
    hands_per_round: usize,
    bye_vp: u8,
    pair_index: HashMap<u32, usize>,
}

impl<'a> ValidFile<'a> {
    pub fn file(&self) -> &'a TournamentFile {
        self.file
    }

    pub fn profile(&self) -> &'static RuleProfile {
        self.profile
    }

    /// The tournament's VP scale (the one given, else the preset).
    pub fn scale(&self) -> &VpScale {
        &self.scale
    }

    pub fn hands_per_round(&self) -> usize {
        self.hands_per_round
    }

    /// VP of a bye (0..=20).
    pub fn bye_vp(&self) -> u8 {
        self.bye_vp
    }

    /// The MP difference a bye counts: the lower edge of the bye award's band.
    pub fn bye_mp_diff(&self) -> i64 {
        self.scale.lower_edge_of(self.bye_vp)
    }

    /// Index in `file().pairs` of a pair number.
    pub fn pair_index(&self, number: u32) -> Option<usize> {
        self.pair_index.get(&number).copied()
    }
}

/// Checks an amount as the settings form does (the same limits).
pub(super) fn money_problems(
    limit: MoneyField,
    value: Decimal,
    out: &mut Vec<FileProblem>,
) -> bool {
    let before = out.len();
    let path = limit.field;
    if value > limit.max {
        out.push(
            FileProblem::new(path, ProblemCode::MoneyTooLarge)
                .with("value", value)
                .with("max", limit.max),
        );
    } else if value.is_sign_negative() && !value.is_zero() {
        out.push(FileProblem::new(path, ProblemCode::MoneyNegative).with("value", value));
    } else if value.normalize().scale() > MONEY_DECIMALS {
        out.push(
            FileProblem::new(path, ProblemCode::MoneyTooPrecise)
                .with("value", value)
                .with("max", MONEY_DECIMALS),
        );
    }
    out.len() == before
}

/// A place in the document, written only when a problem needs it (no
/// allocation for the places that are fine): `rounds[1].tables[0].ns`.
#[derive(Clone, Copy)]
pub(super) struct At<'a> {
    parent: Option<&'a At<'a>>,
    name: &'static str,
    index: Option<usize>,
}

impl<'a> At<'a> {
    pub(super) fn root(name: &'static str, index: usize) -> At<'static> {
        At {
            parent: None,
            name,
            index: Some(index),
        }
    }

    pub(super) fn field(&'a self, name: &'static str) -> At<'a> {
        At {
            parent: Some(self),
            name,
            index: None,
        }
    }

    pub(super) fn item(&'a self, name: &'static str, index: usize) -> At<'a> {
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
pub(super) fn too_long(
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

pub(super) fn not_positive(path: impl Into<String>) -> FileProblem {
    FileProblem::new(path, ProblemCode::NotPositive)
}

/// Where a prize error points in the document (`entries`: the list of
/// entries, `pairs` or `teams`).
fn payout_path(payout: &[PayoutTierFile], entries: &'static str, e: &PrizeError) -> String {
    let tier = |m: u32| payout.iter().position(|p| p.min_entries == m);
    match e {
        PrizeError::EmptyScheme { min_entries }
        | PrizeError::SchemeNotHundred { min_entries, .. } => match tier(*min_entries) {
            Some(i) => format!("payout[{i}].scheme"),
            None => "payout".to_string(),
        },
        PrizeError::PercentNotPositive {
            min_entries, place, ..
        }
        | PrizeError::PercentTooPrecise {
            min_entries, place, ..
        } => match tier(*min_entries) {
            Some(i) => format!("payout[{i}].scheme[{}]", place.saturating_sub(1)),
            None => "payout".to_string(),
        },
        PrizeError::DuplicateTier { min_entries } => {
            let second = payout
                .iter()
                .enumerate()
                .filter(|(_, p)| p.min_entries == *min_entries)
                .nth(1)
                .map(|(i, _)| i);
            match second {
                Some(i) => format!("payout[{i}].min_entries"),
                None => "payout".to_string(),
            }
        }
        PrizeError::NegativeAmount { field, .. } | PrizeError::TooManyDecimals { field, .. } => {
            (*field).to_string()
        }
        PrizeError::ShareOutOfRange { .. } => "prize_share_percent".to_string(),
        PrizeError::AmountTooLarge => "entry_fee".to_string(),
        PrizeError::NoEntriesToPay { .. } => "guaranteed_pool".to_string(),
        PrizeError::NoScheme | PrizeError::NoTierFor { .. } => "payout".to_string(),
        PrizeError::PlacesCountMismatch { .. }
        | PrizeError::ImpossiblePlace { .. }
        | PrizeError::TooManyEntries { .. } => entries.to_string(),
    }
}

/// The payout tiers as the prize engine takes them.
pub fn payout_tiers(file: &TournamentFile) -> Vec<PayoutTier> {
    tiers_of(&file.payout)
}

/// The payout tiers of a file's `payout` as the prize engine takes them.
pub fn tiers_of(payout: &[PayoutTierFile]) -> Vec<PayoutTier> {
    payout
        .iter()
        .map(|p| PayoutTier {
            min_entries: p.min_entries,
            scheme: p.scheme.clone(),
        })
        .collect()
}

/// True when the pool is certainly zero (no fee share and no guarantee): a
/// tournament without prizes may then leave `payout` empty.
pub fn pool_is_zero(file: &TournamentFile) -> bool {
    Settings::of_pairs(file).pool_is_zero()
}

/// The settings every tournament file has (pairs or teams), as the checks
/// take them: one set of checks for both kinds.
pub(super) struct Settings<'a> {
    pub name: &'a str,
    pub venue: Option<&'a str>,
    pub profile: &'a str,
    pub hands_per_round: i64,
    pub vp_scale: Option<&'a [i64]>,
    pub bye_vp: i64,
    pub entry_fee: Decimal,
    pub prize_share_percent: Decimal,
    pub guaranteed_pool: Decimal,
    pub payout: &'a [PayoutTierFile],
    pub minutes_per_round: Option<u32>,
    pub planned_rounds: Option<u32>,
    /// How many planned movements are listed.
    pub movements: Option<usize>,
    pub mitchell_advance: Option<u32>,
    pub suit_order: Option<&'a str>,
    /// Registered entries (pairs or teams) and the name of their list.
    pub registered: usize,
    pub entries_field: &'static str,
    /// At least one round exists.
    pub started: bool,
}

impl<'a> Settings<'a> {
    pub(super) fn of_pairs(file: &'a TournamentFile) -> Settings<'a> {
        Settings {
            name: &file.name,
            venue: file.venue.as_deref(),
            profile: &file.profile,
            hands_per_round: file.hands_per_round,
            vp_scale: file.vp_scale.as_deref(),
            bye_vp: file.bye_vp,
            entry_fee: file.entry_fee,
            prize_share_percent: file.prize_share_percent,
            guaranteed_pool: file.guaranteed_pool,
            payout: &file.payout,
            minutes_per_round: file.minutes_per_round,
            planned_rounds: file.planned_rounds,
            movements: file.movements.as_ref().map(Vec::len),
            mitchell_advance: file.mitchell_advance,
            suit_order: file.suit_order.as_deref(),
            registered: file.pairs.len(),
            entries_field: "pairs",
            started: !file.rounds.is_empty(),
        }
    }

    /// True when the pool is certainly zero (no fee share, no guarantee).
    pub(super) fn pool_is_zero(&self) -> bool {
        (self.entry_fee.is_zero() || self.prize_share_percent.is_zero())
            && self.guaranteed_pool.is_zero()
    }
}

fn check_payout(s: &Settings<'_>, out: &mut Vec<FileProblem>) {
    if s.payout.is_empty() && s.pool_is_zero() {
        return;
    }
    let registered = u32::try_from(s.registered).unwrap_or(u32::MAX);
    // A draft (no round yet) need not have a scheme for its current number
    // of entries: registrations are still open.
    let entries = registered.max(1);
    let input = PrizeInput {
        entries,
        entry_fee: s.entry_fee,
        prize_share_percent: s.prize_share_percent,
        guaranteed_pool: s.guaranteed_pool,
        payout: tiers_of(s.payout),
        places: (1..=entries).collect(),
    };
    if let Err(e) = compute(&input) {
        if matches!(e, PrizeError::NoTierFor { .. }) && (!s.started || registered == 0) {
            return;
        }
        let mut p = FileProblem::new(
            payout_path(s.payout, s.entries_field, &e),
            ProblemCode::PayoutInvalid,
        );
        p.cause = Some(ProblemCause::Prize(e));
        out.push(p);
    }
}

/// The payout's size within the settings form's limits (lines, entries,
/// places), checked before any prize is computed.
fn check_payout_limits(payout: &[PayoutTierFile], out: &mut Vec<FileProblem>) -> bool {
    let before = out.len();
    if payout.len() > MAX_PAYOUT_TIERS {
        out.push(
            FileProblem::new("payout", ProblemCode::OutOfRange)
                .with("value", payout.len())
                .with("min", 1)
                .with("max", MAX_PAYOUT_TIERS),
        );
        return false;
    }
    for (i, tier) in payout.iter().enumerate() {
        if tier.min_entries > MAX_PAYOUT_ENTRIES {
            out.push(
                FileProblem::new(format!("payout[{i}].min_entries"), ProblemCode::OutOfRange)
                    .with("value", tier.min_entries)
                    .with("min", 0)
                    .with("max", MAX_PAYOUT_ENTRIES),
            );
        }
        if tier.scheme.len() > MAX_PAYOUT_ENTRIES as usize {
            out.push(
                FileProblem::new(format!("payout[{i}].scheme"), ProblemCode::OutOfRange)
                    .with("value", tier.scheme.len())
                    .with("min", 1)
                    .with("max", MAX_PAYOUT_ENTRIES),
            );
        }
    }
    out.len() == before
}

/// Checks the settings; returns the profile, scale and bye VP when usable.
pub(super) fn check_settings(
    file: &Settings<'_>,
    out: &mut Vec<FileProblem>,
) -> (Option<&'static RuleProfile>, Option<VpScale>, Option<u8>) {
    if file.name.trim().is_empty() {
        out.push(FileProblem::new("name", ProblemCode::NameEmpty));
    }
    too_long("name", file.name, MAX_TOURNAMENT_NAME_CHARS, out);
    if let Some(venue) = file.venue {
        too_long("venue", venue, MAX_TOURNAMENT_NAME_CHARS, out);
    }
    let profile = RuleProfile::by_name(file.profile);
    if profile.is_none() {
        out.push(
            FileProblem::new("profile", ProblemCode::ProfileUnknown)
                .with("name", file.profile.chars().take(32).collect::<String>())
                .with("known", RuleProfile::names().join(", ")),
        );
    }
    let hands = file.hands_per_round;
    let hands_ok = (MIN_HANDS_PER_ROUND..=MAX_HANDS_PER_ROUND).contains(&hands);
    if !hands_ok {
        out.push(
            FileProblem::new("hands_per_round", ProblemCode::HandsPerRoundOutOfRange)
                .with("value", hands)
                .with("min", MIN_HANDS_PER_ROUND)
                .with("max", MAX_HANDS_PER_ROUND),
        );
    }
    let scale = match file.vp_scale {
        Some(bounds) => match VpScale::parse(bounds.to_vec()) {
            Ok(s) => Some(s),
            Err(e) => {
                let mut p = FileProblem::new("vp_scale", ProblemCode::VpScaleInvalid);
                p.cause = Some(ProblemCause::Scale(e));
                out.push(p);
                None
            }
        },
        None => {
            let preset = u32::try_from(hands).ok().and_then(VpScale::preset);
            if preset.is_none() && hands_ok {
                out.push(
                    FileProblem::new("vp_scale", ProblemCode::VpScaleMissing).with("hands", hands),
                );
            }
            preset
        }
    };
    let bye_vp = match u8::try_from(file.bye_vp) {
        Ok(v) if v <= TOTAL_VP => Some(v),
        _ => {
            out.push(
                FileProblem::new("bye_vp", ProblemCode::ByeVpOutOfRange)
                    .with("value", file.bye_vp)
                    .with("max", TOTAL_VP),
            );
            None
        }
    };
    let fee_ok = money_problems(ENTRY_FEE, file.entry_fee, out);
    let pool_ok = money_problems(GUARANTEED_POOL, file.guaranteed_pool, out);
    let payout_ok = check_payout_limits(file.payout, out);
    let share = file.prize_share_percent;
    let share_ok = share >= Decimal::ZERO && share <= Decimal::ONE_HUNDRED;
    if !share_ok {
        out.push(
            FileProblem::new("prize_share_percent", ProblemCode::PercentOutOfRange)
                .with("value", share),
        );
    }
    if fee_ok && pool_ok && share_ok && payout_ok {
        check_payout(file, out);
    }
    let planned = 1..=u32::try_from(MAX_ROUNDS).unwrap_or(u32::MAX);
    for (field, value, range) in [
        (
            "minutes_per_round",
            file.minutes_per_round,
            MINUTES_PER_ROUND,
        ),
        ("planned_rounds", file.planned_rounds, planned),
        ("mitchell_advance", file.mitchell_advance, MITCHELL_ADVANCE),
    ] {
        if let Some(v) = value.filter(|v| !range.contains(v)) {
            out.push(
                FileProblem::new(field, ProblemCode::OutOfRange)
                    .with("value", v)
                    .with("min", range.start())
                    .with("max", range.end()),
            );
        }
    }
    if let Some(count) = file.movements {
        if count > MAX_ROUNDS {
            out.push(
                FileProblem::new("movements", ProblemCode::TooManyRounds)
                    .with("count", count)
                    .with("max", MAX_ROUNDS),
            );
        }
    }
    if let Some(text) = file.suit_order {
        if let Err(e) = SuitOrder::parse(text) {
            out.push(
                FileProblem::new("suit_order", ProblemCode::SuitOrderInvalid).with("text", e.text),
            );
        }
    }
    (profile, scale, bye_vp)
}

/// Each player's names, club and card (`{at}.players[j]…`), as the forms
/// check them.
pub(super) fn check_players(at: &At<'_>, players: &[Player], out: &mut Vec<FileProblem>) {
    for (j, player) in players.iter().enumerate() {
        if player.surname.trim().is_empty() {
            out.push(FileProblem::new(
                format!("{at}.players[{j}].surname"),
                ProblemCode::PlayerSurnameEmpty,
            ));
        }
        if player.name.trim().is_empty() {
            out.push(FileProblem::new(
                format!("{at}.players[{j}].name"),
                ProblemCode::PlayerNameEmpty,
            ));
        }
        let pat = at.item("players", j);
        too_long(
            pat.field("surname"),
            &player.surname,
            MAX_PLAYER_NAME_CHARS,
            out,
        );
        too_long(pat.field("name"), &player.name, MAX_PLAYER_NAME_CHARS, out);
        if let Some(club) = &player.club {
            too_long(pat.field("club"), club, MAX_CLUB_CHARS, out);
        }
        if let Some(card) = &player.card {
            let allowed = card
                .chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '/');
            if !allowed {
                out.push(FileProblem::new(
                    format!("{pat}.card"),
                    ProblemCode::CardInvalid,
                ));
            }
            too_long(pat.field("card"), card, MAX_CARD_CHARS, out);
        }
    }
}

fn check_pairs(file: &TournamentFile, out: &mut Vec<FileProblem>) -> HashMap<u32, usize> {
    if file.pairs.len() > MAX_PAIRS {
        out.push(
            FileProblem::new("pairs", ProblemCode::TooManyPairs)
                .with("count", file.pairs.len())
                .with("max", MAX_PAIRS),
        );
    }
    let mut index: HashMap<u32, usize> = HashMap::with_capacity(file.pairs.len());
    for (i, pair) in file.pairs.iter().enumerate() {
        let at = At::root("pairs", i);
        if pair.number == 0 {
            out.push(not_positive(format!("{at}.number")));
        } else if index.insert(pair.number, i).is_some() {
            out.push(
                FileProblem::new(format!("{at}.number"), ProblemCode::PairNumberDuplicate)
                    .with("number", pair.number),
            );
            // The first pair with this number keeps it.
            if let Some(first) = file.pairs.iter().position(|p| p.number == pair.number) {
                index.insert(pair.number, first);
            }
        }
        if pair.players.len() != 2 {
            out.push(
                FileProblem::new(format!("{at}.players"), ProblemCode::PlayersCount)
                    .with("count", pair.players.len()),
            );
        }
        check_players(&at, &pair.players, out);
        if pair.withdrawn_from_round == Some(0) {
            out.push(not_positive(format!("{at}.withdrawn_from_round")));
        }
    }
    index
}

/// Per round and pair index: the table the pair sits at (`Some(0)` for a
/// bye, `None` when not seated). Flat: `round_index * pairs + pair_index`.
struct Seats {
    pairs: usize,
    table: Vec<Option<u32>>,
}

impl Seats {
    fn get(&self, round: usize, pair: usize) -> Option<u32> {
        self.table
            .get(round.saturating_mul(self.pairs).saturating_add(pair))
            .copied()
            .flatten()
    }
}

/// Where a table sits, for [`check_table_score`].
#[derive(Clone, Copy)]
pub(super) struct TableContext {
    /// The table is in the last round.
    pub last: bool,
    pub status: Option<Status>,
    /// The round's number.
    pub round: u32,
}

/// A table's score: not both a sheet and an adjusted score; scored unless
/// the tournament may still have tables to play there; an adjusted score's
/// VP and MP differences in range.
pub(super) fn check_table_score(
    tat: &At<'_>,
    sheet: Option<&SheetFile>,
    adjusted: Option<&Adjusted>,
    ctx: TableContext,
    out: &mut Vec<FileProblem>,
) {
    match (sheet, adjusted) {
        (Some(_), Some(_)) => {
            out.push(FileProblem::new(
                tat.to_string(),
                ProblemCode::SheetAndAdjusted,
            ));
        }
        // A running tournament may have tables still to score in
        // any round (Mitchell rounds do not wait for the scores);
        // a finished one may not (below); a file with no status
        // keeps the strict rule: only the last round is in play.
        (None, None) if !ctx.last && ctx.status != Some(Status::Running) => {
            out.push(
                FileProblem::new(tat.to_string(), ProblemCode::TableNotPlayed)
                    .with("round", ctx.round),
            );
        }
        (None, None) if ctx.status == Some(Status::Finished) => {
            out.push(FileProblem::new(
                tat.to_string(),
                ProblemCode::TableNotPlayedFinished,
            ));
        }
        _ => {}
    }
    if let Some(adj) = adjusted {
        for (field, vp) in [("ns_vp", adj.ns_vp), ("ew_vp", adj.ew_vp)] {
            if !(0..=i64::from(TOTAL_VP)).contains(&vp) {
                out.push(
                    FileProblem::new(
                        format!("{tat}.adjusted.{field}"),
                        ProblemCode::AdjustedVpOutOfRange,
                    )
                    .with("value", vp)
                    .with("max", TOTAL_VP),
                );
            }
        }
        for (field, diff) in [
            ("ns_mp_diff", adj.ns_mp_diff),
            ("ew_mp_diff", adj.ew_mp_diff),
        ] {
            if let Some(d) = diff.filter(|d| d.unsigned_abs() > MAX_MP_AMOUNT.unsigned_abs()) {
                out.push(
                    FileProblem::new(
                        format!("{tat}.adjusted.{field}"),
                        ProblemCode::ValueTooLarge,
                    )
                    .with("value", d)
                    .with("max", MAX_MP_AMOUNT),
                );
            }
        }
    }
}

fn check_rounds(
    file: &TournamentFile,
    index: &HashMap<u32, usize>,
    out: &mut Vec<FileProblem>,
) -> Seats {
    let n = file.pairs.len();
    let rounds = file.rounds.len();
    if rounds > MAX_ROUNDS {
        out.push(
            FileProblem::new("rounds", ProblemCode::TooManyRounds)
                .with("count", rounds)
                .with("max", MAX_ROUNDS),
        );
    }
    // Bounded so that a file far too large does not allocate without limit
    // (it is refused anyway).
    let size = if n <= MAX_PAIRS && rounds <= MAX_ROUNDS {
        n.saturating_mul(rounds)
    } else {
        0
    };
    let mut seats = Seats {
        pairs: n,
        table: vec![None; size],
    };
    let mut numbers: HashSet<u32> = HashSet::new();
    for (r, round) in file.rounds.iter().enumerate() {
        let at = At::root("rounds", r);
        let expected = u32::try_from(r.saturating_add(1)).unwrap_or(u32::MAX);
        if round.number != expected {
            out.push(
                FileProblem::new(format!("{at}.number"), ProblemCode::RoundNumberOutOfOrder)
                    .with("number", round.number)
                    .with("expected", expected),
            );
        }
        let last = r.saturating_add(1) == rounds;
        numbers.clear();
        let mut seat = |at: At<'_>, pair: u32, table: u32, out: &mut Vec<FileProblem>| {
            let path = || at.to_string();
            let Some(&i) = index.get(&pair) else {
                out.push(FileProblem::new(path(), ProblemCode::PairUnknown).with("pair", pair));
                return;
            };
            let slot = r.saturating_mul(n).saturating_add(i);
            if let Some(cell) = seats.table.get_mut(slot) {
                if cell.is_some() {
                    out.push(
                        FileProblem::new(path(), ProblemCode::PairSeatedTwice)
                            .with("pair", pair)
                            .with("round", expected),
                    );
                    return;
                }
                *cell = Some(table);
            }
            if file.pairs.get(i).is_some_and(|p| p.no_show) {
                out.push(FileProblem::new(path(), ProblemCode::PairNoShow).with("pair", pair));
            }
            let from = file.pairs.get(i).and_then(|p| p.withdrawn_from_round);
            if let Some(from) = from.filter(|f| expected >= *f && *f > 0) {
                out.push(
                    FileProblem::new(path(), ProblemCode::PairWithdrawnSeated)
                        .with("pair", pair)
                        .with("from", from),
                );
            }
        };
        for (j, table) in round.tables.iter().enumerate() {
            let tat = at.item("tables", j);
            if table.table == 0 {
                out.push(not_positive(format!("{tat}.table")));
            } else if !numbers.insert(table.table) {
                out.push(
                    FileProblem::new(format!("{tat}.table"), ProblemCode::TableNumberDuplicate)
                        .with("table", table.table),
                );
            }
            seat(tat.field("ns"), table.ns, table.table, out);
            seat(tat.field("ew"), table.ew, table.table, out);
            check_table_score(
                &tat,
                table.sheet.as_ref(),
                table.adjusted.as_ref(),
                TableContext {
                    last,
                    status: file.status,
                    round: expected,
                },
                out,
            );
        }
        let several = round.byes.len() > 1;
        for (k, &pair) in round.byes.iter().enumerate() {
            let place = if several {
                at.item("bye", k)
            } else {
                at.field("bye")
            };
            seat(place, pair, 0, out);
        }
    }
    seats
}

/// The fields every penalty has (pairs or teams).
#[derive(Clone, Copy)]
pub(super) struct PenaltyFields<'a> {
    pub kind: PenaltyKind,
    pub amount: Option<i64>,
    pub reason: &'a str,
    pub by: Option<&'a str>,
    pub withdrawn_by: Option<&'a str>,
}

/// A penalty's amount (required and in range for `mp` and `vp`, absent for
/// a warning), its reason and who gave or withdrew it.
pub(super) fn check_penalty_fields(at: &At<'_>, f: PenaltyFields<'_>, out: &mut Vec<FileProblem>) {
    match (f.kind, f.amount) {
        (PenaltyKind::Warning, Some(_)) => {
            out.push(FileProblem::new(
                format!("{at}.amount"),
                ProblemCode::PenaltyAmountNotAllowed,
            ));
        }
        (PenaltyKind::Warning, None) => {}
        (kind, None) => {
            out.push(
                FileProblem::new(format!("{at}.amount"), ProblemCode::PenaltyAmountMissing)
                    .with("kind", kind),
            );
        }
        (kind, Some(a)) => {
            let max = if kind == PenaltyKind::Mp {
                MAX_MP_AMOUNT
            } else {
                MAX_VP_AMOUNT
            };
            if a <= 0 {
                out.push(
                    FileProblem::new(
                        format!("{at}.amount"),
                        ProblemCode::PenaltyAmountNotPositive,
                    )
                    .with("value", a),
                );
            } else if a > max {
                out.push(
                    FileProblem::new(format!("{at}.amount"), ProblemCode::ValueTooLarge)
                        .with("value", a)
                        .with("max", max),
                );
            }
        }
    }
    if f.reason.trim().is_empty() {
        out.push(FileProblem::new(
            format!("{at}.reason"),
            ProblemCode::PenaltyReasonEmpty,
        ));
    } else {
        too_long(at.field("reason"), f.reason, MAX_REASON_CHARS, out);
    }
    for (field, who) in [("by", f.by), ("withdrawn_by", f.withdrawn_by)] {
        if let Some(who) = who {
            too_long(at.field(field), who, MAX_REASON_CHARS, out);
        }
    }
}

fn check_penalties(
    file: &TournamentFile,
    index: &HashMap<u32, usize>,
    seats: &Seats,
    out: &mut Vec<FileProblem>,
) {
    let rounds = file.rounds.len();
    for (i, p) in file.penalties.iter().enumerate() {
        let at = At::root("penalties", i);
        let round_index = usize::try_from(p.round)
            .ok()
            .and_then(|r| r.checked_sub(1))
            .filter(|r| *r < rounds);
        if round_index.is_none() {
            out.push(
                FileProblem::new(format!("{at}.round"), ProblemCode::PenaltyRoundUnknown)
                    .with("round", p.round),
            );
        }
        let pair_index = index.get(&p.pair).copied();
        if pair_index.is_none() {
            out.push(
                FileProblem::new(format!("{at}.pair"), ProblemCode::PenaltyPairUnknown)
                    .with("pair", p.pair),
            );
        }
        let entry = pair_index.and_then(|k| file.pairs.get(k));
        if entry.is_some_and(|e| !e.is_entry()) {
            out.push(
                FileProblem::new(format!("{at}.pair"), ProblemCode::PairNoShow)
                    .with("pair", p.pair),
            );
        }
        check_penalty_fields(
            &at,
            PenaltyFields {
                kind: p.kind,
                amount: p.amount,
                reason: &p.reason,
                by: p.by.as_deref(),
                withdrawn_by: p.withdrawn_by.as_deref(),
            },
            out,
        );
        let (Some(r), Some(pi)) = (round_index, pair_index) else {
            continue;
        };
        let seated_at = seats.get(r, pi).filter(|t| *t > 0);
        if let Some(table) = p.table {
            if seated_at != Some(table) {
                out.push(
                    FileProblem::new(format!("{at}.table"), ProblemCode::PenaltyTableMismatch)
                        .with("table", table)
                        .with("pair", p.pair)
                        .with("round", p.round),
                );
            }
        }
        if p.kind == PenaltyKind::Mp && seated_at.is_none() {
            out.push(
                FileProblem::new(format!("{at}.pair"), ProblemCode::PenaltyMpNotSeated)
                    .with("pair", p.pair)
                    .with("round", p.round),
            );
        }
    }
}

/// Checks everything but the score sheets' rules. All problems are listed,
/// in document order (settings, pairs, rounds, penalties).
pub fn validate(file: &TournamentFile) -> Result<ValidFile<'_>, Vec<FileProblem>> {
    let mut out = Vec::new();
    let (profile, scale, bye_vp) = check_settings(&Settings::of_pairs(file), &mut out);
    let index = check_pairs(file, &mut out);
    let seats = check_rounds(file, &index, &mut out);
    check_penalties(file, &index, &seats, &mut out);
    match (profile, scale, bye_vp) {
        (Some(profile), Some(scale), Some(bye_vp)) if out.is_empty() => Ok(ValidFile {
            file,
            profile,
            scale,
            hands_per_round: usize::try_from(file.hands_per_round).unwrap_or(0),
            bye_vp,
            pair_index: index,
        }),
        _ => Err(out),
    }
}
