//! Scoring: score sheets checked by the rules engine, adjusted scores,
//! penalties, and what the desk reads.

use super::audit::{self, Action, Entry};
use super::{read, Actor, Loaded, Need, ServiceError, SheetRejection};
use crate::db::audit::{self as adb, AuditRow};
use crate::db::penalties::{self as pdb, NewPenalty};
use crate::db::scoring::{self as sdb, SaveError, SheetWrite, TablePlace};
use crate::db::{Db, DbConn};
use crate::i18n::{t, Lang};
use crate::ids::{PairId, PenaltyId, TournamentId};
use crate::rules::vp::TOTAL_VP;
use crate::rules::{ScoreSheet, SheetReport};
use crate::services::view::{Round, Seating};
use crate::services::Refusal;
use crate::tournament::penalty::{self, PenaltyKind, MAX_ADJUSTED_MP_DIFF};
use crate::tournament::sheet_form;
use crate::tournament::FieldProblem;

/// A table of a round, with its sheet if any.
#[derive(Debug, Clone)]
pub struct TableState {
    pub round: Round,
    pub seating: Seating,
    pub sheet: Option<crate::services::view::Sheet>,
    /// A pair's entry that does not count yet (while no sheet counts).
    pub pending: Option<super::entries::Pending>,
}

fn table_state(
    c: &mut DbConn,
    l: &Loaded,
    n: i32,
    table_no: i32,
) -> Result<TableState, ServiceError> {
    let round = l.round(n).ok_or(ServiceError::NotFound)?.clone();
    let (tables, _) = crate::db::rounds::seating_of(c, round.id)?;
    let seating = tables
        .iter()
        .find(|s| s.table_no == table_no)
        .map(Seating::from)
        .ok_or(ServiceError::NotFound)?;
    let sheet = sdb::sheet_for(c, seating.id)?;
    let pending = match sheet {
        Some(_) => None,
        None => super::entries::pending_of(c, l, seating.id)?,
    };
    Ok(TableState {
        round,
        seating,
        sheet: crate::services::view::sheet(sheet.as_ref())?,
        pending,
    })
}

/// A table's audit entries with the users' names, newest first.
pub type TableAudit = Vec<(crate::services::view::AuditEntry, Option<String>)>;

fn audit_view(rows: Vec<(AuditRow, Option<String>)>) -> TableAudit {
    rows.iter()
        .map(|(r, who)| (crate::services::view::AuditEntry::from(r), who.clone()))
        .collect()
}

/// A tournament and one of its tables with its audit, for the sheet page.
pub async fn table(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    n: i32,
    table_no: i32,
) -> Result<(Loaded, TableState, TableAudit), ServiceError> {
    db.read(move |c| {
        let l = read(c, &actor, tid, Need::Referee)?;
        let ts = table_state(c, &l, n, table_no)?;
        let audit = audit_view(adb::audit_of(c, tid, Some((n, table_no)))?);
        Ok((l, ts, audit))
    })
    .await
}

/// A round at the desk: every table with its sheet.
pub async fn round_tables(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    n: i32,
) -> Result<(Loaded, Vec<(Seating, Option<crate::services::view::Sheet>)>), ServiceError> {
    db.read(move |c| {
        let l = read(c, &actor, tid, Need::Referee)?;
        let round = l.round(n).ok_or(ServiceError::NotFound)?;
        let rows = crate::db::export::round_tables(c, round.id)?
            .iter()
            .map(|(s, sheet)| {
                Ok((
                    Seating::from(s),
                    crate::services::view::sheet(sheet.as_ref())?,
                ))
            })
            .collect::<Result<Vec<_>, ServiceError>>()?;
        Ok((l, rows))
    })
    .await
}

/// The engine's reading of a sheet form as it stands (the live totals shown
/// beside the form, on the desk and on the phone): None while a box is not
/// even a number. The only scoring there is: the rules engine's.
pub fn read_form(
    l: &Loaded,
    form: &crate::tournament::sheet_form::SheetForm,
) -> Option<SheetReport> {
    let hands = l.settings.hands_per_round as usize;
    let sheet = form.parse(hands, l.settings.profile).ok()?;
    Some(crate::rules::check(
        &sheet,
        l.settings.profile,
        hands,
        &l.settings.vp_scale,
    ))
}

