//! Free text from forms, CSV files and tournament files: one place that
//! decides what a text field may hold. Control characters (a NUL byte, an
//! escape, a carriage return…) are refused with a message next to the field:
//! they are invisible on the page, break PostgreSQL (`NUL` in a `TEXT`
//! column) and turn exported files into traps.

use super::FieldProblem;

/// The catalog key of "contains a control character".
pub const CONTROL_KEY: &str = "text.error.control";
/// The catalog key of "at most {max} characters".
pub const TOO_LONG_KEY: &str = "text.error.too_long";

/// The longest reason or note (a penalty's reason, a corrected sheet's
/// reason, a referee's note).
pub const MAX_REASON_CHARS: usize = 500;

/// A reason or note: several lines allowed, required (an empty one is
/// refused with `required_key`), at most [`MAX_REASON_CHARS`].
pub fn clean_reason(
    field: &'static str,
    value: &str,
    required_key: &str,
) -> Result<String, FieldProblem> {
    let reason = clean_text(field, value, MAX_REASON_CHARS)?;
    if reason.is_empty() {
        return Err(FieldProblem::new(field, required_key));
    }
    Ok(reason)
}

/// The first control character of a text, as people can read it (`U+0000`).
fn first_control(value: &str, allowed: &[char]) -> Option<char> {
    value
        .chars()
        .find(|c| c.is_control() && !allowed.contains(c))
}

fn control_problem(field: &'static str, c: char) -> FieldProblem {
    FieldProblem::new(field, CONTROL_KEY).with("code", format!("U+{:04X}", u32::from(c)))
}

/// A one-line field (a name, a club, a venue): refuses any control
/// character, collapses runs of spaces into one, trims, and refuses more
/// than `max_chars` characters. An empty result is returned as is: the
/// caller knows whether the field is required.
pub fn clean_line(
    field: &'static str,
    value: &str,
    max_chars: usize,
) -> Result<String, FieldProblem> {
    if let Some(c) = first_control(value, &[]) {
        return Err(control_problem(field, c));
    }
    let cleaned = value.split_whitespace().collect::<Vec<_>>().join(" ");
    check_length(field, cleaned, max_chars)
}

/// A multi-line field (a note, a reason): allows line breaks and tabs only
/// (`\r\n` and a lone `\r` become `\n`, as browsers send them), trims the
/// whole text and the end of each line, and refuses more than `max_chars`.
pub fn clean_text(
    field: &'static str,
    value: &str,
    max_chars: usize,
) -> Result<String, FieldProblem> {
    let unified = value.replace("\r\n", "\n").replace('\r', "\n");
    if let Some(c) = first_control(&unified, &['\n', '\t']) {
        return Err(control_problem(field, c));
    }
    let cleaned = unified
        .lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string();
    check_length(field, cleaned, max_chars)
}

fn check_length(
    field: &'static str,
    cleaned: String,
    max_chars: usize,
) -> Result<String, FieldProblem> {
    if cleaned.chars().count() > max_chars {
        return Err(FieldProblem::new(field, TOO_LONG_KEY).with("max", max_chars));
    }
    Ok(cleaned)
}

/// True when a text has a control character (for checks that only need to
/// know, such as the tournament file's validation).
pub fn has_control(value: &str) -> bool {
    first_control(value, &[]).is_some()
}

/// The most characters of a public address.
pub const MAX_PUBLIC_URL_CHARS: usize = 200;

/// The address players reach the server at (printed in the QR codes of the
/// table cards): `http://` or `https://`, a host, an optional port and
/// path; no query, fragment, spaces or user. Empty is `None` (the request's
/// own address is used). A trailing `/` is dropped.
pub fn parse_public_url(field: &'static str, text: &str) -> Result<Option<String>, FieldProblem> {
    let text = text.trim().trim_end_matches('/');
    if text.is_empty() {
        return Ok(None);
    }
    let bad = || FieldProblem::new(field, "text.error.public_url");
    if text.chars().count() > MAX_PUBLIC_URL_CHARS {
        return Err(FieldProblem::new(field, TOO_LONG_KEY).with("max", MAX_PUBLIC_URL_CHARS));
    }
    let rest = text
        .strip_prefix("http://")
        .or_else(|| text.strip_prefix("https://"))
        .ok_or_else(bad)?;
    let host = rest.split('/').next().unwrap_or("");
    let ok = !host.is_empty()
        && !host.starts_with(':')
        && !text
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || matches!(c, '?' | '#' | '@' | '\\'));
    if ok {
        Ok(Some(text.to_string()))
    } else {
        Err(bad())
    }
}

