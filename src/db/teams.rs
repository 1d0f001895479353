//! Team tournaments' rows (issue 25; RULES.md §12): the teams and their
//! players, the team settings of a tournament, the team codes, the pairs a
//! line-up seats (two players of one team) and the teams resting.
//!
//! A match is two seatings of the round (tables 2m−1 and 2m, the home team
//! NS at the first): the sheets, table entries and penalties of a team
//! tournament are a pairs tournament's own rows, on the pairs a line-up
//! names.

use super::schema::{pairs, team_byes, team_players, team_settings, teams, tournaments};
use super::DbConn;
use crate::ids::{PairId, RoundId, TeamId, TournamentId};
use crate::tournament::pairs::Player;
use crate::tournament_file::FileKind;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::Error as DieselError;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = teams)]
pub struct TeamRow {
    pub id: TeamId,
    pub tournament_id: TournamentId,
    pub number: i32,
    pub name: String,
    pub code: Option<String>,
    pub group_name: Option<String>,
    pub checked_in: bool,
    pub withdrawn_from_round: Option<i32>,
    pub no_show: bool,
    pub created_at: NaiveDateTime,
}

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = team_players)]
pub struct TeamPlayerRow {
    pub team_id: TeamId,
    pub position: i32,
    pub surname: String,
    pub name: String,
    pub card: String,
    pub club: String,
    pub person_id: Option<crate::ids::PersonId>,
}

impl TeamPlayerRow {
    pub fn player(&self) -> Player {
        Player::from_stored(&self.surname, &self.name, &self.card, &self.club)
    }
}

/// A tournament's team settings as stored (parsed by the services).
#[derive(Debug, Clone)]
pub struct TeamSettingsRow {
    pub team_scoring: String,
    pub team_bye_vp: Option<i32>,
    pub team_groups: i32,
    pub round_robin_rounds: Option<i32>,
}

