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
