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

/// Every field the services write to an audit log (a tournament's or the
/// accounts'), each labelled `audit.field.{name}` in both catalogs (a test
/// keeps the list and the catalogs together).
pub const FIELDS: &[&str] = &[
    // A tournament's settings (the settings form's fields).
    "name",
    "date",
    "start_time",
    "venue",
    "profile",
    "planned_rounds",
    "hands_per_round",
    "vp_scale",
    "minutes_per_round",
    "mitchell_rounds",
    "danish_form",
    "mitchell_advance",
    "allow_repeats",
    "separate_clubs",
    "online_entries",
    "capacity",
    "entries_close_at",
    "member_check",
    "group_rounds",
    "group_form",
    "group_count",
    "group_tables",
    "group_prizes",
    "level",
    "bye_vp",
    "entry_fee",
    "prize_share_percent",
    "guaranteed_pool",
    "payout",
    "suit_order",
    "table_entry",
    "sheet_mode",
    "kind",
    // Pairs, rounds, the clock, penalties, sheets.
    "number",
    "from_round",
    "pairs",
    "tables",
    "redraw",
    "movement",
    "missing_tables",
    "no_shows",
    "time_left",
    "paused",
    "back_to_draft",
    "penalty",
    "pair_id",
    "amount",
    "adjusted",
    "ns_vp",
    "ew_vp",
    "ns_mp_diff",
    "ew_mp_diff",
    "totals",
    "vp",
    "hands",
    "p1_surname",
    "p1_name",
    "p1_card",
    "p1_club",
    "p2_surname",
    "p2_name",
    "p2_card",
    "p2_club",
    "owner_id",
    "user",
    "role",
    // Teams.
    "team",
    "teams",
    "matches",
    "players",
    "imported",
    "lineup",
    "by",
    "team_scoring",
    "groups",
    // Individual tournaments.
    "player",
    "players_imported",
    "resting",
    // Accounts and tokens.
    "username",
    "active",
    "referees_see_all",
    "public_url",
    "count",
    "because",
    "id",
    "label",
    // A value that is not an object.
    "value",
];

/// Fields that are always `true` when written: said as one phrase
/// (`audit.flag.{name}`), not as "name: yes".
const FLAGS: &[&str] = &["setup"];

fn label(lang: Lang, field: &str) -> String {
    let key = format!("audit.field.{field}");
    let text = t(lang, &key);
    if text == key {
        field.replace('_', " ")
    } else {
        text.to_string()
    }
}

/// A whole number as the language writes it (`7.265`).
fn integer(lang: Lang, n: i64) -> String {
    crate::i18n::format::integer(lang, n)
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
        integer(lang, r.totals.ns),
        crate::rules::Line::Ew.label(lang),
        integer(lang, r.totals.ew),
        t(lang, "audit.field.vp"),
        r.vp.ns,
        r.vp.ew
    ))
}

/// A catalog text for a stored code (`{prefix}{code}`, the prefix ending in a dot), or the code when
/// the catalog has none (a test keeps that from happening).
fn word(lang: Lang, prefix: &str, code: &str) -> String {
    let key = if prefix.ends_with('.') {
        format!("{prefix}{code}")
    } else {
        format!("{prefix}.{code}")
    };
    let text = t(lang, &key);
    if text == key {
        code.to_string()
    } else {
        text.to_string()
    }
}

/// A team's line-up as stored ("1+3 / 2+4"), in words.
fn lineup_words(lang: Lang, text: &str) -> Option<String> {
    let (one, two) = text.split_once('/')?;
    let (a, b) = one.trim().split_once('+')?;
    let (c, d) = two.trim().split_once('+')?;
    Some(crate::i18n::tf(
        lang,
        "audit.lineup",
        &[
            ("a", &a.trim()),
            ("b", &b.trim()),
            ("c", &c.trim()),
            ("d", &d.trim()),
        ],
    ))
}

