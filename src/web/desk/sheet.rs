//! A table's sheet page: the one score card as a form, the engine's messages next to their boxes, a pair's pending entry with what the desk changes marked.

use super::{mode_code, penalty_note, JumpView};
use crate::ids::TournamentId;
use crate::rules::{Line, PerLine, SheetMode, SheetReport};
use crate::services;
use crate::services::scoring::{TableAudit, TableState};
use crate::services::view::{AuditEntry, Pair, Round, Seating, Sheet};
use crate::services::{Actor, Loaded};
use crate::tournament::sheet_form::{field_name, score_card, SheetForm};
use crate::web::context::{FieldErrors, PageCtx};
use crate::web::error::AppError;
use crate::web::score_card::{
    end_views, hand_views, line_label, read_hands, EndView, HandView, Placed, ReadHand,
};
use crate::web::AppState;
use askama::Template;

// ---- the score sheet ----

#[derive(Template)]
#[template(path = "desk/sheet.html")]
pub(super) struct SheetPage<'a> {
    ctx: &'a PageCtx,
    l: &'a Loaded,
    round: &'a Round,
    table_no: i32,
    ns: Option<&'a Pair>,
    ew: Option<&'a Pair>,
    form: SheetForm,
    /// `totals` or `full`.
    mode: &'static str,
    /// The end-of-hand choices in the card's words.
    ends: Vec<EndView>,
    hands: Vec<HandView>,
    /// Messages about the whole sheet.
    sheet_errors: Vec<String>,
    /// Anything at all to correct (the banner at the top).
    has_errors: bool,
    field_errors: FieldErrors,
    /// Messages next to the written totals.
    declared_errors: [Vec<String>; 2],
    /// The focus goes here (the first box with an error, or the first box).
    focus: String,
    version: Option<i32>,
    saved: Option<Sheet>,
    saved_totals: bool,
    /// The saved sheet's result as the standings count it after `mp`
    /// penalties, and why (one line per penalised pair).
    counted: Option<services::board::Counted>,
    counted_notes: Vec<String>,
    /// Only DECLARED_TOTAL_MISMATCH is wrong: a referee may accept it.
    can_accept_mismatch: bool,
    /// A hand ends in time-out although time-out was not called: a referee
    /// may accept it with a reason.
    time_out_pending: bool,
    conflict: bool,
    audit: Vec<(AuditEntry, Option<String>)>,
    /// The engine's totals and VP for the form as it stands.
    computed: Option<(PerLine<i64>, PerLine<u8>)>,
    /// Typical adjusted scores for this tournament's hands: (reason key, present VP, other VP).
    adjusted_presets: Vec<(&'static str, i64, i64)>,
    jump: JumpView,
    /// A pair's entry waiting (the form opened with its values), and its
    /// hands read-only.
    pending: Option<PendingView>,
    read: Vec<ReadHand>,
}

impl SheetPage<'_> {
    fn is_totals(&self) -> bool {
        self.mode == "totals"
    }
}

/// A table of a round as the sheet page shows it.
pub(super) struct TableCtx<'a> {
    pub(super) round: &'a Round,
    pub(super) seating: Seating,
    pub(super) sheet: Option<Sheet>,
    pub(super) audit: TableAudit,
    /// The result the standings count when `mp` penalties change the sheet's.
    pub(super) counted: Option<services::board::Counted>,
    /// A pair's entry waiting (entered or disputed): the form opens with it.
    pub(super) pending: Option<services::entries::Pending>,
}

/// The tournament and the table, read together.
pub(super) async fn load_table(
    state: &AppState,
    actor: Actor,
    tid: TournamentId,
    n: i32,
    table_no: i32,
) -> Result<(Loaded, TableState, TableAudit), AppError> {
    Ok(services::scoring::table(&state.db, actor, tid, n, table_no).await?)
}

