//! The codes printed on a tournament's cards, as typed and normalised once:
//! a table's code (names the table), a pair's code and a team's code (the
//! credentials of the table side and of a captain's line-up).

use std::fmt;

/// A table's code: trimmed, upper case, spaces and dashes dropped
/// (` ack-7 9x ` is `ACK79X`), whatever the phone or the card reader typed.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TableCode(String);

impl TableCode {
    /// The code as typed, normalised.
    pub fn parse(typed: &str) -> TableCode {
        TableCode(
            typed
                .chars()
                .filter(|c| !c.is_whitespace() && *c != '-')
                .map(|c| c.to_ascii_uppercase())
                .collect(),
        )
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for TableCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A pair's private code, or in a team tournament the team's code, as
/// typed at a table: spaces dropped (the code is compared as stored).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PairCode(String);

impl PairCode {
    /// The code as typed without its spaces (an empty code matches no
    /// pair: it is refused where a wrong code is).
    pub fn parse(typed: &str) -> PairCode {
        PairCode(typed.chars().filter(|c| !c.is_whitespace()).collect())
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for PairCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A team's code as a captain types it: the same rule as a pair's code.
pub type TeamCode = PairCode;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_code_is_upper_case_without_spaces_or_dashes() {
        assert_eq!(TableCode::parse(" ack-7 9x ").as_str(), "ACK79X");
        assert_eq!(TableCode::parse("").as_str(), "");
    }

    #[test]
    fn a_pair_code_drops_its_spaces() {
        assert_eq!(PairCode::parse(" 551 903 ").as_str(), "551903");
        assert_eq!(PairCode::parse("k7wq").as_str(), "k7wq");
        assert!(PairCode::parse("  ").is_empty());
    }
}
