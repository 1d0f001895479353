//! What the tests read, or now and then write, in the database behind the
//! services' back: the one file of tests/ that names the schema, diesel or
//! SQL. A test that needs a fact the services do not give (a stored code, a
//! counted total, a row the pages never show) or a state no request can
//! make (a clock moved back, a word a hand-edited file could hold) asks for
//! it here by name. Everything else goes through the pages, the API or the
//! services (`builders.rs`).

#![allow(dead_code)]

use burraco_td::db::schema::{
    api_tokens, audit_log, byes, circuit_stages, individual_players, pairs, penalties, people,
    rate_limits, rounds, seatings, sessions, sheet_entries, sheets, table_codes, teams,
    tournaments, user_audit, users,
};
use burraco_td::db::{Db, DbConn, Pool, PooledConn};
use chrono::NaiveDateTime;
use diesel::connection::SimpleConnection;
use diesel::prelude::*;

/// Whatever hands out a pooled connection: the app's pool, its `Db`, the
/// test app itself.
pub trait Pooled {
    fn conn(&self) -> PooledConn;
}

impl Pooled for Pool {
    fn conn(&self) -> PooledConn {
        self.get().expect("a connection")
    }
}

impl Pooled for Db {
    fn conn(&self) -> PooledConn {
        self.pool().get().expect("a connection")
    }
}

fn is_postgres(c: &PooledConn) -> bool {
    matches!(&**c, DbConn::Postgres(_))
}

// ---- the server behind TEST_DATABASE_URL ----

/// Runs `sql` (CREATE or DROP DATABASE) on the PostgreSQL server at `url`.
pub fn pg_admin(url: &str, sql: &str) -> Result<(), String> {
    let mut conn = diesel::PgConnection::establish(url).map_err(|e| e.to_string())?;
    conn.batch_execute(sql).map_err(|e| e.to_string())
}

// ---- a copied SQLite file ----

