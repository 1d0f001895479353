//! The glossary (`catalog/glossary.*.json`): one term per concept and
//! language. The catalogs say a concept only with its glossary term; the
//! synonyms below are what the pages used to mix, and a test keeps them out.

#[cfg(test)]
mod tests {
    use crate::i18n::{t, try_catalog, Lang};

    /// (language, a word no message may use, the glossary key to use instead).
    const SYNONYMS: &[(Lang, &str, &str)] = &[
        (Lang::It, "VP", "term.vp"),
        (Lang::It, "segreteria", "term.desk"),
        (Lang::It, "no-show", "term.no_show"),
        (Lang::It, "penalty", "term.penalty"),
        (Lang::En, "PV", "term.vp"),
        (Lang::En, "smazzata", "term.hand"),
        (Lang::En, "coppia", "term.pair"),
        (Lang::En, "leg", "term.stage"),
        (Lang::It, "campionato", "term.circuit"),
        // Melded points are "a terra" (the forms, the sheets and the CSV).
        (Lang::It, "tavola", "term.melded"),
    ];

    /// The words of a message, its `{placeholders}` left out.
    fn words(text: &str) -> Vec<String> {
        let mut plain = String::new();
        let mut depth = 0;
        for c in text.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                c if depth == 0 => plain.push(c),
                _ => {}
            }
        }
        plain
            .split(|c: char| !(c.is_alphanumeric() || c == '-'))
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn every_concept_has_one_term_per_language() {
        for (lang, word, key) in SYNONYMS {
            let catalog = try_catalog(*lang).unwrap();
            let term = t(*lang, key);
            assert_ne!(term, *key, "{key} is in the glossary");
            let mut offenders: Vec<&str> = catalog
                .keys()
                .filter(|k| {
                    words(catalog.get(k).unwrap())
                        .iter()
                        .any(|w| w.eq_ignore_ascii_case(word))
                })
                .collect();
            offenders.sort_unstable();
            assert!(
                offenders.is_empty(),
                "{lang}: {offenders:?} say {word:?}; the glossary's word is {term:?} ({key})"
            );
        }
    }

    #[test]
    fn every_rule_profile_has_a_name_in_each_language() {
        for name in crate::rules::RuleProfile::names() {
            for lang in Lang::ALL {
                let key = format!("profile.{name}");
                assert_ne!(t(lang, &key), key, "{lang}: {key}");
            }
        }
    }
}
