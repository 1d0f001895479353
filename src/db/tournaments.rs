//! Tournaments, pairs, rounds and seating.

use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::Error as DieselError;

use super::schema::{byes, pairs, rounds, seatings, tournaments};
use super::{now, DbConn};
use crate::movement::{Layout, PairNo, RoundSeating};
use crate::rules::prize_pool::PayoutTier;
use crate::tournament::pairs::{PairEntry, Player};
use crate::tournament::settings::{format_payout, scale_text, Settings, SettingsForm};
use crate::tournament::{RoundMovement, Status};

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = tournaments)]
pub struct TournamentRow {
    pub id: i64,
    pub name: String,
    pub starts_at: NaiveDateTime,
    pub venue: String,
    pub profile: String,
    pub planned_rounds: i32,
    pub hands_per_round: i32,
    pub vp_scale: String,
    pub minutes_per_round: i32,
    pub mitchell_rounds: i32,
    pub danish_modified: bool,
    pub mitchell_advance: i32,
    pub allow_repeats: bool,
    pub bye_vp: i32,
    pub entry_fee_cents: i64,
    pub prize_share_percent: String,
    pub guaranteed_pool_cents: i64,
    pub payout: String,
    pub suit_order: String,
    pub status: String,
    pub draw_seed: Option<i64>,
    pub layout: Option<String>,
    pub created_by: Option<i64>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    /// Goes up with every write to the tournament (in the same transaction).
    pub revision: i64,
    /// Players may enter and confirm sheets from the table.
    pub table_entry: bool,
    /// `full` or `totals`: how the tables enter their sheets.
    pub sheet_mode: String,
}

/// Money: integer cents in the database, `Decimal` in code.
/// Settings reach here only through `Settings::parse`, whose money types
/// bound every amount far below the limit; an amount that still does not
/// fit is refused by the database write, never stored as a wrong number.
pub fn to_cents(d: rust_decimal::Decimal) -> Result<i64, DieselError> {
    use rust_decimal::prelude::ToPrimitive;
    d.checked_mul(rust_decimal::Decimal::ONE_HUNDRED)
        .map(|c| c.round())
        .and_then(|c| c.to_i64())
        .ok_or_else(|| DieselError::SerializationError(format!("{d} does not fit in cents").into()))
}

pub fn from_cents(c: i64) -> rust_decimal::Decimal {
    rust_decimal::Decimal::new(c, 2)
}

impl TournamentRow {
    /// The status's catalog label (lists show a broken row as broken).
    pub fn status_label_key(&self) -> &'static str {
        self.status()
            .map(Status::label_key)
            .unwrap_or("error.internal.title")
    }

    /// The stored status; an unknown one is an error naming the tournament.
    pub fn status(&self) -> Result<Status, String> {
        Status::parse(&self.status)
            .ok_or_else(|| format!("tournament {}: status {:?}", self.id, self.status))
    }

    /// The settings, through the same checks as the form (stored values
    /// passed them when saved; a broken row is a data error).
    pub fn settings(&self) -> Result<Settings, DieselError> {
        let form = SettingsForm {
            name: self.name.clone(),
            date: self.starts_at.format("%Y-%m-%d").to_string(),
            start_time: self.starts_at.format("%H:%M").to_string(),
            venue: self.venue.clone(),
            profile: self.profile.clone(),
            planned_rounds: self.planned_rounds.to_string(),
            hands_per_round: self.hands_per_round.to_string(),
            vp_scale: self.vp_scale.clone(),
            minutes_per_round: self.minutes_per_round.to_string(),
            mitchell_rounds: self.mitchell_rounds.to_string(),
            danish_form: if self.danish_modified {
                "modified"
            } else {
                "pure"
            }
            .into(),
            mitchell_advance: self.mitchell_advance.to_string(),
            allow_repeats: if self.allow_repeats {
                "on".into()
            } else {
                String::new()
            },
            bye_vp: self.bye_vp.to_string(),
            entry_fee: format!("{:.2}", from_cents(self.entry_fee_cents)),
            prize_share_percent: self.prize_share_percent.clone(),
            guaranteed_pool: format!("{:.2}", from_cents(self.guaranteed_pool_cents)),
            payout: self.payout.clone(),
            suit_order: self.suit_order.clone(),
            table_entry: if self.table_entry { "on" } else { "off" }.into(),
            sheet_mode: self.sheet_mode.clone(),
        };
        Settings::parse(&form, chrono_tz::UTC).map_err(|p| {
            DieselError::DeserializationError(
                format!("tournament {} has invalid settings: {p:?}", self.id).into(),
            )
        })
    }

    pub fn layout(&self) -> Option<Layout> {
        self.layout
            .as_deref()
            .and_then(|j| serde_json::from_str(j).ok())
    }
}

