//! Table-side scoring: a pair enters its table's sheet from a phone (the
//! table code names the table, the pair code is the credential), the other
//! pair confirms it or disputes it with a note. Only a confirmed sheet
//! counts: confirming writes it into `sheets` (what the standings and the
//! exports read) in the same transaction. The desk can always enter,
//! confirm or override (`services::scoring`, [`desk_confirm`]).
//!
//! Every answer has a fixed precedence (issue 13's interface): an unknown
//! table code (404), then the brake on pair codes (429), then a wrong pair
//! code (403), then a round that is over (409 `round_closed`), then the
//! rest. Every pair code typed at a table is counted per (table code,
//! client address) by the one limiter (`services::brakes`), in a write of
//! its own that commits before the code is looked at, so that a burst of
//! guesses gets at most the allowance checked.

use std::net::IpAddr;
use std::time::Duration;

use diesel::Connection;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::{load_state, lock, Actor, Loaded, Need, ServiceError};
use crate::db::pairs::PairRow;
use crate::db::rate_limits::Verdict;
use crate::db::rounds::{RoundRow, SeatingRow};
use crate::db::scoring::{self as sdb, SaveError, SheetWrite, TablePlace};
use crate::db::table_side::{self as tsdb, EntryRow};
use crate::db::tournaments::{self as tdb};
use crate::db::{now, Db, DbConn, DbError};
use crate::rules::api::InputError;
use crate::rules::{Line, PerLine, ScoreSheet, SheetReport};
use crate::tournament::{FieldProblem, Status};

/// Why a table-side request is refused.
#[derive(Debug, thiserror::Error)]
pub enum TableSideError {
    /// No table has this code (404).
    #[error("no such table")]
    NotFound,
    /// A code of neither pair at this table (403 `pair_code_wrong`).
    #[error("wrong pair code")]
    WrongCode,
    /// The pair that entered the sheet cannot confirm it (403 `same_pair`).
    #[error("the entering pair cannot confirm")]
    SamePair,
    /// Too many wrong codes from this address at this table (429).
    #[error("too many wrong codes")]
    Throttled { wait_seconds: u64 },
    /// Cannot happen now (409): `round_closed`, `already_confirmed`,
    /// `table_entry_off`, `nothing_entered`, `entry_changed` (the other
    /// pair changed the entry at the same moment: read it again).
    #[error("conflict: {0}")]
    Conflict(&'static str),
    /// The sheet breaks a rule (422): the engine's report; nothing stored.
    #[error("the sheet breaks the rules")]
    Sheet(Box<SheetReport>),
    /// The sheet cannot be read (422, the rules API's error).
    #[error("unreadable sheet: {0}")]
    Input(InputError),
    /// A field that does not fit (the dispute's note).
    #[error("invalid input: {0:?}")]
    Invalid(Vec<FieldProblem>),
    /// A twin submission with the same idempotency key stored its answer
    /// first (internal: the caller answers with the twin's answer).
    #[error("answered already")]
    Replay,
    #[error(transparent)]
    Service(#[from] ServiceError),
}

impl From<DbError> for TableSideError {
    fn from(e: DbError) -> Self {
        TableSideError::Service(ServiceError::Db(e))
    }
}

impl From<diesel::result::Error> for TableSideError {
    fn from(e: diesel::result::Error) -> Self {
        TableSideError::Service(e.into())
    }
}

impl TableSideError {
    /// The stable code of a conflict.
    pub fn code(&self) -> &'static str {
        match self {
            TableSideError::NotFound => "table_not_found",
            TableSideError::WrongCode => "pair_code_wrong",
            TableSideError::SamePair => "same_pair",
            TableSideError::Throttled { .. } => "too_many_attempts",
            TableSideError::Conflict(c) => c,
            TableSideError::Sheet(_) => "sheet_breaks_rules",
            TableSideError::Input(e) => e.code,
            TableSideError::Invalid(_) => "invalid_field",
            TableSideError::Replay | TableSideError::Service(_) => "internal",
        }
    }

    /// The catalog key of the message (conflicts and refusals).
    pub fn message_key(&self) -> &'static str {
        match self {
            TableSideError::NotFound => "table.error.not_found",
            TableSideError::WrongCode => "table.error.pair_code_wrong",
            TableSideError::SamePair => "table.error.same_pair",
            TableSideError::Throttled { .. } => "table.error.throttled",
            TableSideError::Conflict("round_closed") => "table.error.round_closed",
            TableSideError::Conflict("already_confirmed") => "table.error.already_confirmed",
            TableSideError::Conflict("table_entry_off") => "table.error.table_entry_off",
            TableSideError::Conflict("nothing_entered") => "table.error.nothing_entered",
            TableSideError::Conflict("entry_changed") => "table.error.entry_changed",
            TableSideError::Conflict(_) => "error.conflict.message",
            TableSideError::Sheet(_) => "table.error.sheet",
            TableSideError::Input(_) | TableSideError::Invalid(_) => "error.bad_request.message",
            TableSideError::Replay | TableSideError::Service(_) => "error.internal.message",
        }
    }
}

