//! Home, health check and the language switch.

use actix_web::cookie::time::Duration as CookieDuration;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;

use super::context::{web_query_value, PageCtx};
use super::middleware::cookie;
use super::{render, safe_next, see_other, AppState};
use crate::i18n::Lang;
use crate::web::error::AppError;

#[derive(Template)]
#[template(path = "home.html")]
struct HomePage<'a> {
    ctx: &'a PageCtx,
    tournaments: Vec<crate::services::view::Tournament>,
    /// The signed-in staff member's tournaments, with links to their work.
    mine: Vec<crate::services::tournaments::HomeEntry>,
}

/// The front page; on a fresh installation it leads to the setup page.
pub async fn home(ctx: PageCtx, state: web::Data<AppState>) -> Result<HttpResponse, AppError> {
    let (any_user, tournaments) = crate::services::tournaments::front_page(&state.db).await?;
    if !any_user {
        return Ok(see_other("/setup"));
    }
    let mine = match ctx.actor(crate::auth::Role::Referee) {
        Ok(actor) => crate::services::tournaments::staff_home(&state.db, actor).await?,
        Err(_) => Vec::new(),
    };
    render(&HomePage {
        ctx: &ctx,
        tournaments,
        mine,
    })
}

/// 200 when the database answers, 503 when it does not.
pub async fn healthz(state: web::Data<AppState>) -> HttpResponse {
    // The pool waits at most its timeout for a connection (2 s at most
    // here: the check answers even while every connection is busy).
    let ok = tokio::time::timeout(
        std::time::Duration::from_secs(2),
        crate::services::tournaments::database_answers(&state.db),
    )
    .await
    .unwrap_or(false);
    if ok {
        HttpResponse::Ok().json(serde_json::json!({"status": "ok", "database": "ok"}))
    } else {
        HttpResponse::ServiceUnavailable()
            .json(serde_json::json!({"status": "error", "database": "unavailable"}))
    }
}

/// Sets the language cookie and goes back where the visitor was.
pub async fn switch_lang(
    req: HttpRequest,
    code: web::Path<String>,
    state: web::Data<AppState>,
) -> HttpResponse {
    let next = web_query_value(req.query_string(), "next");
    let target = safe_next(next.as_deref()).unwrap_or_else(|| "/".to_string());
    let mut res = see_other(&target);
    if let Some(lang) = Lang::parse(&code) {
        let _ = res.add_cookie(&cookie(
            "lang",
            lang.code().to_string(),
            state.settings.secure_cookies,
            Some(CookieDuration::days(365)),
        ));
    }
    res
}