#[derive(AsChangeset, Insertable)]
#[diesel(table_name = tournaments)]
struct SettingsRow {
    name: String,
    starts_at: NaiveDateTime,
    venue: String,
    profile: String,
    planned_rounds: i32,
    hands_per_round: i32,
    vp_scale: String,
    minutes_per_round: i32,
    mitchell_rounds: i32,
    danish_modified: bool,
    mitchell_advance: i32,
    allow_repeats: bool,
    bye_vp: i32,
    entry_fee_cents: i64,
    prize_share_percent: String,
    guaranteed_pool_cents: i64,
    payout: String,
    suit_order: String,
    table_entry: bool,
    sheet_mode: String,
    updated_at: NaiveDateTime,
}

fn settings_row(s: &Settings) -> Result<SettingsRow, DieselError> {
    let small = |n: u32| i32::try_from(n).unwrap_or(i32::MAX);
    Ok(SettingsRow {
        name: s.name.clone(),
        starts_at: s.starts_at,
        venue: s.venue.clone(),
        profile: s.profile.name.to_string(),
        planned_rounds: small(s.planned_rounds),
        hands_per_round: small(s.hands_per_round),
        vp_scale: scale_text(&s.vp_scale),
        minutes_per_round: small(s.minutes_per_round),
        mitchell_rounds: small(s.mitchell_rounds),
        danish_modified: s.danish_modified,
        mitchell_advance: small(s.mitchell_advance),
        allow_repeats: s.allow_repeats,
        bye_vp: i32::from(s.bye_vp),
        entry_fee_cents: to_cents(s.entry_fee)?,
        prize_share_percent: s.prize_share_percent.normalize().to_string(),
        guaranteed_pool_cents: to_cents(s.guaranteed_pool)?,
        payout: format_payout(&s.payout),
        suit_order: s.suit_order.to_string(),
        table_entry: s.table_entry,
        sheet_mode: s.sheet_mode.code().to_string(),
        updated_at: now(),
    })
}

pub fn payout_of(row: &TournamentRow) -> Vec<PayoutTier> {
    crate::tournament::settings::parse_payout(&row.payout).unwrap_or_default()
}

pub fn create(conn: &mut DbConn, s: &Settings, created_by: i64) -> QueryResult<i64> {
    let t = now();
    diesel::insert_into(tournaments::table)
        .values((
            settings_row(s)?,
            tournaments::status.eq(Status::Draft.as_str()),
            tournaments::created_by.eq(Some(created_by)),
            tournaments::created_at.eq(t),
        ))
        .returning(tournaments::id)
        .get_result(conn)
}

pub fn update_settings(conn: &mut DbConn, id: i64, s: &Settings) -> QueryResult<usize> {
    diesel::update(tournaments::table.find(id))
        .set(settings_row(s)?)
        .execute(conn)
}

pub fn find(conn: &mut DbConn, id: i64) -> QueryResult<Option<TournamentRow>> {
    tournaments::table
        .find(id)
        .select(TournamentRow::as_select())
        .first(conn)
        .optional()
}

