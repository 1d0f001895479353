//! The team tournament's public documents as JSON (the API's
//! `getStandings` for a team tournament and `getTeamCard`): typed, in the
//! OpenAPI document, made from the team view.

use super::file::TeamView;
use crate::ids::TournamentId;

/// A team's line in the standings.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct TeamRowDoc {
    pub place: u32,
    pub team: u32,
    pub name: String,
    pub vp: i64,
    pub mp_diff: i64,
    pub mp: i64,
    pub played: u32,
    pub byes: u32,
    pub penalty_vp: i64,
    pub withdrawn: bool,
}

/// A team that wins money (amounts as decimal strings, `"40.00"`).
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct TeamPrizeDoc {
    pub place: u32,
    pub team: u32,
    pub amount: String,
    /// The prize split among the team's players (odd cents to the first).
    pub per_player: Vec<String>,
}

/// `GET /api/v1/tournaments/{id}/standings` of a team tournament.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct TeamStandingsDoc {
    pub tournament: TournamentId,
    /// Always `teams`.
    pub kind: &'static str,
    pub name: String,
    /// `draft`, `running` or `finished`.
    pub status: &'static str,
    /// Goes up with every change; the same revision is the same content.
    pub revision: i64,
    /// `tables` (match VP 0–40) or `scale` (0–20).
    pub scoring: &'static str,
    pub rounds: usize,
    /// Teams that are entries (RULES.md §10).
    pub entries: u32,
    pub pool: String,
    /// Best first.
    pub rows: Vec<TeamRowDoc>,
    /// Final once `status` is `finished`.
    pub prizes: Vec<TeamPrizeDoc>,
}

/// One table of a team's match, from the team's side.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct TeamTableDoc {
    pub table: u32,
    /// `ns` or `ew`.
    pub line: &'static str,
    /// The team's two players there (indexes into `players`, from 0).
    pub players: [u32; 2],
    pub opponent_players: [u32; 2],
    pub mp_for: Option<i64>,
    pub mp_against: Option<i64>,
    pub vp: Option<i64>,
    pub opponent_vp: Option<i64>,
    pub adjusted: bool,
}

/// One round on a team's card.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct TeamRoundDoc {
    pub round: u32,
    /// `played`, `pending`, `bye` or `absent`.
    pub outcome: &'static str,
    pub opponent: Option<u32>,
    pub tables: Vec<TeamTableDoc>,
    /// Match VP (complete match) or the bye award.
    pub vp: Option<i64>,
    pub opponent_vp: Option<i64>,
    pub mp_diff: i64,
}

/// `GET /api/v1/tournaments/{id}/teams/{number}/card`.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct TeamCardDoc {
    pub tournament: TournamentId,
    pub revision: i64,
    pub team: u32,
    pub name: String,
    /// "Surname Name", by position.
    pub players: Vec<String>,
    pub row: Option<TeamRowDoc>,
    pub rounds: Vec<TeamRoundDoc>,
}

fn row_doc(v: &TeamView, r: &crate::standings::TeamRow) -> TeamRowDoc {
    TeamRowDoc {
        place: r.place,
        team: r.number,
        name: v.team_name(r.number),
        vp: r.vp,
        mp_diff: r.mp_diff,
        mp: r.mp,
        played: r.played,
        byes: r.byes,
        penalty_vp: r.penalty_vp,
        withdrawn: r.withdrawn,
    }
}

impl TeamView {
    /// The standings document.
    pub fn standings_doc(&self, revision: i64) -> TeamStandingsDoc {
        let st = &self.standings;
        TeamStandingsDoc {
            tournament: self.tournament_id,
            kind: "teams",
            name: self.file.name.clone(),
            status: self.status.as_str(),
            revision,
            scoring: st.scoring(),
            rounds: self.file.rounds.len(),
            entries: st.entries,
            pool: format!("{:.2}", st.pool),
            rows: st.rows.iter().map(|r| row_doc(self, r)).collect(),
            prizes: st
                .prizes
                .iter()
                .map(|p| TeamPrizeDoc {
                    place: p.place,
                    team: p.number,
                    amount: format!("{:.2}", p.amount),
                    per_player: p.per_player.iter().map(|a| format!("{a:.2}")).collect(),
                })
                .collect(),
        }
    }

    /// Team `n`'s card, or `None` when it is no entry.
    pub fn card_doc(&self, n: u32, revision: i64) -> Option<TeamCardDoc> {
        use crate::standings::MatchOutcome;
        let team = self.file.teams.iter().find(|t| t.number == n)?;
        let card = self.standings.card(n)?;
        Some(TeamCardDoc {
            tournament: self.tournament_id,
            revision,
            team: n,
            name: team.name.clone(),
            players: team
                .players
                .iter()
                .map(|p| format!("{} {}", p.surname, p.name))
                .collect(),
            row: self.standings.row(n).map(|r| row_doc(self, r)),
            rounds: card
                .rounds
                .iter()
                .map(|r| TeamRoundDoc {
                    round: r.round,
                    outcome: match r.outcome {
                        MatchOutcome::Played => "played",
                        MatchOutcome::Pending => "pending",
                        MatchOutcome::Bye => "bye",
                        MatchOutcome::Absent => "absent",
                    },
                    opponent: r.opponent,
                    tables: r
                        .tables
                        .iter()
                        .map(|t| TeamTableDoc {
                            table: t.table,
                            line: if t.line == crate::rules::Line::Ns {
                                "ns"
                            } else {
                                "ew"
                            },
                            players: t.players,
                            opponent_players: t.opponent_players,
                            mp_for: t.mp_for,
                            mp_against: t.mp_against,
                            vp: t.vp,
                            opponent_vp: t.opponent_vp,
                            adjusted: t.adjusted,
                        })
                        .collect(),
                    vp: r.vp,
                    opponent_vp: r.opponent_vp,
                    mp_diff: r.mp_diff,
                })
                .collect(),
        })
    }
}
