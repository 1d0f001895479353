//! Pairs and players as the director registers them.

use super::text::clean_line;
use super::FieldProblem;

pub const MAX_NAME_CHARS: usize = 60;
pub const MAX_CARD_CHARS: usize = 20;
pub const MAX_CLUB_CHARS: usize = 80;

/// One player as typed in the form (or a CSV line).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Deserialize)]
#[serde(default)]
pub struct PlayerForm {
    pub surname: String,
    pub name: String,
    pub card: String,
    pub club: String,
}

/// A form with players' fields as HTML posts them, flat (`p1_surname`,
/// `p1_name`, `p1_card`, `p1_club`, `p2_surname`…), after its own text
/// fields: the struct, the value of a field by its form name (for
/// templates) and the players' forms in order. The pair form and the web's
/// team form are made with it.
#[macro_export]
macro_rules! flat_player_form {
    (
        $(#[$meta:meta])*
        pub struct $Form:ident {
            $( pub $own:ident: String, )*
            players { $( [$s:ident, $n:ident, $c:ident, $k:ident] ),+ $(,)? }
        }
    ) => {
        $(#[$meta])*
        pub struct $Form {
            $( pub $own: String, )*
            $( pub $s: String, pub $n: String, pub $c: String, pub $k: String, )+
        }

        impl $Form {
            /// The value of a field by its form name (for templates).
            pub fn value(&self, field: &str) -> &str {
                match field {
                    $( stringify!($own) => &self.$own, )*
                    $(
                        stringify!($s) => &self.$s,
                        stringify!($n) => &self.$n,
                        stringify!($c) => &self.$c,
                        stringify!($k) => &self.$k,
                    )+
                    _ => "",
                }
            }

            /// The players' fields, in order.
            pub fn player_forms(&self) -> Vec<$crate::tournament::pairs::PlayerForm> {
                vec![$(
                    $crate::tournament::pairs::PlayerForm {
                        surname: self.$s.clone(),
                        name: self.$n.clone(),
                        card: self.$c.clone(),
                        club: self.$k.clone(),
                    },
                )+]
            }
        }
    };
}

flat_player_form! {
    /// The pair form: two players.
    #[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    #[serde(default)]
    pub struct PairForm {
        players {
            [p1_surname, p1_name, p1_card, p1_club],
            [p2_surname, p2_name, p2_card, p2_club],
        }
    }
}

/// A valid player: surname and name present, every field within its length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    surname: String,
    name: String,
    card: String,
    club: String,
}

impl Player {
    /// `fields` are the form field names of surname, name, card and club.
    pub fn parse(f: &PlayerForm, fields: [&'static str; 4]) -> Result<Player, Vec<FieldProblem>> {
        let mut p = Vec::new();
        let mut clean =
            |value: &str, field: &'static str, max: usize, required: bool| match clean_line(
                field, value, max,
            ) {
                Ok(v) if required && v.is_empty() => {
                    p.push(FieldProblem::new(field, "pairs.error.required"));
                    v
                }
                Ok(v) => v,
                Err(e) => {
                    p.push(e);
                    String::new()
                }
            };
        let surname = clean(&f.surname, fields[0], MAX_NAME_CHARS, true);
        let name = clean(&f.name, fields[1], MAX_NAME_CHARS, true);
        let club = clean(&f.club, fields[3], MAX_CLUB_CHARS, false);
        // Upper-cased before the length check (ß → SS grows).
        let card = match clean_line(fields[2], &f.card.to_uppercase(), MAX_CARD_CHARS) {
            Ok(card) => {
                if !card
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '-' || c == '/')
                {
                    p.push(FieldProblem::new(fields[2], "pairs.error.card"));
                }
                card
            }
            Err(e) => {
                p.push(e);
                String::new()
            }
        };
        // Problems in the order of the form's fields.
        p.sort_by_key(|e| fields.iter().position(|f| *f == e.field));
        if p.is_empty() {
            Ok(Player {
                surname,
                name,
                card,
                club,
            })
        } else {
            Err(p)
        }
    }

    pub fn surname(&self) -> &str {
        &self.surname
    }
    pub fn name(&self) -> &str {
        &self.name
    }
    pub fn card(&self) -> &str {
        &self.card
    }
    pub fn club(&self) -> &str {
        &self.club
    }

    /// Built from stored values (already checked when saved).
    pub fn from_stored(surname: &str, name: &str, card: &str, club: &str) -> Player {
        Player {
            surname: surname.to_string(),
            name: name.to_string(),
            card: card.to_string(),
            club: club.to_string(),
        }
    }

    /// The same person: the same federation card when both have one,
    /// otherwise the same surname and name (case and accents aside).
    pub fn same_person(&self, other: &Player) -> bool {
        if !self.card.is_empty() && !other.card.is_empty() {
            return self.card.eq_ignore_ascii_case(&other.card);
        }
        fold(&self.surname) == fold(&other.surname) && fold(&self.name) == fold(&other.name)
    }

    /// "Rossi Maria".
    pub fn full_name(&self) -> String {
        format!("{} {}", self.surname, self.name)
    }
}

