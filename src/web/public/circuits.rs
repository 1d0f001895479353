//! A circuit's public pages (issue 24): the season ranking with its
//! finalists, a person's season card, the ranking as CSV; no login. Each
//! is rendered once per revision of the circuit (its own and its stages':
//! `db::circuits`) and language, and served from the cache with its ETag
//! (`web::cache`), like the tournament pages.

use crate::ids::CircuitId;
use crate::ids::PersonId;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;

use crate::circuit::{CircuitRow, Entrant, FinalistReason, PointsMethod, RankBy, StageScore};
use crate::i18n::tf;
use crate::services::circuits::{CircuitView, SeasonCard};
use crate::web::cache::{serve_circuit, CircuitPage};
use crate::web::context::PageCtx;
use crate::web::error::AppError;
use crate::web::AppState;

/// How the points are worked out, in words (the page's facts).
fn method_text(ctx: &PageCtx, m: &PointsMethod) -> String {
    match m {
        PointsMethod::Vp => ctx.t("circuit.method.vp").to_string(),
        PointsMethod::Placing { first, step, min } => {
            let first = match first {
                crate::circuit::First::Entries => ctx.t("circuit.method.first_entries").to_string(),
                crate::circuit::First::Fixed(d) => ctx.decimal(d),
            };
            tf(
                ctx.lang,
                "circuit.method.placing_text",
                &[
                    ("first", &first),
                    ("step", &ctx.decimal(step)),
                    ("min", &ctx.decimal(min)),
                ],
            )
        }
        PointsMethod::Table { table } => tf(
            ctx.lang,
            "circuit.method.table_text",
            &[(
                "table",
                &table
                    .iter()
                    .map(|d| ctx.decimal(d))
                    .collect::<Vec<_>>()
                    .join(" · "),
            )],
        ),
    }
}

/// A finalist's reason in words.
pub fn reason_text(ctx: &PageCtx, r: &FinalistReason) -> String {
    match r {
        FinalistReason::Stage { stage, place } => tf(
            ctx.lang,
            "circuit.reason.stage",
            &[("stage", stage), ("place", place)],
        ),
        FinalistReason::Overall { place } => {
            tf(ctx.lang, "circuit.reason.overall", &[("place", place)])
        }
    }
}

#[derive(Template)]
#[template(path = "public/circuit.html")]
struct CircuitPageT<'a> {
    ctx: &'a PageCtx,
    v: &'a CircuitView,
    method: String,
    classified: Vec<&'a CircuitRow<PersonId>>,
    unclassified: Vec<&'a CircuitRow<PersonId>>,
}

impl CircuitPageT<'_> {
    fn pairs(&self) -> bool {
        self.v.circuit.spec.rank == RankBy::Pair
    }
    fn reason(&self, r: &FinalistReason) -> String {
        reason_text(self.ctx, r)
    }
    fn finalist(&self, e: &Entrant<PersonId>) -> bool {
        self.v.standings.finalist(e).is_some()
    }
    fn stage_name(&self, n: &u32) -> String {
        self.v.stage(*n).map(|s| s.name.clone()).unwrap_or_default()
    }
}

fn render_circuit(ctx: &PageCtx, v: &CircuitView) -> Result<String, AppError> {
    let (classified, unclassified) = v.standings.rows.iter().partition(|r| r.place.is_some());
    Ok(CircuitPageT {
        ctx,
        v,
        method: method_text(ctx, &v.circuit.spec.points),
        classified,
        unclassified,
    }
    .render()?)
}

/// `GET /c/{id}`: the season ranking.
pub async fn circuit(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<CircuitId>,
) -> Result<HttpResponse, AppError> {
    serve_circuit(&req, &state, *id, CircuitPage::Standings, |ctx, v, _| {
        render_circuit(ctx, v)
    })
    .await
}

#[derive(Template)]
#[template(path = "public/season_card.html")]
struct SeasonCardPage<'a> {
    ctx: &'a PageCtx,
    v: &'a CircuitView,
    card: SeasonCard<'a>,
}

impl SeasonCardPage<'_> {
    fn score<'b>(&self, row: &'b CircuitRow<PersonId>, n: usize) -> Option<&'b StageScore> {
        row.stages.get(n).and_then(Option::as_ref)
    }
    fn partner(&self, row: &CircuitRow<PersonId>) -> String {
        row.players
            .iter()
            .filter(|p| p.key != self.card.person)
            .map(|p| format!("{} {}", p.surname, p.name))
            .collect::<Vec<_>>()
            .join(", ")
    }
    fn finalist(&self, row: &CircuitRow<PersonId>) -> Option<String> {
        self.v
            .standings
            .finalist(&row.entrant)
            .map(|f| reason_text(self.ctx, &f.reason))
    }
}

/// `GET /c/{id}/people/{person}`: a person's season card.
pub async fn season_card(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(CircuitId, PersonId)>,
) -> Result<HttpResponse, AppError> {
    let (cid, person) = path.into_inner();
    serve_circuit(&req, &state, cid, CircuitPage::Card(person), |ctx, v, _| {
        let card = v.season_card(person).ok_or(AppError::NotFound)?;
        Ok(SeasonCardPage { ctx, v, card }.render()?)
    })
    .await
}

/// `GET /c/{id}/standings.csv`: the ranking as CSV (headers in the page's
/// language), for a spreadsheet.
pub async fn standings_csv(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<CircuitId>,
) -> Result<HttpResponse, AppError> {
    let cid = *id;
    let mut res = serve_circuit(&req, &state, cid, CircuitPage::Csv, |ctx, v, _| {
        crate::tournament::csv_export::circuit_csv(&v.standings, v.stages.len(), ctx.lang)
            .map_err(|e| AppError::Internal(e.into()))
    })
    .await?;
    if let Ok(v) = actix_web::http::header::HeaderValue::from_str(&format!(
        "attachment; filename=\"circuit-{cid}.csv\""
    )) {
        res.headers_mut()
            .insert(actix_web::http::header::CONTENT_DISPOSITION, v);
    }
    Ok(res)
}
