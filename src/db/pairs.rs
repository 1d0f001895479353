//! Pairs: registration (one or a CSV's worth), check-in, withdrawal, no-shows, deletion; a player in two pairs of one tournament is refused.

use super::schema::pairs;
use super::DbConn;
use crate::ids::PairId;
use crate::ids::TournamentId;
use crate::movement::PairNo;
use crate::tournament::pairs::{PairEntry, Player};
use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::Error as DieselError;

// ---- pairs ----

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = pairs)]
pub struct PairRow {
    pub id: PairId,
    pub tournament_id: TournamentId,
    pub number: i32,
    pub p1_surname: String,
    pub p1_name: String,
    pub p1_card: String,
    pub p1_club: String,
    pub p2_surname: String,
    pub p2_name: String,
    pub p2_card: String,
    pub p2_club: String,
    pub checked_in: bool,
    pub joined_from_round: Option<i32>,
    pub withdrawn_from_round: Option<i32>,
    pub created_at: NaiveDateTime,
    /// Registered but never played: not an entry (RULES.md §10).
    pub no_show: bool,
    /// The seats' people in the player directory (`db::people`).
    pub p1_person_id: Option<crate::ids::PersonId>,
    pub p2_person_id: Option<crate::ids::PersonId>,
    /// A team tournament's pair: its team and the two players' positions
    /// in it (issue 25).
    pub team_id: Option<crate::ids::TeamId>,
    pub team_p1: Option<i32>,
    pub team_p2: Option<i32>,
    /// The pair's group once the field is cut (RULES.md §13).
    pub group_label: Option<String>,
    /// An individual tournament's partnership: its two players (issue 35).
    pub ind_p1: Option<crate::ids::IndividualPlayerId>,
    pub ind_p2: Option<crate::ids::IndividualPlayerId>,
}

impl PairRow {
    pub fn entry(&self) -> PairEntry {
        PairEntry {
            players: [
                Player::from_stored(
                    &self.p1_surname,
                    &self.p1_name,
                    &self.p1_card,
                    &self.p1_club,
                ),
                Player::from_stored(
                    &self.p2_surname,
                    &self.p2_name,
                    &self.p2_card,
                    &self.p2_club,
                ),
            ],
        }
    }

    pub fn pair_no(&self) -> PairNo {
        u32::try_from(self.number).unwrap_or(0)
    }

    /// "Rossi – Bianchi".
    /// "Rossi Maria – Bianchi Luca".
    pub fn names(&self) -> String {
        format!(
            "{} {} – {} {}",
            self.p1_surname, self.p1_name, self.p2_surname, self.p2_name
        )
    }

    pub fn label(&self) -> String {
        format!("{} – {}", self.p1_surname, self.p2_surname)
    }

    /// Withdrawn before it ever played: before the start (round 1), or a
    /// late pair withdrawn before its first round.
    pub fn withdrawn_unplayed(&self) -> bool {
        self.withdrawn_from_round
            .is_some_and(|w| w <= self.joined_from_round.unwrap_or(1))
    }

    /// An entry (RULES.md §10): not a no-show and not withdrawn before it
    /// ever played.
    pub fn is_entry(&self) -> bool {
        !self.no_show && !self.withdrawn_unplayed()
    }

    /// Its players are taken: a registration that is neither withdrawn nor
    /// a no-show. The players of a withdrawn or no-show pair may register
    /// again.
    pub fn holds_players(&self) -> bool {
        !self.no_show && self.withdrawn_from_round.is_none()
    }

    /// Withdrawn before (or from) round `n`.
    pub fn withdrawn_by(&self, n: i32) -> bool {
        self.withdrawn_from_round.is_some_and(|w| w <= n)
    }
}

pub fn list_pairs(conn: &mut DbConn, tournament_id: TournamentId) -> QueryResult<Vec<PairRow>> {
    pairs::table
        .filter(pairs::tournament_id.eq(tournament_id))
        .order(pairs::number.asc())
        .select(PairRow::as_select())
        .load(conn)
}

/// The pairs of a tournament with these ids, by number.
pub fn pairs_by_ids(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    ids: &[PairId],
) -> QueryResult<Vec<PairRow>> {
    pairs::table
        .filter(pairs::tournament_id.eq(tournament_id))
        .filter(pairs::id.eq_any(ids))
        .order(pairs::number.asc())
        .select(PairRow::as_select())
        .load(conn)
}

pub fn find_pair(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    pair_id: PairId,
) -> QueryResult<Option<PairRow>> {
    pairs::table
        .filter(pairs::tournament_id.eq(tournament_id))
        .filter(pairs::id.eq(pair_id))
        .select(PairRow::as_select())
        .first(conn)
        .optional()
}

/// Why a pair could not be saved.
#[derive(Debug, thiserror::Error)]
pub enum PairError {
    #[error("{player} is already registered in pair {number}")]
    PlayerTaken { player: String, number: i32 },
    #[error("no such pair")]
    NotFound,
    #[error(transparent)]
    Db(#[from] DieselError),
}

/// The two players' columns, for inserts and updates alike.
#[derive(Insertable, AsChangeset)]
#[diesel(table_name = pairs)]
struct PlayerColumns<'a> {
    p1_surname: &'a str,
    p1_name: &'a str,
    p1_card: &'a str,
    p1_club: &'a str,
    p2_surname: &'a str,
    p2_name: &'a str,
    p2_card: &'a str,
    p2_club: &'a str,
}

fn player_columns(entry: &PairEntry) -> PlayerColumns<'_> {
    let [a, b] = &entry.players;
    PlayerColumns {
        p1_surname: a.surname(),
        p1_name: a.name(),
        p1_card: a.card(),
        p1_club: a.club(),
        p2_surname: b.surname(),
        p2_name: b.name(),
        p2_card: b.card(),
        p2_club: b.club(),
    }
}