/// A sheet as the desk entered it.
#[derive(Debug, Clone)]
pub struct SheetInput {
    pub sheet: ScoreSheet,
    /// The referee accepts a wrong written total (the only fault).
    pub accept_mismatch: bool,
    /// The referee accepts a time-out hand although time-out was not called
    /// for the round (RULES.md §6), with a reason.
    pub accept_time_out: bool,
    pub reason: String,
    /// The version the editor saw (None for a first entry).
    pub version: Option<i32>,
}

/// Saves a table's sheet if it passes the rules (or its only fault is a
/// wrong written total that a referee accepts with a reason). A correction
/// needs a reason; a concurrent change is a conflict, never a lost update.
pub async fn save_sheet(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    n: i32,
    table_no: i32,
    input: SheetInput,
) -> Result<i32, ServiceError> {
    super::write_running(db, actor, tid, Need::Referee, move |c, l, now| {
        let ts = table_state(c, &l, n, table_no)?;
        let hands = l.settings.hands_per_round as usize;
        let report = crate::rules::check(
            &input.sheet,
            l.settings.profile,
            hands,
            &l.settings.vp_scale,
        );
        let accepted =
            report.has_violations() && report.only_declared_mismatch() && input.accept_mismatch;
        let mut problems = Vec::new();
        // A correction, or an accepted wrong total, needs a reason; any
        // reason given must be plain text.
        let time_out = time_out_problem(&ts.round, &input.sheet);
        let time_out_overridden = time_out.is_some() && input.accept_time_out;
        if let (Some(p), false) = (time_out, input.accept_time_out) {
            problems.push(p);
        }
        // Changing a pair's entry (settling a dispute) is a correction too.
        let corrects_entry = ts.pending.as_ref().is_some_and(|p| p.sheet != input.sheet);
        let needs_reason = ts.sheet.is_some() || corrects_entry || accepted || time_out_overridden;
        let reason = if needs_reason || !input.reason.trim().is_empty() {
            match sheet_form::parse_reason("reason", &input.reason) {
                Ok(r) => r,
                Err(p) => {
                    problems.push(p);
                    String::new()
                }
            }
        } else {
            String::new()
        };
        if (report.has_violations() && !accepted) || !problems.is_empty() {
            return Err(ServiceError::Sheet(Box::new(SheetRejection {
                report,
                problems,
            })));
        }
        let note = if accepted {
            reason.clone()
        } else {
            String::new()
        };
        let write = super::entries::counted_write(&input.sheet, &report, accepted, note)?;
        save(c, &l, &ts, input.version, &write, &actor, &reason, now)
    })
    .await
}

#[allow(clippy::too_many_arguments)]
fn save(
    c: &mut DbConn,
    l: &Loaded,
    ts: &TableState,
    version: Option<i32>,
    write: &SheetWrite,
    actor: &Actor,
    reason: &str,
    now: chrono::NaiveDateTime,
) -> Result<i32, ServiceError> {
    let place = TablePlace {
        tournament_id: l.t.id,
        round_no: ts.round.number,
        table_no: ts.seating.table_no,
        seating_id: ts.seating.id,
    };
    match sdb::save_sheet(c, place, version, write, actor.user_id, reason, now) {
        Ok(v) => {
            // Saved at the desk: counts at once, whatever the table entered.
            super::entries::record_desk_save(c, ts.seating.id, write.sheet.as_deref(), now)?;
            Ok(v)
        }
        Err(SaveError::Conflict { .. }) => Err(ServiceError::refused(Refusal::SheetChanged)),
        Err(SaveError::Db(e)) => Err(e.into()),
    }
}

/// The end-of-hand field of each hand (problems are keyed by field name).
const HAND_END_FIELDS: [&str; 6] = ["h1_end", "h2_end", "h3_end", "h4_end", "h5_end", "h6_end"];

