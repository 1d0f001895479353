//! Individual tournaments' rows (issue 35; RULES.md §14): the players, each
//! linked to the player directory, their personal codes and entry marks;
//! the partnerships a round seats (a pair row of two players) and the
//! players resting.
//!
//! A round's tables are a pairs tournament's seatings of those partnership
//! pairs: sheets, table entries and penalties are the pairs' own rows.

use super::schema::{
    individual_byes, individual_penalties, individual_players, pairs, penalties, tournaments,
};
use super::DbConn;
use crate::ids::{IndividualPlayerId, PairId, PersonId, RoundId, TournamentId};
use crate::tournament::pairs::Player;
use crate::tournament_file::FileKind;
use chrono::NaiveDateTime;
use diesel::prelude::*;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = individual_players)]
pub struct PlayerRow {
    pub id: IndividualPlayerId,
    pub tournament_id: TournamentId,
    pub number: i32,
    pub surname: String,
    pub name: String,
    pub card: String,
    pub club: String,
    pub person_id: Option<PersonId>,
    pub code: Option<String>,
    pub checked_in: bool,
    pub withdrawn_from_round: Option<i32>,
    pub no_show: bool,
    pub created_at: NaiveDateTime,
}

impl PlayerRow {
    pub fn player(&self) -> Player {
        Player::from_stored(&self.surname, &self.name, &self.card, &self.club)
    }
}

/// Makes a tournament an individual one.
pub fn set_individual(
    conn: &mut DbConn,
    tid: TournamentId,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(tournaments::table.find(tid))
        .set((
            tournaments::kind.eq(FileKind::Individual.code()),
            tournaments::updated_at.eq(now),
        ))
        .execute(conn)
}

/// A tournament's players by number.
pub fn list_players(conn: &mut DbConn, tid: TournamentId) -> QueryResult<Vec<PlayerRow>> {
    individual_players::table
        .filter(individual_players::tournament_id.eq(tid))
        .order(individual_players::number.asc())
        .select(PlayerRow::as_select())
        .load(conn)
}

/// Registers players with the next numbers, each linked to the player
/// directory (in the caller's transaction, holding the directory's lock);
/// their ids and numbers.
pub fn insert_players(
    conn: &mut DbConn,
    tid: TournamentId,
    players: &[Player],
    now: NaiveDateTime,
) -> QueryResult<Vec<(IndividualPlayerId, i32)>> {
    if players.is_empty() {
        return Ok(Vec::new());
    }
    super::people::lock_directory(conn)?;
    let last: Option<i32> = individual_players::table
        .filter(individual_players::tournament_id.eq(tid))
        .select(diesel::dsl::max(individual_players::number))
        .first(conn)?;
    let mut number = last.unwrap_or(0);
    let mut numbers = Vec::with_capacity(players.len());
    for p in players {
        number += 1;
        let person = super::people::find_or_create(conn, p.surname(), p.name(), p.card(), now)?;
        let id: IndividualPlayerId = diesel::insert_into(individual_players::table)
            .values((
                individual_players::tournament_id.eq(tid),
                individual_players::number.eq(number),
                individual_players::surname.eq(p.surname()),
                individual_players::name.eq(p.name()),
                individual_players::card.eq(p.card()),
                individual_players::club.eq(p.club()),
                individual_players::person_id.eq(Some(person)),
                individual_players::checked_in.eq(false),
                individual_players::no_show.eq(false),
                individual_players::created_at.eq(now),
            ))
            .returning(individual_players::id)
            .get_result(conn)?;
        numbers.push((id, number));
    }
    Ok(numbers)
}

/// Corrects a player's names, card and club (its directory link follows).
pub fn update_player(
    conn: &mut DbConn,
    id: IndividualPlayerId,
    p: &Player,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    super::people::lock_directory(conn)?;
    let person = super::people::find_or_create(conn, p.surname(), p.name(), p.card(), now)?;
    diesel::update(individual_players::table.find(id))
        .set((
            individual_players::surname.eq(p.surname()),
            individual_players::name.eq(p.name()),
            individual_players::card.eq(p.card()),
            individual_players::club.eq(p.club()),
            individual_players::person_id.eq(Some(person)),
        ))
        .execute(conn)
}

