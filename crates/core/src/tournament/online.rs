//! Entries online (issue 36): the director's switches (entries on or off,
//! the capacity, when entries close, the member check), parsed from the
//! settings form with a message next to each field, and the rules of an
//! entry's life (open or closed, confirmed or waiting).

use chrono::{DateTime, NaiveDateTime, TimeZone};

use super::pairs::{PairEntry, PairForm, Player, PlayerForm};
use super::team_form::{parse_team, TeamForm};
use super::FieldProblem;

/// The most entries a capacity may name.
pub const MAX_CAPACITY: u32 = 10_000;

/// The switches as typed (checkboxes `on` or empty; the capacity a number
/// or empty; the closing time local `YYYY-MM-DDTHH:MM`, or RFC 3339).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct OnlineForm {
    pub online_entries: String,
    pub capacity: String,
    pub entries_close_at: String,
    pub member_check: String,
}

/// Valid switches (all off by default).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OnlineSwitches {
    pub online_entries: bool,
    /// Entries confirmed at most (None: no limit).
    pub capacity: Option<u32>,
    /// UTC; None: entries close at the start.
    pub entries_close_at: Option<NaiveDateTime>,
    pub member_check: bool,
}

fn ticked(s: &str) -> bool {
    matches!(s.trim(), "on" | "true" | "1" | "yes")
}

/// A closing time: RFC 3339 (any offset), or local to `tz` as a
/// `datetime-local` field sends it. UTC.
pub fn parse_instant(text: &str, tz: chrono_tz::Tz) -> Option<NaiveDateTime> {
    let text = text.trim();
    if let Ok(t) = DateTime::parse_from_rfc3339(text) {
        return Some(t.naive_utc());
    }
    ["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"]
        .iter()
        .find_map(|f| NaiveDateTime::parse_from_str(text, f).ok())
        .and_then(|local| tz.from_local_datetime(&local).earliest())
        .map(|t| t.naive_utc())
}

impl OnlineSwitches {
    pub fn parse(f: &OnlineForm, tz: chrono_tz::Tz) -> Result<OnlineSwitches, Vec<FieldProblem>> {
        let mut p = Vec::new();
        let capacity = match f.capacity.trim() {
            "" | "null" => None,
            t => match t.parse::<u32>() {
                Ok(n) if (1..=MAX_CAPACITY).contains(&n) => Some(n),
                _ => {
                    p.push(
                        FieldProblem::new("capacity", "online.error.capacity")
                            .with("max", MAX_CAPACITY),
                    );
                    None
                }
            },
        };
        let entries_close_at = match f.entries_close_at.trim() {
            "" | "null" => None,
            t => {
                let at = parse_instant(t, tz);
                if at.is_none() {
                    p.push(FieldProblem::new(
                        "entries_close_at",
                        "online.error.close_at",
                    ));
                }
                at
            }
        };
        if !p.is_empty() {
            return Err(p);
        }
        Ok(OnlineSwitches {
            online_entries: ticked(&f.online_entries),
            capacity,
            entries_close_at,
            member_check: ticked(&f.member_check),
        })
    }

    /// The form showing the saved switches (the closing time local).
    pub fn form(&self, tz: chrono_tz::Tz) -> OnlineForm {
        let on = |b: bool| if b { "on".to_string() } else { String::new() };
        OnlineForm {
            online_entries: on(self.online_entries),
            capacity: self.capacity.map(|c| c.to_string()).unwrap_or_default(),
            entries_close_at: self
                .entries_close_at
                .map(|t| {
                    t.and_utc()
                        .with_timezone(&tz)
                        .format("%Y-%m-%dT%H:%M")
                        .to_string()
                })
                .unwrap_or_default(),
            member_check: on(self.member_check),
        }
    }

    /// Whether the form takes entries at `now` (UTC) for a tournament that
    /// has or has not started.
    pub fn open(&self, now: NaiveDateTime, started: bool) -> bool {
        self.online_entries && !started && self.entries_close_at.is_none_or(|at| now < at)
    }

    /// Whether one more entry is confirmed when `holding` places are taken.
    pub fn has_room(&self, holding: usize) -> bool {
        self.capacity
            .is_none_or(|c| holding < usize::try_from(c).unwrap_or(usize::MAX))
    }
}

/// An entry's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryStatus {
    Confirmed,
    Waiting,
    Withdrawn,
    /// Refused by the director from the waiting list.
    Refused,
    /// Still waiting when the tournament started.
    Closed,
}

impl EntryStatus {
    pub const ALL: [EntryStatus; 5] = [
        EntryStatus::Confirmed,
        EntryStatus::Waiting,
        EntryStatus::Withdrawn,
        EntryStatus::Refused,
        EntryStatus::Closed,
    ];