/// Where a table's round stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TableStatus {
    /// Nothing entered yet.
    Open,
    /// Entered by a pair, waiting for the other pair.
    Entered,
    /// Counts in the standings (confirmed by the other pair, or saved at the desk).
    Confirmed,
    /// The other pair disagrees: a referee settles it.
    Disputed,
    /// The round is over (the next round exists, or the tournament is closed).
    Closed,
}

impl TableStatus {
    pub fn code(self) -> &'static str {
        match self {
            TableStatus::Open => "open",
            TableStatus::Entered => "entered",
            TableStatus::Confirmed => "confirmed",
            TableStatus::Disputed => "disputed",
            TableStatus::Closed => "closed",
        }
    }
}

/// A table as its players see it: the round it plays, the two pairs, and
/// the sheet entered or counted, with what the engine computes of it.
#[derive(Debug, Clone)]
pub struct TableView {
    pub l: Loaded,
    pub code: String,
    pub round: i32,
    pub table_no: i32,
    pub ns: Option<PairRow>,
    pub ew: Option<PairRow>,
    pub status: TableStatus,
    /// `ns`, `ew` or `desk`.
    pub entered_by: Option<String>,
    pub sheet: Option<ScoreSheet>,
    /// The engine's report on `sheet` (totals, VP, violations).
    pub report: Option<SheetReport>,
    /// The dispute's note.
    pub note: String,
    /// An adjusted score set at the desk (NS VP, EW VP).
    pub adjusted: Option<(i32, i32)>,
    /// The version of the entry shown (issue 21): a confirmation names it,
    /// so that only the entry the confirming pair saw can count. `None`
    /// when nothing is entered.
    pub entry_version: Option<i32>,
    /// Time-out was called in this round (an end of hand by time-out is
    /// possible only then).
    pub time_out_called: bool,
    /// The next round, once drawn, and where each pair of this table plays
    /// in it.
    pub next_round: Option<i32>,
    pub next: Vec<NextSeat>,
}

/// Where a pair of the table plays in the next round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NextSeat {
    pub pair: i32,
    /// The table and the line, or `None` when the pair rests (or no longer
    /// plays).
    pub seat: Option<(i32, Line)>,
}

impl TableView {
    pub fn table_entry(&self) -> bool {
        self.l.settings.table_entry
    }
}

/// "Pair 7, EW": who acted, for the audit log.
pub fn who(pair: &PairRow, line: Line) -> String {
    format!("pair {}, {}", pair.number, line)
}

/// The seatings of one table number, round by round.
fn table_history(
    c: &mut DbConn,
    l: &Loaded,
    table_no: i32,
) -> Result<Vec<(RoundRow, SeatingRow)>, ServiceError> {
    Ok(tsdb::seatings_of_table(c, l.t.id, table_no)?
        .into_iter()
        .filter_map(|(n, s)| Some((l.round(n)?.clone(), s)))
        .collect())
}

/// The round is over: a later round exists, or the tournament is closed.
fn round_over(l: &Loaded, round: &RoundRow) -> bool {
    l.status() == Status::Finished || l.rounds.iter().any(|r| r.number > round.number)
}

fn parse_stored(text: Option<&str>, what: &str) -> Result<Option<ScoreSheet>, ServiceError> {
    text.map(|s| {
        serde_json::from_str::<ScoreSheet>(s)
            .map_err(|e| ServiceError::corrupt(format!("{what}: {e}")))
    })
    .transpose()
}

fn check(l: &Loaded, sheet: &ScoreSheet) -> SheetReport {
    crate::rules::check(
        sheet,
        l.settings.profile,
        l.settings.hands_per_round as usize,
        &l.settings.vp_scale,
    )
}

