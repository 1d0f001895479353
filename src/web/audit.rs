//! The audit log as people read it: each entry's before and after field by
//! field, labelled from the catalogs, in the reader's language (never raw
//! JSON). Shared by the staff pages that show a log.

use serde_json::{Map, Value};

use crate::i18n::{t, Lang};
use crate::services::view::AuditEntry;
use crate::services::Loaded;

/// One changed field of an audit entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    pub label: String,
    /// Empty when the entry has no "before" (something new).
    pub before: String,
    pub after: String,
}

/// A readable line for an audit action.
pub fn action_label(lang: &Lang, action: &str) -> String {
    let lang = *lang;
    let key = format!("audit.action.{action}");
    let text = t(lang, &key);
    if text == key {
        action.to_string()
    } else {
        text.to_string()
    }
}

fn label(lang: Lang, field: &str) -> String {
    let key = format!("audit.field.{field}");
    let text = t(lang, &key);
    if text == key {
        field.replace('_', " ")
    } else {
        text.to_string()
    }
}

/// A sheet as its totals and VP (what the engine makes of it).
fn sheet_summary(lang: Lang, l: Option<&Loaded>, v: &Value) -> Option<String> {
    let l = l?;
    let sheet: crate::rules::ScoreSheet = serde_json::from_value(v.clone()).ok()?;
    let r = crate::rules::check(
        &sheet,
        l.settings.profile,
        l.settings.hands_per_round as usize,
        &l.settings.vp_scale,
    );
    Some(format!(
        "NS {} · {} {} · {} {}–{}",
        r.totals.ns,
        crate::rules::Line::Ew.label(lang),
        r.totals.ew,
        t(lang, "audit.field.vp"),
        r.vp.ns,
        r.vp.ew
    ))
}

fn value_text(lang: Lang, l: Option<&Loaded>, field: &str, v: &Value) -> String {
    match (field, v) {
        (_, Value::Null) => "—".to_string(),
        ("pair_id", Value::Number(n)) => n
            .as_i64()
            .and_then(|id| l?.pair(Some(crate::ids::PairId(id))))
            .map(|p| format!("{} · {}", p.number, p.label()))
            .unwrap_or_else(|| n.to_string()),
        (_, Value::Bool(b)) => t(lang, if *b { "audit.yes" } else { "audit.no" }).to_string(),
        // The settings form's codes, in the reader's language.
        ("table_entry" | "allow_repeats", Value::String(s)) => {
            let on = s == "on";
            t(lang, if on { "audit.yes" } else { "audit.no" }).to_string()
        }
        ("sheet_mode", Value::String(code)) => match code.as_str() {
            "totals" => t(lang, "deskentry.mode.totals").to_string(),
            _ => t(lang, "deskentry.mode.full").to_string(),
        },
        ("profile", Value::String(code)) => crate::i18n::tf(lang, &format!("profile.{code}"), &[]),
        ("danish_form", Value::String(code)) => match code.as_str() {
            "modified" => t(lang, "movement_kind.danish_modified").to_string(),
            "pure" => t(lang, "movement_kind.danish").to_string(),
            _ => code.clone(),
        },
        // Codes stored in English read in the reader's language.
        ("role" | "kind" | "movement", Value::String(code)) => {
            let prefix = match field {
                "role" => "role",
                "kind" => "penalty.kind",
                _ => "movement_kind",
            };
            let key = format!("{prefix}.{code}");
            let text = t(lang, &key);
            if text == key {
                code.clone()
            } else {
                text.to_string()
            }
        }
        (_, Value::String(s)) => s.clone(),
        (_, Value::Number(n)) => n.to_string(),
        (_, Value::Object(m)) => m
            .iter()
            .map(|(k, v)| format!("{} {}", label(lang, k), value_text(lang, l, k, v)))
            .collect::<Vec<_>>()
            .join(", "),
        (_, Value::Array(a)) => a
            .iter()
            .map(|v| value_text(lang, l, field, v))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// A stored value as a flat object of fields (a sheet becomes its totals).
fn fields(lang: Lang, l: Option<&Loaded>, text: Option<&str>) -> Map<String, Value> {
    let Some(text) = text else {
        return Map::new();
    };
    match serde_json::from_str::<Value>(text) {
        Ok(v @ Value::Object(_)) if v.get("hands").is_some() => {
            let summary = sheet_summary(lang, l, &v).unwrap_or_else(|| text.to_string());
            [("totals".to_string(), Value::String(summary))]
                .into_iter()
                .collect()
        }
        Ok(Value::Object(m)) => m,
        // Not an object: shown as it is, never dropped.
        Ok(other) => [("value".to_string(), other)].into_iter().collect(),
        Err(_) => [("value".to_string(), Value::String(text.to_string()))]
            .into_iter()
            .collect(),
    }
}

/// A table-side entry (a pair entered, confirmed or disputed a sheet) in
/// words: who, what, the totals and VP, the dispute's note. `None` for
/// other entries (they read field by field).
pub fn table_story(lang: &Lang, l: &Loaded, row: &AuditEntry) -> Option<String> {
    let lang = *lang;
    let action = row.action.strip_prefix("table.")?;
    let after: Value = serde_json::from_str(row.after_value.as_deref()?).ok()?;
    let line_of = |key: &str| -> Option<&'static str> {
        match after.get(key)?.as_str()? {
            "ns" => Some("NS"),
            "ew" => Some(crate::rules::Line::Ew.label(lang)),
            _ => None,
        }
    };
    let pair = after
        .get("pair")
        .and_then(Value::as_i64)
        .unwrap_or_default();
    let who = |line: Option<&'static str>| {
        crate::i18n::tf(
            lang,
            "audit.table.who",
            &[("line", &line.unwrap_or("?")), ("pair", &pair)],
        )
    };
    let result = |v: &Value| -> Option<String> {
        let totals = v.get("totals");
        let vp = v.get("vp");
        let ns_vp = vp.and_then(|x| x.get("ns")).or_else(|| v.get("ns_vp"))?;
        let ew_vp = vp.and_then(|x| x.get("ew")).or_else(|| v.get("ew_vp"))?;
        Some(match totals {
            Some(t) => format!(
                "NS {} · {} {} · {} {}–{}",
                t.get("ns")?,
                crate::rules::Line::Ew.label(lang),
                t.get("ew")?,
                crate::i18n::t(lang, "audit.field.vp"),
                ns_vp,
                ew_vp
            ),
            None => format!(
                "{} {}–{}",
                crate::i18n::t(lang, "audit.field.vp"),
                ns_vp,
                ew_vp
            ),
        })
    };
    let sheet_result = |v: &Value| -> Option<String> {
        result(v).or_else(|| sheet_summary(lang, Some(l), v.get("sheet")?))
    };
    let story = match action {
        "sheet_entered" | "sheet_replaced" => crate::i18n::tf(
            lang,
            &format!("audit.table.{action}"),
            &[
                ("who", &who(line_of("entered_by"))),
                ("result", &sheet_result(&after).unwrap_or_default()),
            ],
        ),
        "sheet_confirmed" => crate::i18n::tf(
            lang,
            "audit.table.sheet_confirmed",
            &[
                ("who", &who(line_of("confirmed_by"))),
                ("result", &result(&after).unwrap_or_default()),
            ],
        ),
        "sheet_disputed" => crate::i18n::tf(
            lang,
            "audit.table.sheet_disputed",
            &[
                ("who", &who(line_of("disputed_by"))),
                (
                    "note",
                    &after
                        .get("note")
                        .and_then(Value::as_str)
                        .unwrap_or_default(),
                ),
            ],
        ),
        _ => return None,
    };
    Some(story)
}

