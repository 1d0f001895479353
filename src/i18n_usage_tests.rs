//! Every catalog key the application uses exists in both languages. This
//! test lives above the core because it reads the templates and the web code.

use crate::i18n::{try_catalog, Lang};

/// Every literal key used by templates (`t("…")`) and by the code
/// (`"error.…"`, `"notice.…"` …) exists in both catalogs.
#[test]
fn every_key_used_in_templates_and_code_exists() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut files = Vec::new();
    collect(&format!("{root}/templates"), &mut files);
    collect(&format!("{root}/src/web"), &mut files);
    collect(&format!("{root}/src/auth"), &mut files);
    collect(&format!("{root}/src/error.rs"), &mut files);
    collect(&format!("{root}/crates/core/src/tournament"), &mut files);
    assert!(files.len() > 5);
    let prefixes = [
        "t(\"",
        "\"settings.",
        "\"pairs.",
        "\"import.",
        "\"round.",
        "\"draw.",
        "\"tournament.",
        "\"seat_draw.",
        "\"error.",
        "\"notice.",
        "\"role.",
        "\"nav.",
        "\"field.",
        "\"users.",
        "\"home.",
    ];
    let mut missing = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for p in prefixes {
            for (i, _) in text.match_indices(p) {
                // `asset("style.css")` is not a catalog lookup.
                if p.starts_with('t')
                    && text[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_')
                {
                    continue;
                }
                let start = i + p.len() - if p.starts_with('t') { 0 } else { p.len() - 1 };
                let rest = &text[start..];
                let Some(end) = rest.find('"') else { continue };
                let key = &rest[..end];
                let is_file = [".html", ".css", ".js", ".svg"]
                    .iter()
                    .any(|x| key.ends_with(x));
                if key.is_empty() || key.contains(' ') || !key.contains('.') || is_file {
                    continue;
                }
                for lang in Lang::ALL {
                    if try_catalog(lang).unwrap().get(key).is_none() {
                        missing.push(format!("{key} ({lang}) in {f}"));
                    }
                }
            }
        }
    }
    missing.sort();
    missing.dedup();
    assert!(missing.is_empty(), "missing catalog keys: {missing:#?}");
}

fn collect(path: &str, out: &mut Vec<String>) {
    let p = std::path::Path::new(path);
    if p.is_file() {
        out.push(path.to_string());
    } else if let Ok(rd) = std::fs::read_dir(p) {
        for e in rd.flatten() {
            collect(&e.path().display().to_string(), out);
        }
    }
}

/// Every string literal anywhere in `src/`, `crates/` and `templates/`
/// that has the shape of a catalog key of a family the catalogs use
/// (`"family.rest"`, lower case, digits, `_` and dots) is in both catalogs,
/// unless it is one of the few non-message names listed here (audit
/// actions, settings keys, file names): a key the code asks for at run
/// time cannot be missing without this test failing.
#[test]
fn every_key_shaped_literal_in_the_tree_is_in_both_catalogs() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut files = Vec::new();
    for dir in ["src", "crates", "templates"] {
        collect(&format!("{root}/{dir}"), &mut files);
    }
    files.retain(|f| {
        (f.ends_with(".rs") || f.ends_with(".html"))
            && !f.ends_with("_tests.rs")
            && !f.ends_with("/tests.rs")
            && !f.contains("/tests/")
            && !f.contains("/target/")
    });
    let catalogs: Vec<_> = Lang::ALL.iter().map(|l| try_catalog(*l).unwrap()).collect();
    let families: std::collections::BTreeSet<&str> = catalogs
        .iter()
        .flat_map(|c| c.keys())
        .filter_map(|k| k.split_once('.').map(|(f, _)| f))
        .collect();
    let mut missing = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        // Unit tests of a file are not the application's lookups.
        let text = match text.find("#[cfg(test)]\nmod tests") {
            Some(i) => &text[..i],
            None => &text[..],
        };
        for (i, _) in text.match_indices('"') {
            let rest = &text[i + 1..];
            let Some(end) = rest.find('"') else { continue };
            let key = &rest[..end];
            let Some((family, tail)) = key.split_once('.') else {
                continue;
            };
            let shaped = !tail.is_empty()
                && !key.ends_with('.')
                && key
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '.');
            let is_file = [".html", ".js", ".json", ".css", ".svg"]
                .iter()
                .any(|x| key.ends_with(x));
            if !shaped || is_file || !families.contains(family) || NOT_MESSAGES.contains(&key) {
                continue;
            }
            // A key that is the start of a longer one built at run time
            // (`"penalty.kind."` + kind) is followed by a format or `+`.
            for (lang, c) in Lang::ALL.iter().zip(&catalogs) {
                if c.get(key).is_none() {
                    missing.push(format!("{key} ({lang}) in {f}"));
                }
            }
        }
    }
    missing.sort();
    missing.dedup();
    assert!(missing.is_empty(), "missing catalog keys: {missing:#?}");
}

/// Key-shaped literals that are not catalog lookups: the audit log's
/// action names (stored as they are, shown through `audit.action.*`) and
/// the `app_settings` keys.
const NOT_MESSAGES: &[&str] = &[
    "adjusted.corrected",
    "adjusted.created",
    "clock.paused",
    "clock.resumed",
    "clock.started",
    "clock.time_out",
    "pairs.imported",
    "penalty.given",
    "penalty.kind",
    "penalty.reinstated",
    "penalty.withdrawn",
    "round.drawn",
    "round.generated",
    "round.undone",
    "settings.public_url",
    "settings.referees_see_all",
    "sheet.corrected",
    "sheet.created",
    "staff.added",
    "staff.removed",
    "table.sheet_confirmed",
    "table.sheet_disputed",
    "table.sheet_entered",
    "table.sheet_replaced",
    "tournament.closed",
    "tournament.created",
    "tournament.imported",
    "tournament.reopened",
    "tournament.settings",
];