/// The table's state on `c`: in round `round` when given (a pair's page
/// after its result counts stays on its round, to show where it plays
/// next), else the round of its last seating.
fn view_on(c: &mut DbConn, code: &str, round: Option<i32>) -> Result<TableView, TableSideError> {
    let (tid, table_no) = tsdb::find_table(c, code)?.ok_or(TableSideError::NotFound)?;
    let t = tdb::find(c, tid)?.ok_or(TableSideError::NotFound)?;
    let l = load_state(c, t)?;
    let history = table_history(c, &l, table_no)?;
    let chosen = round
        .and_then(|n| history.iter().find(|(r, _)| r.number == n))
        .or(history.last());
    let Some((round, seating)) = chosen.cloned() else {
        // A code made for a table that has not played yet.
        return Err(TableSideError::NotFound);
    };
    let counted = sdb::sheet_for(c, seating.id)?;
    let entry = tsdb::entry_for(c, seating.id)?;
    let mut v = TableView {
        ns: l.pair(seating.ns_pair).cloned(),
        ew: l.pair(seating.ew_pair).cloned(),
        code: code.to_string(),
        round: round.number,
        table_no,
        status: TableStatus::Open,
        entered_by: None,
        sheet: None,
        report: None,
        note: String::new(),
        adjusted: None,
        entry_version: entry
            .as_ref()
            .filter(|e| e.sheet.is_some())
            .map(|e| e.version),
        time_out_called: round.time_out_at.is_some(),
        next_round: None,
        next: Vec::new(),
        l,
    };
    if let Some(next) = v.l.round(round.number + 1) {
        let (tables, _) = crate::db::rounds::seating_of(c, next.id)?;
        v.next_round = Some(next.number);
        v.next = [&v.ns, &v.ew]
            .into_iter()
            .flatten()
            .map(|p| NextSeat {
                pair: p.number,
                seat: tables.iter().find_map(|s| {
                    if s.ns_pair == Some(p.id) {
                        Some((s.table_no, Line::Ns))
                    } else if s.ew_pair == Some(p.id) {
                        Some((s.table_no, Line::Ew))
                    } else {
                        None
                    }
                }),
            })
            .collect();
    }
    if let Some(row) = &counted {
        v.status = TableStatus::Confirmed;
        v.entered_by = Some(match &entry {
            Some(e) if e.status == "confirmed" => e.entered_by.clone(),
            _ => "desk".to_string(),
        });
        v.sheet = row.score_sheet()?;
        if row.is_adjusted() {
            v.adjusted = Some((row.ns_vp, row.ew_vp));
        }
    } else if let Some(e) = &entry {
        v.status = if e.status == "disputed" {
            TableStatus::Disputed
        } else {
            TableStatus::Entered
        };
        v.entered_by = Some(e.entered_by.clone());
        v.sheet = parse_stored(e.sheet.as_deref(), &format!("entry {}", e.seating_id))?;
        v.note = e.note.clone();
    }
    v.report = v.sheet.as_ref().map(|s| check(&v.l, s));
    if round_over(&v.l, &round) {
        v.status = TableStatus::Closed;
    }
    Ok(v)
}

/// What the player's page and `GET /api/v1/score/{code}` show.
pub async fn table_view(db: &Db, code: String) -> Result<TableView, TableSideError> {
    table_view_of(db, code, None).await
}

/// The table in a given round (its latest when `round` is `None` or not
/// one of the table's rounds).
pub async fn table_view_of(
    db: &Db,
    code: String,
    round: Option<i32>,
) -> Result<TableView, TableSideError> {
    let code = tsdb::normalize_code(&code);
    db.read(move |c| view_on(c, &code, round)).await
}

// ---- entering and confirming ----

/// The table, the pair that a code names there and the round it plays.
struct Seat {
    l: Loaded,
    table_no: i32,
    round: RoundRow,
    seating: SeatingRow,
    pair: PairRow,
    line: Line,
}

/// Finds the pair of `pair_code` at the table of `table_code` (in round
/// `round` when the client names it, else in the last round the pair sat
/// there); the brake took its attempt before. A read: [`with_seat`] checks
/// it again under the tournament's lock.
fn seat(
    c: &mut DbConn,
    table_code: &str,
    pair_code: &str,
    round: Option<i32>,
) -> Result<Seat, TableSideError> {
    let (tid, table_no) = tsdb::find_table(c, table_code)?.ok_or(TableSideError::NotFound)?;
    let t = tdb::find(c, tid)?.ok_or(TableSideError::NotFound)?;
    let l = load_state(c, t)?;
    let pair_code: String = pair_code.chars().filter(|c| !c.is_whitespace()).collect();
    if pair_code.is_empty() {
        return Err(TableSideError::WrongCode);
    }
    let pair_id = tsdb::pair_with_code(c, tid, &pair_code)?.ok_or(TableSideError::WrongCode)?;
    let history = table_history(c, &l, table_no)?;
    let mine: Vec<&(RoundRow, SeatingRow)> = history
        .iter()
        .filter(|(_, s)| s.ns_pair == Some(pair_id) || s.ew_pair == Some(pair_id))
        .collect();
    let found = match round {
        Some(n) => mine.iter().find(|(r, _)| r.number == n),
        None => mine.last(),
    };
    let Some((round, seating)) = found.map(|x| (*x).clone()) else {
        return Err(TableSideError::WrongCode);
    };
    let line = if seating.ns_pair == Some(pair_id) {
        Line::Ns
    } else {
        Line::Ew
    };
    let pair = l
        .pair(Some(pair_id))
        .cloned()
        .ok_or(TableSideError::WrongCode)?;
    let s = Seat {
        l,
        table_no,
        round,
        seating,
        pair,
        line,
    };
    ensure_open(&s)?;
    Ok(s)
}

/// The round still takes entries from the table.
fn ensure_open(s: &Seat) -> Result<(), TableSideError> {
    // A round drawn again is another round.
    let same_round = s.l.round(s.round.number).map(|r| r.id) == Some(s.round.id);
    if !same_round || round_over(&s.l, &s.round) || s.l.status() != Status::Running {
        return Err(TableSideError::Conflict("round_closed"));
    }
    if !s.l.settings.table_entry {
        return Err(TableSideError::Conflict("table_entry_off"));
    }
    Ok(())
}

