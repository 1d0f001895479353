//! The member list (issue 36, RULES.md §15): the club's members read from
//! a CSV or spreadsheet (headers `card, surname, name, valid_until, type`
//! or the Italian `tessera, cognome, nome, scadenza, tipo`), and the check
//! of an entry's card against it on the tournament's date and level.

use chrono::NaiveDate;

use super::csv_import::{read_up_to, MAX_SHEET_LINES};

/// The most members one list holds.
pub const MAX_MEMBERS: usize = MAX_SHEET_LINES;
use super::plan::Level;
use super::FieldProblem;

/// A card's type (RULES.md §15).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardType {
    Ordinaria,
    Ridotta,
    Juniores,
}

impl CardType {
    pub fn code(self) -> &'static str {
        match self {
            CardType::Ordinaria => "ordinaria",
            CardType::Ridotta => "ridotta",
            CardType::Juniores => "juniores",
        }
    }

    pub fn parse(s: &str) -> Option<CardType> {
        match s.trim().to_lowercase().as_str() {
            "ordinaria" | "ordinary" => Some(CardType::Ordinaria),
            "ridotta" | "reduced" => Some(CardType::Ridotta),
            "juniores" | "junior" => Some(CardType::Juniores),
            _ => None,
        }
    }

    /// Whether this card enters a tournament of `level`: a ridotta only
    /// club and federal ones.
    pub fn enters(self, level: Level) -> bool {
        !(self == CardType::Ridotta && matches!(level, Level::Regional | Level::National))
    }
}

/// One member.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Member {
    /// As typed (compared trimmed, case aside).
    pub card: String,
    pub surname: String,
    pub name: String,
    pub valid_until: NaiveDate,
    pub kind: Option<CardType>,
}

/// The card as compared: trimmed, upper case.
pub fn card_key(card: &str) -> String {
    card.trim().to_uppercase()
}

fn column(header: &csv::StringRecord, names: &[&str]) -> Option<usize> {
    header
        .iter()
        .position(|h| names.contains(&h.trim().to_lowercase().as_str()))
}

/// The members of a list's text; each problem names its line.
pub fn parse_members(text: &str) -> Result<Vec<Member>, Vec<FieldProblem>> {
    let (header, records) = read_up_to(text, MAX_MEMBERS).map_err(|e| vec![e])?;
    let cols = (
        column(&header, &["card", "tessera"]),
        column(&header, &["surname", "cognome"]),
        column(&header, &["name", "nome"]),
        column(&header, &["valid_until", "scadenza"]),
        column(&header, &["type", "tipo"]),
    );
    let (Some(c), Some(s), Some(n), Some(v)) = (cols.0, cols.1, cols.2, cols.3) else {
        return Err(vec![FieldProblem::new("file", "members.error.header")]);
    };
    let mut out = Vec::new();
    let mut problems = Vec::new();
    for (i, r) in records.iter().enumerate() {
        let get = |k: usize| r.get(k).unwrap_or("").trim().to_string();
        if r.iter().all(|f| f.trim().is_empty()) {
            continue;
        }
        let line = i + 2;
        let valid = NaiveDate::parse_from_str(&get(v), "%Y-%m-%d")
            .or_else(|_| NaiveDate::parse_from_str(&get(v), "%d/%m/%Y"));
        let kind_text = cols.4.map(get).unwrap_or_default();
        let kind = CardType::parse(&kind_text);
        match valid {
            Ok(valid_until) if !get(c).is_empty() && (kind.is_some() || kind_text.is_empty()) => {
                out.push(Member {
                    card: get(c),
                    surname: get(s),
                    name: get(n),
                    valid_until,
                    kind,
                })
            }
            _ => problems.push(FieldProblem::new("file", "members.error.line").with("line", line)),
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

/// Why a card does not enter a tournament.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardProblem {
    Unknown,
    Expired,
    /// A ridotta at a regional or national tournament.
    Level,
}

impl CardProblem {
    pub fn key(self) -> &'static str {
        match self {
            CardProblem::Unknown => "members.reason.unknown",
            CardProblem::Expired => "members.reason.expired",
            CardProblem::Level => "members.reason.level",
        }
    }
}

/// The check of one card on the tournament's `date` and `level`.
pub fn check_card(
    member: Option<&Member>,
    date: NaiveDate,
    level: Level,
) -> Result<(), CardProblem> {
    let m = member.ok_or(CardProblem::Unknown)?;
    if m.valid_until < date {
        return Err(CardProblem::Expired);
    }
    if m.kind.is_some_and(|k| !k.enters(level)) {
        return Err(CardProblem::Level);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn italian_headers_and_the_check() {
        let list = parse_members(
            "tessera;cognome;nome;scadenza;tipo\nab1;Rossi;Anna;2026-12-31;ridotta\nC2;Neri;Ugo;2025-12-31;\n",
        )
        .unwrap();
        assert_eq!(list.len(), 2);
        let d = NaiveDate::from_ymd_opt(2026, 11, 20).unwrap();
        assert_eq!(check_card(Some(&list[0]), d, Level::Federal), Ok(()));
        assert_eq!(
            check_card(Some(&list[0]), d, Level::National),
            Err(CardProblem::Level)
        );
        assert_eq!(
            check_card(Some(&list[1]), d, Level::Club),
            Err(CardProblem::Expired)
        );
        assert_eq!(check_card(None, d, Level::Club), Err(CardProblem::Unknown));
        assert!(parse_members("a,b\n1,2\n").is_err());
    }
}