/// Refuses `entry` when one of its players is in another registration that
/// still holds its players (withdrawn and no-show pairs do not).
pub fn check_clash(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    entry: &PairEntry,
    except: Option<PairId>,
) -> Result<(), PairError> {
    for other in list_pairs(conn, tournament_id)? {
        if Some(other.id) == except || !other.holds_players() {
            continue;
        }
        if let Some((_, who)) = entry.clashes_with([&other.entry()]) {
            return Err(PairError::PlayerTaken {
                player: who,
                number: other.number,
            });
        }
    }
    Ok(())
}

fn insert_entry(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    entry: &PairEntry,
    joined_from_round: Option<i32>,
    now: NaiveDateTime,
) -> Result<(PairId, i32), PairError> {
    let next: Option<i32> = pairs::table
        .filter(pairs::tournament_id.eq(tournament_id))
        .select(diesel::dsl::max(pairs::number))
        .first(conn)?;
    let number = next.unwrap_or(0) + 1;
    let id = diesel::insert_into(pairs::table)
        .values((
            player_columns(entry),
            pairs::tournament_id.eq(tournament_id),
            pairs::number.eq(number),
            // A late pair is there when it registers.
            pairs::checked_in.eq(joined_from_round.is_some()),
            pairs::joined_from_round.eq(joined_from_round),
            pairs::created_at.eq(now),
        ))
        .returning(pairs::id)
        .get_result(conn)?;
    super::people::link_pair(conn, id, now)?;
    Ok((id, number))
}

/// Registers a pair (number = the next free one); one transaction.
pub fn add_pair(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    entry: &PairEntry,
    joined_from_round: Option<i32>,
    now: NaiveDateTime,
) -> Result<(PairId, i32), PairError> {
    conn.transaction(|conn| {
        check_clash(conn, tournament_id, entry, None)?;
        insert_entry(conn, tournament_id, entry, joined_from_round, now)
    })
}

/// Registers many pairs, all or nothing.
pub fn import_pairs(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    entries: &[PairEntry],
    now: NaiveDateTime,
) -> Result<usize, PairError> {
    conn.transaction(|conn| {
        for e in entries {
            check_clash(conn, tournament_id, e, None)?;
            insert_entry(conn, tournament_id, e, None, now)?;
        }
        Ok(entries.len())
    })
}

pub fn update_pair(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    pair_id: PairId,
    entry: &PairEntry,
    now: NaiveDateTime,
) -> Result<(), PairError> {
    conn.transaction(|conn| {
        find_pair(conn, tournament_id, pair_id)?.ok_or(PairError::NotFound)?;
        check_clash(conn, tournament_id, entry, Some(pair_id))?;
        diesel::update(pairs::table.find(pair_id))
            .set(player_columns(entry))
            .execute(conn)?;
        super::people::link_pair(conn, pair_id, now)?;
        Ok(())
    })
}

pub fn set_checked_in(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    pair_id: PairId,
    checked_in: bool,
) -> QueryResult<usize> {
    diesel::update(
        pairs::table
            .filter(pairs::tournament_id.eq(tournament_id))
            .filter(pairs::id.eq(pair_id)),
    )
    .set(pairs::checked_in.eq(checked_in))
    .execute(conn)
}

pub fn set_withdrawn(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    pair_id: PairId,
    from_round: Option<i32>,
) -> QueryResult<usize> {
    diesel::update(
        pairs::table
            .filter(pairs::tournament_id.eq(tournament_id))
            .filter(pairs::id.eq(pair_id)),
    )
    .set(pairs::withdrawn_from_round.eq(from_round))
    .execute(conn)
}

/// Marks a pair no-show (or not).
pub fn set_no_show(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    pair_id: PairId,
    no_show: bool,
) -> QueryResult<usize> {
    diesel::update(
        pairs::table
            .filter(pairs::tournament_id.eq(tournament_id))
            .filter(pairs::id.eq(pair_id)),
    )
    .set(pairs::no_show.eq(no_show))
    .execute(conn)
}

/// Deletes a registration (before the start: nothing refers to it yet).
pub fn delete_pair(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    pair_id: PairId,
) -> QueryResult<usize> {
    diesel::delete(
        pairs::table
            .filter(pairs::tournament_id.eq(tournament_id))
            .filter(pairs::id.eq(pair_id)),
    )
    .execute(conn)
}

/// At the start: every registration not in the draw becomes a no-show.
pub fn mark_undrawn_no_show(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    drawn: &[PairId],
) -> QueryResult<usize> {
    diesel::update(
        pairs::table
            .filter(pairs::tournament_id.eq(tournament_id))
            .filter(pairs::id.ne_all(drawn)),
    )
    .set(pairs::no_show.eq(true))
    .execute(conn)
}

/// Puts pairs of a tournament in a group (RULES.md §13), or out of any
/// group (`None`: the cut undone).
pub fn set_group(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    pair_ids: &[PairId],
    group: Option<&str>,
) -> QueryResult<usize> {
    diesel::update(
        pairs::table
            .filter(pairs::tournament_id.eq(tournament_id))
            .filter(pairs::id.eq_any(pair_ids)),
    )
    .set(pairs::group_label.eq(group))
    .execute(conn)
}

/// Takes every pair of a tournament out of its group (the cut undone).
pub fn clear_groups(conn: &mut DbConn, tournament_id: TournamentId) -> QueryResult<usize> {
    diesel::update(pairs::table.filter(pairs::tournament_id.eq(tournament_id)))
        .set(pairs::group_label.eq(None::<String>))
        .execute(conn)
}
