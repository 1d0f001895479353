//! Personal API tokens: `btd_` and 64 hex digits (256 random bits), sent as
//! `Authorization: Bearer …`. The database keeps only the token's SHA-256.
//!
//! A plain, unsalted SHA-256 is enough here (unlike passwords, which get
//! argon2): the token is 256 bits from the OS's random source, so there is no
//! dictionary to try and no way to brute-force the preimage; a slow hash would
//! only make every API request slow. It also lets a request find its token by
//! an indexed equality lookup on the hash.

use rand::RngCore;
use sha2::{Digest, Sha256};

/// What every token starts with: tells a token from a session or a password
/// at a glance (and to secret scanners).
pub const PREFIX: &str = "btd_";

/// The longest label a token may carry, in characters.
pub const LABEL_MAX: usize = 60;

/// A new random token (shown once, never stored).
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    format!("{PREFIX}{}", hex::encode(bytes))
}

/// What the database stores for a token.
pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// True when `s` has the shape of a token we issue (checked before any lookup).
pub fn looks_like_token(s: &str) -> bool {
    s.strip_prefix(PREFIX)
        .is_some_and(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The token of an `Authorization` header value: `Bearer TOKEN` (the scheme
/// is case-insensitive, RFC 7235). `None` for another scheme or no token.
pub fn from_authorization(value: &str) -> Option<&str> {
    let (scheme, rest) = value.trim().split_once(' ')?;
    scheme
        .eq_ignore_ascii_case("bearer")
        .then(|| rest.trim())
        .filter(|t| !t.is_empty())
}

/// A token's label: what the owner calls it ("scoreboard", "laptop").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenLabel(String);

/// Why a label was refused (each maps to a catalog key).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LabelError {
    #[error("a token needs a label")]
    Empty,
    #[error("a token's label is at most 60 characters")]
    TooLong,
}

impl LabelError {
    pub fn key(self) -> &'static str {
        match self {
            LabelError::Empty => "tokens.error.label_empty",
            LabelError::TooLong => "tokens.error.label_too_long",
        }
    }
}

impl TokenLabel {
    /// Trims the label and folds control characters (tabs, newlines) into spaces.
    pub fn parse(s: &str) -> Result<TokenLabel, LabelError> {
        let cleaned: String = s
            .trim()
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        if cleaned.is_empty() {
            Err(LabelError::Empty)
        } else if cleaned.chars().count() > LABEL_MAX {
            Err(LabelError::TooLong)
        } else {
            Ok(TokenLabel(cleaned))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_prefixed_and_hashed() {
        let a = new_token();
        let b = new_token();
        assert_ne!(a, b);
        assert!(a.starts_with(PREFIX));
        assert_eq!(a.len(), PREFIX.len() + 64);
        assert!(looks_like_token(&a));
        assert!(!looks_like_token(&a[PREFIX.len()..]));
        assert!(!looks_like_token("btd_xyz"));
        assert_ne!(token_hash(&a), a);
        assert_eq!(token_hash(&a), token_hash(&a));
        assert!(!token_hash(&a).contains(&a[PREFIX.len()..]));
    }

    #[test]
    fn bearer_headers_are_read() {
        assert_eq!(from_authorization("Bearer abc"), Some("abc"));
        assert_eq!(from_authorization("bearer   abc "), Some("abc"));
        assert_eq!(from_authorization("BEARER abc"), Some("abc"));
        assert_eq!(from_authorization("Basic abc"), None);
        assert_eq!(from_authorization("Bearer"), None);
        assert_eq!(from_authorization("Bearer   "), None);
        assert_eq!(from_authorization(""), None);
    }

    #[test]
    fn labels_are_trimmed_and_bounded() {
        assert_eq!(TokenLabel::parse("  laptop ").unwrap().as_str(), "laptop");
        assert_eq!(TokenLabel::parse("a\tb").unwrap().as_str(), "a b");
        assert_eq!(TokenLabel::parse("   "), Err(LabelError::Empty));
        assert_eq!(
            TokenLabel::parse(&"é".repeat(60))
                .unwrap()
                .as_str()
                .chars()
                .count(),
            60
        );
        assert_eq!(TokenLabel::parse(&"é".repeat(61)), Err(LabelError::TooLong));
    }
}
