//! An individual tournament as read in one go: the pairs tournament's
//! state (settings and rounds) with its players, and the rows it was made
//! of (every use case of `services::individual` reads it).

use super::super::{read_rows, Actor, Loaded, Need, Rows, ServiceError};
use crate::db::individual::{self as inddb, PlayerRow};
use crate::db::{Db, DbConn};
use crate::ids::{IndividualPlayerId, TournamentId};
use crate::services::Refusal;
use crate::tournament::pairs::Player;

/// A registered player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndPlayer {
    pub id: IndividualPlayerId,
    pub number: i32,
    pub player: Player,
    /// The personal code (staff pages only).
    pub code: Option<String>,
    pub checked_in: bool,
    pub withdrawn_from_round: Option<i32>,
    pub no_show: bool,
}

impl IndPlayer {
    fn of(row: &PlayerRow) -> IndPlayer {
        IndPlayer {
            id: row.id,
            number: row.number,
            player: row.player(),
            code: row.code.clone(),
            checked_in: row.checked_in,
            withdrawn_from_round: row.withdrawn_from_round,
            no_show: row.no_show,
        }
    }

    pub fn player_no(&self) -> u32 {
        u32::try_from(self.number).unwrap_or(0)
    }

    /// Still in the tournament: neither withdrawn nor a no-show.
    pub fn active(&self) -> bool {
        self.withdrawn_from_round.is_none() && !self.no_show
    }

    /// Plays from round 1 and was not left out of the start.
    pub fn drawable(&self) -> bool {
        self.checked_in && self.active()
    }
}

/// An individual tournament read in one go: the pairs tournament's state
/// (settings and rounds) with the players, and the rows it was made of.
#[derive(Debug, Clone)]
pub struct IndLoaded {
    pub l: Loaded,
    pub rows: Rows,
    pub players: Vec<IndPlayer>,
}

impl IndLoaded {
    pub fn player(&self, id: IndividualPlayerId) -> Option<&IndPlayer> {
        self.players.iter().find(|p| p.id == id)
    }
    pub fn by_number(&self, n: i32) -> Option<&IndPlayer> {
        self.players.iter().find(|p| p.number == n)
    }
    /// Players checked in and still playing.
    pub fn drawable(&self) -> usize {
        self.players.iter().filter(|p| p.drawable()).count()
    }
    /// Players not checked in yet (and still in).
    pub fn to_check_in(&self) -> usize {
        self.players
            .iter()
            .filter(|p| !p.checked_in && p.active())
            .count()
    }
    /// The players still registered (for the duplicate checks).
    pub(crate) fn active_players(&self) -> Vec<Player> {
        self.players
            .iter()
            .filter(|p| p.active())
            .map(|p| p.player.clone())
            .collect()
    }
}

/// An individual tournament from its rows, with its players.
pub(crate) fn load_ind(c: &mut DbConn, rows: Rows) -> Result<IndLoaded, ServiceError> {
    let l = Loaded::of(&rows)?;
    let players = inddb::list_players(c, l.t.id)?
        .iter()
        .map(IndPlayer::of)
        .collect();
    Ok(IndLoaded { l, rows, players })
}

/// An individual tournament from rows the caller read or locked.
pub fn loaded(c: &mut DbConn, rows: Rows) -> Result<IndLoaded, ServiceError> {
    let t = load_ind(c, rows)?;
    ensure_individual(&t)?;
    Ok(t)
}

/// Refuses a tournament of another kind.
pub(crate) fn ensure_individual(t: &IndLoaded) -> Result<(), ServiceError> {
    if t.l.t.is_individual() {
        Ok(())
    } else {
        Err(ServiceError::refused(Refusal::IndividualNotIndividual))
    }
}

/// Reads an individual tournament, access-checked.
pub async fn load(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    need: Need,
) -> Result<IndLoaded, ServiceError> {
    db.read(move |c| {
        let rows = read_rows(c, &actor, tid, need)?;
        let t = load_ind(c, rows)?;
        ensure_individual(&t)?;
        Ok(t)
    })
    .await
}