/// How a table-side write locks its tournament.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lock {
    /// A result changes (a confirmation): the revision goes up, under the
    /// tournament's row lock (PostgreSQL), like every use case that
    /// changes results.
    Revision,
    /// Nothing that counts changes (an entry, a dispute): a shared lock on
    /// the tournament's row (PostgreSQL), so that entries at different
    /// tables do not wait for one another, while a new round, a close or a
    /// redraw (which take the row lock) waits for them, and they for it.
    Shared,
}

/// Takes the tournament's lock (on SQLite the file's write lock is already
/// held by `Db::write`) and re-reads what may have changed since [`seat`]
/// read it: the status, the settings and the rounds. A round closed
/// meanwhile rolls the write back.
fn relock(c: &mut DbConn, s: &mut Seat, lock: Lock) -> Result<(), TableSideError> {
    match lock {
        Lock::Revision => {
            if !tsdb::bump_revision(c, s.l.t.id)? {
                return Err(TableSideError::NotFound);
            }
        }
        Lock::Shared => tsdb::share_lock(c, s.l.t.id)?,
    }
    let t = tdb::find(c, s.l.t.id)?.ok_or(TableSideError::NotFound)?;
    if lock == Lock::Revision {
        // Published by `Db::write` after the commit, as `services::lock`
        // does: without it this process kept serving the public pages of
        // the revision before the confirmation.
        crate::db::revisions::note_bump(t.id, t.revision);
    }
    s.l.settings = t
        .settings()
        .map_err(|e| ServiceError::corrupt(format!("tournament {}: settings: {e}", t.id)))?;
    s.l.status = Status::parse(&t.status).ok_or_else(|| {
        ServiceError::corrupt(format!("tournament {}: status {:?}", t.id, t.status))
    })?;
    s.l.rounds = crate::db::rounds::list_rounds(c, t.id)?;
    s.l.t = t;
    ensure_open(s)
}

/// Runs a table-side write in three steps: the brake takes an attempt from
/// the (table, address) allowance in a short write of its own (refused:
/// nothing is looked at; a right code gives it back), the table, the code and the round are found with
/// a read (many at once), then the write reads the table's rows, takes the
/// tournament's lock ([`relock`], which checks the round again) and
/// writes, so that the lock is held briefly (40 tables answering at once
/// wait on it in turn). Writes are also guarded row by row (entry
/// versions, unique keys).
async fn with_seat<T: Send + 'static>(
    db: &Db,
    table_code: String,
    pair_code: String,
    round: Option<i32>,
    client: Option<IpAddr>,
    f: impl FnOnce(&mut DbConn, &mut Seat) -> Result<T, TableSideError> + Send + 'static,
) -> Result<T, TableSideError> {
    let table_code = tsdb::normalize_code(&table_code);
    let key = super::brakes::pair_code_key(&table_code, client);
    if let Verdict::Refused { retry_after } = db.take_attempts(vec![key.clone()]).await? {
        return Err(TableSideError::Throttled {
            wait_seconds: super::brakes::wait_seconds(retry_after),
        });
    }
    let found = db
        .read(move |c| seat(c, &table_code, &pair_code, round))
        .await;
    let mut s = match found {
        Ok(s) => s,
        Err(e @ (TableSideError::WrongCode | TableSideError::NotFound)) => return Err(e),
        Err(e) => {
            // The code was right (the round is over, entry is off): the
            // attempt goes back.
            db.give_back_attempt(key).await?;
            return Err(e);
        }
    };
    // `f` reads the table, calls `relock` and then writes: the tournament's
    // lock is taken before any row of the table is written (the order every
    // use case takes its locks in), and held only for the writes. The right
    // code's attempt goes back in the same transaction, kept when `f`
    // refuses (its own writes are undone in a savepoint).
    let limiter = db.limiter();
    db.write(
        move |c| -> Result<Result<T, TableSideError>, TableSideError> {
            limiter.give_back(c, &key)?;
            Ok(c.transaction(|c| f(c, &mut s)))
        },
    )
    .await?
}

/// What an accepted entry or answer returns (and what a repeated
/// submission gets again: it is stored under its idempotency key).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    pub status: TableStatus,
    pub round: i32,
    pub table_no: i32,
    /// `ns` or `ew`: who acted.
    pub by: Line,
    /// The entry replaced an earlier one.
    pub replaced: bool,
    /// The version of the entry stored or answered.
    pub entry_version: Option<i32>,
    /// The engine's totals and VP of the sheet.
    pub totals: Option<PerLine<i64>>,
    pub vp: Option<PerLine<u8>>,
}

impl Outcome {
    fn new(s: &Seat, status: TableStatus, version: i32, report: &SheetReport) -> Outcome {
        Outcome {
            status,
            round: s.round.number,
            table_no: s.table_no,
            by: s.line,
            replaced: false,
            entry_version: Some(version),
            totals: Some(report.totals),
            vp: Some(report.vp),
        }
    }
}

fn sheet_json(sheet: &ScoreSheet) -> Result<String, ServiceError> {
    serde_json::to_string(sheet).map_err(|e| ServiceError::corrupt(format!("sheet: {e}")))
}

