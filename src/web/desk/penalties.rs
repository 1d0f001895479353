//! Penalties: the record, a new one, withdrawal and reinstatement.

use crate::auth::Role;
use crate::i18n::t;
use crate::ids::TournamentId;
use crate::services;
use crate::services::scoring::PenaltyForm;
use crate::services::view::Penalty;
use crate::services::{Actor, Loaded, ServiceError};
use crate::tournament::FieldProblem;
use crate::web::context::{FieldErrors, PageCtx};
use crate::web::error::AppError;
use crate::web::roles::Staff;
use crate::web::{render_status, see_other, AppState};
use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

// ---- penalties ----

#[derive(Template)]
#[template(path = "desk/penalties.html")]
pub(super) struct PenaltiesPage<'a> {
    ctx: &'a PageCtx,
    l: &'a Loaded,
    penalties: Vec<PenaltyLine>,
    form: PenaltyForm,
    errors: FieldErrors,
    reasons: Vec<&'static str>,
    /// An individual tournament's players, whom a penalty names (RULES.md
    /// §14): (number, "number · Surname Name").
    players: Vec<(String, String)>,
}

/// A penalty as the list shows it: who gave it, when (local time), round,
/// table, pair, kind and amount, reason, and its state with who changed it.
pub(super) struct PenaltyLine {
    id: crate::ids::PenaltyId,
    round: i32,
    table: Option<i32>,
    pair: String,
    kind: &'static str,
    amount: Option<i64>,
    reason: String,
    given_by: String,
    given_at: String,
    /// Withdrawn: (who, when, why).
    withdrawn: Option<(String, String, String)>,
    /// Reinstated after a withdrawal: (who, when, why).
    reinstated: Option<(String, String, String)>,
    /// The reason typed in this row's withdraw/reinstate form, and the
    /// message next to it, when that form was refused.
    change_reason: String,
    change_error: Option<String>,
}

impl PenaltyLine {
    fn of(ctx: &PageCtx, l: &Loaded, row: Penalty) -> PenaltyLine {
        let who = |n: Option<String>| n.unwrap_or_else(|| "—".to_string());
        let withdrawn = row.withdrawn_at.map(|at| {
            (
                who(row.withdrawn_by.clone()),
                ctx.local_time(&at),
                row.withdrawn_reason.clone(),
            )
        });
        let reinstated = row.reinstated_at.map(|at| {
            (
                who(row.reinstated_by.clone()),
                ctx.local_time(&at),
                row.reinstated_reason.clone(),
            )
        });
        PenaltyLine {
            id: row.id,
            round: row.round_no,
            table: row.table_no,
            pair: l
                .pair(Some(row.pair_id))
                .map(|p| format!("{} · {}", p.number, p.label()))
                .unwrap_or_default(),
            kind: t(ctx.lang, &format!("penalty.kind.{}", row.kind.as_str())),
            amount: row.amount,
            reason: row.reason,
            given_by: who(row.given_by),
            given_at: ctx.local_time(&row.given_at),
            withdrawn,
            reinstated,
            change_reason: String::new(),
            change_error: None,
        }
    }
}

impl PenaltiesPage<'_> {
    /// Penalties change only while the tournament runs.
    fn running(&self) -> bool {
        self.l.status() == crate::tournament::Status::Running
    }
    fn kind_label(&self, kind: &str) -> &'static str {
        t(self.ctx.lang, &format!("penalty.kind.{kind}"))
    }
}

/// Typical reasons (RULES.md §9), offered as presets; free text is allowed.
pub(super) fn reasons() -> Vec<&'static str> {
    crate::tournament::penalty::penalty_presets()
        .iter()
        .map(|p| p.key)
        .collect()
}

/// A refused withdraw/reinstate: the penalty, what was typed, the problems.
pub(super) struct ChangeRefused<'a> {
    penalty: crate::ids::PenaltyId,
    reason: &'a str,
    problems: &'a [FieldProblem],
}