/// The entry's fields with their values before and after.
pub fn changes(lang: &Lang, l: &Loaded, row: &AuditEntry) -> Vec<Change> {
    changes_of(
        *lang,
        Some(l),
        row.before_value.as_deref(),
        row.after_value.as_deref(),
    )
}

/// The fields of a stored before/after pair (`l` names pairs and scores sheets).
pub fn changes_of(
    lang: Lang,
    l: Option<&Loaded>,
    before: Option<&str>,
    after: Option<&str>,
) -> Vec<Change> {
    let before = fields(lang, l, before);
    let after = fields(lang, l, after);
    let mut keys: Vec<&String> = after.keys().collect();
    keys.extend(before.keys().filter(|k| !after.contains_key(*k)));
    keys.into_iter()
        .map(|k| Change {
            label: label(lang, k),
            before: before
                .get(k)
                .map(|v| value_text(lang, l, k, v))
                .unwrap_or_default(),
            after: after
                .get(k)
                .map(|v| value_text(lang, l, k, v))
                .unwrap_or_else(|| "—".to_string()),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_fields_read_in_the_readers_language() {
        let c = changes_of(
            Lang::It,
            None,
            Some(r#"{"role":"referee","active":true}"#),
            Some(r#"{"role":"director","active":false}"#),
        );
        assert_eq!(
            c,
            vec![
                Change {
                    label: "attivo".into(),
                    before: "sì".into(),
                    after: "no".into()
                },
                Change {
                    label: "ruolo".into(),
                    before: "Arbitro".into(),
                    after: "Direttore di torneo".into()
                },
            ]
        );
    }

    #[test]
    fn a_value_that_is_not_json_is_shown_not_dropped() {
        let c = changes_of(Lang::En, None, None, Some("not json {"));
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].after, "not json {");
    }
}