fn string_text(lang: Lang, field: &str, s: &str) -> String {
    match field {
        // The settings form's codes, in the reader's language.
        "table_entry" | "allow_repeats" | "separate_clubs" | "online_entries" | "member_check" => {
            t(lang, if s == "on" { "audit.yes" } else { "audit.no" }).to_string()
        }
        "sheet_mode" => match s {
            "totals" => t(lang, "deskentry.mode.totals").to_string(),
            _ => t(lang, "deskentry.mode.full").to_string(),
        },
        "profile" => crate::i18n::tf(lang, &format!("profile.{s}"), &[]),
        "danish_form" => match s {
            "modified" => t(lang, "movement_kind.danish_modified").to_string(),
            "pure" => t(lang, "movement_kind.danish").to_string(),
            _ => s.to_string(),
        },
        "group_form" => match s {
            "modified" => t(lang, "movement_kind.danish_groups_modified").to_string(),
            "pure" => t(lang, "movement_kind.danish_groups").to_string(),
            _ => s.to_string(),
        },
        "level" => word(lang, "level.", s),
        "entry_fee" | "guaranteed_pool" => s
            .parse::<rust_decimal::Decimal>()
            .map(|d| crate::i18n::format::money(lang, d))
            .unwrap_or_else(|_| s.to_string()),
        "prize_share_percent" => s
            .parse::<rust_decimal::Decimal>()
            .map(|d| format!("{}\u{a0}%", crate::i18n::format::decimal(lang, d)))
            .unwrap_or_else(|_| s.to_string()),
        "suit_order" => crate::rules::SuitOrder::parse_typed(s)
            .map(|o| o.names(lang))
            .unwrap_or_else(|_| s.to_string()),
        "vp_scale" => s
            .split_whitespace()
            .map(|n| {
                n.parse::<i64>()
                    .map_or_else(|_| n.to_string(), |n| integer(lang, n))
            })
            .collect::<Vec<_>>()
            .join(" "),
        // A tournament's kind (an import) or a penalty's.
        "kind" if s == "pairs" || s == "teams" => word(lang, "teams.kind.", s),
        "kind" => word(lang, "penalty.kind.", s),
        "role" => word(lang, "role", s),
        "movement" => word(lang, "movement_kind.", s),
        "by" => word(lang, "audit.by.", &s.replace(' ', "_")),
        "because" => word(lang, "audit.because.", s),
        "team_scoring" => word(lang, "teams.method.", s),
        "status" => word(lang, "board.state.", s),
        "entered_by" | "confirmed_by" | "disputed_by" => match s {
            "ns" => crate::rules::Line::Ns.label(lang).to_string(),
            "ew" => crate::rules::Line::Ew.label(lang).to_string(),
            _ => s.to_string(),
        },
        "lineup" => lineup_words(lang, s).unwrap_or_else(|| s.to_string()),
        _ => s.to_string(),
    }
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
        (_, Value::String(s)) => string_text(lang, field, s),
        // Ids are names, not quantities.
        ("id" | "user" | "owner_id" | "penalty", Value::Number(n)) => n.to_string(),
        (_, Value::Number(n)) => n
            .as_i64()
            .map_or_else(|| n.to_string(), |i| integer(lang, i)),
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
        // A tournament's kind is chosen once: the settings' empty `kind`
        // says nothing.
        Ok(Value::Object(mut m)) => {
            if m.get("kind").and_then(Value::as_str) == Some("") {
                m.remove("kind");
            }
            m
        }
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
                integer(lang, t.get("ns")?.as_i64()?),
                crate::rules::Line::Ew.label(lang),
                integer(lang, t.get("ew")?.as_i64()?),
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
        .map(|k| {
            let flag = FLAGS.contains(&k.as_str()) && after.get(k) == Some(&Value::Bool(true));
            let command_line =
                k == "by" && after.get(k).and_then(Value::as_str) == Some("command line");
            if flag || command_line {
                let key = if flag {
                    format!("audit.flag.{k}")
                } else {
                    "audit.flag.command_line".into()
                };
                return Change {
                    label: t(lang, &key).to_string(),
                    before: String::new(),
                    after: String::new(),
                };
            }
            Change {
                label: label(lang, k),
                before: before
                    .get(k)
                    .map(|v| value_text(lang, l, k, v))
                    .unwrap_or_default(),
                after: after
                    .get(k)
                    .map(|v| value_text(lang, l, k, v))
                    .unwrap_or_else(|| "—".to_string()),
            }
        })
        .collect()
}

#[cfg(test)]
#[path = "audit_tests.rs"]
mod tests;