/// The number of pairs in a SQLite file and its `PRAGMA integrity_check`.
pub fn sqlite_file_pairs_and_check(path: &str) -> (i64, String) {
    #[derive(QueryableByName)]
    struct N {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    #[derive(QueryableByName)]
    struct Check {
        #[diesel(sql_type = diesel::sql_types::Text)]
        integrity_check: String,
    }
    let mut c = diesel::SqliteConnection::establish(path).expect("the copy opens");
    let n = diesel::sql_query("SELECT COUNT(*) AS n FROM pairs")
        .get_result::<N>(&mut c)
        .expect("pairs")
        .n;
    let ok = diesel::sql_query("PRAGMA integrity_check")
        .get_result::<Check>(&mut c)
        .expect("integrity check");
    (n, ok.integrity_check)
}

// ---- pairs and teams ----

/// The id of pair `number` of tournament `tid`.
pub fn pair_id(db: &impl Pooled, tid: i64, number: i32) -> i64 {
    pairs::table
        .filter(pairs::tournament_id.eq(tid))
        .filter(pairs::number.eq(number))
        .select(pairs::id)
        .first(&mut *db.conn())
        .expect("the pair")
}

/// The id of pair `number` in the database (tests with one tournament).
pub fn pair_id_numbered(db: &impl Pooled, number: i32) -> i64 {
    pairs::table
        .filter(pairs::number.eq(number))
        .select(pairs::id)
        .first(&mut *db.conn())
        .expect("the pair")
}

/// The ids of the pairs of tournament `tid`.
pub fn pair_ids_of(db: &impl Pooled, tid: i64) -> Vec<i64> {
    pairs::table
        .filter(pairs::tournament_id.eq(tid))
        .select(pairs::id)
        .load(&mut *db.conn())
        .expect("pairs")
}

/// The number of pair `id`.
pub fn pair_number(db: &impl Pooled, id: i64) -> i32 {
    pairs::table
        .find(id)
        .select(pairs::number)
        .first(&mut *db.conn())
        .expect("the pair")
}

/// The code of pair `number` of tournament `tid` (None before the draw).
pub fn pair_code(db: &impl Pooled, tid: i64, number: i32) -> Option<String> {
    pairs::table
        .filter(pairs::tournament_id.eq(tid))
        .filter(pairs::number.eq(number))
        .select(pairs::code)
        .first(&mut *db.conn())
        .expect("the pair")
}

/// (number, code) of every pair with a code, in any tournament.
pub fn pair_codes(db: &impl Pooled) -> Vec<(i32, String)> {
    pairs::table
        .filter(pairs::code.is_not_null())
        .select((pairs::number, pairs::code.assume_not_null()))
        .load(&mut *db.conn())
        .expect("pair codes")
}

/// (number, checked_in, no_show, withdrawn_from_round) of every pair.
pub fn pair_rows(db: &impl Pooled, tid: i64) -> Vec<(i32, bool, bool, Option<i32>)> {
    pairs::table
        .filter(pairs::tournament_id.eq(tid))
        .order(pairs::number)
        .select((
            pairs::number,
            pairs::checked_in,
            pairs::no_show,
            pairs::withdrawn_from_round,
        ))
        .load(&mut *db.conn())
        .expect("pairs")
}

/// (p1 surname, p1 card, p2 surname, p2 card) of every pair.
pub fn pair_players(db: &impl Pooled, tid: i64) -> Vec<(String, String, String, String)> {
    pairs::table
        .filter(pairs::tournament_id.eq(tid))
        .select((
            pairs::p1_surname,
            pairs::p1_card,
            pairs::p2_surname,
            pairs::p2_card,
        ))
        .load(&mut *db.conn())
        .expect("pairs")
}

/// Every pair of every tournament checked in, behind the pages' back (300
/// pairs in one statement).
pub fn check_in_every_pair(db: &impl Pooled) {
    diesel::update(pairs::table)
        .set(pairs::checked_in.eq(true))
        .execute(&mut *db.conn())
        .expect("checked in");
}

/// (team, position of player 1, of player 2) of a line-up pair.
pub fn pair_team(db: &impl Pooled, id: i64) -> (Option<i64>, Option<i32>, Option<i32>) {
    pairs::table
        .find(id)
        .select((pairs::team_id, pairs::team_p1, pairs::team_p2))
        .first(&mut *db.conn())
        .expect("the pair")
}

/// The id of a line-up pair of a team tournament.
pub fn first_team_pair(db: &impl Pooled, tid: i64) -> i64 {
    pairs::table
        .inner_join(teams::table)
        .filter(teams::tournament_id.eq(tid))
        .select(pairs::id)
        .first(&mut *db.conn())
        .expect("a line-up pair")
}

/// The id of the line-up pair of team `team` (its number) made of players
/// `p1` and `p2` (their positions).
pub fn line_up_pair(db: &impl Pooled, tid: i64, team: i32, p1: i32, p2: i32) -> i64 {
    pairs::table
        .inner_join(teams::table)
        .filter(teams::tournament_id.eq(tid))
        .filter(teams::number.eq(team))
        .filter(pairs::team_p1.eq(p1))
        .filter(pairs::team_p2.eq(p2))
        .select(pairs::id)
        .first(&mut *db.conn())
        .expect("the line-up pair")
}

/// (number, id, captain's code) of the teams, by number.
pub fn teams_of(db: &impl Pooled, tid: i64) -> Vec<(i32, i64, Option<String>)> {
    teams::table
        .filter(teams::tournament_id.eq(tid))
        .order(teams::number.asc())
        .select((teams::number, teams::id, teams::code))
        .load(&mut *db.conn())
        .expect("teams")
}

/// (number, id, checked in, club) of an individual tournament's players,
/// by number.
pub fn individual_players_of(db: &impl Pooled, tid: i64) -> Vec<(i32, i64, bool, String)> {
    individual_players::table
        .filter(individual_players::tournament_id.eq(tid))
        .order(individual_players::number.asc())
        .select((
            individual_players::number,
            individual_players::id,
            individual_players::checked_in,
            individual_players::club,
        ))
        .load(&mut *db.conn())
        .expect("individual players")
}

/// The personal code of player `number` of an individual tournament.
pub fn individual_code(db: &impl Pooled, tid: i64, number: u32) -> String {
    individual_players::table
        .filter(individual_players::tournament_id.eq(tid))
        .filter(individual_players::number.eq(number as i32))
        .select(individual_players::code)
        .first::<Option<String>>(&mut *db.conn())
        .expect("the player")
        .expect("a personal code")
}

/// (id, merged_into) of the people with this surname.
pub fn people_named(db: &impl Pooled, surname: &str) -> Vec<(i64, Option<i64>)> {
    people::table
        .filter(people::surname.eq(surname))
        .select((people::id, people::merged_into))
        .order(people::id)
        .load(&mut *db.conn())
        .expect("people")
}

// ---- codes ----

/// The code of table `table_no` of tournament `tid`.
pub fn table_code(db: &impl Pooled, tid: i64, table_no: i32) -> String {
    table_codes::table
        .filter(table_codes::tournament_id.eq(tid))
        .filter(table_codes::table_no.eq(table_no))
        .select(table_codes::code)
        .first(&mut *db.conn())
        .expect("a table code")
}

/// (table, code) of every table code, in any tournament.
pub fn table_codes(db: &impl Pooled) -> Vec<(i32, String)> {
    table_codes::table
        .select((table_codes::table_no, table_codes::code))
        .load(&mut *db.conn())
        .expect("table codes")
}

/// The table codes of tournament `tid`.
pub fn table_codes_of(db: &impl Pooled, tid: i64) -> Vec<String> {
    table_codes::table
        .filter(table_codes::tournament_id.eq(tid))
        .select(table_codes::code)
        .load(&mut *db.conn())
        .expect("table codes")
}

/// Every code of a tournament: tables, pairs, teams.
pub fn codes_handed_out(db: &impl Pooled, tid: i64) -> Vec<String> {
    let mut out = table_codes_of(db, tid);
    let mut c = db.conn();
    out.extend(
        pairs::table
            .filter(pairs::tournament_id.eq(tid))
            .select(pairs::code)
            .load::<Option<String>>(&mut *c)
            .expect("pair codes")
            .into_iter()
            .flatten(),
    );
    out.extend(
        teams::table
            .filter(teams::tournament_id.eq(tid))
            .select(teams::code)
            .load::<Option<String>>(&mut *c)
            .expect("team codes")
            .into_iter()
            .flatten(),
    );
    out
}

// ---- rounds and seats ----

/// The table numbers of round `n` of tournament `tid`.
pub fn tables_of(db: &impl Pooled, tid: i64, n: i32) -> Vec<i32> {
    seatings::table
        .inner_join(rounds::table)
        .filter(rounds::tournament_id.eq(tid))
        .filter(rounds::number.eq(n))
        .select(seatings::table_no)
        .order(seatings::table_no)
        .load(&mut *db.conn())
        .expect("tables")
}

/// The table numbers of round `n` in the database (tests with one
/// tournament).
pub fn tables_of_round(db: &impl Pooled, n: i32) -> Vec<i32> {
    seatings::table
        .inner_join(rounds::table)
        .filter(rounds::number.eq(n))
        .select(seatings::table_no)
        .order(seatings::table_no)
        .load(&mut *db.conn())
        .expect("tables")
}

/// (table, NS pair id, EW pair id) of round `n`, by table.
pub fn seatings_of(db: &impl Pooled, tid: i64, n: i32) -> Vec<(i32, Option<i64>, Option<i64>)> {
    seatings::table
        .inner_join(rounds::table)
        .filter(rounds::tournament_id.eq(tid))
        .filter(rounds::number.eq(n))
        .order(seatings::table_no)
        .select((seatings::table_no, seatings::ns_pair, seatings::ew_pair))
        .load(&mut *db.conn())
        .expect("seatings")
}

/// The ids of the pairs resting in round `n`.
pub fn byes_of(db: &impl Pooled, tid: i64, n: i32) -> Vec<i64> {
    byes::table
        .inner_join(rounds::table)
        .filter(rounds::tournament_id.eq(tid))
        .filter(rounds::number.eq(n))
        .select(byes::pair_id)
        .load(&mut *db.conn())
        .expect("byes")
}

/// The pair numbers (NS, EW) at a table of round `n`.
pub fn seat(db: &impl Pooled, tid: i64, n: i32, table: i32) -> (i32, i32) {
    let (_, ns, ew) = seatings_of(db, tid, n)
        .into_iter()
        .find(|s| s.0 == table)
        .expect("the table");
    (
        pair_number(db, ns.expect("an NS pair")),
        pair_number(db, ew.expect("an EW pair")),
    )
}

/// The round numbers of a tournament.
pub fn round_numbers(db: &impl Pooled, tid: i64) -> Vec<i32> {
    rounds::table
        .filter(rounds::tournament_id.eq(tid))
        .select(rounds::number)
        .order(rounds::number)
        .load(&mut *db.conn())
        .expect("rounds")
}

/// (started_at, paused_at, paused_seconds, time_out_at) of a round.
pub type Clock = (
    Option<NaiveDateTime>,
    Option<NaiveDateTime>,
    i32,
    Option<NaiveDateTime>,
);

pub fn clock_of(db: &impl Pooled, tid: i64, n: i32) -> Clock {
    rounds::table
        .filter(rounds::tournament_id.eq(tid))
        .filter(rounds::number.eq(n))
        .select((
            rounds::started_at,
            rounds::paused_at,
            rounds::paused_seconds,
            rounds::time_out_at,
        ))
        .first(&mut *db.conn())
        .expect("the round")
}

/// Moves a round's clock times `by` into the past (instead of waiting).
pub fn shift_clock(db: &impl Pooled, tid: i64, n: i32, by: chrono::Duration) {
    let (started, paused, _, _) = clock_of(db, tid, n);
    diesel::update(
        rounds::table
            .filter(rounds::tournament_id.eq(tid))
            .filter(rounds::number.eq(n)),
    )
    .set((
        rounds::started_at.eq(started.map(|t| t - by)),
        rounds::paused_at.eq(paused.map(|t| t - by)),
    ))
    .execute(&mut *db.conn())
    .expect("clock moved");
}

/// Moves only the start of round `n` `by` into the past.
pub fn age_round_start(db: &impl Pooled, tid: i64, n: i32, by: chrono::Duration) {
    let (started, _, _, _) = clock_of(db, tid, n);
    diesel::update(
        rounds::table
            .filter(rounds::tournament_id.eq(tid))
            .filter(rounds::number.eq(n)),
    )
    .set(rounds::started_at.eq(started.map(|t| t - by)))
    .execute(&mut *db.conn())
    .expect("clock aged");
}

// ---- sheets ----

/// How many sheets are stored, in every tournament.
pub fn sheet_count(db: &impl Pooled) -> i64 {
    sheets::table
        .count()
        .get_result(&mut *db.conn())
        .expect("sheets")
}

/// How many rows a table of the schema holds (`sheets`, `sheet_entries`, …).
pub fn row_count(db: &impl Pooled, table: &str) -> i64 {
    #[derive(QueryableByName)]
    struct N {
        #[diesel(sql_type = diesel::sql_types::BigInt)]
        n: i64,
    }
    diesel::sql_query(format!("SELECT COUNT(*) AS n FROM {table}"))
        .get_result::<N>(&mut *db.conn())
        .expect("a count")
        .n
}

/// The stored sheet JSON of a table of round 1, if any.
pub fn stored_sheet(db: &impl Pooled, tid: i64, table: i32) -> Option<String> {
    let row: Option<Option<String>> = sheets::table
        .inner_join(seatings::table.inner_join(rounds::table))
        .filter(rounds::tournament_id.eq(tid))
        .filter(rounds::number.eq(1))
        .filter(seatings::table_no.eq(table))
        .select(sheets::sheet)
        .first(&mut *db.conn())
        .optional()
        .expect("a sheet or none");
    row.flatten()
}

/// The counted sheet's NS total at a table of round 1 (None: nothing counts).
pub fn counted_ns_total(db: &impl Pooled, tid: i64, table: i32) -> Option<i64> {
    sheets::table
        .inner_join(seatings::table.inner_join(rounds::table))
        .filter(rounds::tournament_id.eq(tid))
        .filter(rounds::number.eq(1))
        .filter(seatings::table_no.eq(table))
        .select(sheets::ns_total)
        .first::<i64>(&mut *db.conn())
        .optional()
        .expect("a total or none")
}

/// (entry's sheet, entry's status, counted sheet) of every table entry.
pub fn entries_and_counted(db: &impl Pooled) -> Vec<(Option<String>, String, Option<String>)> {
    sheet_entries::table
        .left_join(sheets::table.on(sheets::seating_id.eq(sheet_entries::seating_id)))
        .select((
            sheet_entries::sheet,
            sheet_entries::status,
            sheets::sheet.nullable(),
        ))
        .load(&mut *db.conn())
        .expect("entries")
}

/// A table of round 1 as stored: its entry (status, version), how many
/// entries the log has for it, and the counted sheet's totals.
pub type StoredTable = (Option<(String, i32)>, i64, Option<(i64, i64)>);

pub fn stored_table(db: &impl Pooled, tid: i64, table: i32) -> StoredTable {
    let mut c = db.conn();
    let seating: i64 = seatings::table
        .inner_join(rounds::table)
        .filter(rounds::tournament_id.eq(tid))
        .filter(rounds::number.eq(1))
        .filter(seatings::table_no.eq(table))
        .select(seatings::id)
        .first(&mut *c)
        .expect("the table");
    let entry = sheet_entries::table
        .find(seating)
        .select((sheet_entries::status, sheet_entries::version))
        .first::<(String, i32)>(&mut *c)
        .optional()
        .expect("an entry or none");
    let entered = audit_log::table
        .filter(audit_log::tournament_id.eq(tid))
        .filter(audit_log::round_no.eq(1))
        .filter(audit_log::table_no.eq(table))
        .filter(audit_log::action.eq_any(vec!["table.sheet_entered", "table.sheet_replaced"]))
        .count()
        .get_result::<i64>(&mut *c)
        .expect("the log");
    let counted = sheets::table
        .filter(sheets::seating_id.eq(seating))
        .select((sheets::ns_total, sheets::ew_total))
        .first::<(i64, i64)>(&mut *c)
        .optional()
        .expect("a sheet or none");
    (entry, entered, counted)
}

// ---- penalties ----

/// The newest penalty: (id, withdrawn, table).
pub fn last_penalty(db: &impl Pooled) -> (i64, bool, Option<i32>) {
    let (id, at, table): (i64, Option<NaiveDateTime>, Option<i32>) = penalties::table
        .select((penalties::id, penalties::withdrawn_at, penalties::table_no))
        .order(penalties::id.desc())
        .first(&mut *db.conn())
        .expect("a penalty");
    (id, at.is_some(), table)
}

/// The id of the penalty given for `reason`.
pub fn penalty_for(db: &impl Pooled, reason: &str) -> i64 {
    penalties::table
        .filter(penalties::reason.eq(reason))
        .select(penalties::id)
        .first(&mut *db.conn())
        .expect("the penalty")
}

/// (kind, amount, reason) of the first penalty.
pub fn first_penalty(db: &impl Pooled) -> (String, Option<i64>, String) {
    penalties::table
        .order(penalties::id.asc())
        .select((penalties::kind, penalties::amount, penalties::reason))
        .first(&mut *db.conn())
        .expect("a penalty")
}

/// A warning for `pair` in round `n`, written behind the services' back
/// (as a penalty the pages would not give then); its id.
pub fn insert_warning(db: &impl Pooled, tid: i64, n: i32, pair: i64, at: NaiveDateTime) -> i64 {
    diesel::insert_into(penalties::table)
        .values((
            penalties::tournament_id.eq(tid),
            penalties::round_no.eq(n),
            penalties::pair_id.eq(pair),
            penalties::kind.eq("warning"),
            penalties::reason.eq("prova"),
            penalties::given_at.eq(at),
        ))
        .returning(penalties::id)
        .get_result(&mut *db.conn())
        .expect("a warning")
}

pub fn delete_penalty(db: &impl Pooled, id: i64) {
    diesel::delete(penalties::table.find(id))
        .execute(&mut *db.conn())
        .expect("deleted");
}

// ---- tournaments ----

pub fn status_of(db: &impl Pooled, tid: i64) -> String {
    tournaments::table
        .find(tid)
        .select(tournaments::status)
        .first(&mut *db.conn())
        .expect("the tournament")
}

/// A tournament's status written as is (past the services' checks).
pub fn set_status(db: &impl Pooled, tid: i64, status: &str) {
    diesel::update(tournaments::table.find(tid))
        .set(tournaments::status.eq(status))
        .execute(&mut *db.conn())
        .expect("status");
}

/// A tournament's suit order written as is (a running tournament's
/// settings form leaves it as it was).
pub fn set_suit_order(db: &impl Pooled, tid: i64, order: &str) {
    diesel::update(tournaments::table.find(tid))
        .set(tournaments::suit_order.eq(order))
        .execute(&mut *db.conn())
        .expect("suit order");
}

/// Runs `sql` with the CHECK constraints of `table` out of the way (what a
/// hand-edited or older database could hold).
pub fn write_past_the_checks(db: &impl Pooled, table: &str, sql: &str) {
    let mut c = db.conn();
    let script = if is_postgres(&c) {
        format!(
            "DO $$ DECLARE r record; BEGIN \
             FOR r IN SELECT conname FROM pg_constraint \
             WHERE conrelid = '{table}'::regclass AND contype = 'c' LOOP \
             EXECUTE 'ALTER TABLE {table} DROP CONSTRAINT ' || quote_ident(r.conname); \
             END LOOP; END $$; {sql}"
        )
    } else {
        format!(
            "PRAGMA ignore_check_constraints = ON; {sql}; PRAGMA ignore_check_constraints = OFF;"
        )
    };
    c.batch_execute(&script).expect("written past the checks");
}

// ---- the audit logs ----

/// The actions of a tournament's log, oldest first.
pub fn audit_codes(db: &impl Pooled, tid: i64) -> Vec<String> {
    audit_log::table
        .filter(audit_log::tournament_id.eq(tid))
        .select(audit_log::action)
        .order(audit_log::id)
        .load(&mut *db.conn())
        .expect("the log")
}

/// (action, table) of a tournament's log, oldest first.
pub fn audit_tables(db: &impl Pooled, tid: i64) -> Vec<(String, Option<i32>)> {
    audit_log::table
        .filter(audit_log::tournament_id.eq(tid))
        .order(audit_log::id.asc())
        .select((audit_log::action, audit_log::table_no))
        .load(&mut *db.conn())
        .expect("the log")
}

/// (action, reason) of the log entries whose action is `like` (of
/// tournament `tid`, or of every tournament), oldest first.
pub fn audit_like(db: &impl Pooled, tid: Option<i64>, like: &str) -> Vec<(String, String)> {
    let mut q = audit_log::table
        .filter(audit_log::action.like(like.to_string()))
        .into_boxed();
    if let Some(tid) = tid {
        q = q.filter(audit_log::tournament_id.eq(tid));
    }
    q.order(audit_log::id.asc())
        .select((audit_log::action, audit_log::reason))
        .load(&mut *db.conn())
        .expect("the log")
}

/// action, subject, by, before, after.
pub type AccountAuditRow = (
    String,
    Option<i64>,
    Option<i64>,
    Option<String>,
    Option<String>,
);

/// The account audit's rows about `subject` whose action is `like`, oldest
/// first.
pub fn account_audit(db: &impl Pooled, subject: i64, like: &str) -> Vec<AccountAuditRow> {
    user_audit::table
        .filter(user_audit::action.like(like.to_string()))
        .filter(user_audit::subject_id.eq(subject))
        .order(user_audit::id.asc())
        .select((
            user_audit::action,
            user_audit::subject_id,
            user_audit::user_id,
            user_audit::before_value,
            user_audit::after_value,
        ))
        .load(&mut *db.conn())
        .expect("the account audit")
}

// ---- accounts, sessions, tokens, brakes ----

/// (id, username) of the active administrators.
pub fn active_admins(db: &impl Pooled) -> Vec<(i64, String)> {
    users::table
        .filter(users::role.eq("admin"))
        .filter(users::active.eq(true))
        .select((users::id, users::username))
        .order(users::id)
        .load(&mut *db.conn())
        .expect("admins")
}

/// An account made an administrator again behind the pages' back.
pub fn make_admin(db: &impl Pooled, id: i64) {
    diesel::update(users::table.find(id))
        .set(users::role.eq("admin"))
        .execute(&mut *db.conn())
        .expect("repair");
}

pub fn session_ids(db: &impl Pooled) -> Vec<String> {
    sessions::table
        .select(sessions::id)
        .load(&mut *db.conn())
        .expect("sessions")
}

/// Every session started at `created` and last seen at `seen`.
pub fn set_session_times(db: &impl Pooled, created: NaiveDateTime, seen: NaiveDateTime) {
    diesel::update(sessions::table)
        .set((
            sessions::created_at.eq(created),
            sessions::last_seen_at.eq(seen),
        ))
        .execute(&mut *db.conn())
        .expect("session times");
}

/// The keys of the brakes' rows.
pub fn rate_limit_keys(db: &impl Pooled) -> Vec<String> {
    rate_limits::table
        .select(rate_limits::key)
        .load(&mut *db.conn())
        .expect("brakes")
}

/// The keys of the brakes' rows, on a connection the caller holds.
pub fn rate_limit_keys_on(c: &mut DbConn) -> QueryResult<Vec<String>> {
    rate_limits::table.select(rate_limits::key).load(c)
}

/// When the token with this hash was last used.
pub fn token_last_used(db: &impl Pooled, hash: &str) -> Option<NaiveDateTime> {
    api_tokens::table
        .filter(api_tokens::token_hash.eq(hash))
        .select(api_tokens::last_used_at)
        .first(&mut *db.conn())
        .expect("the token")
}

pub fn set_token_last_used(db: &impl Pooled, hash: &str, at: Option<NaiveDateTime>) {
    diesel::update(api_tokens::table.filter(api_tokens::token_hash.eq(hash)))
        .set(api_tokens::last_used_at.eq(at))
        .execute(&mut *db.conn())
        .expect("last used");
}

/// How many stages a circuit has.
pub fn stage_count(db: &impl Pooled, circuit: i64) -> i64 {
    circuit_stages::table
        .filter(circuit_stages::circuit_id.eq(circuit))
        .count()
        .get_result(&mut *db.conn())
        .expect("stages")
}

/// Every text value of every table, in one string.
pub fn whole_database_text(db: &impl Pooled) -> String {
    #[derive(QueryableByName)]
    struct Text {
        #[diesel(sql_type = diesel::sql_types::Text)]
        name: String,
    }
    #[derive(QueryableByName)]
    struct Row {
        #[diesel(sql_type = diesel::sql_types::Text)]
        v: String,
    }
    let mut conn = db.conn();
    let pg = is_postgres(&conn);
    let tables: Vec<Text> = if pg {
        diesel::sql_query(
            "SELECT table_name::text AS name FROM information_schema.tables \
             WHERE table_schema = 'public'",
        )
        .load(&mut *conn)
        .expect("tables")
    } else {
        diesel::sql_query("SELECT name FROM sqlite_master WHERE type = 'table'")
            .load(&mut *conn)
            .expect("tables")
    };
    let mut all = String::new();
    for t in tables {
        let rows: Vec<Row> = if pg {
            diesel::sql_query(format!("SELECT t::text AS v FROM \"{}\" t", t.name))
                .load(&mut *conn)
                .expect("rows")
        } else {
            // Every column of every row, as text.
            let cols: Vec<Text> =
                diesel::sql_query(format!("SELECT name FROM pragma_table_info('{}')", t.name))
                    .load(&mut *conn)
                    .expect("columns");
            let expr = cols
                .iter()
                .map(|c| format!("coalesce(CAST(\"{}\" AS TEXT), '')", c.name))
                .collect::<Vec<_>>()
                .join(" || '|' || ");
            diesel::sql_query(format!("SELECT {expr} AS v FROM \"{}\"", t.name))
                .load(&mut *conn)
                .expect("rows")
        };
        for r in rows {
            all.push_str(&r.v);
            all.push('\n');
        }
    }
    all
}
