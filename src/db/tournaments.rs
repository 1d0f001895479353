//! Tournaments, pairs, rounds and seating.

use crate::ids::TournamentId;
use crate::ids::UserId;
use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::Error as DieselError;

use super::schema::tournaments;
use super::DbConn;
use crate::movement::Layout;
use crate::rules::prize_pool::PayoutTier;
use crate::tournament::money::{Money, MoneyField, ENTRY_FEE, GUARANTEED_POOL};
use crate::tournament::plan;
use crate::tournament::settings::{format_payout, scale_text, Settings};
use crate::tournament::stored_settings::StoredSettings;
use crate::tournament::Status;

#[derive(Debug, Clone, Queryable, Selectable)]
#[diesel(table_name = tournaments)]
pub struct TournamentRow {
    pub id: TournamentId,
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
    /// Club separation in the first draw (RULES.md §13).
    pub separate_clubs: bool,
    /// The plan's rounds in groups (RULES.md §13) as the core's JSON;
    /// empty: none.
    pub groups: String,
    /// RULES.md §15.
    pub level: String,
    pub bye_vp: i32,
    pub entry_fee_cents: i64,
    pub prize_share_percent: String,
    pub guaranteed_pool_cents: i64,
    pub payout: String,
    pub suit_order: String,
    /// Typed: a stored word that does not read is a query error.
    #[diesel(deserialize_as = String)]
    pub status: Status,
    pub draw_seed: Option<i64>,
    pub layout: Option<String>,
    pub created_by: Option<UserId>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    /// Goes up with every write to the tournament (in the same transaction).
    pub revision: i64,
    /// Players may enter and confirm sheets from the table.
    pub table_entry: bool,
    /// `full` or `totals`: how the tables enter their sheets.
    pub sheet_mode: String,
    /// Pairs or teams (issue 25): typed, an unknown word is a query error.
    #[diesel(deserialize_as = String)]
    pub kind: crate::tournament_file::FileKind,
}

/// Money: integer cents in the database, the core's `Money` in code (the
/// same bounds as the form: an amount outside them is refused by the
/// write, never stored as a wrong number).
fn cents_of(d: rust_decimal::Decimal, limit: MoneyField) -> Result<i64, DieselError> {
    Money::new(d, limit).map(Money::cents).map_err(|e| {
        DieselError::SerializationError(format!("{d} is not an amount of money: {e:?}").into())
    })
}

