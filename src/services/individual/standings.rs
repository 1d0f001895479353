//! What the public pages and the API read of an individual tournament: its
//! file and the standings per player (the one engine's third kind), made
//! once per read; the standings document of the API's `getStandings`;
//! the stage a circuit ranking players reads of it (RULES.md §11).

use super::loaded::loaded;
use super::rounds::file_of_loaded;
use crate::db::{Db, DbConn};
use crate::i18n::Lang;
use crate::ids::{PersonId, TournamentId};
use crate::services::{load_rows, ServiceError};
use crate::standings::PlayerStandings;
use crate::tournament::Status;
use crate::tournament_file::{FileKind, IndividualTournamentFile};

/// Everything the public pages of an individual tournament show.
#[derive(Debug, Clone)]
pub struct IndView {
    pub file: IndividualTournamentFile,
    pub standings: PlayerStandings,
    pub revision: i64,
    pub status: Status,
    pub tournament_id: TournamentId,
}

impl IndView {
    /// "Rossi Maria", or the number when unknown.
    pub fn player_name(&self, n: u32) -> String {
        self.file
            .players
            .iter()
            .find(|p| p.number == n)
            .map(|p| format!("{} {}", p.player.surname, p.player.name))
            .unwrap_or_else(|| n.to_string())
    }

    /// The player's club ("" when none).
    pub fn club(&self, n: u32) -> String {
        self.file
            .players
            .iter()
            .find(|p| p.number == n)
            .and_then(|p| p.player.club.clone())
            .unwrap_or_default()
    }
}

/// The view of an individual tournament (public: no access check), or
/// `None` for another kind.
pub async fn view(
    db: &Db,
    tid: TournamentId,
    tz: chrono_tz::Tz,
    lang: Lang,
) -> Result<Option<IndView>, ServiceError> {
    db.read(move |c| {
        let row = crate::db::tournaments::find(c, tid)?.ok_or(ServiceError::NotFound)?;
        if row.kind != FileKind::Individual {
            return Ok(None);
        }
        let rows = load_rows(c, row)?;
        let t = loaded(c, rows)?;
        let file = file_of_loaded(c, &t, tz)?;
        let standings = crate::standings::compute_individual_file(&file, lang).map_err(|e| {
            ServiceError::corrupt(format!(
                "tournament {tid}: individual standings: {}",
                e.message(lang)
            ))
        })?;
        Ok(Some(IndView {
            file,
            standings,
            revision: t.l.t.revision,
            status: t.l.status(),
            tournament_id: tid,
        }))
    })
    .await
}

/// A player's line in the standings.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct PlayerRowDoc {
    pub place: u32,
    pub player: u32,
    /// "Rossi Maria".
    pub name: String,
    pub club: String,
    pub vp: i64,
    pub mp_diff: i64,
    pub mp: i64,
    pub played: u32,
    pub byes: u32,
    pub penalty_vp: i64,
    pub withdrawn: bool,
}

/// A player who wins money (amounts as decimal strings, `"40.00"`).
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct PlayerPrizeDoc {
    pub place: u32,
    pub player: u32,
    pub name: String,
    pub amount: String,
}

/// `GET /api/v1/tournaments/{id}/standings` of an individual tournament.
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
pub struct PlayerStandingsDoc {
    pub tournament: TournamentId,
    /// Always `individual`.
    pub kind: &'static str,
    pub name: String,
    /// `draft`, `running` or `finished`.
    pub status: &'static str,
    /// Goes up with every change; the same revision is the same content.
    pub revision: i64,
    pub rounds: usize,
    /// Players that are entries (RULES.md §10).
    pub entries: u32,
    pub pool: String,
    /// Best first.
    pub rows: Vec<PlayerRowDoc>,
    /// Final once `status` is `finished`.
    pub prizes: Vec<PlayerPrizeDoc>,
}

impl PlayerStandingsDoc {
    pub fn of(v: &IndView) -> PlayerStandingsDoc {
        let s = &v.standings;
        PlayerStandingsDoc {
            tournament: v.tournament_id,
            kind: FileKind::Individual.code(),
            name: v.file.name.clone(),
            status: v.status.as_str(),
            revision: v.revision,
            rounds: v.file.rounds.len(),
            entries: s.entries,
            pool: format!("{:.2}", s.pool),
            rows: s
                .rows
                .iter()
                .map(|r| PlayerRowDoc {
                    place: r.place,
                    player: r.number,
                    name: v.player_name(r.number),
                    club: v.club(r.number),
                    vp: r.vp,
                    mp_diff: r.mp_diff,
                    mp: r.mp,
                    played: r.played,
                    byes: r.byes,
                    penalty_vp: r.penalty_vp,
                    withdrawn: r.withdrawn,
                })
                .collect(),
            prizes: s
                .prizes
                .iter()
                .map(|p| PlayerPrizeDoc {
                    place: p.place,
                    player: p.number,
                    name: v.player_name(p.number),
                    amount: format!("{:.2}", p.amount),
                })
                .collect(),
        }
    }
}

/// An individual tournament's stage (RULES.md §14, §11): each player's own
/// place, keyed by their person (after merges).
pub(crate) fn circuit_stage(
    conn: &mut DbConn,
    t: crate::db::tournaments::TournamentRow,
    people: &std::collections::HashMap<PersonId, PersonId>,
    tz: chrono_tz::Tz,
    lang: Lang,
) -> Result<crate::circuit::Stage<PersonId>, ServiceError> {
    let tid = t.id;
    let rows = crate::services::load_rows(conn, t)?;
    let ind = loaded(conn, rows)?;
    let file = file_of_loaded(conn, &ind, tz)?;
    let persons: std::collections::HashMap<u32, Option<PersonId>> =
        crate::db::individual::list_players(conn, tid)?
            .iter()
            .map(|p| (u32::try_from(p.number).unwrap_or(0), p.person_id))
            .collect();
    let mut unlinked = None;
    let stage = crate::circuit::stage_of_individual_file(
        &file,
        |n, _| match persons.get(&n).copied().flatten() {
            Some(id) => crate::db::people::canonical(people, id),
            None => {
                unlinked = Some(n);
                PersonId(0)
            }
        },
        lang,
    )
    .map_err(|e| ServiceError::corrupt(format!("tournament {tid}: {}", e.message(lang))))?;
    if let Some(n) = unlinked {
        return Err(ServiceError::corrupt(format!(
            "tournament {tid}: player {n} has no person in the directory"
        )));
    }
    Ok(stage)
}
