//! The individual file of a tournament (FORMAT.md "Individual
//! tournaments"): what the next round, the standings, the public pages and
//! the export read. Made from the pairs file of the same rows (seatings,
//! sheets, adjusted scores), each partnership's pair read back as its two
//! players, with the players and their rests.

use super::loaded::{IndLoaded, IndPlayer};
use crate::db::DbConn;
use crate::ids::{IndividualPlayerId, RoundId};
use crate::services::{Rows, ServiceError};
use crate::tournament_file::{
    IndividualMovementKind, IndividualPenaltyFile, IndividualPlayerFile, IndividualRoundFile,
    IndividualTableFile, IndividualTournamentFile, TournamentFile,
};
use std::collections::HashMap;

/// The stored word of an individual round's movement.
pub fn movement_word(m: IndividualMovementKind) -> &'static str {
    match m {
        IndividualMovementKind::Draw => "draw",
        IndividualMovementKind::Danish => "danish",
    }
}

/// The individual file of a loaded individual tournament.
pub fn individual_file_on(
    c: &mut DbConn,
    t: &IndLoaded,
    byes: &[(RoundId, IndividualPlayerId)],
    tz: chrono_tz::Tz,
) -> Result<IndividualTournamentFile, ServiceError> {
    let Rows {
        t: row,
        pairs: pair_rows,
        rounds: round_rows,
        ..
    } = &t.rows;
    let pf = crate::db::export::load_file_of(c, None, row, pair_rows, round_rows, tz)?;
    let number = |id: IndividualPlayerId| {
        t.player(id)
            .map(IndPlayer::player_no)
            .ok_or_else(|| ServiceError::corrupt(format!("player {id} is missing")))
    };
    let mut lines: HashMap<u32, [u32; 2]> = HashMap::new();
    for p in pair_rows {
        if let (Some(a), Some(b)) = (p.ind_p1, p.ind_p2) {
            lines.insert(p.pair_no(), [number(a)?, number(b)?]);
        }
    }
    let movements: HashMap<i32, &str> = round_rows
        .iter()
        .map(|r| (r.number, r.movement.as_str()))
        .collect();
    let mut f = skeleton_of(&pf);
    f.sheet_mode = pf.sheet_mode;
    f.players = t
        .players
        .iter()
        .map(|p| IndividualPlayerFile {
            number: p.player_no(),
            player: crate::tournament_file::Player {
                surname: p.player.surname().to_string(),
                name: p.player.name().to_string(),
                card: (!p.player.card().is_empty()).then(|| p.player.card().to_string()),
                club: (!p.player.club().is_empty()).then(|| p.player.club().to_string()),
            },
            checked_in: Some(p.checked_in),
            withdrawn_from_round: p.withdrawn_from_round.and_then(|w| u32::try_from(w).ok()),
            no_show: p.no_show || p.withdrawn_from_round == Some(1),
        })
        .collect();
    let line = |pair: u32| {
        lines
            .get(&pair)
            .copied()
            .ok_or_else(|| ServiceError::corrupt(format!("pair {pair} is no partnership")))
    };
    for r in &pf.rounds {
        let n = i32::try_from(r.number).unwrap_or(0);
        let movement = match movements.get(&n) {
            Some(&"draw") => IndividualMovementKind::Draw,
            _ => IndividualMovementKind::Danish,
        };
        let mut tables = Vec::with_capacity(r.tables.len());
        for x in &r.tables {
            tables.push(IndividualTableFile {
                table: x.table,
                ns: line(x.ns)?,
                ew: line(x.ew)?,
                sheet: x.sheet.clone(),
                adjusted: x.adjusted,
            });
        }
        tables.sort_by_key(|x| x.table);
        let round_id = t.l.round(n).map(|x| x.id);
        let mut resting: Vec<u32> = byes
            .iter()
            .filter(|(rid, _)| Some(*rid) == round_id)
            .map(|(_, p)| number(*p))
            .collect::<Result<_, _>>()?;
        resting.sort_unstable();
        f.rounds.push(IndividualRoundFile {
            number: r.number,
            movement: Some(movement),
            tables,
            byes: resting,
        });
    }
    // Each penalty to the player it names (both lists in round, then id
    // order): recorded on the player's partnership, counted for the player.
    let named = crate::db::individual::penalty_players(c, t.l.t.id)?;
    if named.len() != pf.penalties.len() {
        return Err(ServiceError::corrupt(format!(
            "tournament {}: {} penalties, {} naming a player",
            t.l.t.id,
            pf.penalties.len(),
            named.len()
        )));
    }
    f.penalties = pf
        .penalties
        .iter()
        .zip(&named)
        .map(|(p, (_, player))| {
            Ok(IndividualPenaltyFile {
                round: p.round,
                player: number(*player)?,
                table: p.table,
                kind: p.kind,
                amount: p.amount,
                reason: p.reason.clone(),
                withdrawn: p.withdrawn,
                by: p.by.clone(),
                at: p.at,
                withdrawn_by: p.withdrawn_by.clone(),
                withdrawn_at: p.withdrawn_at,
                withdrawn_reason: p.withdrawn_reason.clone(),
            })
        })
        .collect::<Result<_, ServiceError>>()?;
    Ok(f)
}

/// The settings every kind of file shares, from the pairs file.
fn skeleton_of(pf: &TournamentFile) -> IndividualTournamentFile {
    let mut f = IndividualTournamentFile::new(pf.name.clone(), pf.date);
    f.venue = pf.venue.clone();
    f.start_time = pf.start_time;
    f.profile = pf.profile.clone();
    f.hands_per_round = pf.hands_per_round;
    f.minutes_per_round = pf.minutes_per_round;
    f.vp_scale = pf.vp_scale.clone();
    f.bye_vp = pf.bye_vp;
    f.entry_fee = pf.entry_fee;
    f.prize_share_percent = pf.prize_share_percent;
    f.guaranteed_pool = pf.guaranteed_pool;
    f.payout = pf.payout.clone();
    f.planned_rounds = pf.planned_rounds;
    f.suit_order = pf.suit_order.clone();
    f.draw_seed = pf.draw_seed;
    f.status = pf.status;
    f.declared_closed_at = pf.declared_closed_at;
    f
}
