//! Entries online (issue 36): a tournament's switches (`tournament_online`,
//! beside its row) and the entries of the public form (`online_entries`).

use super::schema::{online_entries, tournament_online};
use super::DbConn;
use crate::ids::TournamentId;
use crate::tournament::online::OnlineSwitches;
use chrono::NaiveDateTime;
use diesel::prelude::*;

/// A tournament's switches (all off when it has no row).
pub fn switches(conn: &mut DbConn, tid: TournamentId) -> QueryResult<OnlineSwitches> {
    let row: Option<(bool, Option<i64>, Option<NaiveDateTime>, bool)> = tournament_online::table
        .find(tid)
        .select((
            tournament_online::online_entries,
            tournament_online::capacity,
            tournament_online::entries_close_at,
            tournament_online::member_check,
        ))
        .first(conn)
        .optional()?;
    Ok(
        row.map_or_else(OnlineSwitches::default, |(on, cap, at, check)| {
            OnlineSwitches {
                online_entries: on,
                capacity: cap.and_then(|c| u32::try_from(c).ok()),
                entries_close_at: at,
                member_check: check,
            }
        }),
    )
}

/// Saves a tournament's switches.
pub fn save_switches(conn: &mut DbConn, tid: TournamentId, s: &OnlineSwitches) -> QueryResult<()> {
    let values = (
        tournament_online::online_entries.eq(s.online_entries),
        tournament_online::capacity.eq(s.capacity.map(i64::from)),
        tournament_online::entries_close_at.eq(s.entries_close_at),
        tournament_online::member_check.eq(s.member_check),
    );
    let changed = diesel::update(tournament_online::table.find(tid))
        .set(values)
        .execute(conn)?;
    if changed == 0 {
        diesel::insert_into(tournament_online::table)
            .values((tournament_online::tournament_id.eq(tid), values))
            .execute(conn)?;
    }
    Ok(())
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = online_entries)]
pub struct EntryRow {
    pub id: i64,
    pub tournament_id: TournamentId,
    pub token: String,
    pub status: String,
    pub queue: i64,
    pub pair_id: Option<i64>,
    /// JSON: `[{"surname", "name", "card", "club"}, …]`.
    pub players: String,
    pub email: String,
    pub phone: String,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    /// A team entry's name ('' for a pair).
    pub team_name: String,
    /// The team a team entry became once confirmed.
    pub team_id: Option<i64>,
    /// The player an individual entry became once confirmed.
    pub player_id: Option<i64>,
}

impl EntryRow {
    /// The registration it became.
    pub fn holder(&self) -> Holder {
        Holder {
            pair: self.pair_id,
            team: self.team_id,
            player: self.player_id,
        }
    }
}

/// The registration an entry became once confirmed: a pair, a team or a
/// player (by the tournament's kind).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Holder {
    pub pair: Option<i64>,
    pub team: Option<i64>,
    pub player: Option<i64>,
}

/// A new entry.
pub struct NewEntry<'a> {
    pub tid: TournamentId,
    pub token: &'a str,
    pub status: &'a str,
    pub holder: Holder,
    pub team_name: &'a str,
    pub players: &'a str,
    pub email: &'a str,
    pub phone: &'a str,
}

/// Inserts an entry at the end of the queue; its id.
pub fn insert(conn: &mut DbConn, e: &NewEntry<'_>, now: NaiveDateTime) -> QueryResult<i64> {
    let last: Option<i64> = online_entries::table
        .filter(online_entries::tournament_id.eq(e.tid))
        .select(diesel::dsl::max(online_entries::queue))
        .first(conn)?;
    diesel::insert_into(online_entries::table)
        .values((
            online_entries::tournament_id.eq(e.tid),
            online_entries::token.eq(e.token),
            online_entries::status.eq(e.status),
            online_entries::queue.eq(last.unwrap_or(0) + 1),
            online_entries::pair_id.eq(e.holder.pair),
            online_entries::team_id.eq(e.holder.team),
            online_entries::player_id.eq(e.holder.player),
            online_entries::team_name.eq(e.team_name),
            online_entries::players.eq(e.players),
            online_entries::email.eq(e.email),
            online_entries::phone.eq(e.phone),
            online_entries::created_at.eq(now),
            online_entries::updated_at.eq(now),
        ))
        .returning(online_entries::id)
        .get_result(conn)
}

/// A tournament's entries, in queue order.
pub fn list(conn: &mut DbConn, tid: TournamentId) -> QueryResult<Vec<EntryRow>> {
    online_entries::table
        .filter(online_entries::tournament_id.eq(tid))
        .order((online_entries::queue.asc(), online_entries::id.asc()))
        .select(EntryRow::as_select())
        .load(conn)
}

/// The entry of a private token.
pub fn by_token(conn: &mut DbConn, token: &str) -> QueryResult<Option<EntryRow>> {
    online_entries::table
        .filter(online_entries::token.eq(token))
        .select(EntryRow::as_select())
        .first(conn)
        .optional()
}

/// Sets an entry's state (and the registration it became once
/// confirmed).
pub fn set_status(
    conn: &mut DbConn,
    id: i64,
    status: &str,
    holder: Holder,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(online_entries::table.find(id))
        .set((
            online_entries::status.eq(status),
            online_entries::pair_id.eq(holder.pair),
            online_entries::team_id.eq(holder.team),
            online_entries::player_id.eq(holder.player),
            online_entries::updated_at.eq(now),
        ))
        .execute(conn)
}

/// Moves an entry in the queue.
pub fn set_queue(conn: &mut DbConn, id: i64, queue: i64) -> QueryResult<usize> {
    diesel::update(online_entries::table.find(id))
        .set(online_entries::queue.eq(queue))
        .execute(conn)
}

/// At the start: every entry still waiting is closed; the closed ones.
pub fn close_waiting(
    conn: &mut DbConn,
    tid: TournamentId,
    now: NaiveDateTime,
) -> QueryResult<Vec<EntryRow>> {
    let waiting: Vec<EntryRow> = online_entries::table
        .filter(online_entries::tournament_id.eq(tid))
        .filter(online_entries::status.eq("waiting"))
        .select(EntryRow::as_select())
        .load(conn)?;
    diesel::update(
        online_entries::table
            .filter(online_entries::tournament_id.eq(tid))
            .filter(online_entries::status.eq("waiting")),
    )
    .set((
        online_entries::status.eq("closed"),
        online_entries::updated_at.eq(now),
    ))
    .execute(conn)?;
    Ok(waiting)
}
