//! An individual tournament's seating lists (issue 35): for each round, by
//! table and by player name, on one printable A4 page (the desk's too).

use crate::ids::TournamentId;
use crate::services::individual::seating::{self, RoundSeating};
use crate::web::context::PageCtx;
use crate::web::error::AppError;
use crate::web::roles::Staff;
use crate::web::{render, AppState};
use actix_web::{web, HttpResponse};
use askama::Template;

#[derive(Template)]
#[template(path = "director/individual_round.html")]
struct SeatingPage<'a> {
    ctx: &'a PageCtx,
    tid: TournamentId,
    name: String,
    s: RoundSeating,
}

/// Round `n`'s seating lists.
pub async fn show(
    ctx: PageCtx,
    Staff(actor): Staff,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, u32)>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let (name, s) = seating::round_seating(&state.db, actor, tid, n).await?;
    render(&SeatingPage {
        ctx: &ctx,
        tid,
        name,
        s,
    })
}

/// What starting an individual tournament will do: the players drawn, the
/// tables of four, those resting, those left out — from the start's own
/// plan (`services::individual::rounds::plan_start`).
pub(super) async fn start_page(
    ctx: &PageCtx,
    state: &AppState,
    actor: crate::services::Actor,
    tid: TournamentId,
    stale: bool,
) -> Result<HttpResponse, AppError> {
    use crate::i18n::tf;
    let (t, plan) =
        crate::services::individual::rounds::plan_start_of(&state.db, actor, tid).await?;
    let lang = ctx.lang;
    let mut page = super::ConfirmPage::new(
        ctx,
        &t.l,
        ctx.t("states.start.title").to_string(),
        format!("/director/t/{tid}/draw"),
    );
    page.stale = stale;
    page.back = format!("/director/t/{tid}/individual#rounds");
    match &plan {
        Ok(plan) => {
            page.lines.push(tf(
                lang,
                "states.individual_start.drawn",
                &[("players", &plan.players), ("tables", &plan.tables)],
            ));
            if plan.resting > 0 {
                page.warnings.push(tf(
                    lang,
                    "states.individual_start.resting",
                    &[("resting", &plan.resting)],
                ));
            }
            if !plan.left_out.is_empty() {
                page.warnings.push(tf(
                    lang,
                    "states.individual_start.left_out",
                    &[("players", &super::numbers(&plan.left_out))],
                ));
            }
        }
        Err(e) => page.blocked = Some(super::blocked_reason(e, lang)),
    }
    page.lines.push(ctx.t("states.start.locks").to_string());
    page.lines.push(ctx.t("states.start.undo").to_string());
    page.submit = ctx.t("states.start.submit").to_string();
    crate::web::render_status(&page, page.status())
}

#[derive(Template)]
#[template(path = "director/individual_cards.html")]
struct CardsPage<'a> {
    ctx: &'a PageCtx,
    t: &'a crate::services::individual::IndLoaded,
}

/// The player cards: each player's name, number and personal code (the
/// credential at the tables), printable on A4 (directors only: the codes
/// are secrets).
pub async fn cards(
    ctx: PageCtx,
    crate::web::roles::Director(actor): crate::web::roles::Director,
    state: web::Data<AppState>,
    id: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let t = crate::services::individual::load(&state.db, actor, *id, crate::services::Need::Direct)
        .await?;
    render(&CardsPage { ctx: &ctx, t: &t })
}
