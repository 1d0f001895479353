//! Rounds and seating: the draw of round 1, each round's tables and byes, the clock, what a round holds (to undo it).

use super::schema::{byes, pairs, rounds, seatings, tournaments};
use super::DbConn;
use crate::ids::PairId;
use crate::ids::RoundId;
use crate::ids::SeatingId;
use crate::ids::TournamentId;
use crate::ids::UserId;
use crate::movement::{Layout, PairNo, RoundSeating};
use crate::tournament::{RoundMovement, Status};
use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::Error as DieselError;

// ---- rounds and seating ----

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = rounds)]
pub struct RoundRow {
    pub id: RoundId,
    pub tournament_id: TournamentId,
    pub number: i32,
    pub movement: String,
    pub started_at: Option<NaiveDateTime>,
    pub time_out_at: Option<NaiveDateTime>,
    pub created_at: NaiveDateTime,
    pub paused_at: Option<NaiveDateTime>,
    pub paused_seconds: i32,
}

impl RoundRow {
    pub fn movement(&self) -> RoundMovement {
        RoundMovement::parse(&self.movement).unwrap_or(RoundMovement::Mitchell)
    }

    /// The round's clock as stored, for a round of `minutes`.
    pub fn clock_times(&self, minutes: u32) -> crate::tournament::clock::ClockTimes {
        crate::tournament::clock::ClockTimes {
            started_at: self.started_at,
            paused_at: self.paused_at,
            paused_seconds: i64::from(self.paused_seconds),
            time_out_at: self.time_out_at,
            minutes,
        }
    }
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = seatings)]
pub struct SeatingRow {
    pub id: SeatingId,
    pub round_id: RoundId,
    pub table_no: i32,
    pub ns_pair: Option<PairId>,
    pub ew_pair: Option<PairId>,
}

pub fn list_rounds(conn: &mut DbConn, tournament_id: TournamentId) -> QueryResult<Vec<RoundRow>> {
    rounds::table
        .filter(rounds::tournament_id.eq(tournament_id))
        .order(rounds::number.asc())
        .select(RoundRow::as_select())
        .load(conn)
}

pub fn seating_of(
    conn: &mut DbConn,
    round_id: RoundId,
) -> QueryResult<(Vec<SeatingRow>, Vec<PairId>)> {
    let tables = seatings::table
        .filter(seatings::round_id.eq(round_id))
        .order(seatings::table_no.asc())
        .select(SeatingRow::as_select())
        .load(conn)?;
    let resting = byes::table
        .filter(byes::round_id.eq(round_id))
        .select(byes::pair_id)
        .load(conn)?;
    Ok((tables, resting))
}

/// Stamps round `number` of a tournament as drawn now: the last statement
/// of the transaction that drew it, so that a request that arrived before
/// its commit sees it drawn after its arrival (`nextRound` without a round).
pub fn stamp_drawn(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    number: i32,
    now: chrono::NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(
        rounds::table
            .filter(rounds::tournament_id.eq(tournament_id))
            .filter(rounds::number.eq(number)),
    )
    .set(rounds::created_at.eq(now))
    .execute(conn)
}

/// Saves a round's seating (pair numbers mapped to pair ids).
pub fn insert_round(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    movement: RoundMovement,
    seating: &RoundSeating,
    pair_ids: &std::collections::HashMap<PairNo, PairId>,
    now: NaiveDateTime,
) -> QueryResult<RoundId> {
    conn.transaction(|conn| {
        let round_id: RoundId = diesel::insert_into(rounds::table)
            .values((
                rounds::tournament_id.eq(tournament_id),
                rounds::number.eq(i32::try_from(seating.round).unwrap_or(i32::MAX)),
                rounds::movement.eq(movement.as_str()),
                rounds::created_at.eq(now),
            ))
            .returning(rounds::id)
            .get_result(conn)?;
        // Every pair number the movement names must be a registered pair:
        // one that is not is an error, never a seat or a bye quietly lost.
        let id_of = |n: PairNo| {
            pair_ids.get(&n).copied().ok_or_else(|| {
                DieselError::SerializationError(
                    format!("round {}: pair {n} is not registered", seating.round).into(),
                )
            })
        };
        for seat in &seating.tables {
            // A table with a phantom is not played: its pair is in the byes.
            let (Some(ns), Some(ew)) = (seat.ns, seat.ew) else {
                continue;
            };
            diesel::insert_into(seatings::table)
                .values((
                    seatings::round_id.eq(round_id),
                    seatings::table_no.eq(i32::try_from(seat.table).unwrap_or(i32::MAX)),
                    seatings::ns_pair.eq(Some(id_of(ns)?)),
                    seatings::ew_pair.eq(Some(id_of(ew)?)),
                ))
                .execute(conn)?;
        }
        for bye in &seating.byes {
            diesel::insert_into(byes::table)
                .values((byes::round_id.eq(round_id), byes::pair_id.eq(id_of(*bye)?)))
                .execute(conn)?;
        }
        Ok(round_id)
    })
}