/// Lower-case without the common Italian accents, for comparisons.
pub fn fold(s: &str) -> String {
    s.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'à' | 'á' | 'â' | 'ä' => 'a',
            'è' | 'é' | 'ê' | 'ë' => 'e',
            'ì' | 'í' | 'î' | 'ï' => 'i',
            'ò' | 'ó' | 'ô' | 'ö' => 'o',
            'ù' | 'ú' | 'û' | 'ü' => 'u',
            '’' | '`' => '\'',
            c => c,
        })
        .collect()
}

/// Two valid players, not the same person.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairEntry {
    pub players: [Player; 2],
}

impl PairEntry {
    pub fn parse(f: &PairForm) -> Result<PairEntry, Vec<FieldProblem>> {
        let a = Player::parse(
            &PlayerForm {
                surname: f.p1_surname.clone(),
                name: f.p1_name.clone(),
                card: f.p1_card.clone(),
                club: f.p1_club.clone(),
            },
            ["p1_surname", "p1_name", "p1_card", "p1_club"],
        );
        let b = Player::parse(
            &PlayerForm {
                surname: f.p2_surname.clone(),
                name: f.p2_name.clone(),
                card: f.p2_card.clone(),
                club: f.p2_club.clone(),
            },
            ["p2_surname", "p2_name", "p2_card", "p2_club"],
        );
        match (a, b) {
            (Ok(a), Ok(b)) => {
                if a.same_person(&b) {
                    return Err(vec![FieldProblem::new(
                        "p2_surname",
                        "pairs.error.same_player_twice",
                    )]);
                }
                Ok(PairEntry { players: [a, b] })
            }
            (a, b) => Err(a.err().into_iter().chain(b.err()).flatten().collect()),
        }
    }

    /// The players of this pair already registered in another pair (the
    /// same player twice in one tournament is refused).
    pub fn clashes_with<'a>(
        &self,
        others: impl IntoIterator<Item = &'a PairEntry>,
    ) -> Option<(usize, String)> {
        for (i, other) in others.into_iter().enumerate() {
            for (k, mine) in self.players.iter().enumerate() {
                if other.players.iter().any(|o| o.same_person(mine)) {
                    return Some((k, mine.full_name()));
                }
            }
            let _ = i;
        }
        None
    }

    pub fn to_form(&self) -> PairForm {
        let [a, b] = &self.players;
        PairForm {
            p1_surname: a.surname.clone(),
            p1_name: a.name.clone(),
            p1_card: a.card.clone(),
            p1_club: a.club.clone(),
            p2_surname: b.surname.clone(),
            p2_name: b.name.clone(),
            p2_card: b.card.clone(),
            p2_club: b.club.clone(),
        }
    }

    /// "Rossi – Bianchi".
    pub fn label(&self) -> String {
        format!("{} – {}", self.players[0].surname, self.players[1].surname)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(a: (&str, &str, &str), b: (&str, &str, &str)) -> PairForm {
        PairForm {
            p1_surname: a.0.into(),
            p1_name: a.1.into(),
            p1_card: a.2.into(),
            p2_surname: b.0.into(),
            p2_name: b.1.into(),
            p2_card: b.2.into(),
            ..Default::default()
        }
    }

    #[test]
    fn a_pair_needs_two_named_players() {
        let e = PairEntry::parse(&form(("", "Maria", ""), ("Bianchi", "", ""))).unwrap_err();
        let fields: Vec<&str> = e.iter().map(|p| p.field).collect();
        assert_eq!(fields, ["p1_surname", "p2_name"]);
        let ok = PairEntry::parse(&form(
            ("  Rossi ", "Maria  Grazia", "ab123"),
            ("Bianchi", "Luca", ""),
        ))
        .unwrap();
        assert_eq!(ok.players[0].name(), "Maria Grazia");
        assert_eq!(ok.players[0].card(), "AB123");
        assert_eq!(ok.label(), "Rossi – Bianchi");
    }

    #[test]
    fn the_same_player_twice_is_refused() {
        let e =
            PairEntry::parse(&form(("Rossi", "Maria", ""), ("ROSSI", "maria", ""))).unwrap_err();
        assert_eq!(e[0].key, "pairs.error.same_player_twice");
        let a = PairEntry::parse(&form(("Nicolò", "Luca", ""), ("Bianchi", "Anna", "X1"))).unwrap();
        let b = PairEntry::parse(&form(("Verdi", "Ugo", ""), ("Nicolo", "luca", ""))).unwrap();
        assert!(b.clashes_with([&a]).is_some(), "accents and case aside");
        let c = PairEntry::parse(&form(("Verdi", "Ugo", ""), ("Neri", "Anna", "x1"))).unwrap();
        assert!(c.clashes_with([&a]).is_some(), "same card number");
        let d = PairEntry::parse(&form(("Verdi", "Ugo", ""), ("Neri", "Anna", "X2"))).unwrap();
        assert!(d.clashes_with([&a]).is_none());
    }
}
