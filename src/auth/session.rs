//! Server-side sessions. The browser holds a random 256-bit token in an
//! HttpOnly cookie; the database holds only its SHA-256, so a leaked database
//! does not leak sessions. A session dies at logout, after idle expiry, or when
//! its user is disabled or has a password reset.

use rand::RngCore;
use sha2::{Digest, Sha256};

/// The session cookie's name.
pub const COOKIE: &str = "btd_session";
/// The anonymous cookie that CSRF tokens bind to before login.
pub const ANON_COOKIE: &str = "btd_anon";

/// A fresh random token (64 hex characters).
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

/// What the database stores for a token.
pub fn token_id(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// True when a cookie value has the shape of a token we issued.
pub fn looks_like_token(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_hashed() {
        let a = new_token();
        let b = new_token();
        assert_ne!(a, b);
        assert!(looks_like_token(&a));
        assert_ne!(token_id(&a), a);
        assert_eq!(token_id(&a), token_id(&a));
        assert!(!looks_like_token("abc"));
    }
}
