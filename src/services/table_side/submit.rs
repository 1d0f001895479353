//! A pair's submissions: entering a sheet, the other pair's answer (confirming exactly the entry it read, or disputing it), and one answer per submission (idempotency keys).

use super::judge::judge;
use super::seat::{ensure_open, relock, with_seat, Lock, Seat};
use std::net::IpAddr;
use std::time::Duration;

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::{who, PairCode, TableCode, TableStatus};
use crate::db::scoring as sdb;
use crate::db::table_side::{self as tsdb, EntryRow};
use crate::db::types::{EntrySide, EntryStatus};
use crate::db::{Db, DbConn};
use crate::rules::{Line, PerLine, ScoreSheet, SheetReport};
use crate::services::entries::{check, counted_write, parse_stored};
use crate::services::{Refusal, ServiceError, SheetRejection};
use crate::tournament::FieldProblem;
use chrono::NaiveDateTime;

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

pub(super) fn sheet_json(sheet: &ScoreSheet) -> Result<String, ServiceError> {
    serde_json::to_string(sheet).map_err(|e| ServiceError::corrupt(format!("sheet: {e}")))
}

pub(super) fn audit_value(entry: &EntryRow, extra: Value) -> String {
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
pub(super) fn idempotency_key(scope: &str, table_code: &str, key: &str) -> String {
    let mut h = Sha256::new();
    h.update(b"burraco-td idempotency v1");
    for p in [scope, table_code, key] {
        h.update((p.len() as u64).to_be_bytes());
        h.update(p.as_bytes());
    }
    hex::encode(h.finalize())
}

/// A client's idempotency key as typed: 8 to 100 letters, digits, `-`, `_`.
pub fn parse_idempotency_key(text: &str) -> Result<Option<String>, ServiceError> {
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
        Err(ServiceError::Invalid(vec![FieldProblem::new(
            "idempotency_key",
            "table.error.idempotency_key",
        )]))
    }
}

pub(super) fn chrono_of(d: Duration) -> chrono::Duration {
    chrono::Duration::from_std(d).unwrap_or(chrono::Duration::MAX)
}

/// How long a submission's first answer is kept.
pub(super) const IDEMPOTENCY_KEEP: Duration = Duration::from_secs(24 * 60 * 60);

/// The first answer to a submission with this key, if it was given.
pub(super) fn replayed(c: &mut DbConn, key: Option<&str>) -> Result<Option<Outcome>, ServiceError> {
    let Some(key) = key else { return Ok(None) };
    let Some(text) = tsdb::idempotent_answer(c, key)? else {
        return Ok(None);
    };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|e| ServiceError::corrupt(format!("stored answer: {e}")))
}

/// Keeps the answer under its key, in the transaction that made it. A
/// concurrent twin that stored it first makes this one roll back
/// ([`ServiceError::Replay`]): the caller then reads the twin's answer.
pub(super) fn remember(
    c: &mut DbConn,
    key: Option<&str>,
    o: &Outcome,
    now: NaiveDateTime,
) -> Result<(), ServiceError> {
    let Some(key) = key else { return Ok(()) };
    let text =
        serde_json::to_string(o).map_err(|e| ServiceError::corrupt(format!("answer: {e}")))?;
    if !tsdb::remember_answer(c, key, &text, now)? {
        return Err(ServiceError::Replay);
    }
    tsdb::forget_answers_before(c, now - chrono_of(IDEMPOTENCY_KEEP))?;
    Ok(())
}

/// Runs a submission once per key: a repeated key (a phone sending again
/// after the network came back, a double tap, a reload of the POST) gets
/// the first answer and changes nothing.
pub(super) async fn once(
    db: &Db,
    key: Option<String>,
    run: impl std::future::Future<Output = Result<Outcome, ServiceError>>,
) -> Result<Outcome, ServiceError> {
    match run.await {
        Err(ServiceError::Replay) => {
            let key = key.ok_or(ServiceError::refused(Refusal::EntryChanged))?;
            db.read(move |c| replayed(c, Some(&key)))
                .await?
                .ok_or(ServiceError::refused(Refusal::EntryChanged))
        }
        other => other,
    }
}

// ---- entering and confirming ----

/// A pair enters (or, before confirmation, enters again) its table's sheet.
/// `sheet` is the parsed body, or why it could not be read: that answer
/// comes only after the code, the round and the table's state were checked.
/// `idempotency_key`: the same key again gets the first answer.
#[allow(clippy::too_many_arguments)]
pub async fn enter_sheet(
    db: &Db,
    table_code: TableCode,
    pair_code: PairCode,
    round: Option<i32>,
    sheet: Result<ScoreSheet, crate::rules::api::InputError>,
    idempotency_key_of_client: Option<String>,
    client: Option<IpAddr>,
) -> Result<Outcome, ServiceError> {
    let now = db.now();
    let key = idempotency_key_of_client.map(|k| idempotency_key("sheet", table_code.as_str(), &k));
    let k = key.clone();
    let run = with_seat(db, table_code, pair_code, round, client, move |c, s| {
        if let Some(o) = replayed(c, k.as_deref())? {
            return Ok(o);
        }
        if sdb::sheet_for(c, s.seating.id)?.is_some() {
            return Err(ServiceError::refused(Refusal::AlreadyConfirmed));
        }
        let sheet = sheet.map_err(ServiceError::Unreadable)?;
        // The one verdict the phone's live check shows too.
        let report = judge(&s.l, s.round.time_out_at.is_some(), &sheet).into_result()?;
        relock(c, s, Lock::Shared)?;
        let text = sheet_json(&sheet)?;
        let mut stored = None;
        for _ in 0..3 {
            let before = tsdb::entry_for(c, s.seating.id)?;
            if before
                .as_ref()
                .is_some_and(|e| e.status == EntryStatus::Confirmed)
            {
                return Err(ServiceError::refused(Refusal::AlreadyConfirmed));
            }
            let put = tsdb::put_entry(
                c,
                s.seating.id,
                before.as_ref(),
                EntryStatus::Entered,
                EntrySide::from(s.line),
                Some(&text),
                false,
                now,
            )?;
            if let Some(v) = put {
                stored = Some((v, before));
                break;
            }
        }
        let Some((version, before)) = stored else {
            return Err(ServiceError::refused(Refusal::EntryChanged));
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
            now,
        )?;
        tracing::info!(
            tournament_id = s.l.t.id.0,
            round = s.round.number,
            table = s.table_no,
            by = s.line.code(),
            replaced = before.is_some(),
            version,
            "table-side sheet entered"
        );
        let mut o = Outcome::new(s, TableStatus::Entered, version, &report);
        o.replaced = before.is_some();
        remember(c, k.as_deref(), &o, now)?;
        Ok(o)
    });
    once(db, key, run).await
}