fn audit_value(entry: &EntryRow, extra: Value) -> String {
    let mut v = json!({
        "entered_by": entry.entered_by,
        "status": entry.status,
        "version": entry.version,
    });
    if let (Some(m), Some(sheet)) = (v.as_object_mut(), entry.sheet.as_deref()) {
        m.insert(
            "sheet".into(),
            serde_json::from_str(sheet).unwrap_or(Value::Null),
        );
    }
    if let (Some(m), Value::Object(x)) = (v.as_object_mut(), extra) {
        m.extend(x);
    }
    v.to_string()
}

// ---- one answer per submission ----

/// A submission's idempotency key as stored: the SHA-256 of its scope (the
/// action and the table) and the client's key, so that one phone's key
/// cannot replay another table's answer.
fn idempotency_key(scope: &str, table_code: &str, key: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"burraco-td idempotency v1");
    for p in [scope, table_code, key] {
        h.update((p.len() as u64).to_be_bytes());
        h.update(p.as_bytes());
    }
    hex::encode(h.finalize())
}

/// A client's idempotency key as typed: 8 to 100 letters, digits, `-`, `_`.
pub fn parse_idempotency_key(text: &str) -> Result<Option<String>, TableSideError> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let ok = (8..=100).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok {
        Ok(Some(text.to_string()))
    } else {
        Err(TableSideError::Invalid(vec![FieldProblem::new(
            "idempotency_key",
            "table.error.idempotency_key",
        )]))
    }
}

fn chrono_of(d: Duration) -> chrono::Duration {
    chrono::Duration::from_std(d).unwrap_or(chrono::Duration::MAX)
}

/// How long a submission's first answer is kept.
const IDEMPOTENCY_KEEP: Duration = Duration::from_secs(24 * 60 * 60);

/// The first answer to a submission with this key, if it was given.
fn replayed(c: &mut DbConn, key: Option<&str>) -> Result<Option<Outcome>, TableSideError> {
    let Some(key) = key else { return Ok(None) };
    let Some(text) = tsdb::idempotent_answer(c, key)? else {
        return Ok(None);
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| ServiceError::corrupt(format!("stored answer: {e}")).into())
}

/// Keeps the answer under its key, in the transaction that made it. A
/// concurrent twin that stored it first makes this one roll back
/// ([`TableSideError::Replay`]): the caller then reads the twin's answer.
fn remember(c: &mut DbConn, key: Option<&str>, o: &Outcome) -> Result<(), TableSideError> {
    let Some(key) = key else { return Ok(()) };
    let text =
        serde_json::to_string(o).map_err(|e| ServiceError::corrupt(format!("answer: {e}")))?;
    let t = now();
    if !tsdb::remember_answer(c, key, &text, t)? {
        return Err(TableSideError::Replay);
    }
    tsdb::forget_answers_before(c, t - chrono_of(IDEMPOTENCY_KEEP))?;
    Ok(())
}

/// Runs a submission once per key: a repeated key (a phone sending again
/// after the network came back, a double tap, a reload of the POST) gets
/// the first answer and changes nothing.
async fn once(
    db: &Db,
    key: Option<String>,
    run: impl std::future::Future<Output = Result<Outcome, TableSideError>>,
) -> Result<Outcome, TableSideError> {
    match run.await {
        Err(TableSideError::Replay) => {
            let key = key.ok_or(TableSideError::Conflict("entry_changed"))?;
            db.read(move |c| replayed(c, Some(&key)))
                .await?
                .ok_or(TableSideError::Conflict("entry_changed"))
        }
        other => other,
    }
}

// ---- entering and confirming ----

/// The time-out end of hand of a sheet entered at the table when the round
/// had no time-out called: the referee decides (the desk may accept it with
/// a reason).
fn time_out_not_called(s: &Seat, sheet: &ScoreSheet) -> Option<FieldProblem> {
    if s.round.time_out_at.is_some() {
        return None;
    }
    let n = sheet
        .hands
        .iter()
        .position(|h| h.end == crate::rules::HandEnd::TimeOut)?;
    const ENDS: [&str; 8] = [
        "h1_end", "h2_end", "h3_end", "h4_end", "h5_end", "h6_end", "h7_end", "h8_end",
    ];
    Some(FieldProblem::new(
        ENDS.get(n).copied().unwrap_or("sheet"),
        "table.error.time_out_not_called",
    ))
}

