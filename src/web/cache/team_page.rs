//! The key of a team tournament's public page in the cache.

/// A team tournament's public page (part of the key and of the ETag).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TeamPage {
    Standings,
    /// A team's card.
    Team(u32),
    /// A round's match results.
    Round(u32),
    Prizes,
    Screen,
    /// The team standings as JSON (`getTournamentStandings`).
    Json,
    /// A team's card as JSON (`getTeamCard`).
    TeamJson(u32),
}

impl TeamPage {
    pub fn content_type(self) -> &'static str {
        match self {
            TeamPage::Json | TeamPage::TeamJson(_) => "application/json",
            _ => "text/html; charset=utf-8",
        }
    }

    pub(super) fn tag(self) -> String {
        match self {
            TeamPage::Standings => "ts".into(),
            TeamPage::Team(n) => format!("tt{n}"),
            TeamPage::Round(n) => format!("tr{n}"),
            TeamPage::Prizes => "tprizes".into(),
            TeamPage::Screen => "tscreen".into(),
            TeamPage::Json => "tjson".into(),
            TeamPage::TeamJson(n) => format!("ttj{n}"),
        }
    }
}