/// Why a confirmation's write found nothing to confirm, read again under
/// the tournament's lock: a sheet counted meanwhile, the round over, or
/// the entry changed.
fn not_decided(c: &mut DbConn, s: &mut Seat) -> ServiceError {
    let mut why = || -> Result<ServiceError, ServiceError> {
        if sdb::sheet_for(c, s.seating.id)?.is_some() {
            return Ok(ServiceError::refused(Refusal::AlreadyConfirmed));
        }
        s.l.rounds = crate::services::view::rounds(&crate::db::rounds::list_rounds(c, s.l.t.id)?)?;
        ensure_open(s)?;
        Ok(ServiceError::refused(Refusal::EntryChanged))
    };
    why().unwrap_or_else(|e| e)
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
    table_code: TableCode,
    pair_code: PairCode,
    round: Option<i32>,
    answer: Answer,
    client: Option<IpAddr>,
) -> Result<Outcome, ServiceError> {
    let now = db.now();
    let key = answer
        .idempotency_key
        .as_deref()
        .map(|k| idempotency_key("confirm", table_code.as_str(), k));
    let k = key.clone();
    let run = with_seat(db, table_code, pair_code, round, client, move |c, s| {
        if let Some(o) = replayed(c, k.as_deref())? {
            return Ok(o);
        }
        if sdb::sheet_for(c, s.seating.id)?.is_some() {
            return Err(ServiceError::refused(Refusal::AlreadyConfirmed));
        }
        let entry = tsdb::entry_for(c, s.seating.id)?
            .filter(|e| e.status != EntryStatus::Confirmed)
            .ok_or(ServiceError::refused(Refusal::NothingEntered))?;
        if entry.entered_by == EntrySide::from(s.line) {
            return Err(ServiceError::refused(Refusal::SamePair));
        }
        let Some(agree) = answer.agree else {
            return Err(ServiceError::Invalid(vec![FieldProblem::new(
                "agree",
                "table.error.agree_needed",
            )]));
        };
        let Some(seen) = answer.entry_version else {
            return Err(ServiceError::Invalid(vec![FieldProblem::new(
                "entry_version",
                "table.error.entry_version_needed",
            )]));
        };
        if seen != entry.version {
            return Err(ServiceError::refused(Refusal::EntryChanged));
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
                .map_err(|p| ServiceError::Invalid(vec![p]))?
        };
        if agree {
            if report.has_violations() {
                // Stored entries passed the rules; settings cannot change
                // after the start. Never count a sheet that breaks one.
                return Err(ServiceError::Sheet(Box::new(SheetRejection {
                    report,
                    problems: Vec::new(),
                })));
            }
            // A new row that no one else locks, written before the
            // tournament's lock (rolled back with the rest on a refusal).
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
                now,
            )?;
        }
        relock(c, s, if agree { Lock::Revision } else { Lock::Shared })?;
        let status = if agree {
            // Conditional on the version the pair saw (a replacement that
            // won the race rolls this confirmation back) and on the round
            // still open (`relock` left that to this statement).
            let side = EntrySide::from(s.line);
            let (tid, round_id) = (s.l.t.id, s.round.id);
            if !tsdb::decide_in_round(
                c,
                tid,
                round_id,
                s.round.number,
                s.seating.id,
                seen,
                side,
                now,
            )? {
                return Err(not_decided(c, s));
            }
            let write = counted_write(&sheet, &report, false, String::new())?;
            if !tsdb::insert_counted_sheet(c, s.seating.id, &write, now)? {
                return Err(ServiceError::refused(Refusal::AlreadyConfirmed));
            }
            TableStatus::Confirmed
        } else {
            let side = EntrySide::from(s.line);
            if !tsdb::decide(
                c,
                s.seating.id,
                seen,
                EntryStatus::Disputed,
                side,
                &note,
                now,
            )? {
                return Err(ServiceError::refused(Refusal::EntryChanged));
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
                now,
            )?;
            TableStatus::Disputed
        };
        tracing::info!(
            tournament_id = s.l.t.id.0,
            round = s.round.number,
            table = s.table_no,
            status = status.code(),
            version = seen,
            "table-side answer"
        );
        let o = Outcome::new(s, status, seen, &report);
        remember(c, k.as_deref(), &o, now)?;
        Ok(o)
    });
    once(db, key, run).await
}