/// A pair enters (or, before confirmation, enters again) its table's sheet.
/// `sheet` is the parsed body, or why it could not be read: that answer
/// comes only after the code, the round and the table's state were checked.
/// `idempotency_key`: the same key again gets the first answer.
#[allow(clippy::too_many_arguments)]
pub async fn enter_sheet(
    db: &Db,
    table_code: String,
    pair_code: String,
    round: Option<i32>,
    sheet: Result<ScoreSheet, InputError>,
    idempotency_key_of_client: Option<String>,
    client: Option<IpAddr>,
) -> Result<Outcome, TableSideError> {
    let key = idempotency_key_of_client
        .map(|k| idempotency_key("sheet", &tsdb::normalize_code(&table_code), &k));
    let k = key.clone();
    let run = with_seat(db, table_code, pair_code, round, client, move |c, s| {
        if let Some(o) = replayed(c, k.as_deref())? {
            return Ok(o);
        }
        if sdb::sheet_for(c, s.seating.id)?.is_some() {
            return Err(TableSideError::Conflict("already_confirmed"));
        }
        let sheet = sheet.map_err(TableSideError::Input)?;
        let report = check(&s.l, &sheet);
        if report.has_violations() {
            return Err(TableSideError::Sheet(Box::new(report)));
        }
        if let Some(p) = time_out_not_called(s, &sheet) {
            return Err(TableSideError::Invalid(vec![p]));
        }
        relock(c, s, Lock::Shared)?;
        let text = sheet_json(&sheet)?;
        let mut stored = None;
        for _ in 0..3 {
            let before = tsdb::entry_for(c, s.seating.id)?;
            if before.as_ref().is_some_and(|e| e.status == "confirmed") {
                return Err(TableSideError::Conflict("already_confirmed"));
            }
            let put = tsdb::put_entry(
                c,
                s.seating.id,
                before.as_ref(),
                "entered",
                s.line.code(),
                Some(&text),
                false,
            )?;
            if let Some(v) = put {
                stored = Some((v, before));
                break;
            }
        }
        let Some((version, before)) = stored else {
            return Err(TableSideError::Conflict("entry_changed"));
        };
        let by = who(&s.pair, s.line);
        let after = json!({
            "entered_by": s.line.code(),
            "pair": s.pair.number,
            "status": "entered",
            "version": version,
            "sheet": serde_json::to_value(&sheet).unwrap_or(Value::Null),
            "totals": report.totals,
            "vp": report.vp,
        })
        .to_string();
        let action = if before.is_some() {
            "table.sheet_replaced"
        } else {
            "table.sheet_entered"
        };
        tsdb::audit_by_pair(
            c,
            s.l.t.id,
            s.round.number,
            s.table_no,
            action,
            before.as_ref().map(|e| audit_value(e, Value::Null)),
            Some(after),
            &by,
        )?;
        tracing::info!(
            tournament_id = s.l.t.id,
            round = s.round.number,
            table = s.table_no,
            by = s.line.code(),
            replaced = before.is_some(),
            version,
            "table-side sheet entered"
        );
        let mut o = Outcome::new(s, TableStatus::Entered, version, &report);
        o.replaced = before.is_some();
        remember(c, k.as_deref(), &o)?;
        Ok(o)
    });
    once(db, key, run).await
}

/// What the other pair answers: `agree` confirms the entry it saw
/// (`entry_version`), otherwise it disputes it with a note.
#[derive(Debug, Clone, Default)]
pub struct Answer {
    pub agree: Option<bool>,
    /// The version of the entry shown to the pair (required).
    pub entry_version: Option<i32>,
    pub note: String,
    pub idempotency_key: Option<String>,
}

