//! Circuits and season rankings (RULES.md §11; FORMAT.md "The circuit
//! file"): one computation for the web pages, the JSON API and
//! `burraco-td circuit`. Pure Rust: no web, database or template code here.
//!
//! - [`parse`] / [`validate`] / [`to_json`]: the `burraco-td/circuit@1`
//!   file ([`CircuitSpec`]); each [`Problem`] names its field and has a
//!   stable code.
//! - [`normalize_name`], [`normalize_card`], [`same_person`], [`Resolver`]:
//!   who is who across tournament files (see the `identity` decisions below).
//! - [`Stage`] / [`stage_of_file`]: what the circuit needs of a tournament
//!   (its final standings by [`crate::standings::compute_file`]).
//! - [`compute`]: the season ranking, generic over the person key (a
//!   player-directory id on the web, a [`PersonKey`] for files).
//! - [`run_cli`]: the whole command.
//!
//! The rules as implemented:
//! - Only finished stages count. An unfinished stage is provisional: it
//!   keeps its stage number (1-based, in the order given) and counts
//!   nowhere: no points, no attendance, no finalist; an entrant seen only
//!   there is not listed.
//! - Stage points: `vp` = the pair's net VP; `placing` =
//!   `max(min, first − step × (place − 1))`; `table` = the place's points,
//!   0 beyond the list. With `placing` and `table`, the k results sharing
//!   place p each get the mean of places p … p+k−1, rounded half up (away
//!   from zero) to two decimals; k is the number of results of that stage
//!   with place p. With `vp`, a shared place changes nothing (the points are
//!   the VP, not a function of the place). A player's stage result is the
//!   pair's.
//! - Best k of n: the k highest stage points count. **Between stages with
//!   equal points, the one with the higher MP difference counts, then the
//!   earlier stage** (the entrant's best results, so the MP-difference
//!   tie-break favours the entrant).
//! - Order: total counted points; Σ MP difference over the counted stages;
//!   more attendances (finished stages attended, counted or not); the
//!   highest single counted stage; still tied → shared place (1, 2, 2, 4…),
//!   listed by name (normalised surname and name), then by key.
//! - Minimum attendance: fewer than `min_attendances` → listed after every
//!   classified entrant, in the same order, with no place.
//! - Finalists: (a) for each finished stage, every entrant whose place in
//!   it is at or above ceil(`stage_top_percent` × entries / 100), classified
//!   or not (§11 puts no condition on (a)); (b) the classified entrants with
//!   at least `overall_min_attendances` (default 0), re-ranked among
//!   themselves in the circuit's order (shared places as above), placed at
//!   or above ceil(`overall_top_percent` × their number / 100). The reason
//!   is the first that qualified: the earliest stage, then overall (with the
//!   re-ranked place). Finalists are listed in the order of the ranking.
//!
//! Decisions where RULES.md is silent:
//! - `finals` needs at least one of `stage_top_percent` and
//!   `overall_top_percent`; the absent one qualifies nobody.
//! - `best_of` and `min_attendances` are at least 1; percentages 0–100 and
//!   points settings 0–[`MAX_POINTS`], both with at most two decimals; a
//!   fixed `first` is above 0; a `table` has 1–[`MAX_TABLE_PLACES`] places.
//!   `season` is an optional text (the web form has it; FORMAT.md's example
//!   does not).
//! - One entrant with two results in one stage (two people the rules
//!   cannot tell apart — homonyms without cards in one tournament — or a
//!   wrong merge in the directory): the better result counts (lower place,
//!   then more points, then higher MP difference, then lower pair number),
//!   one attendance.
//! - A player is shown with the name and card of the latest stage where
//!   their entry carried a card (a card comes with the federation's
//!   spelling), else with the name of the latest stage they attended; a
//!   pair's two players sorted by name.
//! - Identity across files: see [`Resolver`]. A card-less entry joins the
//!   one card holder seen with its name; with none, or two or more, it is a
//!   person of its own; two card holders are never merged. The resolver
//!   observes every entry of every file given, finished or not (identity is
//!   not counting).
//! - `burraco-td circuit` exit codes: 0 with the JSON; 1 when the circuit
//!   file or any stage file is unreadable JSON, invalid, or has a sheet that
//!   breaks a rule (every file checked, each problem named with its file, in
//!   the words of `burraco-td standings`); a file that cannot be read from
//!   disk is the binary's exit 2, as for `standings`.

#![cfg_attr(
    not(test),
    deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)
)]

mod bundle;
mod cli;
mod compute;
mod form;
mod identity;
mod spec;
mod stage;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod tests;

pub use bundle::{parse_bundle, CircuitBundle, BUNDLE_FORMAT};
pub use cli::{
    points_text, run_cli, CliCircuit, CliEntrant, CliFinalist, CliPair, CliPlayer, CliRow,
};
pub use compute::{
    compute, cut_off, place_points, shared_points, stage_points, CircuitRow, CircuitStandings,
    Entrant, Finalist, FinalistReason, StageScore, POINTS_DP,
};
pub use form::{field_problem, CircuitForm};
pub use identity::{normalize_card, normalize_name, same_person, PersonKey, PersonName, Resolver};
pub use spec::{
    parse, to_json, validate, CircuitSpec, Finals, First, FormatTag, PointsMethod, Problem,
    ProblemCode, RankBy, DEFAULT_PLACING_MIN, DEFAULT_PLACING_STEP, FORMAT, MAX_CIRCUIT_NAME_CHARS,
    MAX_POINTS, MAX_SEASON_CHARS, MAX_TABLE_PLACES, POINTS_DECIMALS,
};
pub use stage::{
    stage_of_file, stage_of_file_by_seat, stage_of_individual_file, Stage, StagePlayer, StageResult,
};