/// Removes a player registered by mistake (before the start).
pub fn delete_player(conn: &mut DbConn, id: IndividualPlayerId) -> QueryResult<usize> {
    diesel::delete(individual_players::table.find(id)).execute(conn)
}

pub fn set_checked_in(
    conn: &mut DbConn,
    ids: &[IndividualPlayerId],
    on: bool,
) -> QueryResult<usize> {
    diesel::update(individual_players::table.filter(individual_players::id.eq_any(ids)))
        .set(individual_players::checked_in.eq(on))
        .execute(conn)
}

pub fn set_withdrawn(
    conn: &mut DbConn,
    id: IndividualPlayerId,
    from: Option<i32>,
) -> QueryResult<usize> {
    diesel::update(individual_players::table.find(id))
        .set(individual_players::withdrawn_from_round.eq(from))
        .execute(conn)
}

/// The pair number of players `a` and `b` (their numbers, any order):
/// `lower·10000 + higher` (players 3 and 17: 30017), unique in the
/// tournament; the desk shows it as `3–17` (`templates/desk/round.html`).
pub fn line_number(a: i32, b: i32) -> i32 {
    a.min(b) * 10_000 + a.max(b)
}

/// The partnership of players `a` and `b` (any order): found, or made from
/// the players' rows.
pub fn line_of(
    conn: &mut DbConn,
    tid: TournamentId,
    a: &PlayerRow,
    b: &PlayerRow,
    now: NaiveDateTime,
) -> QueryResult<PairId> {
    let (p1, p2) = if a.number <= b.number { (a, b) } else { (b, a) };
    let found: Option<PairId> = pairs::table
        .filter(pairs::tournament_id.eq(tid))
        .filter(pairs::ind_p1.eq(p1.id))
        .filter(pairs::ind_p2.eq(p2.id))
        .select(pairs::id)
        .first(conn)
        .optional()?;
    if let Some(id) = found {
        return Ok(id);
    }
    diesel::insert_into(pairs::table)
        .values((
            pairs::tournament_id.eq(tid),
            pairs::number.eq(line_number(p1.number, p2.number)),
            pairs::p1_surname.eq(&p1.surname),
            pairs::p1_name.eq(&p1.name),
            pairs::p1_card.eq(&p1.card),
            pairs::p1_club.eq(&p1.club),
            pairs::p2_surname.eq(&p2.surname),
            pairs::p2_name.eq(&p2.name),
            pairs::p2_card.eq(&p2.card),
            pairs::p2_club.eq(&p2.club),
            pairs::checked_in.eq(true),
            pairs::created_at.eq(now),
            pairs::no_show.eq(false),
            pairs::p1_person_id.eq(p1.person_id),
            pairs::p2_person_id.eq(p2.person_id),
            pairs::ind_p1.eq(Some(p1.id)),
            pairs::ind_p2.eq(Some(p2.id)),
        ))
        .returning(pairs::id)
        .get_result(conn)
}

pub fn insert_bye(
    conn: &mut DbConn,
    round: RoundId,
    player: IndividualPlayerId,
) -> QueryResult<usize> {
    diesel::insert_into(individual_byes::table)
        .values((
            individual_byes::round_id.eq(round),
            individual_byes::player_id.eq(player),
        ))
        .execute(conn)
}

/// The players resting in each round of a tournament: (round id, player).
pub fn byes_of(
    conn: &mut DbConn,
    tid: TournamentId,
) -> QueryResult<Vec<(RoundId, IndividualPlayerId)>> {
    use super::schema::rounds;
    individual_byes::table
        .inner_join(rounds::table)
        .filter(rounds::tournament_id.eq(tid))
        .select((individual_byes::round_id, individual_byes::player_id))
        .load(conn)
}