/// Starts the tournament: stores the draw and round 1, all or nothing.
/// Drawing again (before any score) replaces round 1.
/// Why a draw was not saved.
#[derive(Debug, thiserror::Error)]
pub enum DrawError {
    /// A score or a penalty is already recorded: the draw stands.
    #[error("scores or penalties are already recorded")]
    ScoresIn,
    #[error(transparent)]
    Db(#[from] DieselError),
}

pub fn save_draw(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    layout: &Layout,
    round1: &RoundSeating,
    pair_ids: &std::collections::HashMap<PairNo, PairId>,
    now: NaiveDateTime,
) -> Result<RoundId, DrawError> {
    use super::schema::{penalties, sheets};
    conn.transaction(|conn| {
        // Checked inside the transaction: a sheet saved a moment ago counts.
        let scores: i64 = sheets::table
            .inner_join(seatings::table.inner_join(rounds::table))
            .filter(rounds::tournament_id.eq(tournament_id))
            .count()
            .get_result(conn)?;
        let given: i64 = penalties::table
            .filter(penalties::tournament_id.eq(tournament_id))
            .count()
            .get_result(conn)?;
        if scores + given > 0 {
            return Err(DrawError::ScoresIn);
        }
        diesel::delete(rounds::table.filter(rounds::tournament_id.eq(tournament_id)))
            .execute(conn)?;
        // Everyone in the draw plays from round 1: no late pairs any more.
        diesel::update(pairs::table.filter(pairs::tournament_id.eq(tournament_id)))
            .set(pairs::joined_from_round.eq(None::<i32>))
            .execute(conn)?;
        let layout_json = serde_json::to_string(layout)
            .map_err(|e| DieselError::SerializationError(Box::new(e)))?;
        diesel::update(tournaments::table.find(tournament_id))
            .set((
                tournaments::status.eq(Status::Running.as_str()),
                tournaments::draw_seed.eq(Some(i64::try_from(layout.seed).unwrap_or(i64::MAX))),
                tournaments::layout.eq(Some(layout_json)),
                tournaments::updated_at.eq(now),
            ))
            .execute(conn)?;
        Ok(insert_round(
            conn,
            tournament_id,
            RoundMovement::Mitchell,
            round1,
            pair_ids,
            now,
        )?)
    })
}

/// Starts a round's clock (`start`) or records the time-out.
pub fn set_round_clock(
    conn: &mut DbConn,
    round_id: RoundId,
    start: bool,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    let t = Some(now);
    // Each happens once: a second click changes nothing.
    if start {
        diesel::update(
            rounds::table
                .find(round_id)
                .filter(rounds::started_at.is_null()),
        )
        .set(rounds::started_at.eq(t))
        .execute(conn)
    } else {
        diesel::update(
            rounds::table
                .find(round_id)
                .filter(rounds::started_at.is_not_null())
                .filter(rounds::time_out_at.is_null()),
        )
        .set(rounds::time_out_at.eq(t))
        .execute(conn)
    }
}

/// Starts the clock or calls time-out, with its audit entry (one transaction).
pub fn record_clock(
    conn: &mut DbConn,
    tid: TournamentId,
    round_id: RoundId,
    round_no: i32,
    start: bool,
    user_id: UserId,
    now: NaiveDateTime,
) -> QueryResult<()> {
    conn.transaction(|c| {
        if set_round_clock(c, round_id, start, now)? == 0 {
            return Ok(());
        }
        let action = if start {
            "clock.started"
        } else {
            "clock.time_out"
        };
        super::audit::audit_by(
            c,
            tid,
            Some(round_no),
            None,
            action,
            None,
            None,
            "",
            Some(user_id),
            now,
        )
    })
}

/// Stores a round clock's pause: when the current one began (None: not
/// paused) and the seconds of the finished ones.
pub fn set_pause(
    conn: &mut DbConn,
    round_id: RoundId,
    paused_at: Option<NaiveDateTime>,
    paused_seconds: i32,
) -> QueryResult<usize> {
    diesel::update(rounds::table.find(round_id))
        .set((
            rounds::paused_at.eq(paused_at),
            rounds::paused_seconds.eq(paused_seconds),
        ))
        .execute(conn)
}

/// What a round already holds: counted sheets and adjusted scores, entries
/// made at the tables (any state), penalties given for it (withdrawn too).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RoundResults {
    pub sheets: i64,
    pub entries: i64,
    pub penalties: i64,
}

impl RoundResults {
    pub fn is_empty(&self) -> bool {
        self.sheets + self.entries + self.penalties == 0
    }
}

pub fn round_results(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    round_id: RoundId,
    round_no: i32,
) -> QueryResult<RoundResults> {
    use super::schema::{penalties, sheet_entries, sheets};
    let sheets = sheets::table
        .inner_join(seatings::table)
        .filter(seatings::round_id.eq(round_id))
        .count()
        .get_result(conn)?;
    let entries = sheet_entries::table
        .inner_join(seatings::table.on(seatings::id.eq(sheet_entries::seating_id)))
        .filter(seatings::round_id.eq(round_id))
        .count()
        .get_result(conn)?;
    let penalties = penalties::table
        .filter(penalties::tournament_id.eq(tournament_id))
        .filter(penalties::round_no.eq(round_no))
        .count()
        .get_result(conn)?;
    Ok(RoundResults {
        sheets,
        entries,
        penalties,
    })
}

/// Deletes a round with its seating and byes.
pub fn delete_round(conn: &mut DbConn, round_id: RoundId) -> QueryResult<usize> {
    diesel::delete(seatings::table.filter(seatings::round_id.eq(round_id))).execute(conn)?;
    diesel::delete(byes::table.filter(byes::round_id.eq(round_id))).execute(conn)?;
    diesel::delete(rounds::table.find(round_id)).execute(conn)
}
