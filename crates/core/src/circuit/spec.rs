//! The circuit file `burraco-td/circuit@1` (FORMAT.md "The circuit file"):
//! its serde types, [`parse`] (read + [`validate`]) and [`to_json`].

use crate::i18n::Lang;
use crate::tournament::text::has_control;
use crate::tournament_file::{from_json, render, FileError, MAX_TOURNAMENT_NAME_CHARS};
use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The one format this module reads and writes.
pub const FORMAT: &str = "burraco-td/circuit@1";

/// Most characters of a circuit's name (as a tournament's name).
pub const MAX_CIRCUIT_NAME_CHARS: usize = MAX_TOURNAMENT_NAME_CHARS;
/// Most characters of the season (`2026`, `2026/27`, `inverno 2026`…).
pub const MAX_SEASON_CHARS: usize = 40;
/// Largest number of points a setting may give (`first`, `step`, `min`,
/// a `table` entry): far above any real circuit, it keeps sums exact.
pub const MAX_POINTS: i64 = 100_000;
/// Decimals a points setting or a percentage may have.
pub const POINTS_DECIMALS: u32 = 2;
/// Most places a points `table` may list.
pub const MAX_TABLE_PLACES: usize = crate::tournament_file::MAX_PAIRS;
/// Default `step` of the `placing` method (RULES.md §11).
pub const DEFAULT_PLACING_STEP: i64 = 5;
/// Default `min` of the `placing` method (RULES.md §11).
pub const DEFAULT_PLACING_MIN: i64 = 0;

crate::tournament_file::fixed_tag! {
    /// The `format` tag: always [`FORMAT`]; any other value is an error
    /// naming `format`.
    FormatTag = FORMAT
}

/// What the circuit ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum RankBy {
    /// Each player on their own (the default): a player's stage result is
    /// their pair's.
    #[default]
    Player,
    /// Pairs: the unordered set of two players.
    Pair,
}

/// `first` of the `placing` method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum First {
    /// The number of entries of that tournament (JSON `"entries"`).
    #[default]
    Entries,
    /// A fixed number of points for the first place.
    Fixed(Decimal),
}

impl Serialize for First {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            First::Entries => s.serialize_str("entries"),
            First::Fixed(n) => number::serialize(n, s),
        }
    }
}

impl<'de> Deserialize<'de> for First {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<First, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = First;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("\"entries\" or a number")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<First, E> {
                if v == "entries" {
                    Ok(First::Entries)
                } else {
                    Err(E::invalid_value(serde::de::Unexpected::Str(v), &self))
                }
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<First, E> {
                Ok(First::Fixed(Decimal::from(v)))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<First, E> {
                Ok(First::Fixed(Decimal::from(v)))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<First, E> {
                v.to_string()
                    .parse::<Decimal>()
                    .map(First::Fixed)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Float(v), &self))
            }
        }
        d.deserialize_any(V)
    }
}

fn default_step() -> Decimal {
    Decimal::from(DEFAULT_PLACING_STEP)
}

fn default_min() -> Decimal {
    Decimal::from(DEFAULT_PLACING_MIN)
}

/// How a stage result becomes points (RULES.md §11), one method per circuit.
/// JSON: `{"method": "vp"}`, `{"method": "placing", "first": "entries" or a
/// number, "step": 5, "min": 0}` (each optional, these are the defaults) or
/// `{"method": "table", "table": [25, 18, 15]}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(tag = "method", rename_all = "snake_case")]
pub enum PointsMethod {
    /// The stage's VP total.
    Vp,
    /// `max(min, first − step × (place − 1))`.
    Placing {
        /// `"entries"` (the stage's entries) or a number.
        #[cfg_attr(feature = "openapi", schema(schema_with = first_schema))]
        first: First,
        #[serde(serialize_with = "number::serialize")]
        #[cfg_attr(feature = "openapi", schema(value_type = f64))]
        step: Decimal,
        #[serde(serialize_with = "number::serialize")]
        #[cfg_attr(feature = "openapi", schema(value_type = f64))]
        min: Decimal,
    },
    /// Points per place (1st, 2nd, …); places beyond the list get 0.
    Table {
        #[serde(serialize_with = "numbers::serialize")]
        #[cfg_attr(feature = "openapi", schema(value_type = Vec<f64>))]
        table: Vec<Decimal>,
    },
}

/// The `method` tag.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum MethodTag {
    Vp,
    Placing,
    Table,
}