pub fn list(conn: &mut DbConn) -> QueryResult<Vec<TournamentRow>> {
    tournaments::table
        .order((tournaments::starts_at.desc(), tournaments::id.desc()))
        .select(TournamentRow::as_select())
        .load(conn)
}

pub fn set_status(conn: &mut DbConn, id: i64, status: Status) -> QueryResult<usize> {
    diesel::update(tournaments::table.find(id))
        .set((
            tournaments::status.eq(status.as_str()),
            tournaments::updated_at.eq(now()),
        ))
        .execute(conn)
}

// ---- pairs ----

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = pairs)]
pub struct PairRow {
    pub id: i64,
    pub tournament_id: i64,
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

pub fn list_pairs(conn: &mut DbConn, tournament_id: i64) -> QueryResult<Vec<PairRow>> {
    pairs::table
        .filter(pairs::tournament_id.eq(tournament_id))
        .order(pairs::number.asc())
        .select(PairRow::as_select())
        .load(conn)
}

pub fn find_pair(
    conn: &mut DbConn,
    tournament_id: i64,
    pair_id: i64,
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
    tournament_id: i64,
    entry: &PairEntry,
    except: Option<i64>,
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
    tournament_id: i64,
    entry: &PairEntry,
    joined_from_round: Option<i32>,
) -> Result<(i64, i32), PairError> {
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
            pairs::created_at.eq(now()),
        ))
        .returning(pairs::id)
        .get_result(conn)?;
    Ok((id, number))
}

/// Registers a pair (number = the next free one); one transaction.
pub fn add_pair(
    conn: &mut DbConn,
    tournament_id: i64,
    entry: &PairEntry,
    joined_from_round: Option<i32>,
) -> Result<(i64, i32), PairError> {
    conn.transaction(|conn| {
        check_clash(conn, tournament_id, entry, None)?;
        insert_entry(conn, tournament_id, entry, joined_from_round)
    })
}

/// Registers many pairs, all or nothing.
pub fn import_pairs(
    conn: &mut DbConn,
    tournament_id: i64,
    entries: &[PairEntry],
) -> Result<usize, PairError> {
    conn.transaction(|conn| {
        for e in entries {
            check_clash(conn, tournament_id, e, None)?;
            insert_entry(conn, tournament_id, e, None)?;
        }
        Ok(entries.len())
    })
}

pub fn update_pair(
    conn: &mut DbConn,
    tournament_id: i64,
    pair_id: i64,
    entry: &PairEntry,
) -> Result<(), PairError> {
    conn.transaction(|conn| {
        find_pair(conn, tournament_id, pair_id)?.ok_or(PairError::NotFound)?;
        check_clash(conn, tournament_id, entry, Some(pair_id))?;
        diesel::update(pairs::table.find(pair_id))
            .set(player_columns(entry))
            .execute(conn)?;
        Ok(())
    })
}

pub fn set_checked_in(
    conn: &mut DbConn,
    tournament_id: i64,
    pair_id: i64,
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
    tournament_id: i64,
    pair_id: i64,
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
    tournament_id: i64,
    pair_id: i64,
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
pub fn delete_pair(conn: &mut DbConn, tournament_id: i64, pair_id: i64) -> QueryResult<usize> {
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
    tournament_id: i64,
    drawn: &[i64],
) -> QueryResult<usize> {
    diesel::update(
        pairs::table
            .filter(pairs::tournament_id.eq(tournament_id))
            .filter(pairs::id.ne_all(drawn)),
    )
    .set(pairs::no_show.eq(true))
    .execute(conn)
}

// ---- rounds and seating ----

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = rounds)]
pub struct RoundRow {
    pub id: i64,
    pub tournament_id: i64,
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
    pub id: i64,
    pub round_id: i64,
    pub table_no: i32,
    pub ns_pair: Option<i64>,
    pub ew_pair: Option<i64>,
}