/// The host of an `http(s)://host[:port]/…` address, without the port.
pub fn url_host(url: &str) -> &str {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"))
        .unwrap_or(url);
    let authority = rest.split('/').next().unwrap_or("");
    if let Some(v6) = authority.strip_prefix('[') {
        return v6.split(']').next().unwrap_or("");
    }
    authority.split(':').next().unwrap_or("")
}

/// Whether an address only this machine can open: `localhost`, 127.x,
/// `::1`, `0.0.0.0` (a phone scanning a card printed with it reaches
/// nothing).
pub fn is_loopback_url(url: &str) -> bool {
    let host = url_host(url).to_ascii_lowercase();
    host == "localhost"
        || host.ends_with(".localhost")
        || host == "0.0.0.0"
        || host == "::"
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback() || ip.is_unspecified())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    #[test]
    fn one_line_fields_are_trimmed_and_refuse_control_characters() {
        assert_eq!(
            clean_line("surname", "  D'Angelo   Rossi ", 60).unwrap(),
            "D'Angelo Rossi"
        );
        assert_eq!(
            clean_line("surname", "\u{a0}Nicolò\u{a0}", 60).unwrap(),
            "Nicolò"
        );
        assert_eq!(clean_line("surname", "", 60).unwrap(), "");
        for bad in [
            "Ros\0si",
            "Rossi\n",
            "\tRossi",
            "Ros\rsi",
            "Ros\u{1b}si",
            "Ros\u{7f}si",
            "Ros\u{85}si",
        ] {
            let e = clean_line("surname", bad, 60).unwrap_err();
            assert_eq!(
                (e.field, e.key.as_str()),
                ("surname", CONTROL_KEY),
                "{bad:?}"
            );
        }
        let e = clean_line("surname", "Ros\0si", 60).unwrap_err();
        assert!(
            e.message(Lang::En).contains("U+0000"),
            "{}",
            e.message(Lang::En)
        );
        assert!(e.message(Lang::It).contains("U+0000"));
    }

    #[test]
    fn the_length_counts_characters_after_cleaning() {
        assert_eq!(clean_line("name", &"à".repeat(5), 5).unwrap(), "ààààà");
        let e = clean_line("name", &"à".repeat(6), 5).unwrap_err();
        assert_eq!(e.key, TOO_LONG_KEY);
        assert!(e.message(Lang::It).contains('5'));
        assert!(clean_line("name", "  a   b  ", 3).is_ok());
    }

    #[test]
    fn notes_keep_line_breaks_and_tabs_only() {
        assert_eq!(
            clean_text("note", " first line  \r\n\tsecond\rthird \n", 100).unwrap(),
            "first line\n\tsecond\nthird"
        );
        for bad in ["a\0b", "a\u{1b}[31mb", "a\u{8}b"] {
            assert_eq!(clean_text("note", bad, 100).unwrap_err().key, CONTROL_KEY);
        }
        assert_eq!(
            clean_text("note", "abcdef", 5).unwrap_err().key,
            TOO_LONG_KEY
        );
        assert!(has_control("x\0"));
        assert!(!has_control("Società"));
    }

    #[test]
    fn public_urls_are_checked_and_loopback_is_seen() {
        assert_eq!(parse_public_url("u", "  ").unwrap(), None);
        assert_eq!(
            parse_public_url("u", "https://burraco.club.it/").unwrap(),
            Some("https://burraco.club.it".into())
        );
        assert_eq!(
            parse_public_url("u", "http://192.168.1.20:8080").unwrap(),
            Some("http://192.168.1.20:8080".into())
        );
        for bad in [
            "burraco.club.it",
            "ftp://x",
            "http://",
            "http://a b",
            "https://x/?q=1",
            "http://u@x",
        ] {
            assert_eq!(
                parse_public_url("u", bad).unwrap_err().key,
                "text.error.public_url",
                "{bad}"
            );
        }
        for lo in [
            "http://127.0.0.1:8080",
            "http://localhost:8080",
            "http://[::1]:8080",
            "http://0.0.0.0",
            "http://LOCALHOST",
        ] {
            assert!(is_loopback_url(lo), "{lo}");
        }
        for net in [
            "http://192.168.1.20:8080",
            "https://burraco.club.it",
            "http://[fe80::1]:80",
        ] {
            assert!(!is_loopback_url(net), "{net}");
        }
        assert_eq!(url_host("http://[::1]:8080/x"), "::1");
        assert_eq!(url_host("https://a.b:9/c"), "a.b");
    }
}