/// `points` as written, read field by field so that a problem names its
/// field (`points.first`), which an internally tagged enum cannot do.
#[derive(Deserialize)]
struct PointsRaw {
    method: MethodTag,
    #[serde(default)]
    first: Option<First>,
    #[serde(default)]
    step: Option<Decimal>,
    #[serde(default)]
    min: Option<Decimal>,
    #[serde(default)]
    table: Option<Vec<Decimal>>,
}

impl<'de> Deserialize<'de> for PointsMethod {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<PointsMethod, D::Error> {
        let raw = PointsRaw::deserialize(d)?;
        Ok(match raw.method {
            MethodTag::Vp => PointsMethod::Vp,
            MethodTag::Placing => PointsMethod::Placing {
                first: raw.first.unwrap_or_default(),
                step: raw.step.unwrap_or_else(default_step),
                min: raw.min.unwrap_or_else(default_min),
            },
            MethodTag::Table => PointsMethod::Table {
                // Worded as serde words it, so the place reads `points.table`.
                table: raw
                    .table
                    .ok_or_else(|| serde::de::Error::missing_field("table"))?,
            },
        })
    }
}

impl PointsMethod {
    /// `placing` with the defaults: `first` = entries, `step` 5, `min` 0.
    pub fn placing() -> PointsMethod {
        PointsMethod::Placing {
            first: First::Entries,
            step: default_step(),
            min: default_min(),
        }
    }

    /// `vp`, `placing` or `table`.
    pub fn code(&self) -> &'static str {
        match self {
            PointsMethod::Vp => "vp",
            PointsMethod::Placing { .. } => "placing",
            PointsMethod::Table { .. } => "table",
        }
    }
}

/// `first`'s schema: the word `entries` or a number.
#[cfg(feature = "openapi")]
fn first_schema() -> utoipa::openapi::schema::Schema {
    use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Type};
    OneOfBuilder::new()
        .item(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .enum_values(Some(["entries"])),
        )
        .item(ObjectBuilder::new().schema_type(Type::Number))
        .description(Some(
            "Points of the 1st place: \"entries\" (the stage's entries) or a number.",
        ))
        .build()
        .into()
}

/// Who goes to the final (RULES.md §11, "Finals").
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Finals {
    /// Per stage: the entrants placed within the top `stage_top_percent` %
    /// of that stage's entries. Absent: no one qualifies by a stage.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "opt_number")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<f64>))]
    pub stage_top_percent: Option<Decimal>,
    /// Overall: the classified entrants placed within the top
    /// `overall_top_percent` % of those with at least
    /// `overall_min_attendances`. Absent: no one qualifies overall.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "opt_number")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<f64>))]
    pub overall_top_percent: Option<Decimal>,
    /// Default 0 (every classified entrant).
    #[serde(default)]
    pub overall_min_attendances: u32,
}

/// A circuit: `burraco-td/circuit@1`.
///
/// Required in JSON: `format`, `name`, `points`. `rank` defaults to
/// `player`; `season`, `best_of`, `min_attendances`, `finals` are optional.
/// Field order is the order [`to_json`] writes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CircuitSpec {
    /// Always `"burraco-td/circuit@1"`.
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub format: FormatTag,
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub season: Option<String>,
    #[serde(default)]
    pub rank: RankBy,
    pub points: PointsMethod,
    /// Only an entrant's k highest stage points count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_of: Option<u32>,
    /// Fewer attendances: listed after the classified, without a place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_attendances: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub finals: Option<Finals>,
}

impl CircuitSpec {
    /// A circuit ranking players with `points`, no best-of, no minimum, no
    /// finals.
    pub fn new(name: impl Into<String>, points: PointsMethod) -> CircuitSpec {
        CircuitSpec {
            format: FormatTag,
            name: name.into(),
            season: None,
            rank: RankBy::Player,
            points,
            best_of: None,
            min_attendances: None,
            finals: None,
        }
    }
}

/// The stable codes of circuit file problems (`circuit.problem.<code>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ProblemCode {
    /// Not JSON.
    InvalidJson,
    /// A field missing, ill-typed or with a value the format does not know.
    InvalidField,
    NameEmpty,
    TextTooLong,
    ControlCharacter,
    /// `best_of`, `min_attendances` or a fixed `first` of 0.
    NotPositive,
    /// A points setting below 0.
    PointsNegative,
    /// A points setting or a percentage with more than two decimals.
    TooPrecise,
    /// A points setting above [`MAX_POINTS`].
    PointsTooLarge,
    TableEmpty,
    TableTooLong,
    /// A percentage outside 0–100.
    PercentOutOfRange,
    /// `finals` without `stage_top_percent` nor `overall_top_percent`.
    FinalsEmpty,
}

