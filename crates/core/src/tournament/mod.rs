//! The tournament as the director sets it up: settings, pairs and the CSV
//! import. Pure Rust: forms are parsed here into domain types ("parse, don't
//! validate"), with every problem tied to its field and a catalog key.

pub mod clock;
pub mod codes;
pub mod csv_export;
pub mod csv_import;
pub mod members;
pub mod money;
pub mod online;
pub mod pairs;
pub mod penalty;
pub mod plan;
mod player_columns;
pub mod player_csv;
pub mod settings;
pub mod sheet_form;
pub mod spreadsheet;
pub mod stored_settings;
pub mod team_csv;
pub mod team_form;
pub mod text;

/// A problem with one field of a form: the field's name, the catalog key of
/// the message and its placeholders.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldProblem {
    pub field: &'static str,
    pub key: String,
    pub params: Vec<(&'static str, String)>,
    /// A prize-pool error, worded by the rules engine.
    pub prize: Option<crate::rules::PrizeError>,
}

impl FieldProblem {
    pub fn new(field: &'static str, key: impl Into<String>) -> Self {
        FieldProblem {
            field,
            key: key.into(),
            params: Vec::new(),
            prize: None,
        }
    }

    pub fn with(mut self, name: &'static str, value: impl ToString) -> Self {
        self.params.push((name, value.to_string()));
        self
    }

    /// The message in a language.
    pub fn message(&self, lang: crate::i18n::Lang) -> String {
        if let Some(e) = &self.prize {
            return crate::rules::api::prize_error_message(e, lang);
        }
        let args: Vec<(&str, &dyn std::fmt::Display)> = self
            .params
            .iter()
            .map(|(n, v)| (*n, v as &dyn std::fmt::Display))
            .collect();
        crate::i18n::tf(lang, &self.key, &args)
    }
}

/// Where a tournament stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Being prepared: settings and pairs may change freely.
    Draft,
    /// The first round is drawn: game-shaping settings are locked.
    Running,
    /// Closed by the director: final standings.
    Finished,
}

/// A stored word read back (a typed column): an unknown one is an error.
impl TryFrom<String> for Status {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        Status::parse(&s).ok_or_else(|| format!("Status: unknown value {s:?}"))
    }
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Draft => "draft",
            Status::Running => "running",
            Status::Finished => "finished",
        }
    }

    pub fn parse(s: &str) -> Option<Status> {
        match s {
            "draft" => Some(Status::Draft),
            "running" => Some(Status::Running),
            "finished" => Some(Status::Finished),
            _ => None,
        }
    }

    pub fn label_key(self) -> &'static str {
        match self {
            Status::Draft => "tournament.status.draft",
            Status::Running => "tournament.status.running",
            Status::Finished => "tournament.status.finished",
        }
    }
}

/// The movement of one round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundMovement {
    Mitchell,
    Danish,
    DanishModified,
    /// Danish in groups (RULES.md §13), pure.
    DanishGroups,
    /// Danish in groups, modified.
    DanishGroupsModified,
    /// A team tournament's round-robin round (RULES.md §12).
    RoundRobin,
    /// An individual tournament's first round, drawn at random (RULES.md
    /// §14).
    Draw,
}

impl RoundMovement {
    pub fn as_str(self) -> &'static str {
        match self {
            RoundMovement::Mitchell => "mitchell",
            RoundMovement::Danish => "danish",
            RoundMovement::DanishModified => "danish_modified",
            RoundMovement::DanishGroups => "danish_groups",
            RoundMovement::DanishGroupsModified => "danish_groups_modified",
            RoundMovement::RoundRobin => "round_robin",
            RoundMovement::Draw => "draw",
        }
    }

    pub fn parse(s: &str) -> Option<RoundMovement> {
        match s {
            "mitchell" => Some(RoundMovement::Mitchell),
            "danish" => Some(RoundMovement::Danish),
            "danish_modified" => Some(RoundMovement::DanishModified),
            "danish_groups" => Some(RoundMovement::DanishGroups),
            "danish_groups_modified" => Some(RoundMovement::DanishGroupsModified),
            "round_robin" => Some(RoundMovement::RoundRobin),
            "draw" => Some(RoundMovement::Draw),
            _ => None,
        }
    }

    pub fn label_key(self) -> &'static str {
        match self {
            RoundMovement::Mitchell => "movement_kind.mitchell",
            RoundMovement::Danish => "movement_kind.danish",
            RoundMovement::DanishModified => "movement_kind.danish_modified",
            RoundMovement::DanishGroups => "movement_kind.danish_groups",
            RoundMovement::DanishGroupsModified => "movement_kind.danish_groups_modified",
            RoundMovement::RoundRobin => "movement_kind.round_robin",
            RoundMovement::Draw => "movement_kind.draw",
        }
    }

    /// A round in groups (RULES.md §13).
    pub fn in_groups(self) -> bool {
        matches!(
            self,
            RoundMovement::DanishGroups | RoundMovement::DanishGroupsModified
        )
    }

    /// A Danish round, over the whole field or in groups.
    pub fn is_danish(self) -> bool {
        matches!(
            self,
            RoundMovement::Danish
                | RoundMovement::DanishModified
                | RoundMovement::DanishGroups
                | RoundMovement::DanishGroupsModified
        )
    }

    /// A modified Danish round (RULES.md §7).
    pub fn is_modified(self) -> bool {
        matches!(
            self,
            RoundMovement::DanishModified | RoundMovement::DanishGroupsModified
        )
    }
}