/// A hand that ends in time-out while time-out was not called for the round
/// (RULES.md §6: the time-out lap starts when the desk calls it).
fn time_out_problem(round: &Round, sheet: &ScoreSheet) -> Option<FieldProblem> {
    if round.time_out_at.is_some() {
        return None;
    }
    let hand = sheet
        .hands
        .iter()
        .position(|h| h.end == crate::rules::score_sheet::HandEnd::TimeOut)?;
    Some(FieldProblem::new(
        HAND_END_FIELDS.get(hand).copied().unwrap_or("sheet"),
        "sheet.error.time_out_not_called",
    ))
}

/// The adjusted-score form as typed.
#[derive(Debug, Default, Clone, serde::Deserialize)]
#[serde(default)]
pub struct AdjustedForm {
    pub ns_vp: String,
    pub ew_vp: String,
    pub ns_mp_diff: String,
    pub ew_mp_diff: String,
    pub reason: String,
    pub version: String,
}

/// A referee's adjusted score (RULES.md §9): replaces the table's sheet.
pub async fn set_adjusted(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    n: i32,
    table_no: i32,
    form: AdjustedForm,
) -> Result<i32, ServiceError> {
    super::write_running(db, actor, tid, Need::Referee, move |c, l, now| {
        let ts = table_state(c, &l, n, table_no)?;
        let mut problems = Vec::new();
        let mut vp = |s: &str, field: &'static str| match s.trim().parse::<i32>() {
            Ok(v) if (0..=i32::from(TOTAL_VP)).contains(&v) => Some(v),
            _ => {
                problems.push(FieldProblem::new(field, "adjusted.error.vp"));
                None
            }
        };
        let ns_vp = vp(&form.ns_vp, "ns_vp");
        let ew_vp = vp(&form.ew_vp, "ew_vp");
        // Empty: no MP difference set (it counts as 0 in the standings).
        let step = l.settings.profile.points_step;
        let mut mp = |s: &str, field: &'static str| {
            if s.trim().is_empty() {
                return Some(None);
            }
            match s.trim().parse::<i64>() {
                Ok(v) if v % step == 0 && v.abs() <= MAX_ADJUSTED_MP_DIFF => Some(Some(v)),
                _ => {
                    problems.push(FieldProblem::new(field, "adjusted.error.mp"));
                    None
                }
            }
        };
        let ns_mp = mp(&form.ns_mp_diff, "ns_mp_diff");
        let ew_mp = mp(&form.ew_mp_diff, "ew_mp_diff");
        let reason = sheet_form::parse_reason("adj_reason", &form.reason).unwrap_or_else(|p| {
            problems.push(p);
            String::new()
        });
        let (Some(ns_vp), Some(ew_vp), Some(ns_mp), Some(ew_mp), true) =
            (ns_vp, ew_vp, ns_mp, ew_mp, problems.is_empty())
        else {
            return Err(ServiceError::Invalid(problems));
        };
        let write = SheetWrite {
            sheet: None,
            adjusted: Some((ns_vp, ew_vp, ns_mp, ew_mp)),
            ns_total: 0,
            ew_total: 0,
            ns_vp,
            ew_vp,
            accepted_mismatch: false,
            note: reason.clone(),
        };
        let version = form.version.trim().parse().ok();
        save(c, &l, &ts, version, &write, &actor, &reason, now)
    })
    .await
}

/// The penalty form as typed.
#[derive(Debug, Default, Clone, serde::Deserialize)]
#[serde(default)]
pub struct PenaltyForm {
    pub pair: String,
    pub round: String,
    pub kind: String,
    pub amount: String,
    pub reason_preset: String,
    pub reason: String,
}