impl ProblemCode {
    pub const ALL: [ProblemCode; 13] = [
        ProblemCode::InvalidJson,
        ProblemCode::InvalidField,
        ProblemCode::NameEmpty,
        ProblemCode::TextTooLong,
        ProblemCode::ControlCharacter,
        ProblemCode::NotPositive,
        ProblemCode::PointsNegative,
        ProblemCode::TooPrecise,
        ProblemCode::PointsTooLarge,
        ProblemCode::TableEmpty,
        ProblemCode::TableTooLong,
        ProblemCode::PercentOutOfRange,
        ProblemCode::FinalsEmpty,
    ];

    /// The stable snake_case code.
    pub fn code(self) -> &'static str {
        match self {
            ProblemCode::InvalidJson => "invalid_json",
            ProblemCode::InvalidField => "invalid_field",
            ProblemCode::NameEmpty => "name_empty",
            ProblemCode::TextTooLong => "text_too_long",
            ProblemCode::ControlCharacter => "control_character",
            ProblemCode::NotPositive => "not_positive",
            ProblemCode::PointsNegative => "points_negative",
            ProblemCode::TooPrecise => "too_precise",
            ProblemCode::PointsTooLarge => "points_too_large",
            ProblemCode::TableEmpty => "table_empty",
            ProblemCode::TableTooLong => "table_too_long",
            ProblemCode::PercentOutOfRange => "percent_out_of_range",
            ProblemCode::FinalsEmpty => "finals_empty",
        }
    }

    /// `circuit.problem.<code>`.
    pub fn catalog_key(self) -> String {
        format!("circuit.problem.{}", self.code())
    }
}

impl fmt::Display for ProblemCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// One thing wrong in a circuit file: where (`finals.stage_top_percent`,
/// `points.table[2]`; `.` for the whole document), what (a stable code) and
/// the values its message shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub path: String,
    pub code: ProblemCode,
    pub params: Vec<(&'static str, String)>,
}

impl Problem {
    fn new(path: impl Into<String>, code: ProblemCode) -> Problem {
        Problem {
            path: path.into(),
            code,
            params: Vec::new(),
        }
    }

    fn with(mut self, name: &'static str, value: impl ToString) -> Problem {
        self.params.push((name, value.to_string()));
        self
    }

    fn from_file_error(e: FileError) -> Problem {
        match e {
            FileError::InvalidJson {
                line,
                column,
                detail,
            } => Problem::new(".", ProblemCode::InvalidJson)
                .with("line", line)
                .with("column", column)
                .with("detail", detail),
            FileError::InvalidField { path, detail } => {
                Problem::new(path, ProblemCode::InvalidField).with("detail", detail)
            }
            // A circuit file has no `kind`: never read as a tournament.
            FileError::WrongKind { expected, found } => {
                Problem::new("kind", ProblemCode::InvalidField).with(
                    "detail",
                    format!("{found:?} where {expected:?} was expected"),
                )
            }
        }
    }

    /// The problem in words (without the place).
    pub fn message(&self, lang: Lang) -> String {
        render(lang, &self.code.catalog_key(), &self.params)
    }

    /// `path: message`, one line.
    pub fn line(&self, lang: Lang) -> String {
        format!("{}: {}", self.path, self.message(lang))
    }
}

/// Reads and validates a circuit file. Unknown fields are ignored. An
/// unreadable document gives one problem (`invalid_json` or
/// `invalid_field`); a readable one every problem [`validate`] finds.
pub fn parse(text: &str) -> Result<CircuitSpec, Vec<Problem>> {
    let spec: CircuitSpec = from_json(text).map_err(|e| vec![Problem::from_file_error(e)])?;
    let problems = validate(&spec);
    if problems.is_empty() {
        Ok(spec)
    } else {
        Err(problems)
    }
}

/// Writes the circuit as pretty JSON, fields in a fixed order, optional
/// fields only when present: parse → to_json → parse gives the same spec.
pub fn to_json(spec: &CircuitSpec) -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(spec)
}

