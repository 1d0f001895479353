//! Message catalogs (Italian and English). Pure: no web or database code here.
//!
//! Every user-facing string lives in a JSON catalog under `catalog/`, one flat
//! `key → text` map per file and language. Placeholders are written `{name}`
//! and filled by [`tf`]. A test checks both languages carry the same keys.

pub mod format;
pub mod glossary;

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

/// A language the program speaks. Italian is the default.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    It,
    En,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::It, Lang::En];

    pub fn code(self) -> &'static str {
        match self {
            Lang::It => "it",
            Lang::En => "en",
        }
    }

    /// `it`, `en`, `it-IT`, `en_GB.UTF-8`… → a language; anything else → `None`.
    pub fn parse(code: &str) -> Option<Lang> {
        let primary = code
            .trim()
            .split(['-', '_', '.', ';'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        match primary.as_str() {
            "it" => Some(Lang::It),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// The best language for an `Accept-Language` header (q-values honoured).
    pub fn from_accept_language(header: &str) -> Option<Lang> {
        let mut best: Option<(f32, Lang)> = None;
        for part in header.split(',') {
            let mut pieces = part.split(';');
            let tag = pieces.next().unwrap_or("");
            let q = pieces
                .find_map(|p| p.trim().strip_prefix("q="))
                .and_then(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            if let Some(lang) = Lang::parse(tag) {
                if q > 0.0 && best.is_none_or(|(bq, _)| q > bq) {
                    best = Some((q, lang));
                }
            }
        }
        best.map(|(_, l)| l)
    }

    /// The other language (for the switch shown on every page).
    pub fn other(self) -> Lang {
        match self {
            Lang::It => Lang::En,
            Lang::En => Lang::It,
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// The catalog sources, embedded in the binary. Add a file pair here when a
/// module brings its own messages; keys must be unique across files.
const SOURCES: &[(Lang, &str, &str)] = &[
    (
        Lang::It,
        "core.it.json",
        include_str!("catalog/core.it.json"),
    ),
    (
        Lang::En,
        "core.en.json",
        include_str!("catalog/core.en.json"),
    ),
    (
        Lang::It,
        "movement.it.json",
        include_str!("catalog/movement.it.json"),
    ),
    (
        Lang::En,
        "movement.en.json",
        include_str!("catalog/movement.en.json"),
    ),
    (
        Lang::It,
        "rules.it.json",
        include_str!("catalog/rules.it.json"),
    ),
    (
        Lang::En,
        "rules.en.json",
        include_str!("catalog/rules.en.json"),
    ),
    (
        Lang::It,
        "file.it.json",
        include_str!("catalog/file.it.json"),
    ),
    (
        Lang::En,
        "file.en.json",
        include_str!("catalog/file.en.json"),
    ),
    (
        Lang::It,
        "tournament.it.json",
        include_str!("catalog/tournament.it.json"),
    ),
    (
        Lang::En,
        "tournament.en.json",
        include_str!("catalog/tournament.en.json"),
    ),
    (
        Lang::It,
        "staff.it.json",
        include_str!("catalog/staff.it.json"),
    ),
    (
        Lang::En,
        "staff.en.json",
        include_str!("catalog/staff.en.json"),
    ),
    (
        Lang::It,
        "deskentry.it.json",
        include_str!("catalog/deskentry.it.json"),
    ),
    (
        Lang::En,
        "deskentry.en.json",
        include_str!("catalog/deskentry.en.json"),
    ),
    (
        Lang::It,
        "table.it.json",
        include_str!("catalog/table.it.json"),
    ),
    (
        Lang::En,
        "table.en.json",
        include_str!("catalog/table.en.json"),
    ),
    (
        Lang::It,
        "tokens.it.json",
        include_str!("catalog/tokens.it.json"),
    ),
    (
        Lang::En,
        "tokens.en.json",
        include_str!("catalog/tokens.en.json"),
    ),
    (
        Lang::It,
        "entries.it.json",
        include_str!("catalog/entries.it.json"),
    ),
    (
        Lang::En,
        "entries.en.json",
        include_str!("catalog/entries.en.json"),
    ),
    (
        Lang::It,
        "states.it.json",
        include_str!("catalog/states.it.json"),
    ),
    (
        Lang::En,
        "states.en.json",
        include_str!("catalog/states.en.json"),
    ),
    (
        Lang::It,
        "referee.it.json",
        include_str!("catalog/referee.it.json"),
    ),
    (
        Lang::En,
        "referee.en.json",
        include_str!("catalog/referee.en.json"),
    ),
    (
        Lang::It,
        "glossary.it.json",
        include_str!("catalog/glossary.it.json"),
    ),
    (
        Lang::En,
        "glossary.en.json",
        include_str!("catalog/glossary.en.json"),
    ),
    (
        Lang::It,
        "players.it.json",
        include_str!("catalog/players.it.json"),
    ),
    (
        Lang::En,
        "players.en.json",
        include_str!("catalog/players.en.json"),
    ),
    (
        Lang::It,
        "circuit.it.json",
        include_str!("catalog/circuit.it.json"),
    ),
    (
        Lang::En,
        "circuit.en.json",
        include_str!("catalog/circuit.en.json"),
    ),
    (
        Lang::It,
        "teams.it.json",
        include_str!("catalog/teams.it.json"),
    ),
    (
        Lang::En,
        "teams.en.json",
        include_str!("catalog/teams.en.json"),
    ),
    (
        Lang::It,
        "individual.it.json",
        include_str!("catalog/individual.it.json"),
    ),
    (
        Lang::En,
        "individual.en.json",
        include_str!("catalog/individual.en.json"),
    ),
    (
        Lang::It,
        "online.it.json",
        include_str!("catalog/online.it.json"),
    ),
    (
        Lang::En,
        "online.en.json",
        include_str!("catalog/online.en.json"),
    ),
    (
        Lang::It,
        "audit.it.json",
        include_str!("catalog/audit.it.json"),
    ),
    (
        Lang::En,
        "audit.en.json",
        include_str!("catalog/audit.en.json"),
    ),
];

/// One language's messages.
#[derive(Debug)]
pub struct Catalog {
    messages: HashMap<String, String>,
}

impl Catalog {
    fn load(lang: Lang) -> Result<Catalog, String> {
        let mut messages = HashMap::new();
        for (l, name, text) in SOURCES {
            if *l != lang {
                continue;
            }
            let map: HashMap<String, String> =
                serde_json::from_str(text).map_err(|e| format!("catalog {name}: {e}"))?;
            for (k, v) in map {
                if messages.insert(k.clone(), v).is_some() {
                    return Err(format!("catalog {name}: key {k} defined twice"));
                }
            }
        }
        Ok(Catalog { messages })
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.messages.get(key).map(String::as_str)
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.messages.keys().map(String::as_str)
    }
}

/// Loads (once) and returns the catalog of a language, or the reason it is broken.
pub fn try_catalog(lang: Lang) -> Result<&'static Catalog, &'static str> {
    static IT: OnceLock<Result<Catalog, String>> = OnceLock::new();
    static EN: OnceLock<Result<Catalog, String>> = OnceLock::new();
    let cell = match lang {
        Lang::It => &IT,
        Lang::En => &EN,
    };
    cell.get_or_init(|| Catalog::load(lang))
        .as_ref()
        .map_err(String::as_str)
}

/// The text for `key`. A missing key (a bug a test catches) shows the key itself.
pub fn t(lang: Lang, key: &str) -> &'static str {
    match try_catalog(lang) {
        Ok(c) => match c.get(key) {
            Some(s) => s,
            None => missing(key),
        },
        Err(_) => missing(key),
    }
}

fn missing(key: &str) -> &'static str {
    // Leak once per distinct missing key: keeps the `&'static str` signature
    // simple; missing keys are bugs that the catalog tests catch.
    static SEEN: OnceLock<std::sync::Mutex<HashMap<String, &'static str>>> = OnceLock::new();
    let seen = SEEN.get_or_init(Default::default);
    let mut guard = match seen.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    };
    if let Some(s) = guard.get(key) {
        return s;
    }
    let leaked: &'static str = Box::leak(key.to_string().into_boxed_str());
    guard.insert(key.to_string(), leaked);
    leaked
}

/// The text for `key` with `{name}` placeholders filled from `args`.
pub fn tf(lang: Lang, key: &str, args: &[(&str, &dyn fmt::Display)]) -> String {
    fill(t(lang, key), args)
}

/// Fills `{name}` placeholders in `template`.
pub fn fill(template: &str, args: &[(&str, &dyn fmt::Display)]) -> String {
    let mut out = template.to_string();
    for (name, value) in args {
        out = out.replace(&format!("{{{name}}}"), &value.to_string());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogs_load_and_have_the_same_keys() {
        let it = try_catalog(Lang::It).expect("Italian catalog loads");
        let en = try_catalog(Lang::En).expect("English catalog loads");
        let mut missing_en: Vec<_> = it.keys().filter(|k| en.get(k).is_none()).collect();
        let mut missing_it: Vec<_> = en.keys().filter(|k| it.get(k).is_none()).collect();
        missing_en.sort();
        missing_it.sort();
        assert!(
            missing_en.is_empty(),
            "keys missing in English: {missing_en:?}"
        );
        assert!(
            missing_it.is_empty(),
            "keys missing in Italian: {missing_it:?}"
        );
    }

    #[test]
    fn placeholders_match_between_languages() {
        let it = try_catalog(Lang::It).unwrap();
        let en = try_catalog(Lang::En).unwrap();
        for key in it.keys() {
            let a = placeholders(it.get(key).unwrap());
            let b = placeholders(en.get(key).unwrap_or(""));
            assert_eq!(a, b, "placeholders differ for {key}");
        }
    }

    fn placeholders(s: &str) -> Vec<String> {
        let mut v: Vec<String> = s
            .split('{')
            .skip(1)
            .filter_map(|p| p.split_once('}').map(|(n, _)| n.to_string()))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn accept_language_is_parsed() {
        assert_eq!(
            Lang::from_accept_language("en-GB,en;q=0.9,it;q=0.8"),
            Some(Lang::En)
        );
        assert_eq!(
            Lang::from_accept_language("fr-FR,it;q=0.5,en;q=0.4"),
            Some(Lang::It)
        );
        assert_eq!(Lang::from_accept_language("de"), None);
        assert_eq!(Lang::parse("en_US.UTF-8"), Some(Lang::En));
    }

    #[test]
    fn fill_replaces_placeholders() {
        assert_eq!(
            fill(
                "mano {hand}, linea {line}",
                &[("hand", &2), ("line", &"NS")]
            ),
            "mano 2, linea NS"
        );
    }
}