pub fn list_rounds(conn: &mut DbConn, tournament_id: i64) -> QueryResult<Vec<RoundRow>> {
    rounds::table
        .filter(rounds::tournament_id.eq(tournament_id))
        .order(rounds::number.asc())
        .select(RoundRow::as_select())
        .load(conn)
}

pub fn seating_of(conn: &mut DbConn, round_id: i64) -> QueryResult<(Vec<SeatingRow>, Vec<i64>)> {
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

/// Saves a round's seating (pair numbers mapped to pair ids).
pub fn insert_round(
    conn: &mut DbConn,
    tournament_id: i64,
    movement: RoundMovement,
    seating: &RoundSeating,
    pair_ids: &std::collections::HashMap<PairNo, i64>,
) -> QueryResult<i64> {
    conn.transaction(|conn| {
        let round_id: i64 = diesel::insert_into(rounds::table)
            .values((
                rounds::tournament_id.eq(tournament_id),
                rounds::number.eq(i32::try_from(seating.round).unwrap_or(i32::MAX)),
                rounds::movement.eq(movement.as_str()),
                rounds::created_at.eq(now()),
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
    tournament_id: i64,
    layout: &Layout,
    round1: &RoundSeating,
    pair_ids: &std::collections::HashMap<PairNo, i64>,
) -> Result<i64, DrawError> {
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
                tournaments::updated_at.eq(now()),
            ))
            .execute(conn)?;
        Ok(insert_round(
            conn,
            tournament_id,
            RoundMovement::Mitchell,
            round1,
            pair_ids,
        )?)
    })
}

/// Starts a round's clock (`start`) or records the time-out.
pub fn set_round_clock(conn: &mut DbConn, round_id: i64, start: bool) -> QueryResult<usize> {
    let t = Some(now());
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
    tid: i64,
    round_id: i64,
    round_no: i32,
    start: bool,
    user_id: i64,
) -> QueryResult<()> {
    conn.transaction(|c| {
        if set_round_clock(c, round_id, start)? == 0 {
            return Ok(());
        }
        let action = if start {
            "clock.started"
        } else {
            "clock.time_out"
        };
        super::scoring::audit(
            c,
            tid,
            Some(round_no),
            None,
            action,
            None,
            None,
            "",
            user_id,
        )
    })
}

/// Stores a round clock's pause: when the current one began (None: not
/// paused) and the seconds of the finished ones.
pub fn set_pause(
    conn: &mut DbConn,
    round_id: i64,
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
    tournament_id: i64,
    round_id: i64,
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
pub fn delete_round(conn: &mut DbConn, round_id: i64) -> QueryResult<usize> {
    diesel::delete(seatings::table.filter(seatings::round_id.eq(round_id))).execute(conn)?;
    diesel::delete(byes::table.filter(byes::round_id.eq(round_id))).execute(conn)?;
    diesel::delete(rounds::table.find(round_id)).execute(conn)
}

/// Back to preparation: no draw, no layout.
pub fn unstart(conn: &mut DbConn, tournament_id: i64) -> QueryResult<usize> {
    diesel::update(tournaments::table.find(tournament_id))
        .set((
            tournaments::status.eq(Status::Draft.as_str()),
            tournaments::draw_seed.eq(None::<i64>),
            tournaments::layout.eq(None::<String>),
            tournaments::updated_at.eq(now()),
        ))
        .execute(conn)
}

/// Closes the tournament (final standings), with its audit entry.
pub fn finish(conn: &mut DbConn, tid: i64, user_id: i64) -> QueryResult<()> {
    conn.transaction(|c| {
        set_status(c, tid, Status::Finished)?;
        super::scoring::audit(
            c,
            tid,
            None,
            None,
            "tournament.closed",
            None,
            None,
            "",
            user_id,
        )
    })
}