/// Records a penalty. A typical reason brings its kind and amount (RULES.md
/// §9); what the referee chose explicitly wins. An MP penalty needs the pair
/// at a table that round. The preset's reason is kept in `lang`.
pub async fn add_penalty(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    form: PenaltyForm,
    lang: Lang,
) -> Result<PenaltyId, ServiceError> {
    super::write_running(db, actor, tid, Need::Referee, move |c, l, now| {
        // A penalty of an individual tournament names a player (RULES.md
        // §14): recorded on the player's partnership that round.
        let mut form = form;
        let player = super::individual::penalties::seat_of_player(c, &l, &form.pair, &form.round)?;
        if let Some((pair, _)) = &player {
            form.pair.clone_from(pair);
        }
        let mut problems = Vec::new();
        let pair = form
            .pair
            .trim()
            .parse::<PairId>()
            .ok()
            .and_then(|pid| l.pair(Some(pid)));
        if pair.is_none() {
            problems.push(FieldProblem::new("pair", "penalty.error.pair"));
        }
        let round = form
            .round
            .trim()
            .parse::<i32>()
            .ok()
            .and_then(|r| l.round(r));
        if round.is_none() {
            problems.push(FieldProblem::new("round", "penalty.error.round"));
        }
        let preset = penalty::preset(&form.reason_preset);
        let from_preset = preset.and_then(|p| p.penalty());
        let kind = PenaltyKind::parse(&form.kind)
            .or_else(|| form.kind.is_empty().then_some(from_preset?.0));
        if kind.is_none() {
            problems.push(FieldProblem::new("kind", "penalty.error.kind"));
        }
        let amount_text = match (form.amount.trim(), from_preset) {
            ("", Some((k, Some(a)))) if Some(k) == kind => a.to_string(),
            (text, _) => text.to_string(),
        };
        let step = l.settings.profile.points_step;
        let amount = match kind.and_then(|k| Some((k, k.max_amount()?))) {
            None => None,
            Some((k, max)) => match amount_text.parse::<i64>() {
                Ok(a) if a > 0 && a <= max && (k != PenaltyKind::Mp || a % step == 0) => Some(a),
                _ => {
                    problems.push(FieldProblem::new(
                        "amount",
                        if k == PenaltyKind::Mp {
                            "penalty.error.amount_mp"
                        } else {
                            "penalty.error.amount"
                        },
                    ));
                    None
                }
            },
        };
        let typed = if form.reason.trim().is_empty() {
            preset
                .filter(|p| p.penalty().is_some())
                .map(|p| t(lang, p.key).to_string())
                .unwrap_or_default()
        } else {
            form.reason.clone()
        };
        let reason = penalty::parse_reason("reason", &typed).unwrap_or_else(|p| {
            problems.push(p);
            String::new()
        });
        let mut table_no = None;
        if let (Some(p), Some(r), Some(k)) = (pair, round, kind) {
            let (tables, _) = crate::db::rounds::seating_of(c, r.id)?;
            table_no = tables
                .iter()
                .find(|s| s.ns_pair == Some(p.id) || s.ew_pair == Some(p.id))
                .map(|s| s.table_no);
            if k == PenaltyKind::Mp && table_no.is_none() {
                problems.push(FieldProblem::new("kind", "penalty.error.mp_needs_table"));
            }
        }
        let (Some(pair), Some(round), Some(kind), true) = (pair, round, kind, problems.is_empty())
        else {
            return Err(ServiceError::Invalid(problems));
        };
        let p = NewPenalty {
            round_no: round.number,
            pair_id: pair.id,
            table_no,
            kind,
            amount,
            reason,
        };
        let id = pdb::add_penalty(c, tid, &p, actor.user_id, now)?;
        if let Some((_, player)) = player {
            crate::db::individual::insert_penalty_player(c, id, player)?;
        }
        audit::record(
            c,
            tid,
            &actor,
            Entry::new(Action::PenaltyGiven)
                .round(p.round_no)
                .table(p.table_no)
                .after(penalty_values(id, p.pair_id, kind.as_str(), p.amount))
                .reason(p.reason.clone()),
            now,
        )?;
        tracing::info!(
            tournament_id = tid.0,
            round = p.round_no,
            kind = kind.as_str(),
            "penalty recorded"
        );
        Ok(id)
    })
    .await
}