    pub fn code(self) -> &'static str {
        match self {
            EntryStatus::Confirmed => "confirmed",
            EntryStatus::Waiting => "waiting",
            EntryStatus::Withdrawn => "withdrawn",
            EntryStatus::Refused => "refused",
            EntryStatus::Closed => "closed",
        }
    }

    pub fn parse(s: &str) -> Option<EntryStatus> {
        EntryStatus::ALL.into_iter().find(|e| e.code() == s)
    }

    /// Holds its players (a live entry: confirmed or waiting).
    pub fn is_live(self) -> bool {
        matches!(self, EntryStatus::Confirmed | EntryStatus::Waiting)
    }

    /// The catalog key of its name.
    pub fn label_key(self) -> &'static str {
        match self {
            EntryStatus::Confirmed => "online.status.confirmed",
            EntryStatus::Waiting => "online.status.waiting",
            EntryStatus::Withdrawn => "online.status.withdrawn",
            EntryStatus::Refused => "online.status.refused",
            EntryStatus::Closed => "online.status.closed",
        }
    }
}

/// The longest e-mail address or phone number kept.
pub const MAX_CONTACT_CHARS: usize = 120;

/// An entry as sent (the API's body, or the public form's fields).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EntryForm {
    /// A team entry's name (empty for a pair).
    pub team_name: String,
    pub players: Vec<PlayerForm>,
    pub email: String,
    pub phone: String,
    pub consent: bool,
}

/// Who an entry enters, by the tournament's kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entrant {
    Pair(PairEntry),
    /// A team: its name and four to six players.
    Team {
        name: String,
        players: Vec<Player>,
    },
    /// A player alone (an individual tournament).
    Player(Player),
}

impl Entrant {
    pub fn players(&self) -> &[Player] {
        match self {
            Entrant::Pair(p) => &p.players,
            Entrant::Team { players, .. } => players,
            Entrant::Player(p) => std::slice::from_ref(p),
        }
    }

    /// The first of its players who is one of `others`' players (the same
    /// card, or the same surname and name when a card is missing), by name.
    pub fn clashes_with<'a>(
        &self,
        mut others: impl Iterator<Item = &'a [Player]>,
    ) -> Option<String> {
        others.find_map(|other| {
            self.players()
                .iter()
                .find(|mine| other.iter().any(|o| o.same_person(mine)))
                .map(Player::full_name)
        })
    }

    /// The team's name (empty for a pair).
    pub fn team_name(&self) -> &str {
        match self {
            Entrant::Team { name, .. } => name,
            Entrant::Pair(_) | Entrant::Player(_) => "",
        }
    }
}

/// A valid entry: who enters, how to reach them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryIn {
    pub entrant: Entrant,
    pub email: String,
    pub phone: String,
}

impl EntryForm {
    /// A pair's entry, every problem named next to its field (`p1_surname`,
    /// `email`, `consent`…).
    pub fn parse_pair(&self) -> Result<EntryIn, Vec<FieldProblem>> {
        let mut p = Vec::new();
        let player = |i: usize| self.players.get(i).cloned().unwrap_or_default();
        let (a, b) = (player(0), player(1));
        if self.players.len() > 2 {
            p.push(FieldProblem::new("players", "online.error.players").with("count", 2));
        }
        let pair = PairEntry::parse(&PairForm {
            p1_surname: a.surname,
            p1_name: a.name,
            p1_card: a.card,
            p1_club: a.club,
            p2_surname: b.surname,
            p2_name: b.name,
            p2_card: b.card,
            p2_club: b.club,
        })
        .map_err(|e| p.extend(e))
        .ok();
        self.with_contact(pair.map(Entrant::Pair), p)
    }

    /// A player's entry (an individual tournament): one player
    /// (`p1_surname`…), the contact and the consent.
    pub fn parse_player(&self) -> Result<EntryIn, Vec<FieldProblem>> {
        let mut p = Vec::new();
        if self.players.len() > 1 {
            p.push(FieldProblem::new("players", "online.error.players").with("count", 1));
        }
        let form = self.players.first().cloned().unwrap_or_default();
        let player = Player::parse(&form, ["p1_surname", "p1_name", "p1_card", "p1_club"])
            .map_err(|e| p.extend(e))
            .ok();
        self.with_contact(player.map(Entrant::Player), p)
    }

    /// A team's entry: its name (`team_name`) and four to six players
    /// (`p1_surname`… `p6_club`), then the contact and the consent.
    pub fn parse_team(&self) -> Result<EntryIn, Vec<FieldProblem>> {
        let team = TeamForm {
            name: self.team_name.clone(),
            players: self.players.clone(),
        };
        let mut p = Vec::new();
        let entrant = match parse_team(&team) {
            Ok((name, players)) => Some(Entrant::Team { name, players }),
            Err(e) => {
                // The team form names its name `name`; here it is `team_name`.
                p.extend(e.into_iter().map(|mut e| {
                    if e.field == "name" {
                        e.field = "team_name";
                    }
                    e
                }));
                None
            }
        };
        self.with_contact(entrant, p)
    }

