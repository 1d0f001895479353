//! Typed columns: text in the database, enums in the code (the pattern of
//! vaultwarden and Lemmy, on both backends). A stored value that does not
//! read is a query error naming the type and the value, never a silent
//! default.

use diesel::backend::Backend;
use diesel::deserialize::{self, FromSql, FromSqlRow};
use diesel::expression::AsExpression;
use diesel::serialize::{self, Output, ToSql};
use diesel::sql_types::Text;

/// An enum stored as text: its variants and their stored words.
macro_rules! text_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, AsExpression, FromSqlRow, serde::Serialize)]
        #[diesel(sql_type = Text)]
        pub enum $name {
            $($(#[$vmeta])* #[serde(rename = $text)] $variant),+
        }

        impl $name {
            /// The stored word.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }

            pub fn parse(s: &str) -> Option<$name> {
                match s {
                    $($text => Some($name::$variant),)+
                    _ => None,
                }
            }
        }

        impl<DB> FromSql<Text, DB> for $name
        where
            DB: Backend,
            String: FromSql<Text, DB>,
        {
            fn from_sql(bytes: DB::RawValue<'_>) -> deserialize::Result<Self> {
                let s = String::from_sql(bytes)?;
                $name::parse(&s)
                    .ok_or_else(|| format!("{}: unknown value {s:?}", stringify!($name)).into())
            }
        }

        impl<DB> ToSql<Text, DB> for $name
        where
            DB: Backend,
            str: ToSql<Text, DB>,
        {
            fn to_sql<'b>(&'b self, out: &mut Output<'b, '_, DB>) -> serialize::Result {
                self.as_str().to_sql(out)
            }
        }
    };
}

text_enum! {
    /// Where a table's entry stands (`sheet_entries.status`).
    EntryStatus {
        Entered => "entered",
        Confirmed => "confirmed",
        Disputed => "disputed",
    }
}

text_enum! {
    /// Who entered or answered a table's entry (`sheet_entries.entered_by`,
    /// `decided_by`): a line of the table, or the desk.
    EntrySide {
        Ns => "ns",
        Ew => "ew",
        Desk => "desk",
    }
}

impl EntrySide {
    /// The line, for a pair's side.
    pub fn line(self) -> Option<crate::rules::Line> {
        match self {
            EntrySide::Ns => Some(crate::rules::Line::Ns),
            EntrySide::Ew => Some(crate::rules::Line::Ew),
            EntrySide::Desk => None,
        }
    }
}

impl From<crate::rules::Line> for EntrySide {
    fn from(l: crate::rules::Line) -> EntrySide {
        match l {
            crate::rules::Line::Ns => EntrySide::Ns,
            crate::rules::Line::Ew => EntrySide::Ew,
        }
    }
}

/// A stored role (`users.role`, read with `deserialize_as = String`): an
/// unknown word is an error naming it.
impl TryFrom<String> for crate::auth::Role {
    type Error = String;

    fn try_from(s: String) -> Result<Self, Self::Error> {
        crate::auth::Role::parse(&s).ok_or_else(|| format!("Role: unknown value {s:?}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::auth::Role;

    #[test]
    fn stored_words_read_back_and_unknown_ones_are_errors() {
        for s in [
            EntryStatus::Entered,
            EntryStatus::Confirmed,
            EntryStatus::Disputed,
        ] {
            assert_eq!(EntryStatus::parse(s.as_str()), Some(s));
        }
        for s in [EntrySide::Ns, EntrySide::Ew, EntrySide::Desk] {
            assert_eq!(EntrySide::parse(s.as_str()), Some(s));
            assert_eq!(serde_json::to_value(s).unwrap(), s.as_str());
        }
        assert_eq!(EntryStatus::parse("Confirmed"), None);
        assert_eq!(EntrySide::parse("north"), None);
        assert_eq!(Role::try_from("director".to_string()), Ok(Role::Director));
        assert!(Role::try_from("captain".to_string())
            .unwrap_err()
            .contains("captain"));
        assert_eq!(
            EntrySide::from(crate::rules::Line::Ew).line(),
            Some(crate::rules::Line::Ew)
        );
        assert_eq!(EntrySide::Desk.line(), None);
    }
}
