//! Staff accounts: roles, usernames, passwords (argon2id, under a memory
//! bound), sessions and CSRF tokens. The brake on failed logins is the one
//! limiter's (`services::brakes`).

mod common;
pub mod csrf;
pub mod password;
pub mod session;
pub mod tokens;

use std::fmt;

/// What a staff member may do. Roles nest: an admin may do what a director
/// may, and a director what a referee may.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    Referee,
    Director,
    Admin,
}

impl Role {
    pub const ALL: [Role; 3] = [Role::Admin, Role::Director, Role::Referee];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::Director => "director",
            Role::Referee => "referee",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        match s.trim().to_ascii_lowercase().as_str() {
            "admin" => Some(Role::Admin),
            "director" => Some(Role::Director),
            "referee" => Some(Role::Referee),
            _ => None,
        }
    }

    /// True when this role includes the rights of `needed`.
    pub fn allows(self, needed: Role) -> bool {
        self >= needed
    }

    /// Catalog key of the role's name.
    pub fn label_key(self) -> &'static str {
        match self {
            Role::Admin => "role.admin",
            Role::Director => "role.director",
            Role::Referee => "role.referee",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a username or password was refused; each maps to a catalog key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum CredentialError {
    #[error("a username is 3 to 32 letters, digits, dots, dashes or underscores")]
    BadUsername,
    #[error("a password is at least 10 characters")]
    PasswordTooShort,
    #[error("a password is at most 128 characters")]
    PasswordTooLong,
    #[error("the two passwords differ")]
    PasswordsDiffer,
    #[error("this password is in a list of common passwords")]
    PasswordCommon,
}

impl CredentialError {
    pub fn key(self) -> &'static str {
        match self {
            CredentialError::BadUsername => "error.username_invalid",
            CredentialError::PasswordTooShort => "error.password_too_short",
            CredentialError::PasswordTooLong => "error.password_too_long",
            CredentialError::PasswordsDiffer => "error.passwords_differ",
            CredentialError::PasswordCommon => "error.password_common",
        }
    }
}

/// A valid username, kept lower-case so that `Anna` and `anna` are one user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Username(String);

impl Username {
    pub fn parse(s: &str) -> Result<Username, CredentialError> {
        let s = s.trim();
        let ok_len = (3..=32).contains(&s.chars().count());
        let ok_chars = s
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
        if ok_len && ok_chars {
            Ok(Username(s.to_ascii_lowercase()))
        } else {
            Err(CredentialError::BadUsername)
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A new password that meets the policy. Its `Debug` never shows it.
#[derive(Clone)]
pub struct NewPassword(String);

impl NewPassword {
    pub const MIN_CHARS: usize = 10;
    pub const MAX_CHARS: usize = 128;

    pub fn parse(password: &str, repeated: &str) -> Result<NewPassword, CredentialError> {
        let n = password.chars().count();
        if n < Self::MIN_CHARS {
            return Err(CredentialError::PasswordTooShort);
        }
        if n > Self::MAX_CHARS {
            return Err(CredentialError::PasswordTooLong);
        }
        if common::is_common(password) {
            return Err(CredentialError::PasswordCommon);
        }
        if password != repeated {
            return Err(CredentialError::PasswordsDiffer);
        }
        Ok(NewPassword(password.to_string()))
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for NewPassword {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("NewPassword(***)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_nest() {
        assert!(Role::Admin.allows(Role::Director));
        assert!(Role::Director.allows(Role::Referee));
        assert!(!Role::Referee.allows(Role::Director));
        assert!(!Role::Director.allows(Role::Admin));
        for r in Role::ALL {
            assert_eq!(Role::parse(r.as_str()), Some(r));
        }
        assert_eq!(Role::parse("root"), None);
    }

    #[test]
    fn usernames_are_checked_and_lowercased() {
        assert_eq!(Username::parse(" Anna.B ").unwrap().as_str(), "anna.b");
        assert!(Username::parse("ab").is_err());
        assert!(Username::parse("anna bianchi").is_err());
        assert!(Username::parse("<script>").is_err());
    }

    #[test]
    fn passwords_follow_the_policy_and_hide_in_debug() {
        assert_eq!(
            NewPassword::parse("short", "short").unwrap_err(),
            CredentialError::PasswordTooShort
        );
        assert_eq!(
            NewPassword::parse("long enough 1", "long enough 2").unwrap_err(),
            CredentialError::PasswordsDiffer
        );
        assert_eq!(
            NewPassword::parse("Password123", "Password123").unwrap_err(),
            CredentialError::PasswordCommon,
            "common, whatever the case"
        );
        assert_eq!(
            NewPassword::parse("1q2w3e4r5t", "1q2w3e4r5t").unwrap_err(),
            CredentialError::PasswordCommon
        );
        let p = NewPassword::parse("long enough 1", "long enough 1").unwrap();
        assert!(!format!("{p:?}").contains("long"));
    }
}