/// A penalty as the audit log keeps it (read back by `web::audit`).
fn penalty_values(
    id: PenaltyId,
    pair_id: PairId,
    kind: &str,
    amount: Option<i64>,
) -> serde_json::Map<String, serde_json::Value> {
    use serde_json::Value;
    audit::values([
        ("penalty", Value::from(id.0)),
        ("pair_id", Value::from(pair_id.0)),
        ("kind", Value::from(kind)),
        ("amount", amount.map_or(Value::Null, Value::from)),
    ])
}

/// Withdrawing or reinstating a penalty (both on the record, with a reason).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PenaltyChange {
    /// It no longer counts (RULES.md §9: withdrawn, never erased).
    Withdraw,
    /// A withdrawn penalty counts again.
    Reinstate,
}

impl PenaltyChange {
    /// The form field of the reason (problems are keyed by it).
    pub const REASON_FIELD: &'static str = "reason";
}

/// Withdraws a penalty (it stays on the record and no longer counts) or
/// reinstates a withdrawn one, with a reason, audited. The penalty's state
/// is re-read inside the transaction: withdrawing one that is already
/// withdrawn (or reinstating one that counts) is a conflict, never a
/// second entry in the log.
pub async fn change_penalty(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    penalty_id: PenaltyId,
    change: PenaltyChange,
    reason: String,
) -> Result<(), ServiceError> {
    super::write_running(db, actor, tid, Need::Referee, move |c, _, now| {
        let p = pdb::penalty_of(c, tid, penalty_id)?.ok_or(ServiceError::NotFound)?;
        let withdrawn = p.withdrawn_at.is_some();
        match (change, withdrawn) {
            (PenaltyChange::Withdraw, true) => {
                return Err(ServiceError::refused(Refusal::PenaltyAlreadyWithdrawn))
            }
            (PenaltyChange::Reinstate, false) => {
                return Err(ServiceError::refused(Refusal::PenaltyNotWithdrawn))
            }
            _ => {}
        }
        let reason = crate::tournament::text::clean_reason(
            PenaltyChange::REASON_FIELD,
            &reason,
            "penalties.error.change_reason",
        )
        .map_err(|p| ServiceError::Invalid(vec![p]))?;
        let (done, action) = match change {
            PenaltyChange::Withdraw => (
                pdb::withdraw_penalty(c, tid, penalty_id, actor.user_id, &reason, now)?,
                Action::PenaltyWithdrawn,
            ),
            PenaltyChange::Reinstate => (
                pdb::reinstate_penalty(c, tid, penalty_id, actor.user_id, &reason, now)?,
                Action::PenaltyReinstated,
            ),
        };
        if !done {
            // Checked above under the tournament's lock: cannot change since.
            return Err(ServiceError::corrupt(format!(
                "penalty {penalty_id}: its state changed under the lock"
            )));
        }
        let values = penalty_values(p.id, p.pair_id, p.kind.as_str(), p.amount);
        let entry = Entry::new(action).round(p.round_no).table(p.table_no);
        let entry = match change {
            PenaltyChange::Withdraw => entry.before(values),
            PenaltyChange::Reinstate => entry.after(values),
        };
        audit::record(c, tid, &actor, entry.reason(reason), now)?;
        tracing::info!(
            tournament_id = tid.0,
            penalty = penalty_id.0,
            change = ?change,
            "penalty changed"
        );
        Ok(())
    })
    .await
}

/// The tournament's penalties with who gave, withdrew or reinstated each,
/// for the referee.
pub async fn penalties(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
) -> Result<(Loaded, Vec<crate::services::view::Penalty>), ServiceError> {
    db.read(move |c| {
        let l = read(c, &actor, tid, Need::Referee)?;
        let p = pdb::penalties_with_names(c, tid)?
            .iter()
            .map(|(row, names)| crate::services::view::Penalty::of(row, names))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((l, p))
    })
    .await
}

/// The tournament's audit log, newest first, with the users' names.
pub async fn audit_log(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
) -> Result<(Loaded, TableAudit), ServiceError> {
    db.read(move |c| {
        let l = read(c, &actor, tid, Need::Referee)?;
        let entries = audit_view(adb::audit_of(c, tid, None)?);
        Ok((l, entries))
    })
    .await
}
