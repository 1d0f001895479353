//! The list of common passwords that a new password may not be.
//!
//! `data/common-passwords.txt.gz` is Django's list (`django/contrib/auth/
//! common-passwords.txt.gz` in Django 5.2.19: 19,640 lower-case passwords
//! compiled by Royce Williams), used under Django's BSD 3-clause licence,
//! whose text is in `data/common-passwords.LICENSE`. It is embedded
//! in the binary and decompressed once, on first use.

use std::collections::HashSet;
use std::io::Read;
use std::sync::OnceLock;

const LIST_GZ: &[u8] = include_bytes!("../../data/common-passwords.txt.gz");

fn list() -> &'static HashSet<String> {
    static LIST: OnceLock<HashSet<String>> = OnceLock::new();
    LIST.get_or_init(|| {
        let mut text = String::new();
        // The file is part of the binary and checked by a test: it cannot
        // fail to decompress; an empty list would only weaken the policy.
        if flate2::read::GzDecoder::new(LIST_GZ)
            .read_to_string(&mut text)
            .is_err()
        {
            text.clear();
        }
        text.lines()
            .map(|l| l.trim().to_lowercase())
            .filter(|l| !l.is_empty())
            .collect()
    })
}

/// True when `password` is on the list, ignoring case (and the spaces
/// around it, which a person does not see).
pub fn is_common(password: &str) -> bool {
    list().contains(&password.trim().to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_there_and_case_insensitive() {
        assert!(list().len() > 19_000, "{}", list().len());
        assert!(is_common("password"));
        assert!(is_common("PassWord123"));
        assert!(is_common("qwertyuiop"));
        assert!(!is_common("correct horse battery"));
    }
}
