//! A team tournament's file into the database as a new tournament, all or
//! nothing (issue 25): the pairs file's header settings, the team settings,
//! the teams with their players, each round's matches as two seatings of
//! the line-ups' pairs with their sheets, the resting teams, the penalties
//! (each on its team's pair at its table).

use super::import::{
    audit_imported, insert_penalty, settings_of, sheet_write, status_of, ImportError,
};
use super::schema::{rounds, seatings, tournaments};
use super::scoring;
use super::teams::{self as teamdb, TeamRow};
use super::tournaments::{self as tdb};
use super::{unreadable, DbConn};
use crate::ids::{PairId, RoundId, SeatingId, TournamentId, UserId};
use crate::tournament::pairs::Player;
use crate::tournament_file::{
    TeamMovementKind, TeamScoringFile, TeamTournamentFile, TournamentFile,
};
use chrono::NaiveDateTime;
use diesel::prelude::*;
use std::collections::HashMap;

/// The pairs file's header of a team file (what the settings read).
fn header(file: &TeamTournamentFile) -> TournamentFile {
    let mut h = TournamentFile::new(file.name.clone(), file.date);
    h.venue = file.venue.clone();
    h.start_time = file.start_time;
    h.profile = file.profile.clone();
    h.hands_per_round = file.hands_per_round;
    h.minutes_per_round = file.minutes_per_round;
    h.vp_scale = file.vp_scale.clone();
    h.bye_vp = file.bye_vp;
    h.entry_fee = file.entry_fee;
    h.prize_share_percent = file.prize_share_percent;
    h.guaranteed_pool = file.guaranteed_pool;
    h.payout = file.payout.clone();
    h.planned_rounds = Some(
        file.planned_rounds
            .unwrap_or(u32::try_from(file.rounds.len()).unwrap_or(1))
            .max(1),
    );
    h.suit_order = file.suit_order.clone();
    h
}