/// The table as the sheet page shows it: with its counted result when a
/// saved sheet is changed by `mp` penalties.
pub(super) async fn table_ctx<'a>(
    state: &AppState,
    actor: Actor,
    l: &'a Loaded,
    ts: TableState,
    audit: TableAudit,
) -> Result<TableCtx<'a>, AppError> {
    let round = l.round(ts.round.number).ok_or(AppError::NotFound)?;
    let counted = match ts.sheet {
        Some(_) => {
            services::board::counted_table(
                &state.db,
                actor,
                l.t.id,
                round.number,
                ts.seating.table_no,
                state.settings.timezone,
            )
            .await?
        }
        None => None,
    };
    Ok(TableCtx {
        round,
        seating: ts.seating,
        sheet: ts.sheet,
        audit,
        counted,
        pending: ts.pending,
    })
}

#[allow(clippy::too_many_arguments)]
pub(super) fn sheet_page<'a>(
    ctx: &'a PageCtx,
    l: &'a Loaded,
    tc: &TableCtx<'a>,
    form: SheetForm,
    report: Option<&SheetReport>,
    problems: &[(String, String)],
    mut field_errors: FieldErrors,
    extra_errors: Vec<String>,
    conflict: bool,
) -> SheetPage<'a> {
    let hands = l.settings.hands_per_round as usize;
    let mode = form.mode();
    let time_out_pending =
        tc.round.time_out_at.is_none() && (1..=hands).any(|h| form.end_choice(h) == "time_out");
    let lang = ctx.lang;
    let mut placed = Placed::default();
    if let Some(r) = report {
        placed.violations(r, mode, lang);
    }
    for (field, msg) in problems {
        placed.add(field, msg.clone());
    }
    placed.sheet.extend(extra_errors);
    // The engine's totals of the form as it stands (no script needed).
    let live = services::scoring::read_form(l, &form);
    let card = score_card(l.settings.profile, mode);
    // The players' entry, to show what the desk changes against it.
    let was = tc
        .pending
        .as_ref()
        .filter(|p| p.sheet.mode == mode)
        .map(|p| SheetForm::from_sheet(&p.sheet));
    let mut views = hand_views(
        lang,
        &card,
        hands,
        &form,
        was.as_ref(),
        &mut placed,
        live.as_ref(),
    );
    let mut first_error: Option<String> = None;
    for h in &views {
        if first_error.is_some() {
            break;
        }
        if !h.end_errors.is_empty() {
            first_error = Some(format!("h{}_end", h.n));
            break;
        }
        for lv in &h.lines {
            if !lv.errors.is_empty() {
                first_error = lv.boxes.first().map(|b| b.name.clone());
            } else if let Some(b) = lv.boxes.iter().find(|b| !b.errors.is_empty()) {
                first_error = Some(b.name.clone());
            }
            if first_error.is_some() {
                break;
            }
        }
    }
    let declared_errors = ["declared_ns", "declared_ew"].map(|f| {
        let e = placed.boxes.remove(f).unwrap_or_default();
        if !e.is_empty() && first_error.is_none() {
            first_error = Some(f.to_string());
        }
        e
    });
    // Anything left (the reason…).
    for (field, msgs) in placed.boxes.drain() {
        match field_key(&field) {
            Some(k) => {
                for m in msgs {
                    field_errors.add(k, m);
                }
                if first_error.is_none() {
                    first_error = Some(field.clone());
                }
            }
            None => placed.sheet.extend(msgs),
        }
    }
    if first_error.is_none() && !field_errors.is_empty() {
        first_error = Some("reason".into());
    }
    if first_error.is_none() && !placed.sheet.is_empty() {
        // A whole-sheet message (a missing hand): the first blank end of hand.
        first_error = views
            .iter()
            .find(|h| h.end.is_empty())
            .map(|h| format!("h{}_end", h.n));
    }
    let focus = first_error.unwrap_or_else(|| "h1_end".to_string());
    for h in &mut views {
        h.end_autofocus = focus == format!("h{}_end", h.n);
        for lv in &mut h.lines {
            for b in &mut lv.boxes {
                b.autofocus = b.name == focus;
            }
        }
    }
    let has_errors = !placed.sheet.is_empty()
        || !field_errors.is_empty()
        || declared_errors.iter().any(|e| !e.is_empty())
        || views.iter().any(|h| {
            !h.end_errors.is_empty()
                || h.lines
                    .iter()
                    .any(|l| !l.errors.is_empty() || l.boxes.iter().any(|b| !b.errors.is_empty()))
        });
    let pending = tc.pending.as_ref().map(|p| PendingView {
        version: p.version,
        by: line_label(p.entered_by, lang),
        pair: pair_number(l, &tc.seating, p.entered_by),
        disputed_by: p.disputed_by.map(|d| line_label(d, lang)),
        note: p.note.clone(),
        totals: p.report.totals,
        vp: p.report.vp,
        violations: p
            .report
            .violations
            .iter()
            .map(|v| v.message(lang))
            .collect(),
    });
    let read = tc
        .pending
        .as_ref()
        .map(|p| {
            read_hands(
                lang,
                &score_card(l.settings.profile, p.sheet.mode),
                &p.sheet,
                &p.report,
            )
        })
        .unwrap_or_default();
    SheetPage {
        has_errors,
        ctx,
        l,
        round: tc.round,
        table_no: tc.seating.table_no,
        ns: l.pair(tc.seating.ns_pair),
        ew: l.pair(tc.seating.ew_pair),
        mode: if mode == SheetMode::Totals {
            "totals"
        } else {
            "full"
        },
        form,
        ends: end_views(lang),
        hands: views,
        sheet_errors: placed.sheet,
        field_errors,
        declared_errors,
        focus,
        version: tc.sheet.as_ref().map(|s| s.version),
        saved_totals: tc.sheet.as_ref().is_some_and(Sheet::is_totals),
        saved: tc.sheet.clone(),
        counted: tc.counted.clone(),
        counted_notes: tc
            .counted
            .iter()
            .flat_map(|c| &c.penalties)
            .map(|p| penalty_note(lang, p))
            .collect(),
        can_accept_mismatch: report
            .is_some_and(|r| r.has_violations() && r.only_declared_mismatch()),
        time_out_pending,
        conflict,
        audit: tc.audit.clone(),
        computed: live.map(|r| (r.totals, r.vp)),
        adjusted_presets: crate::tournament::penalty::adjusted_presets()
            .iter()
            .filter_map(|p| {
                p.adjusted_vp(l.settings.hands_per_round)
                    .map(|(a, b)| (p.key, a, b))
            })
            .collect(),
        jump: JumpView {
            mode: mode_code(mode.code()),
            ..JumpView::default()
        },
        pending,
        read,
    }
}

