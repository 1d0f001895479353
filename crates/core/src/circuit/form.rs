//! The circuit's settings form (the web page): text fields in, a checked
//! [`CircuitSpec`] out, each problem next to its field. The rules are
//! [`super::validate`]'s; this only reads the form's words.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::spec::{
    validate, CircuitSpec, Finals, First, FormatTag, PointsMethod, Problem, RankBy,
    DEFAULT_PLACING_MIN, DEFAULT_PLACING_STEP, MAX_TABLE_PLACES,
};
use crate::tournament::FieldProblem;

/// What the form sends (every field text; blanks are "not set").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CircuitForm {
    pub name: String,
    pub season: String,
    /// `player` or `pair`.
    pub rank: String,
    /// `vp`, `placing` or `table`.
    pub method: String,
    /// `placing`: blank = the stage's entries, else a number.
    pub first: String,
    pub step: String,
    pub min: String,
    /// `table`: the points of the 1st, 2nd… place, separated by spaces,
    /// commas or semicolons (Italian decimals with a comma need `;`).
    pub table: String,
    pub best_of: String,
    pub min_attendances: String,
    pub stage_top_percent: String,
    pub overall_top_percent: String,
    pub overall_min_attendances: String,
}

/// Where a problem of the spec is shown: its field's path in the circuit
/// document (the JSON API's `fields`, the form's error slots), with a
/// table's places and the whole `finals` folded into one field each.
fn field_of(path: &str) -> &'static str {
    match path {
        "name" => "name",
        "season" => "season",
        "rank" => "rank",
        "points.first" => "points.first",
        "points.step" => "points.step",
        "points.min" => "points.min",
        p if p.starts_with("points.table") => "points.table",
        "best_of" => "best_of",
        "min_attendances" => "min_attendances",
        "finals.stage_top_percent" | "finals" => "finals.stage_top_percent",
        "finals.overall_top_percent" => "finals.overall_top_percent",
        "finals.overall_min_attendances" => "finals.overall_min_attendances",
        _ => "points.method",
    }
}

/// A spec problem as a form problem (same catalog key and values).
pub fn field_problem(p: &Problem) -> FieldProblem {
    let mut f = FieldProblem::new(field_of(&p.path), p.code.catalog_key());
    f.params = p.params.clone();
    f
}

/// "12,5" or "12.5" → 12.5 (Italian and English decimals).
fn decimal(text: &str) -> Option<Decimal> {
    text.trim().replace(',', ".").parse().ok()
}

fn whole(text: &str) -> Option<u32> {
    text.trim().parse().ok()
}

impl CircuitForm {
    /// The form as saved (to edit it).
    pub fn of(spec: &CircuitSpec) -> CircuitForm {
        let n = |d: &Decimal| d.normalize().to_string();
        let mut f = CircuitForm {
            name: spec.name.clone(),
            season: spec.season.clone().unwrap_or_default(),
            rank: match spec.rank {
                RankBy::Player => "player",
                RankBy::Pair => "pair",
            }
            .into(),
            method: spec.points.code().into(),
            best_of: spec.best_of.map(|v| v.to_string()).unwrap_or_default(),
            min_attendances: spec
                .min_attendances
                .map(|v| v.to_string())
                .unwrap_or_default(),
            ..CircuitForm::default()
        };
        match &spec.points {
            PointsMethod::Vp => {}
            PointsMethod::Placing { first, step, min } => {
                f.first = match first {
                    First::Entries => String::new(),
                    First::Fixed(d) => n(d),
                };
                f.step = n(step);
                f.min = n(min);
            }
            PointsMethod::Table { table } => {
                f.table = table.iter().map(n).collect::<Vec<_>>().join("; ");
            }
        }
        if let Some(fin) = &spec.finals {
            f.stage_top_percent = fin.stage_top_percent.as_ref().map(n).unwrap_or_default();
            f.overall_top_percent = fin.overall_top_percent.as_ref().map(n).unwrap_or_default();
            if fin.overall_min_attendances > 0 {
                f.overall_min_attendances = fin.overall_min_attendances.to_string();
            }
        }
        f
    }

