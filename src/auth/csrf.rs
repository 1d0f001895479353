//! CSRF tokens: an HMAC of the session (or, before login, of an anonymous
//! browser cookie) under the server's secret key. Nothing to store; a token is
//! only good for the browser it was given to. Tokens are never logged.

use hmac::{Hmac, Mac};
use sha2::Sha256;

type HmacSha256 = Hmac<Sha256>;

/// The name of the form field (and of the `X-CSRF-Token` header's query twin).
pub const FIELD: &str = "csrf_token";
pub const HEADER: &str = "x-csrf-token";

/// The server's secret key for CSRF tokens (32 random bytes, kept in the database).
#[derive(Clone)]
pub struct CsrfKey(Vec<u8>);

impl CsrfKey {
    pub fn from_bytes(bytes: Vec<u8>) -> Self {
        CsrfKey(bytes)
    }

    fn mac(&self, binding: &str) -> HmacSha256 {
        // HMAC accepts keys of any length: new_from_slice cannot fail here.
        let mut mac = match HmacSha256::new_from_slice(&self.0) {
            Ok(m) => m,
            Err(_) => unreachable_key(),
        };
        mac.update(b"burraco-td csrf v1|");
        mac.update(binding.as_bytes());
        mac
    }

    /// The token for a binding value (the session token or the anonymous cookie).
    pub fn token_for(&self, binding: &str) -> String {
        hex::encode(self.mac(binding).finalize().into_bytes())
    }

    /// Constant-time check of a submitted token.
    pub fn verify(&self, binding: &str, token: &str) -> bool {
        match hex::decode(token.trim()) {
            Ok(bytes) => self.mac(binding).verify_slice(&bytes).is_ok(),
            Err(_) => false,
        }
    }
}

impl std::fmt::Debug for CsrfKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CsrfKey(***)")
    }
}

#[cold]
fn unreachable_key() -> ! {
    // Hmac<Sha256> takes any key length; this cannot happen.
    std::process::abort()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_verify_only_for_their_binding_and_key() {
        let key = CsrfKey::from_bytes(vec![7; 32]);
        let t = key.token_for("session-a");
        assert!(key.verify("session-a", &t));
        assert!(!key.verify("session-b", &t));
        assert!(!key.verify("session-a", "00"));
        assert!(!key.verify("session-a", "not hex"));
        let other = CsrfKey::from_bytes(vec![8; 32]);
        assert!(!other.verify("session-a", &t));
    }
}