/// The other pair's answer: `agree` confirms the entry (it counts from now
/// on), otherwise it is disputed with a note (it does not count; a referee
/// settles it). Only the entry the pair saw can be answered: a stale
/// `entry_version` is `entry_changed` (409) and changes nothing.
pub async fn confirm(
    db: &Db,
    table_code: String,
    pair_code: String,
    round: Option<i32>,
    answer: Answer,
    client: Option<IpAddr>,
) -> Result<Outcome, TableSideError> {
    let key = answer
        .idempotency_key
        .as_deref()
        .map(|k| idempotency_key("confirm", &tsdb::normalize_code(&table_code), k));
    let k = key.clone();
    let run = with_seat(db, table_code, pair_code, round, client, move |c, s| {
        if let Some(o) = replayed(c, k.as_deref())? {
            return Ok(o);
        }
        if sdb::sheet_for(c, s.seating.id)?.is_some() {
            return Err(TableSideError::Conflict("already_confirmed"));
        }
        let entry = tsdb::entry_for(c, s.seating.id)?
            .filter(|e| e.status != "confirmed")
            .ok_or(TableSideError::Conflict("nothing_entered"))?;
        if entry.entered_by == s.line.code() {
            return Err(TableSideError::SamePair);
        }
        let Some(agree) = answer.agree else {
            return Err(TableSideError::Invalid(vec![FieldProblem::new(
                "agree",
                "table.error.agree_needed",
            )]));
        };
        let Some(seen) = answer.entry_version else {
            return Err(TableSideError::Invalid(vec![FieldProblem::new(
                "entry_version",
                "table.error.entry_version_needed",
            )]));
        };
        if seen != entry.version {
            return Err(TableSideError::Conflict("entry_changed"));
        }
        let by = who(&s.pair, s.line);
        let sheet = parse_stored(
            entry.sheet.as_deref(),
            &format!("entry {}", entry.seating_id),
        )?
        .ok_or_else(|| ServiceError::corrupt(format!("entry {}: no sheet", entry.seating_id)))?;
        let report = check(&s.l, &sheet);
        let note = if agree {
            String::new()
        } else {
            crate::tournament::text::clean_reason("note", &answer.note, "table.error.note_needed")
                .map_err(|p| TableSideError::Invalid(vec![p]))?
        };
        relock(c, s, if agree { Lock::Revision } else { Lock::Shared })?;
        let status = if agree {
            if report.has_violations() {
                // Stored entries passed the rules; settings cannot change
                // after the start. Never count a sheet that breaks one.
                return Err(TableSideError::Sheet(Box::new(report)));
            }
            let write = SheetWrite {
                sheet: Some(sheet_json(&sheet)?),
                adjusted: None,
                ns_total: report.totals.ns,
                ew_total: report.totals.ew,
                ns_vp: i32::from(report.vp.ns),
                ew_vp: i32::from(report.vp.ew),
                accepted_mismatch: false,
                note: String::new(),
            };
            if !tsdb::insert_counted_sheet(c, s.seating.id, &write)? {
                return Err(TableSideError::Conflict("already_confirmed"));
            }
            // Conditional on the version the pair saw: a replacement that
            // won the race rolls this confirmation back.
            if !tsdb::decide(c, s.seating.id, seen, "confirmed", s.line.code(), "")? {
                return Err(TableSideError::Conflict("entry_changed"));
            }
            tsdb::audit_by_pair(
                c,
                s.l.t.id,
                s.round.number,
                s.table_no,
                "table.sheet_confirmed",
                Some(audit_value(&entry, Value::Null)),
                Some(
                    json!({"status": "confirmed", "confirmed_by": s.line.code(),
                        "pair": s.pair.number, "version": seen,
                        "totals": report.totals, "vp": report.vp})
                    .to_string(),
                ),
                &by,
            )?;
            TableStatus::Confirmed
        } else {
            if !tsdb::decide(c, s.seating.id, seen, "disputed", s.line.code(), &note)? {
                return Err(TableSideError::Conflict("entry_changed"));
            }
            tsdb::audit_by_pair(
                c,
                s.l.t.id,
                s.round.number,
                s.table_no,
                "table.sheet_disputed",
                Some(audit_value(&entry, Value::Null)),
                Some(
                    json!({"status": "disputed", "disputed_by": s.line.code(),
                        "pair": s.pair.number, "version": seen, "note": note})
                    .to_string(),
                ),
                &format!("{by}: {note}"),
            )?;
            TableStatus::Disputed
        };
        tracing::info!(
            tournament_id = s.l.t.id,
            round = s.round.number,
            table = s.table_no,
            status = status.code(),
            version = seen,
            "table-side answer"
        );
        let o = Outcome::new(s, status, seen, &report);
        remember(c, k.as_deref(), &o)?;
        Ok(o)
    });
    once(db, key, run).await
}

// ---- the desk ----

/// A pair's entry that does not count yet (entered, or disputed), as the
/// desk reads it: the referee settles a dispute with this sheet in view.
#[derive(Debug, Clone)]
pub struct Pending {
    /// The entry's version (the desk's Confirm names it).
    pub version: i32,
    pub entered_by: Line,
    /// The other pair disputed it, with this note.
    pub disputed_by: Option<Line>,
    pub note: String,
    pub sheet: ScoreSheet,
    pub report: SheetReport,
}

/// The pending entry of a seating, if any (a desk's entry always counts).
pub fn pending_of(
    c: &mut DbConn,
    l: &Loaded,
    seating_id: i64,
) -> Result<Option<Pending>, ServiceError> {
    let Some(e) = tsdb::entry_for(c, seating_id)? else {
        return Ok(None);
    };
    let line = |code: &str| match code {
        "ns" => Some(Line::Ns),
        "ew" => Some(Line::Ew),
        _ => None,
    };
    let (Some(entered_by), "entered" | "disputed") = (line(&e.entered_by), e.status.as_str())
    else {
        return Ok(None);
    };
    let Some(sheet) = parse_stored(e.sheet.as_deref(), &format!("entry {seating_id}"))? else {
        return Ok(None);
    };
    let report = check(l, &sheet);
    Ok(Some(Pending {
        version: e.version,
        entered_by,
        disputed_by: (e.status == "disputed")
            .then(|| e.decided_by.as_deref().and_then(line))
            .flatten(),
        note: e.note,
        sheet,
        report,
    }))
}

/// Called by every save at the desk (sheet or adjusted score, inside its
/// transaction): the table's entry becomes the desk's, confirmed.
pub fn record_desk_save(
    c: &mut DbConn,
    seating_id: i64,
    sheet: Option<&str>,
) -> Result<(), ServiceError> {
    for _ in 0..3 {
        let existing = tsdb::entry_for(c, seating_id)?;
        let put = tsdb::put_entry(
            c,
            seating_id,
            existing.as_ref(),
            "confirmed",
            "desk",
            sheet,
            true,
        )?;
        if let Some(v) = put {
            tsdb::decide(c, seating_id, v, "confirmed", "desk", "")?;
            return Ok(());
        }
    }
    Err(ServiceError::Conflict(super::Conflict::SheetChanged))
}