    /// The circuit the form describes, or every problem by field.
    pub fn parse(&self) -> Result<CircuitSpec, Vec<FieldProblem>> {
        let mut problems = Vec::new();
        let number = |field: &'static str, text: &str, problems: &mut Vec<FieldProblem>| {
            if text.trim().is_empty() {
                return None;
            }
            let v = decimal(text);
            if v.is_none() {
                problems.push(
                    FieldProblem::new(field, "circuit.problem.not_a_number").with("value", text),
                );
            }
            v
        };
        let count = |field: &'static str, text: &str, problems: &mut Vec<FieldProblem>| {
            if text.trim().is_empty() {
                return None;
            }
            let v = whole(text);
            if v.is_none() {
                problems.push(FieldProblem::new(field, "circuit.problem.not_positive"));
            }
            v
        };
        let rank = match self.rank.trim() {
            "" | "player" => RankBy::Player,
            "pair" => RankBy::Pair,
            _ => {
                problems.push(FieldProblem::new("rank", "circuit.problem.choose_one"));
                RankBy::Player
            }
        };
        let points = match self.method.trim() {
            "vp" => PointsMethod::Vp,
            "" | "placing" => {
                let first = match number("points.first", &self.first, &mut problems) {
                    Some(d) => First::Fixed(d),
                    None => First::Entries,
                };
                PointsMethod::Placing {
                    first,
                    step: number("points.step", &self.step, &mut problems)
                        .unwrap_or(Decimal::from(DEFAULT_PLACING_STEP)),
                    min: number("points.min", &self.min, &mut problems)
                        .unwrap_or(Decimal::from(DEFAULT_PLACING_MIN)),
                }
            }
            "table" => {
                let parts: Vec<&str> = self
                    .table
                    .split(|c: char| {
                        c == ';' || c.is_whitespace() || (c == ',' && !self.table.contains(';'))
                    })
                    .filter(|p| !p.trim().is_empty())
                    .take(MAX_TABLE_PLACES + 1)
                    .collect();
                let mut table = Vec::with_capacity(parts.len());
                for p in parts {
                    match decimal(p) {
                        Some(d) => table.push(d),
                        None => {
                            problems.push(
                                FieldProblem::new("points.table", "circuit.problem.not_a_number")
                                    .with("value", p),
                            );
                            break;
                        }
                    }
                }
                PointsMethod::Table { table }
            }
            _ => {
                problems.push(FieldProblem::new(
                    "points.method",
                    "circuit.problem.choose_one",
                ));
                PointsMethod::Vp
            }
        };
        let stage_top = number(
            "finals.stage_top_percent",
            &self.stage_top_percent,
            &mut problems,
        );
        let overall_top = number(
            "finals.overall_top_percent",
            &self.overall_top_percent,
            &mut problems,
        );
        let overall_min = count(
            "finals.overall_min_attendances",
            &self.overall_min_attendances,
            &mut problems,
        );
        let finals = (stage_top.is_some() || overall_top.is_some()).then(|| Finals {
            stage_top_percent: stage_top,
            overall_top_percent: overall_top,
            overall_min_attendances: overall_min.unwrap_or(0),
        });
        let spec = CircuitSpec {
            format: FormatTag,
            name: self.name.trim().to_string(),
            season: Some(self.season.trim().to_string()).filter(|s| !s.is_empty()),
            rank,
            points,
            best_of: count("best_of", &self.best_of, &mut problems),
            min_attendances: count("min_attendances", &self.min_attendances, &mut problems),
            finals,
        };
        problems.extend(validate(&spec).iter().map(field_problem));
        if problems.is_empty() {
            Ok(spec)
        } else {
            Err(problems)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_form_reads_back_as_its_spec() {
        let form = CircuitForm {
            name: " Circuito d'inverno ".into(),
            season: "2026/27".into(),
            rank: "pair".into(),
            method: "table".into(),
            table: "25; 18; 15,5".into(),
            best_of: "3".into(),
            min_attendances: "2".into(),
            stage_top_percent: "10".into(),
            ..CircuitForm::default()
        };
        let spec = form.parse().unwrap();
        assert_eq!(spec.name, "Circuito d'inverno");
        assert_eq!(spec.rank, RankBy::Pair);
        assert_eq!(
            spec.points,
            PointsMethod::Table {
                table: vec![Decimal::from(25), Decimal::from(18), Decimal::new(155, 1)]
            }
        );
        assert_eq!(spec.best_of, Some(3));
        assert_eq!(spec.finals.as_ref().unwrap().overall_top_percent, None);
        assert_eq!(CircuitForm::of(&spec).parse().unwrap(), spec);
        // Commas between whole numbers, without a semicolon.
        let f = CircuitForm {
            table: "10,8,6".into(),
            ..form.clone()
        };
        assert_eq!(
            f.parse().unwrap().points,
            PointsMethod::Table {
                table: vec![Decimal::from(10), Decimal::from(8), Decimal::from(6)]
            }
        );
    }

    #[test]
    fn each_problem_is_next_to_its_field() {
        let form = CircuitForm {
            name: "".into(),
            method: "placing".into(),
            step: "cinque".into(),
            best_of: "0".into(),
            min_attendances: "-1".into(),
            stage_top_percent: "120".into(),
            ..CircuitForm::default()
        };
        let problems = form.parse().unwrap_err();
        let fields: Vec<&str> = problems.iter().map(|p| p.field).collect();
        for f in [
            "name",
            "points.step",
            "best_of",
            "min_attendances",
            "finals.stage_top_percent",
        ] {
            assert!(fields.contains(&f), "{f} in {fields:?}");
        }
        let placing = CircuitForm {
            name: "C".into(),
            ..CircuitForm::default()
        }
        .parse()
        .unwrap();
        assert_eq!(placing.points, PointsMethod::placing());
    }
}
