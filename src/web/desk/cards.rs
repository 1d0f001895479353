//! The printed score cards of a round (the one score card on paper).

use super::ModeQuery;
use crate::rules::SheetMode;
use crate::services;
use crate::services::view::{Pair, Round};
use crate::services::Loaded;
use crate::tournament::sheet_form::{card_rows, CardRow};
use crate::web::context::PageCtx;
use crate::web::error::AppError;
use crate::web::roles::Staff;
use crate::web::{render, AppState};
use actix_web::{web, HttpResponse};
use askama::Template;

// ---- score cards ----

/// One table's printed score card.
pub struct ScoreCard<'a> {
    pub table_no: i32,
    pub ns: Option<&'a Pair>,
    pub ew: Option<&'a Pair>,
}

#[derive(Template)]
#[template(path = "desk/score_cards.html")]
pub(super) struct ScoreCardsPage<'a> {
    ctx: &'a PageCtx,
    l: &'a Loaded,
    round: &'a Round,
    cards: Vec<ScoreCard<'a>>,
    /// The rows of a line, in the desk form's order.
    rows: Vec<CardRow>,
    totals: bool,
    hands: Vec<usize>,
}

/// The score cards of a round (A4, one table a page): exactly the boxes the
/// desk form asks for, in its order (`?mode=totals` for hand totals only).
pub async fn score_cards(
    ctx: PageCtx,
    Staff(actor): Staff,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, i32)>,
    query: web::Query<ModeQuery>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let (l, rows) = services::scoring::round_tables(&state.db, actor, tid, n).await?;
    let round = l.round(n).ok_or(AppError::NotFound)?;
    let mode = SheetMode::parse(&query.mode).unwrap_or_default();
    let cards = rows
        .iter()
        .map(|(s, _)| ScoreCard {
            table_no: s.table_no,
            ns: l.pair(s.ns_pair),
            ew: l.pair(s.ew_pair),
        })
        .collect();
    render(&ScoreCardsPage {
        ctx: &ctx,
        l: &l,
        round,
        cards,
        rows: card_rows(l.settings.profile, mode),
        totals: mode == SheetMode::Totals,
        hands: (1..=l.settings.hands_per_round as usize).collect(),
    })
}