pub(super) async fn penalties_page(
    ctx: &PageCtx,
    state: &AppState,
    actor: Actor,
    tid: TournamentId,
    form: Option<PenaltyForm>,
    problems: &[FieldProblem],
    refused: Option<ChangeRefused<'_>>,
) -> Result<HttpResponse, AppError> {
    // Anything refused (the new penalty's form or a withdraw/reinstate) is a 422.
    let status = if problems.is_empty() && refused.is_none() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    let (l, rows) = services::scoring::penalties(&state.db, actor, tid).await?;
    let form = form.unwrap_or_else(|| PenaltyForm {
        round: l
            .rounds
            .last()
            .map(|r| r.number.to_string())
            .unwrap_or_default(),
        ..Default::default()
    });
    let mut errors = FieldErrors::default();
    for p in problems {
        errors.add(p.field, p.message(ctx.lang));
    }
    let mut penalties: Vec<PenaltyLine> = rows
        .into_iter()
        .map(|row| PenaltyLine::of(ctx, &l, row))
        .collect();
    // An individual tournament's penalties name a player, not the line.
    let mut players = Vec::new();
    if l.t.is_individual() {
        let t = services::individual::load(&state.db, actor, tid, services::Need::Referee).await?;
        players = t
            .players
            .iter()
            .filter(|p| p.active())
            .map(|p| {
                (
                    p.number.to_string(),
                    format!("{} · {}", p.number, p.player.full_name()),
                )
            })
            .collect();
        for (id, name) in services::individual::penalties::named(&state.db, actor, tid).await? {
            if let Some(line) = penalties.iter_mut().find(|p| p.id == id) {
                line.pair = name;
            }
        }
    }
    if let Some(r) = refused {
        if let Some(line) = penalties.iter_mut().find(|p| p.id == r.penalty) {
            line.change_reason = r.reason.to_string();
            line.change_error = r.problems.first().map(|p| p.message(ctx.lang));
        }
    }
    render_status(
        &PenaltiesPage {
            ctx,
            l: &l,
            penalties,
            form,
            errors,
            reasons: reasons(),
            players,
        },
        status,
    )
}

pub async fn penalties(
    ctx: PageCtx,
    Staff(actor): Staff,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, AppError> {
    penalties_page(&ctx, &state, actor, *id, None, &[], None).await
}

pub async fn add_penalty(
    ctx: PageCtx,
    Staff(actor): Staff,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
    form: web::Form<PenaltyForm>,
) -> Result<HttpResponse, AppError> {
    let tid = *id;
    let form = form.into_inner();
    match services::scoring::add_penalty(&state.db, actor, tid, form.clone(), ctx.lang).await {
        Ok(_) => Ok(see_other(&format!(
            "/desk/t/{tid}/penalties?done=penalty_added"
        ))),
        Err(ServiceError::Invalid(problems)) => {
            penalties_page(&ctx, &state, actor, tid, Some(form), &problems, None).await
        }
        Err(e) => Err(e.into()),
    }
}

/// The withdraw and reinstate forms: the reason (required).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct PenaltyChangeForm {
    reason: String,
}

pub(super) async fn change_penalty(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, crate::ids::PenaltyId)>,
    form: web::Form<PenaltyChangeForm>,
    change: services::scoring::PenaltyChange,
) -> Result<HttpResponse, AppError> {
    let actor = ctx.actor(Role::Referee)?;
    let (tid, pid) = path.into_inner();
    let reason = form.into_inner().reason;
    match services::scoring::change_penalty(&state.db, actor, tid, pid, change, reason.clone())
        .await
    {
        Ok(()) => {
            let done = match change {
                services::scoring::PenaltyChange::Withdraw => "penalty_withdrawn",
                services::scoring::PenaltyChange::Reinstate => "penalty_reinstated",
            };
            Ok(see_other(&format!(
                "/desk/t/{tid}/penalties?done={done}#penalty-{pid}"
            )))
        }
        Err(ServiceError::Invalid(problems)) => {
            penalties_page(
                &ctx,
                &state,
                actor,
                tid,
                None,
                &[],
                Some(ChangeRefused {
                    penalty: pid,
                    reason: &reason,
                    problems: &problems,
                }),
            )
            .await
        }
        Err(e) => Err(e.into()),
    }
}

pub async fn withdraw_penalty(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, crate::ids::PenaltyId)>,
    form: web::Form<PenaltyChangeForm>,
) -> Result<HttpResponse, AppError> {
    use services::scoring::PenaltyChange;
    change_penalty(ctx, state, path, form, PenaltyChange::Withdraw).await
}

pub async fn reinstate_penalty(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, crate::ids::PenaltyId)>,
    form: web::Form<PenaltyChangeForm>,
) -> Result<HttpResponse, AppError> {
    use services::scoring::PenaltyChange;
    change_penalty(ctx, state, path, form, PenaltyChange::Reinstate).await
}
