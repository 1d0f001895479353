//! A penalty of an individual tournament names a player (RULES.md §14):
//! it is recorded on the player's partnership at their table that round,
//! so that an `mp` penalty reduces the line's MP (the partner shares the
//! line's result), and the player it names is kept beside it; the file
//! gives it to the player (`vp` and warnings count for them alone).

use crate::db::individual as inddb;
use crate::db::DbConn;
use crate::ids::{IndividualPlayerId, PenaltyId, TournamentId};
use crate::services::{Actor, Loaded, Need, ServiceError};
use crate::tournament::FieldProblem;

/// In an individual tournament, the partnership (its pair id, as the
/// penalty form names a pair) and the player that `player` (their number,
/// as typed) names in round `round`; `None` for another kind. A player who
/// did not sit that round cannot be penalised in it.
pub(crate) fn seat_of_player(
    c: &mut DbConn,
    l: &Loaded,
    player: &str,
    round: &str,
) -> Result<Option<(String, IndividualPlayerId)>, ServiceError> {
    if !l.t.is_individual() {
        return Ok(None);
    }
    let tid = l.t.id;
    let row = player
        .trim()
        .parse::<i32>()
        .ok()
        .and_then(|n| {
            inddb::list_players(c, tid)
                .ok()?
                .into_iter()
                .find(|p| p.number == n)
        })
        .ok_or_else(|| {
            ServiceError::Invalid(vec![FieldProblem::new("pair", "penalty.error.pair")])
        })?;
    let Some(r) = round.trim().parse::<i32>().ok().and_then(|n| l.round(n)) else {
        return Err(ServiceError::Invalid(vec![FieldProblem::new(
            "round",
            "penalty.error.round",
        )]));
    };
    let lines = inddb::lines_of_player(c, tid, row.id)?;
    let (tables, _) = crate::db::rounds::seating_of(c, r.id)?;
    let line = tables.iter().find_map(|s| {
        [s.ns_pair, s.ew_pair]
            .into_iter()
            .flatten()
            .find(|p| lines.contains(p))
    });
    match line {
        Some(pair) => Ok(Some((pair.to_string(), row.id))),
        None => Err(ServiceError::Invalid(vec![FieldProblem::new(
            "pair",
            "individual.error.penalty_not_seated",
        )
        .with("round", r.number)])),
    }
}

/// The players the penalties of an individual tournament name (staff):
/// (penalty, "number · Surname Name").
pub async fn named(
    db: &crate::db::Db,
    actor: Actor,
    tid: TournamentId,
) -> Result<Vec<(PenaltyId, String)>, ServiceError> {
    db.read(move |c| {
        crate::services::read_rows(c, &actor, tid, Need::Referee)?;
        let players = inddb::list_players(c, tid)?;
        Ok(inddb::penalty_players(c, tid)?
            .into_iter()
            .filter_map(|(pen, pl)| {
                let p = players.iter().find(|p| p.id == pl)?;
                Some((pen, format!("{} · {} {}", p.number, p.surname, p.name)))
            })
            .collect())
    })
    .await
}
