//! The audit log in words: tests of `web::audit`.

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

#[test]
fn every_field_the_services_write_has_a_label_in_both_languages() {
    for field in FIELDS {
        for lang in Lang::ALL {
            let key = format!("audit.field.{field}");
            assert_ne!(t(lang, &key), key, "{lang}: {key}");
        }
    }
    for flag in FLAGS {
        for lang in Lang::ALL {
            let key = format!("audit.flag.{flag}");
            assert_ne!(t(lang, &key), key, "{lang}: {key}");
        }
    }
}

/// The field names of the services' audit entries (`("field",
/// Value…)` in `audit::values`, `"field":` in a `json!` of a user's
/// audit) are all in [`FIELDS`].
#[test]
fn the_services_write_only_labelled_fields() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut files = Vec::new();
    let mut dirs = vec![std::path::PathBuf::from(format!("{root}/src/services"))];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    let mut unknown = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let text = text.split("#[cfg(test)]").next().unwrap_or_default();
        for block in text.split("values([").skip(1) {
            let block = &block[..block.find("])").unwrap_or(block.len())];
            for piece in block.split("(\"").skip(1) {
                let name = &piece[..piece.find('"').unwrap_or(0)];
                let is_name =
                    !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c == '_');
                if is_name && !FIELDS.contains(&name) {
                    unknown.push(format!("{name} in {}", f.display()));
                }
            }
        }
        if text.contains("record_by(") || text.contains("insert_audit(") {
            for block in text.split("json!({").skip(1) {
                let block = &block[..block.find("})").unwrap_or(block.len())];
                for piece in block.split('"').collect::<Vec<_>>().windows(2) {
                    let (name, after) = (piece[0], piece[1]);
                    let is_key = after.trim_start().starts_with(':')
                        && !name.is_empty()
                        && name.chars().all(|c| c.is_ascii_lowercase() || c == '_');
                    if is_key && !FIELDS.contains(&name) && !FLAGS.contains(&name) {
                        unknown.push(format!("{name} in {}", f.display()));
                    }
                }
            }
        }
    }
    assert!(
        unknown.is_empty(),
        "audit fields without a label: {unknown:#?}"
    );
}

#[test]
fn team_and_account_entries_read_in_words() {
    let c = changes_of(
        Lang::It,
        None,
        Some(r#"{"lineup":"1+2 / 3+4"}"#),
        Some(r#"{"team":3,"lineup":"1+3 / 2+4","by":"captain"}"#),
    );
    let text: Vec<String> = c
        .iter()
        .map(|c| format!("{}: {} → {}", c.label, c.before, c.after))
        .collect();
    assert_eq!(
        text,
        [
            "da:  → il capitano, con il codice della squadra",
            "formazione: giocatori 1 e 2 in un tavolo, 3 e 4 nell'altro → giocatori 1 e 3 in un tavolo, 2 e 4 nell'altro",
            "squadra:  → 3",
        ]
    );
    let c = changes_of(
        Lang::It,
        None,
        None,
        Some(r#"{"count":1234,"because":"password"}"#),
    );
    assert_eq!(
        (c[0].label.as_str(), c[0].after.as_str()),
        ("perché", "password reimpostata")
    );
    assert_eq!(
        (c[1].label.as_str(), c[1].after.as_str()),
        ("token revocati", "1.234")
    );
    let c = changes_of(
        Lang::It,
        None,
        None,
        Some(r#"{"username":"admin","role":"admin","setup":true}"#),
    );
    assert_eq!(c[1].label, "creato alla prima configurazione del programma");
    assert!(c[1].after.is_empty());
    let c = changes_of(
        Lang::En,
        None,
        None,
        Some(r#"{"team_scoring":"tables","teams":4,"suit_order":"HDCS","entry_fee":"1234.5"}"#),
    );
    let after: Vec<&str> = c.iter().map(|c| c.after.as_str()).collect();
    assert_eq!(
        after,
        [
            "€1,234.50",
            "Hearts > Diamonds > Clubs > Spades",
            "Sum of the two tables' VP (0–40)",
            "4",
        ]
    );
}