/// Marks the players of `tid` left out of the start as no-shows.
pub fn mark_no_shows(
    conn: &mut DbConn,
    tid: TournamentId,
    drawn: &[IndividualPlayerId],
) -> QueryResult<usize> {
    diesel::update(
        individual_players::table
            .filter(individual_players::tournament_id.eq(tid))
            .filter(individual_players::id.ne_all(drawn)),
    )
    .set(individual_players::no_show.eq(true))
    .execute(conn)
}

/// An individual tournament back in preparation (round 1 undone): the
/// start's no-show marks go (the draw makes them again).
pub fn unstart(conn: &mut DbConn, tid: TournamentId) -> QueryResult<usize> {
    diesel::update(individual_players::table.filter(individual_players::tournament_id.eq(tid)))
        .set(individual_players::no_show.eq(false))
        .execute(conn)
}

/// Gives every player of the tournament a personal code if they have none
/// (the pairs' code format, unique among the tournament's players: its
/// partnerships have no code of their own; existing codes never change).
pub fn ensure_codes(conn: &mut DbConn, tid: TournamentId) -> QueryResult<()> {
    let rows = list_players(conn, tid)?;
    let mut taken: std::collections::HashSet<String> =
        rows.iter().filter_map(|p| p.code.clone()).collect();
    for p in rows.iter().filter(|p| p.code.is_none()) {
        let fresh = super::table_side::fresh_pair_code(&mut taken);
        diesel::update(
            individual_players::table
                .find(p.id)
                .filter(individual_players::code.is_null()),
        )
        .set(individual_players::code.eq(fresh))
        .execute(conn)?;
    }
    Ok(())
}

/// The partnerships of the player whose personal code this is (none when
/// no player of the tournament has it).
pub fn lines_of_code(conn: &mut DbConn, tid: TournamentId, code: &str) -> QueryResult<Vec<PairId>> {
    let player: Option<IndividualPlayerId> = individual_players::table
        .filter(individual_players::tournament_id.eq(tid))
        .filter(individual_players::code.eq(code))
        .select(individual_players::id)
        .first(conn)
        .optional()?;
    let Some(player) = player else {
        return Ok(Vec::new());
    };
    pairs::table
        .filter(pairs::tournament_id.eq(tid))
        .filter(pairs::ind_p1.eq(player).or(pairs::ind_p2.eq(player)))
        .select(pairs::id)
        .load(conn)
}

/// The partnerships of a player (every round's).
pub fn lines_of_player(
    conn: &mut DbConn,
    tid: TournamentId,
    player: IndividualPlayerId,
) -> QueryResult<Vec<PairId>> {
    pairs::table
        .filter(pairs::tournament_id.eq(tid))
        .filter(pairs::ind_p1.eq(player).or(pairs::ind_p2.eq(player)))
        .select(pairs::id)
        .load(conn)
}

/// Names the player a penalty is given to.
pub fn insert_penalty_player(
    conn: &mut DbConn,
    penalty: crate::ids::PenaltyId,
    player: IndividualPlayerId,
) -> QueryResult<usize> {
    diesel::insert_into(individual_penalties::table)
        .values((
            individual_penalties::penalty_id.eq(penalty),
            individual_penalties::player_id.eq(player),
        ))
        .execute(conn)
}

/// The player of every penalty of a tournament, in the order of
/// `db::penalties::penalties_of` (round, then id): (penalty, player).
pub fn penalty_players(
    conn: &mut DbConn,
    tid: TournamentId,
) -> QueryResult<Vec<(crate::ids::PenaltyId, IndividualPlayerId)>> {
    individual_penalties::table
        .inner_join(penalties::table)
        .filter(penalties::tournament_id.eq(tid))
        .order((penalties::round_no.asc(), penalties::id.asc()))
        .select((
            individual_penalties::penalty_id,
            individual_penalties::player_id,
        ))
        .load(conn)
}