/// The desk confirms a pair's entry (entered or disputed) as the referee
/// saw it (`seen`, the entry's version on the page that showed it): it
/// counts from now on, on the record under the referee's name. An entry
/// replaced since is a conflict (409) and nothing counts.
pub async fn desk_confirm(
    db: &Db,
    actor: Actor,
    tid: i64,
    n: i32,
    table_no: i32,
    seen: i32,
) -> Result<(), ServiceError> {
    db.write(move |c| {
        let l = lock(c, &actor, tid, Need::Referee)?;
        l.ensure_running()?;
        let round = l.round(n).ok_or(ServiceError::NotFound)?.clone();
        let (tables, _) = crate::db::rounds::seating_of(c, round.id)?;
        let seating = tables
            .into_iter()
            .find(|s| s.table_no == table_no)
            .ok_or(ServiceError::NotFound)?;
        let entry = tsdb::entry_for(c, seating.id)?
            .filter(|e| e.status != "confirmed")
            .ok_or_else(|| ServiceError::conflict("table.error.nothing_entered"))?;
        if entry.version != seen {
            return Err(ServiceError::Conflict(super::Conflict::SheetChanged));
        }
        let sheet = parse_stored(
            entry.sheet.as_deref(),
            &format!("entry {}", entry.seating_id),
        )?
        .ok_or_else(|| ServiceError::conflict("table.error.nothing_entered"))?;
        let report = check(&l, &sheet);
        if report.has_violations() {
            return Err(ServiceError::Sheet(Box::new(
                super::scoring::SheetRejection {
                    report,
                    problems: Vec::new(),
                },
            )));
        }
        let write = SheetWrite {
            sheet: Some(sheet_json(&sheet)?),
            adjusted: None,
            ns_total: report.totals.ns,
            ew_total: report.totals.ew,
            ns_vp: i32::from(report.vp.ns),
            ew_vp: i32::from(report.vp.ew),
            accepted_mismatch: false,
            note: String::new(),
        };
        let place = TablePlace {
            tournament_id: tid,
            round_no: n,
            table_no,
            seating_id: seating.id,
        };
        let reason = format!("entered by {}", entry.entered_by.to_uppercase());
        match sdb::save_sheet(c, place, None, &write, actor.user_id, &reason) {
            Ok(_) => {}
            Err(SaveError::Conflict { .. }) => {
                return Err(ServiceError::conflict("table.error.already_confirmed"))
            }
            Err(SaveError::Db(e)) => return Err(e.into()),
        }
        if !tsdb::decide(c, seating.id, entry.version, "confirmed", "desk", "")? {
            return Err(ServiceError::Conflict(super::Conflict::SheetChanged));
        }
        Ok(())
    })
    .await
}

/// The entries of a round's tables by seating id (for the desk's round page).
pub async fn round_entries(
    db: &Db,
    actor: Actor,
    tid: i64,
    n: i32,
) -> Result<Vec<EntryRow>, ServiceError> {
    db.read(move |c| {
        let l = super::read(c, &actor, tid, Need::Referee)?;
        let round = l.round(n).ok_or(ServiceError::NotFound)?;
        Ok(tsdb::entries_of_round(c, round.id)?)
    })
    .await
}

// ---- codes ----

/// Gives the tournament's tables (every table number its layout and its
/// rounds use) and pairs their codes, if they have none; existing codes
/// never change. Called inside the transactions that start a tournament,
/// import one, add a pair or make a round.
pub fn ensure_codes(c: &mut DbConn, tid: i64) -> Result<(), ServiceError> {
    let Some(t) = tdb::find(c, tid)? else {
        return Ok(());
    };
    if Status::parse(&t.status) == Some(Status::Draft) {
        return Ok(());
    }
    let mut tables = tsdb::table_numbers_of(c, tid)?;
    if let Some(layout) = t.layout() {
        tables.extend((1..=layout.tables).filter_map(|n| i32::try_from(n).ok()));
    }
    tsdb::ensure_codes(c, tid, &tables)?;
    Ok(())
}

/// The codes of a tournament for its printouts (staff only): table number →
/// table code, and pair number → pair code.
#[derive(Debug, Clone, Default)]
pub struct Codes {
    pub tables: Vec<(i32, String)>,
    pub pairs: Vec<(i32, String)>,
}

impl Codes {
    pub fn table(&self, table_no: i32) -> Option<&str> {
        self.tables
            .iter()
            .find(|(t, _)| *t == table_no)
            .map(|(_, c)| c.as_str())
    }
    pub fn pair(&self, number: i32) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(n, _)| *n == number)
            .map(|(_, c)| c.as_str())
    }
}

pub async fn codes(db: &Db, actor: Actor, tid: i64) -> Result<Codes, ServiceError> {
    db.read(move |c| {
        super::read(c, &actor, tid, Need::Direct)?;
        Ok(Codes {
            tables: tsdb::table_codes_of(c, tid)?,
            pairs: tsdb::pair_codes_of(c, tid)?
                .into_iter()
                .filter_map(|(_, n, code)| Some((n, code?)))
                .collect(),
        })
    })
    .await
}