/// The checks a form makes on a circuit (also for a spec built in code).
pub fn validate(spec: &CircuitSpec) -> Vec<Problem> {
    let mut out = Vec::new();
    text_problems("name", &spec.name, MAX_CIRCUIT_NAME_CHARS, true, &mut out);
    if let Some(season) = &spec.season {
        text_problems("season", season, MAX_SEASON_CHARS, false, &mut out);
    }
    match &spec.points {
        PointsMethod::Vp => {}
        PointsMethod::Placing { first, step, min } => {
            if let First::Fixed(n) = first {
                if n.is_zero() {
                    out.push(Problem::new("points.first", ProblemCode::NotPositive));
                } else {
                    points_problems("points.first", *n, &mut out);
                }
            }
            points_problems("points.step", *step, &mut out);
            points_problems("points.min", *min, &mut out);
        }
        PointsMethod::Table { table } => {
            if table.is_empty() {
                out.push(Problem::new("points.table", ProblemCode::TableEmpty));
            } else if table.len() > MAX_TABLE_PLACES {
                out.push(
                    Problem::new("points.table", ProblemCode::TableTooLong)
                        .with("count", table.len())
                        .with("max", MAX_TABLE_PLACES),
                );
            } else {
                for (i, p) in table.iter().enumerate() {
                    points_problems(&format!("points.table[{i}]"), *p, &mut out);
                }
            }
        }
    }
    if spec.best_of == Some(0) {
        out.push(Problem::new("best_of", ProblemCode::NotPositive));
    }
    if spec.min_attendances == Some(0) {
        out.push(Problem::new("min_attendances", ProblemCode::NotPositive));
    }
    if let Some(finals) = &spec.finals {
        if finals.stage_top_percent.is_none() && finals.overall_top_percent.is_none() {
            out.push(Problem::new("finals", ProblemCode::FinalsEmpty));
        }
        for (path, value) in [
            ("finals.stage_top_percent", finals.stage_top_percent),
            ("finals.overall_top_percent", finals.overall_top_percent),
        ] {
            if let Some(p) = value {
                percent_problems(path, p, &mut out);
            }
        }
    }
    out
}

fn text_problems(path: &str, value: &str, max: usize, required: bool, out: &mut Vec<Problem>) {
    if has_control(value) {
        out.push(Problem::new(path, ProblemCode::ControlCharacter));
    } else if required && value.trim().is_empty() {
        out.push(Problem::new(path, ProblemCode::NameEmpty));
    } else if value.chars().count() > max {
        out.push(Problem::new(path, ProblemCode::TextTooLong).with("max", max));
    }
}

fn points_problems(path: &str, value: Decimal, out: &mut Vec<Problem>) {
    if value.is_sign_negative() && !value.is_zero() {
        out.push(Problem::new(path, ProblemCode::PointsNegative).with("value", value));
    } else if value > Decimal::from(MAX_POINTS) {
        out.push(
            Problem::new(path, ProblemCode::PointsTooLarge)
                .with("value", value)
                .with("max", MAX_POINTS),
        );
    } else if value.normalize().scale() > POINTS_DECIMALS {
        out.push(
            Problem::new(path, ProblemCode::TooPrecise)
                .with("value", value)
                .with("max", POINTS_DECIMALS),
        );
    }
}

fn percent_problems(path: &str, value: Decimal, out: &mut Vec<Problem>) {
    if value.is_sign_negative() && !value.is_zero() || value > Decimal::ONE_HUNDRED {
        out.push(Problem::new(path, ProblemCode::PercentOutOfRange).with("value", value));
    } else if value.normalize().scale() > POINTS_DECIMALS {
        out.push(
            Problem::new(path, ProblemCode::TooPrecise)
                .with("value", value)
                .with("max", POINTS_DECIMALS),
        );
    }
}

/// A decimal (read from a JSON number or a decimal string) written as a
/// JSON number: an integer when it is one, else the shortest float that
/// reads back to the same decimal (at most two decimals after validation).
mod number {
    use rust_decimal::prelude::ToPrimitive;
    use rust_decimal::Decimal;
    use serde::Serializer;

    pub fn serialize<S: Serializer>(value: &Decimal, s: S) -> Result<S::Ok, S::Error> {
        let n = value.normalize();
        if n.scale() == 0 {
            if let Some(i) = n.to_i64() {
                return s.serialize_i64(i);
            }
        }
        match n.to_f64() {
            Some(f) => s.serialize_f64(f),
            None => s.serialize_str(&n.to_string()),
        }
    }
}

mod opt_number {
    use rust_decimal::Decimal;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(value: &Option<Decimal>, s: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => super::number::serialize(v, s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Decimal>, D::Error> {
        Option::<Decimal>::deserialize(d)
    }
}

mod numbers {
    use rust_decimal::Decimal;
    use serde::ser::SerializeSeq;
    use serde::{Serialize, Serializer};

    struct One<'a>(&'a Decimal);

    impl Serialize for One<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            super::number::serialize(self.0, s)
        }
    }

    pub fn serialize<S: Serializer>(values: &[Decimal], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(values.len()))?;
        for v in values {
            seq.serialize_element(&One(v))?;
        }
        seq.end()
    }
}