/// A team tournament's settings (the defaults when it has none saved).
pub fn team_settings(conn: &mut DbConn, tid: TournamentId) -> QueryResult<TeamSettingsRow> {
    let row: Option<(String, Option<i32>, i32, Option<i32>)> = team_settings::table
        .find(tid)
        .select((
            team_settings::team_scoring,
            team_settings::team_bye_vp,
            team_settings::team_groups,
            team_settings::round_robin_rounds,
        ))
        .first(conn)
        .optional()?;
    let (team_scoring, team_bye_vp, team_groups, round_robin_rounds) =
        row.unwrap_or_else(|| (r#"{"method":"tables"}"#.to_string(), None, 1, None));
    Ok(TeamSettingsRow {
        team_scoring,
        team_bye_vp,
        team_groups,
        round_robin_rounds,
    })
}

/// Makes a tournament a team tournament with these settings (its kind and
/// its settings row, written anew).
pub fn set_team_settings(
    conn: &mut DbConn,
    tid: TournamentId,
    scoring_json: &str,
    bye_vp: Option<i32>,
    groups: i32,
    round_robin_rounds: Option<i32>,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(tournaments::table.find(tid))
        .set((
            tournaments::kind.eq(FileKind::Teams.code()),
            tournaments::updated_at.eq(now),
        ))
        .execute(conn)?;
    diesel::delete(team_settings::table.find(tid)).execute(conn)?;
    diesel::insert_into(team_settings::table)
        .values((
            team_settings::tournament_id.eq(tid),
            team_settings::team_scoring.eq(scoring_json),
            team_settings::team_bye_vp.eq(bye_vp),
            team_settings::team_groups.eq(groups),
            team_settings::round_robin_rounds.eq(round_robin_rounds),
        ))
        .execute(conn)
}

pub fn list_teams(conn: &mut DbConn, tid: TournamentId) -> QueryResult<Vec<TeamRow>> {
    teams::table
        .filter(teams::tournament_id.eq(tid))
        .order(teams::number.asc())
        .select(TeamRow::as_select())
        .load(conn)
}

/// Every player of every team of a tournament, by team then position.
pub fn list_players(conn: &mut DbConn, tid: TournamentId) -> QueryResult<Vec<TeamPlayerRow>> {
    team_players::table
        .inner_join(teams::table)
        .filter(teams::tournament_id.eq(tid))
        .order((teams::number.asc(), team_players::position.asc()))
        .select(TeamPlayerRow::as_select())
        .load(conn)
}

/// Registers a team with the next number; its players are linked to the
/// player directory in the same transaction.
pub fn insert_team(
    conn: &mut DbConn,
    tid: TournamentId,
    name: &str,
    players: &[Player],
    checked_in: bool,
    now: NaiveDateTime,
) -> QueryResult<(TeamId, i32)> {
    let last: Option<i32> = teams::table
        .filter(teams::tournament_id.eq(tid))
        .select(diesel::dsl::max(teams::number))
        .first(conn)?;
    let number = last.unwrap_or(0) + 1;
    let id: TeamId = diesel::insert_into(teams::table)
        .values((
            teams::tournament_id.eq(tid),
            teams::number.eq(number),
            teams::name.eq(name),
            teams::checked_in.eq(checked_in),
            teams::no_show.eq(false),
            teams::created_at.eq(now),
        ))
        .returning(teams::id)
        .get_result(conn)?;
    insert_players(conn, id, players, now)?;
    Ok((id, number))
}

/// A team's players by position, each linked to the player directory (in
/// the caller's transaction, holding the directory's lock).
fn insert_players(
    conn: &mut DbConn,
    id: TeamId,
    players: &[Player],
    now: NaiveDateTime,
) -> QueryResult<()> {
    if !players.is_empty() {
        super::people::lock_directory(conn)?;
    }
    for (i, p) in players.iter().enumerate() {
        let person = super::people::find_or_create(conn, p.surname(), p.name(), p.card(), now)?;
        diesel::insert_into(team_players::table)
            .values((
                team_players::team_id.eq(id),
                team_players::position.eq(i32::try_from(i).unwrap_or(i32::MAX)),
                team_players::surname.eq(p.surname()),
                team_players::name.eq(p.name()),
                team_players::card.eq(p.card()),
                team_players::club.eq(p.club()),
                team_players::person_id.eq(Some(person)),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// Imports a team as the file numbers it (all or nothing with the rest of
/// the import).
pub fn insert_numbered_team(
    conn: &mut DbConn,
    tid: TournamentId,
    number: i32,
    name: &str,
    players: &[Player],
    marks: (bool, Option<i32>, bool),
    now: NaiveDateTime,
) -> QueryResult<TeamId> {
    let (checked_in, withdrawn, no_show) = marks;
    let id: TeamId = diesel::insert_into(teams::table)
        .values((
            teams::tournament_id.eq(tid),
            teams::number.eq(number),
            teams::name.eq(name),
            teams::checked_in.eq(checked_in),
            teams::withdrawn_from_round.eq(withdrawn),
            teams::no_show.eq(no_show),
            teams::created_at.eq(now),
        ))
        .returning(teams::id)
        .get_result(conn)?;
    insert_players(conn, id, players, now)?;
    Ok(id)
}

pub fn set_checked_in(conn: &mut DbConn, id: TeamId, on: bool) -> QueryResult<usize> {
    diesel::update(teams::table.find(id))
        .set(teams::checked_in.eq(on))
        .execute(conn)
}

pub fn set_withdrawn(conn: &mut DbConn, id: TeamId, from: Option<i32>) -> QueryResult<usize> {
    diesel::update(teams::table.find(id))
        .set(teams::withdrawn_from_round.eq(from))
        .execute(conn)
}

/// Marks the teams of `tid` left out of the start as no-shows.
pub fn mark_no_shows(conn: &mut DbConn, tid: TournamentId, drawn: &[TeamId]) -> QueryResult<usize> {
    diesel::update(
        teams::table
            .filter(teams::tournament_id.eq(tid))
            .filter(teams::id.ne_all(drawn)),
    )
    .set(teams::no_show.eq(true))
    .execute(conn)
}

pub fn set_group(conn: &mut DbConn, id: TeamId, group: Option<&str>) -> QueryResult<usize> {
    diesel::update(teams::table.find(id))
        .set(teams::group_name.eq(group))
        .execute(conn)
}

/// Gives every team of the tournament a private code if it has none (six
/// digits, unique among the tournament's teams; existing codes never
/// change).
pub fn ensure_codes(conn: &mut DbConn, tid: TournamentId) -> QueryResult<()> {
    let rows = list_teams(conn, tid)?;
    let mut taken: std::collections::HashSet<String> =
        rows.iter().filter_map(|t| t.code.clone()).collect();
    for t in rows.iter().filter(|t| t.code.is_none()) {
        let fresh = super::table_side::fresh_pair_code(&mut taken);
        diesel::update(teams::table.find(t.id).filter(teams::code.is_null()))
            .set(teams::code.eq(fresh))
            .execute(conn)?;
    }
    Ok(())
}

/// The team of a tournament with this code.
pub fn team_with_code(
    conn: &mut DbConn,
    tid: TournamentId,
    code: &str,
) -> QueryResult<Option<TeamId>> {
    teams::table
        .filter(teams::tournament_id.eq(tid))
        .filter(teams::code.eq(code))
        .select(teams::id)
        .first(conn)
        .optional()
}

/// The pairs (line-ups' pairs) of a team.
pub fn pairs_of_team(conn: &mut DbConn, team: TeamId) -> QueryResult<Vec<PairId>> {
    pairs::table
        .filter(pairs::team_id.eq(team))
        .select(pairs::id)
        .load(conn)
}

/// The pair number of two players of a team: `team·100 + 10·(a+1) + (b+1)`
/// (team 3, players 1 and 2: 312), unique in the tournament.
pub fn pair_number(team: i32, a: i32, b: i32) -> i32 {
    team * 100 + 10 * (a + 1) + (b + 1)
}

/// The pair of players `a` and `b` (positions, any order) of a team: found,
/// or made from the players' rows.
pub fn pair_of(
    conn: &mut DbConn,
    tid: TournamentId,
    team: &TeamRow,
    a: i32,
    b: i32,
    now: NaiveDateTime,
) -> QueryResult<PairId> {
    let (a, b) = (a.min(b), a.max(b));
    let found: Option<PairId> = pairs::table
        .filter(pairs::team_id.eq(team.id))
        .filter(pairs::team_p1.eq(a))
        .filter(pairs::team_p2.eq(b))
        .select(pairs::id)
        .first(conn)
        .optional()?;
    if let Some(id) = found {
        return Ok(id);
    }
    let players: Vec<TeamPlayerRow> = team_players::table
        .filter(team_players::team_id.eq(team.id))
        .filter(team_players::position.eq_any([a, b]))
        .order(team_players::position.asc())
        .select(TeamPlayerRow::as_select())
        .load(conn)?;
    let [p1, p2] = players.as_slice() else {
        return Err(DieselError::SerializationError(
            format!("team {}: no players {a} and {b}", team.number).into(),
        ));
    };
    diesel::insert_into(pairs::table)
        .values((
            pairs::tournament_id.eq(tid),
            pairs::number.eq(pair_number(team.number, a, b)),
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
            pairs::team_id.eq(Some(team.id)),
            pairs::team_p1.eq(Some(a)),
            pairs::team_p2.eq(Some(b)),
        ))
        .returning(pairs::id)
        .get_result(conn)
}

pub fn insert_bye(conn: &mut DbConn, round: RoundId, team: TeamId) -> QueryResult<usize> {
    diesel::insert_into(team_byes::table)
        .values((team_byes::round_id.eq(round), team_byes::team_id.eq(team)))
        .execute(conn)
}

/// The teams resting in each round of a tournament: (round id, team id).
pub fn byes_of(conn: &mut DbConn, tid: TournamentId) -> QueryResult<Vec<(RoundId, TeamId)>> {
    use super::schema::rounds;
    team_byes::table
        .inner_join(rounds::table)
        .filter(rounds::tournament_id.eq(tid))
        .select((team_byes::round_id, team_byes::team_id))
        .load(conn)
}

/// Marks a team tournament started: running, with the draw's seed.
pub fn start(
    conn: &mut DbConn,
    tid: TournamentId,
    seed: u64,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    use crate::tournament::Status;
    diesel::update(tournaments::table.find(tid))
        .set((
            tournaments::status.eq(Status::Running.as_str()),
            tournaments::draw_seed.eq(Some(i64::try_from(seed).unwrap_or(i64::MAX))),
            tournaments::updated_at.eq(now),
        ))
        .execute(conn)
}

/// Writes a round of matches: its row and each table's seating (table,
/// NS pair, EW pair).
pub fn insert_round(
    conn: &mut DbConn,
    tid: TournamentId,
    number: u32,
    movement: &str,
    tables: &[(u32, PairId, PairId)],
    now: NaiveDateTime,
) -> QueryResult<RoundId> {
    use super::schema::{rounds, seatings};
    let round_id: RoundId = diesel::insert_into(rounds::table)
        .values((
            rounds::tournament_id.eq(tid),
            rounds::number.eq(i32::try_from(number).unwrap_or(i32::MAX)),
            rounds::movement.eq(movement),
            rounds::created_at.eq(now),
        ))
        .returning(rounds::id)
        .get_result(conn)?;
    for (table, ns, ew) in tables {
        diesel::insert_into(seatings::table)
            .values((
                seatings::round_id.eq(round_id),
                seatings::table_no.eq(i32::try_from(*table).unwrap_or(i32::MAX)),
                seatings::ns_pair.eq(Some(*ns)),
                seatings::ew_pair.eq(Some(*ew)),
            ))
            .execute(conn)?;
    }
    Ok(round_id)
}

/// Seats `pair` on one line of a seating (a line-up named).
pub fn set_seat(
    conn: &mut DbConn,
    seating: crate::ids::SeatingId,
    ns: bool,
    pair: PairId,
) -> QueryResult<usize> {
    use super::schema::seatings;
    let q = diesel::update(seatings::table.find(seating));
    if ns {
        q.set(seatings::ns_pair.eq(Some(pair))).execute(conn)
    } else {
        q.set(seatings::ew_pair.eq(Some(pair))).execute(conn)
    }
}

/// Whether any of these seatings has a sheet, an adjusted score or a
/// table entry, or a penalty names one of their tables in their round.
pub fn any_result(conn: &mut DbConn, seatings: &[crate::ids::SeatingId]) -> QueryResult<bool> {
    use super::schema::{penalties, rounds, seatings as seats, sheet_entries, sheets};
    let places: Vec<(TournamentId, i32, i32)> = seats::table
        .inner_join(rounds::table)
        .filter(seats::id.eq_any(seatings))
        .select((rounds::tournament_id, rounds::number, seats::table_no))
        .load(conn)?;
    for (tid, round, table) in places {
        let given: i64 = penalties::table
            .filter(penalties::tournament_id.eq(tid))
            .filter(penalties::round_no.eq(round))
            .filter(penalties::table_no.eq(table))
            .count()
            .get_result(conn)?;
        if given > 0 {
            return Ok(true);
        }
    }
    let sheets: i64 = sheets::table
        .filter(sheets::seating_id.eq_any(seatings))
        .count()
        .get_result(conn)?;
    let entries: i64 = sheet_entries::table
        .filter(sheet_entries::seating_id.eq_any(seatings))
        .count()
        .get_result(conn)?;
    Ok(sheets + entries > 0)
}

/// Every seating of a tournament (all rounds).
pub fn seatings_of(
    conn: &mut DbConn,
    tid: TournamentId,
) -> QueryResult<Vec<super::rounds::SeatingRow>> {
    use super::schema::{rounds, seatings};
    seatings::table
        .inner_join(rounds::table)
        .filter(rounds::tournament_id.eq(tid))
        .order(seatings::table_no.asc())
        .select(super::rounds::SeatingRow::as_select())
        .load(conn)
}

/// A team tournament back in preparation (round 1 undone): the start's
/// no-show marks and groups go (the draw will make them again); the codes
/// stay, as the pairs' do.
pub fn unstart(conn: &mut DbConn, tid: TournamentId) -> QueryResult<usize> {
    diesel::update(teams::table.filter(teams::tournament_id.eq(tid)))
        .set((
            teams::no_show.eq(false),
            teams::group_name.eq(None::<String>),
        ))
        .execute(conn)
}

/// Deletes a team registered before the start (an entry online withdrawn):
/// its players first, then the team; the other teams keep their numbers.
pub fn delete_team(conn: &mut DbConn, tid: TournamentId, id: TeamId) -> QueryResult<usize> {
    diesel::delete(team_players::table.filter(team_players::team_id.eq(id))).execute(conn)?;
    diesel::delete(
        teams::table
            .filter(teams::tournament_id.eq(tid))
            .filter(teams::id.eq(id)),
    )
    .execute(conn)
}

/// The live teams of a tournament (not withdrawn, not no-shows), each with
/// its players.
pub fn live_teams(
    conn: &mut DbConn,
    tid: TournamentId,
) -> QueryResult<Vec<(TeamRow, Vec<crate::tournament::pairs::Player>)>> {
    let teams = list_teams(conn, tid)?;
    let players = list_players(conn, tid)?;
    Ok(teams
        .into_iter()
        .filter(|t| !t.no_show && t.withdrawn_from_round.is_none())
        .map(|t| {
            let of: Vec<_> = players
                .iter()
                .filter(|p| p.team_id == t.id)
                .map(TeamPlayerRow::player)
                .collect();
            (t, of)
        })
        .collect())
}