/// The number of the pair sitting in `line` at a table.
pub(super) fn pair_number(l: &Loaded, seating: &Seating, line: Line) -> Option<i32> {
    let id = match line {
        Line::Ns => seating.ns_pair,
        Line::Ew => seating.ew_pair,
    };
    l.pair(id).map(|p| p.number)
}

/// A pair's pending entry on the desk's sheet page: read-only, with the
/// dispute's note at the top.
pub struct PendingView {
    pub version: i32,
    pub by: &'static str,
    pub pair: Option<i32>,
    pub disputed_by: Option<&'static str>,
    pub note: String,
    pub totals: PerLine<i64>,
    pub vp: PerLine<u8>,
    /// Rule violations of the entry under the current settings (normally none).
    pub violations: Vec<String>,
}

/// Form field names are `String`s from the request; errors are keyed by
/// `&'static str`: map the known shapes to interned names.
pub(super) fn field_key(field: &str) -> Option<&'static str> {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let names = NAMES.get_or_init(|| {
        let mut v = vec![
            "declared_ns".to_string(),
            "declared_ew".to_string(),
            "reason".to_string(),
            "ns_vp".to_string(),
            "ew_vp".to_string(),
            "ns_mp_diff".to_string(),
            "ew_mp_diff".to_string(),
            "adj_reason".to_string(),
        ];
        for h in 1..=crate::tournament::settings::HANDS_PER_ROUND
            .end()
            .to_owned() as usize
        {
            v.push(format!("h{h}_end"));
            for line in [Line::Ns, Line::Ew] {
                let fields = crate::tournament::sheet_form::LINE_FIELDS;
                for f in fields.iter().copied().chain(["total"]) {
                    v.push(field_name(h, line, f));
                }
            }
        }
        v
    });
    names.iter().find(|n| *n == field).map(String::as_str)
}