    /// The entry with its contact checked (an e-mail and/or a phone) and
    /// the consent given; every problem together.
    fn with_contact(
        &self,
        entrant: Option<Entrant>,
        mut p: Vec<FieldProblem>,
    ) -> Result<EntryIn, Vec<FieldProblem>> {
        let email = self.email.trim().to_string();
        let phone = self.phone.trim().to_string();
        if email.is_empty() && phone.is_empty() {
            p.push(FieldProblem::new("email", "online.error.contact"));
        }
        let at = email.split_once('@');
        if !email.is_empty()
            && (email.chars().count() > MAX_CONTACT_CHARS
                || email.chars().any(char::is_whitespace)
                || !at.is_some_and(|(u, d)| !u.is_empty() && d.contains('.')))
        {
            p.push(FieldProblem::new("email", "online.error.email"));
        }
        if !phone.is_empty()
            && (phone.chars().count() > MAX_CONTACT_CHARS
                || !phone
                    .chars()
                    .all(|c| c.is_ascii_digit() || " +-./()".contains(c)))
        {
            p.push(FieldProblem::new("phone", "online.error.phone"));
        }
        if !self.consent {
            p.push(FieldProblem::new("consent", "online.error.consent"));
        }
        match entrant {
            Some(entrant) if p.is_empty() => Ok(EntryIn {
                entrant,
                email,
                phone,
            }),
            _ => Err(p),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(cap: &str, at: &str) -> OnlineForm {
        OnlineForm {
            online_entries: "on".into(),
            capacity: cap.into(),
            entries_close_at: at.into(),
            member_check: String::new(),
        }
    }

    #[test]
    fn switches_parse_and_come_back() {
        let tz = chrono_tz::Europe::Rome;
        let s = OnlineSwitches::parse(&form("10", "2026-12-01T18:00:00+01:00"), tz).unwrap();
        assert_eq!(s.capacity, Some(10));
        assert_eq!(
            s.entries_close_at.unwrap().to_string(),
            "2026-12-01 17:00:00"
        );
        assert_eq!(s.form(tz).entries_close_at, "2026-12-01T18:00");
        assert_eq!(OnlineSwitches::parse(&s.form(tz), tz).unwrap(), s);
        let bad = OnlineSwitches::parse(&form("0", "tomorrow"), tz).unwrap_err();
        let fields: Vec<_> = bad.iter().map(|p| p.field).collect();
        assert_eq!(fields, ["capacity", "entries_close_at"]);
    }

    #[test]
    fn open_and_room() {
        let tz = chrono_tz::Europe::Rome;
        let s = OnlineSwitches::parse(&form("2", "2026-12-01T18:00"), tz).unwrap();
        let before = parse_instant("2026-12-01T16:59:00Z", tz).unwrap();
        let after = parse_instant("2026-12-01T17:00:00Z", tz).unwrap();
        assert!(s.open(before, false));
        assert!(!s.open(after, false));
        assert!(!s.open(before, true));
        assert!(s.has_room(1) && !s.has_room(2));
        assert!(!OnlineSwitches::default().open(before, false));
    }

    #[test]
    fn an_entry_names_each_problem() {
        let one = |s: &str, n: &str| PlayerForm {
            surname: s.into(),
            name: n.into(),
            ..PlayerForm::default()
        };
        let mut f = EntryForm {
            players: vec![one("Rossi", "Anna"), one("Bianchi", "Luca")],
            email: "anna@example.org".into(),
            phone: String::new(),
            consent: true,
            team_name: String::new(),
        };
        assert!(f.parse_pair().is_ok());
        f.consent = false;
        f.email = "nope".into();
        let bad: Vec<_> = f
            .parse_pair()
            .unwrap_err()
            .iter()
            .map(|p| p.field)
            .collect();
        assert_eq!(bad, ["email", "consent"]);
    }

    #[test]
    fn a_team_entry_needs_its_name_and_four_players() {
        let one = |i: usize| PlayerForm {
            surname: format!("Rossi{i}"),
            name: "Anna".into(),
            ..PlayerForm::default()
        };
        let mut f = EntryForm {
            team_name: "I Leoni".into(),
            players: (1..=5).map(one).collect(),
            phone: "333 1234567".into(),
            consent: true,
            ..EntryForm::default()
        };
        let ok = f.parse_team().unwrap();
        assert_eq!(ok.entrant.team_name(), "I Leoni");
        assert_eq!(ok.entrant.players().len(), 5);
        f.team_name.clear();
        f.players.truncate(3);
        let bad: Vec<_> = f
            .parse_team()
            .unwrap_err()
            .iter()
            .map(|p| p.field)
            .collect();
        assert_eq!(bad, ["team_name", "p4_surname"]);
    }
}