impl TournamentRow {
    /// The settings, each column read in its own type and checked against
    /// the form's bounds (a stored value outside them is a data error
    /// naming the tournament and the column).
    pub fn settings(&self) -> Result<Settings, DieselError> {
        Settings::from_stored(&StoredSettings {
            name: &self.name,
            starts_at: self.starts_at,
            venue: &self.venue,
            profile: &self.profile,
            planned_rounds: self.planned_rounds,
            hands_per_round: self.hands_per_round,
            vp_scale: &self.vp_scale,
            minutes_per_round: self.minutes_per_round,
            mitchell_rounds: self.mitchell_rounds,
            danish_modified: self.danish_modified,
            mitchell_advance: self.mitchell_advance,
            allow_repeats: self.allow_repeats,
            separate_clubs: self.separate_clubs,
            groups: &self.groups,
            level: &self.level,
            bye_vp: self.bye_vp,
            entry_fee_cents: self.entry_fee_cents,
            prize_share_percent: &self.prize_share_percent,
            guaranteed_pool_cents: self.guaranteed_pool_cents,
            payout: &self.payout,
            suit_order: &self.suit_order,
            table_entry: self.table_entry,
            sheet_mode: &self.sheet_mode,
        })
        .map_err(|e| {
            DieselError::DeserializationError(
                format!("tournament {} has invalid settings: {e}", self.id).into(),
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
    separate_clubs: bool,
    groups: String,
    level: String,
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

fn settings_row(s: &Settings, now: NaiveDateTime) -> Result<SettingsRow, DieselError> {
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
        separate_clubs: s.separate_clubs,
        groups: plan::stored_groups(s.groups.as_ref()),
        level: s.level.code().to_string(),
        bye_vp: i32::from(s.bye_vp),
        entry_fee_cents: cents_of(s.entry_fee, ENTRY_FEE)?,
        prize_share_percent: s.prize_share_percent.normalize().to_string(),
        guaranteed_pool_cents: cents_of(s.guaranteed_pool, GUARANTEED_POOL)?,
        payout: format_payout(&s.payout),
        suit_order: s.suit_order.to_string(),
        table_entry: s.table_entry,
        sheet_mode: s.sheet_mode.code().to_string(),
        updated_at: now,
    })
}

pub fn payout_of(row: &TournamentRow) -> Vec<PayoutTier> {
    crate::tournament::settings::parse_payout(&row.payout).unwrap_or_default()
}

pub fn create(
    conn: &mut DbConn,
    s: &Settings,
    created_by: UserId,
    now: NaiveDateTime,
) -> QueryResult<TournamentId> {
    let t = now;
    diesel::insert_into(tournaments::table)
        .values((
            settings_row(s, now)?,
            tournaments::status.eq(Status::Draft.as_str()),
            tournaments::created_by.eq(Some(created_by)),
            tournaments::created_at.eq(t),
        ))
        .returning(tournaments::id)
        .get_result(conn)
}

pub fn update_settings(
    conn: &mut DbConn,
    id: TournamentId,
    s: &Settings,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(tournaments::table.find(id))
        .set(settings_row(s, now)?)
        .execute(conn)
}

pub fn find(conn: &mut DbConn, id: TournamentId) -> QueryResult<Option<TournamentRow>> {
    tournaments::table
        .find(id)
        .select(TournamentRow::as_select())
        .first(conn)
        .optional()
}

/// Bumps a tournament's revision (a row lock on PostgreSQL) and returns
/// the row as it is now, in the same statement (one round trip under the
/// lock); `None`: no such tournament.
pub fn bump_revision_returning(
    conn: &mut DbConn,
    tid: TournamentId,
) -> QueryResult<Option<TournamentRow>> {
    macro_rules! run {
        ($c:expr) => {
            diesel::update(tournaments::table.find(tid))
                .set(tournaments::revision.eq(tournaments::revision + 1))
                .returning(TournamentRow::as_returning())
                .get_result($c)
                .optional()
        };
    }
    match conn {
        DbConn::Postgres(c) => run!(c),
        DbConn::Sqlite(c) => run!(c),
    }
}

/// A tournament's row, read under a shared lock held until the end of the
/// transaction (PostgreSQL: `FOR SHARE`, in the same statement; SQLite's
/// write lock is already held).
pub fn find_for_share(conn: &mut DbConn, tid: TournamentId) -> QueryResult<Option<TournamentRow>> {
    match conn {
        DbConn::Postgres(c) => tournaments::table
            .find(tid)
            .select(TournamentRow::as_select())
            .for_share()
            .first(c)
            .optional(),
        DbConn::Sqlite(c) => tournaments::table
            .find(tid)
            .select(TournamentRow::as_select())
            .first(c)
            .optional(),
    }
}

pub fn list(conn: &mut DbConn) -> QueryResult<Vec<TournamentRow>> {
    tournaments::table
        .order((tournaments::starts_at.desc(), tournaments::id.desc()))
        .select(TournamentRow::as_select())
        .load(conn)
}

pub fn set_status(
    conn: &mut DbConn,
    id: TournamentId,
    status: Status,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    diesel::update(tournaments::table.find(id))
        .set((
            tournaments::status.eq(status.as_str()),
            tournaments::updated_at.eq(now),
        ))
        .execute(conn)
}

/// Back to preparation: no draw, no layout.
pub fn unstart(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    now: NaiveDateTime,
) -> QueryResult<usize> {
    // A team or individual tournament's start marks go too.
    super::teams::unstart(conn, tournament_id)?;
    super::individual::unstart(conn, tournament_id)?;
    diesel::update(tournaments::table.find(tournament_id))
        .set((
            tournaments::status.eq(Status::Draft.as_str()),
            tournaments::draw_seed.eq(None::<i64>),
            tournaments::layout.eq(None::<String>),
            tournaments::updated_at.eq(now),
        ))
        .execute(conn)
}

/// Closes the tournament (final standings), with its audit entry.
pub fn finish(
    conn: &mut DbConn,
    tid: TournamentId,
    user_id: UserId,
    now: NaiveDateTime,
) -> QueryResult<()> {
    conn.transaction(|c| {
        set_status(c, tid, Status::Finished, now)?;
        super::audit::audit_by(
            c,
            tid,
            None,
            None,
            "tournament.closed",
            None,
            None,
            "",
            Some(user_id),
            now,
        )
    })
}