/// Writes a validated team file as a new tournament, all or nothing.
pub fn import_team_file(
    conn: &mut DbConn,
    file: &TeamTournamentFile,
    tz: chrono_tz::Tz,
    user_id: UserId,
    now: NaiveDateTime,
) -> Result<TournamentId, ImportError> {
    let head = header(file);
    let settings = settings_of(&head, tz)?;
    let scoring = serde_json::to_string(&file.team_scoring)
        .map_err(|e| ImportError::Settings(e.to_string()))?;
    if let TeamScoringFile::Scale { scale } = &file.team_scoring {
        if scale.len() != 10 {
            return Err(ImportError::Settings(
                "team_scoring.scale: ten bounds".into(),
            ));
        }
    }
    let round_robin = file
        .rounds
        .iter()
        .take_while(|r| r.movement != Some(TeamMovementKind::Danish))
        .count();
    let has_danish = file
        .rounds
        .iter()
        .any(|r| r.movement == Some(TeamMovementKind::Danish))
        || file
            .movements
            .as_ref()
            .is_some_and(|m| m.contains(&TeamMovementKind::Danish));
    let groups: std::collections::BTreeSet<&str> = file
        .rounds
        .iter()
        .flat_map(|r| r.matches.iter())
        .filter_map(|m| m.group.as_deref())
        .collect();
    Ok(conn.transaction(|conn| {
        let tid = tdb::create(conn, &settings, user_id, now)?;
        teamdb::set_team_settings(
            conn,
            tid,
            &scoring,
            file.team_bye_vp.and_then(|v| i32::try_from(v).ok()),
            i32::try_from(groups.len().max(1)).unwrap_or(1),
            has_danish.then(|| i32::try_from(round_robin).unwrap_or(i32::MAX)),
            now,
        )?;
        let status = status_of(file.status, file.rounds.is_empty());
        tdb::set_status(conn, tid, status, now)?;
        diesel::update(tournaments::table.find(tid))
            .set(tournaments::draw_seed.eq(file.draw_seed.and_then(|s| i64::try_from(s).ok())))
            .execute(conn)?;
        let mut team_of: HashMap<u32, TeamRow> = HashMap::new();
        for t in &file.teams {
            let players: Vec<Player> = t
                .players
                .iter()
                .map(|p| {
                    Player::from_stored(
                        &p.surname,
                        &p.name,
                        p.card.as_deref().unwrap_or(""),
                        p.club.as_deref().unwrap_or(""),
                    )
                })
                .collect();
            let number = i32::try_from(t.number).unwrap_or(i32::MAX);
            teamdb::insert_numbered_team(
                conn,
                tid,
                number,
                &t.name,
                &players,
                (
                    t.checked_in.unwrap_or(!file.rounds.is_empty()),
                    t.withdrawn_from_round.and_then(|w| i32::try_from(w).ok()),
                    t.no_show,
                ),
                now,
            )?;
        }
        for row in teamdb::list_teams(conn, tid)? {
            team_of.insert(u32::try_from(row.number).unwrap_or(0), row);
        }
        // Groups as the round robin's matches name them (a Danish round's
        // labels are not the teams' groups).
        for r in file
            .rounds
            .iter()
            .filter(|r| r.movement != Some(TeamMovementKind::Danish))
        {
            for m in &r.matches {
                if let Some(g) = &m.group {
                    for n in [m.home, m.away] {
                        if let Some(row) = team_of.get(&n) {
                            teamdb::set_group(conn, row.id, Some(g))?;
                        }
                    }
                }
            }
        }
        let team = |n: u32| {
            team_of
                .get(&n)
                .ok_or_else(|| unreadable(format!("team {n} is not in the file")))
        };
        // The pair of each team at each table of each round (penalties).
        let mut seat_of: HashMap<(u32, u32, u32), PairId> = HashMap::new();
        let mut first_pair: HashMap<(u32, u32), PairId> = HashMap::new();
        // (round, the file's table) → the table here.
        let mut renumbered: HashMap<(u32, u32), u32> = HashMap::new();
        for r in &file.rounds {
            let movement = match r.movement {
                Some(TeamMovementKind::Danish) => "danish",
                _ => "round_robin",
            };
            let round_id: RoundId = diesel::insert_into(rounds::table)
                .values((
                    rounds::tournament_id.eq(tid),
                    rounds::number.eq(i32::try_from(r.number).unwrap_or(i32::MAX)),
                    rounds::movement.eq(movement),
                    rounds::created_at.eq(now),
                ))
                .returning(rounds::id)
                .get_result(conn)?;
            // Matches as this program seats them: match m on tables 2m−1 and
            // 2m, the home team NS at the first (a file may number its
            // tables otherwise; penalties follow their table).
            let mut matches: Vec<&crate::tournament_file::MatchFile> = r.matches.iter().collect();
            matches.sort_by_key(|m| m.tables.iter().map(|t| t.table).min().unwrap_or(0));
            for (i, m) in matches.iter().enumerate() {
                let mut tables: Vec<&crate::tournament_file::MatchTableFile> =
                    m.tables.iter().collect();
                tables.sort_by_key(|t| (t.ns.team != m.home, t.table));
                for (k, t) in tables.iter().enumerate() {
                    let number = u32::try_from(2 * i + k + 1).unwrap_or(u32::MAX);
                    renumbered.insert((r.number, t.table), number);
                    let pair = |conn: &mut DbConn, line: &crate::tournament_file::LineRef| {
                        let row = team(line.team)?;
                        teamdb::pair_of(
                            conn,
                            tid,
                            row,
                            i32::try_from(line.players[0]).unwrap_or(0),
                            i32::try_from(line.players[1]).unwrap_or(0),
                            now,
                        )
                    };
                    let ns = pair(conn, &t.ns)?;
                    let ew = pair(conn, &t.ew)?;
                    for (line, id) in [(&t.ns, ns), (&t.ew, ew)] {
                        seat_of.insert((r.number, t.table, line.team), id);
                        first_pair.entry((r.number, line.team)).or_insert(id);
                    }
                    let seating_id: SeatingId = diesel::insert_into(seatings::table)
                        .values((
                            seatings::round_id.eq(round_id),
                            seatings::table_no.eq(i32::try_from(number).unwrap_or(i32::MAX)),
                            seatings::ns_pair.eq(Some(ns)),
                            seatings::ew_pair.eq(Some(ew)),
                        ))
                        .returning(seatings::id)
                        .get_result(conn)?;
                    if let Some(write) = sheet_write(
                        &file.profile,
                        file.hands_per_round,
                        file.vp_scale.as_ref(),
                        t.table,
                        t.sheet.as_ref(),
                        t.adjusted,
                    )? {
                        scoring::insert_sheet(conn, seating_id, &write, user_id, now)?;
                    }
                }
            }
            for b in &r.byes {
                teamdb::insert_bye(conn, round_id, team(*b)?.id)?;
            }
        }
        for p in &file.penalties {
            let row = team(p.team)?;
            // On the team's pair at the table it names; a penalty without a
            // table (or in a round the team did not play) on its first pair.
            let pair_id = match p
                .table
                .and_then(|t| seat_of.get(&(p.round, t, p.team)).copied())
                .or_else(|| first_pair.get(&(p.round, p.team)).copied())
            {
                Some(id) => id,
                None => teamdb::pair_of(conn, tid, row, 0, 1, now)?,
            };
            let table_no = p
                .table
                .map(|t| renumbered.get(&(p.round, t)).copied().unwrap_or(t))
                .and_then(|t| i32::try_from(t).ok());
            insert_penalty(conn, tid, pair_id, table_no, p, now)?;
        }
        audit_imported(conn, tid, user_id, now)?;
        Ok::<_, diesel::result::Error>(tid)
    })?)
}
