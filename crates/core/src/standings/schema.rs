//! The OpenAPI schemas of the pairs' row, card and prize (the public API
//! serves them): written out, since their entrant field is the kind's
//! (`pair`).

use super::{CardRound, Pair, PairCard, Prize, Row, TieBreak};
use std::borrow::Cow;
use utoipa::openapi::schema::Schema;
use utoipa::openapi::RefOr;
use utoipa::{PartialSchema, ToSchema};

/// A schema from its JSON text (properties in field order).
fn schema(text: &str) -> RefOr<Schema> {
    serde_json::from_str(text).unwrap_or_else(|_| RefOr::T(Schema::default()))
}

const U32: &str = r#"{"type": "integer", "format": "int32", "minimum": 0}"#;
const I64: &str = r#"{"type": "integer", "format": "int64"}"#;

impl PartialSchema for Row<Pair> {
    fn schema() -> RefOr<Schema> {
        schema(&format!(
            r##"{{"type": "object", "description": "A pair's line in the standings.",
            "properties": {{
              "place": {{"type": "integer", "format": "int32", "minimum": 0, "description": "1-based; tied pairs share it (1, 2, 2, 4…)."}},
              "pair": {U32},
              "vp": {{"type": "integer", "format": "int64", "description": "Net VP (after VP penalties)."}},
              "mp_diff": {I64},
              "mp": {I64},
              "played": {{"type": "integer", "format": "int32", "minimum": 0, "description": "Rounds played (sheet or adjusted score)."}},
              "byes": {{"type": "integer", "format": "int32", "minimum": 0, "description": "Rounds rested with the bye award."}},
              "penalty_vp": {{"type": "integer", "format": "int64", "description": "VP taken by penalties (`vp` penalties and automatic warning VP), ≥ 0."}},
              "withdrawn": {{"type": "boolean", "description": "The pair has withdrawn (it stays in the standings)."}},
              "tie_break": {{"oneOf": [{{"type": "null"}}, {{"$ref": "#/components/schemas/TieBreak", "description": "Set on both pairs when head-to-head decided their order."}}]}},
              "group": {{"type": "string", "description": "Its group (RULES.md §13), once the field is cut; absent without groups."}},
              "group_place": {{"type": "integer", "format": "int32", "minimum": 1, "description": "Its place inside its group; absent without groups."}}
            }},
            "required": ["place", "pair", "vp", "mp_diff", "mp", "played", "byes", "penalty_vp", "withdrawn"]}}"##
        ))
    }
}

impl ToSchema for Row<Pair> {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Row")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((
            TieBreak::name().into(),
            <TieBreak as PartialSchema>::schema(),
        ));
        <TieBreak as ToSchema>::schemas(schemas);
    }
}

impl PartialSchema for PairCard {
    fn schema() -> RefOr<Schema> {
        schema(&format!(
            r##"{{"type": "object", "description": "A pair's card: its rounds, one per round of the tournament.",
            "properties": {{
              "pair": {U32},
              "rounds": {{"type": "array", "items": {{"$ref": "#/components/schemas/CardRound"}}}}
            }},
            "required": ["pair", "rounds"]}}"##
        ))
    }
}

impl ToSchema for PairCard {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("PairCard")
    }

    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        schemas.push((
            CardRound::name().into(),
            <CardRound as PartialSchema>::schema(),
        ));
        <CardRound as ToSchema>::schemas(schemas);
    }
}

impl PartialSchema for Prize<Pair> {
    fn schema() -> RefOr<Schema> {
        schema(&format!(
            r##"{{"type": "object", "description": "A pair that wins money.",
            "properties": {{
              "pair": {U32},
              "place": {U32},
              "amount": {{"type": "string"}},
              "per_player": {{"type": "array", "items": {{"type": "string"}}, "description": "The prize split between the two players (odd cent to the first)."}},
              "group": {{"type": "string", "description": "The group whose prize it is (prizes per group, RULES.md §13); absent otherwise."}}
            }},
            "required": ["pair", "place", "amount", "per_player"]}}"##
        ))
    }
}

impl ToSchema for Prize<Pair> {
    fn name() -> Cow<'static, str> {
        Cow::Borrowed("Prize")
    }
}
