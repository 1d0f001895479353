//! The web layer: handlers, forms and templates, kept thin. Handlers parse
//! input into domain types, call the domain and render.

pub mod account;
pub mod admin;
pub mod api;
pub mod assets;
pub mod context;
pub mod director;
pub mod errors;
pub mod middleware;
pub mod pages;
pub mod public;

use std::sync::Arc;

use actix_web::http::header;
use actix_web::middleware::from_fn;
use actix_web::{web, HttpResponse};
use askama::Template;

use crate::auth::csrf::CsrfKey;
use crate::auth::throttle::LoginThrottle;
use crate::config::Settings;
use crate::db::Pool;
use crate::error::AppError;

/// Shared by every handler.
pub struct AppState {
    pub pool: Pool,
    pub csrf_key: CsrfKey,
    pub throttle: Arc<LoginThrottle>,
    pub settings: Settings,
}

/// Every route of the application. Staff scopes are guarded by role on the
/// server: `/admin` (admins), `/director` (directors), `/desk` (referees).
pub fn routes(cfg: &mut web::ServiceConfig) {
    cfg.route("/", web::get().to(pages::home))
        .route("/healthz", web::get().to(pages::healthz))
        .route("/lang/{code}", web::get().to(pages::switch_lang))
        .route("/static/{name}", web::get().to(assets::serve))
        .route("/setup", web::get().to(account::setup_form))
        .route("/setup", web::post().to(account::setup_submit))
        .route("/login", web::get().to(account::login_form))
        .route("/login", web::post().to(account::login_submit))
        .route("/logout", web::post().to(account::logout))
        .configure(api::routes)
        .route("/t/{id}", web::get().to(public::tournament))
        .service(
            web::scope("/director")
                .wrap(from_fn(middleware::director_only))
                .route("/tournaments", web::get().to(director::list))
                .route("/tournaments", web::post().to(director::create))
                .route("/tournaments/new", web::get().to(director::new_form))
                .route("/t/{id}", web::get().to(director::show))
                .route("/t/{id}/edit", web::get().to(director::edit_form))
                .route("/t/{id}/edit", web::post().to(director::update))
                .route("/t/{id}/pairs", web::post().to(director::add_pair))
                .route("/t/{id}/pairs/new", web::get().to(director::new_pair))
                .route("/t/{id}/pairs/{pid}", web::get().to(director::edit_pair))
                .route("/t/{id}/pairs/{pid}", web::post().to(director::update_pair))
                .route(
                    "/t/{id}/pairs/{pid}/checkin",
                    web::post().to(director::check_in),
                )
                .route(
                    "/t/{id}/pairs/{pid}/withdraw",
                    web::post().to(director::withdraw),
                )
                .route("/t/{id}/import", web::get().to(director::import_form))
                .route("/t/{id}/import", web::post().to(director::import))
                .route("/t/{id}/draw", web::post().to(director::draw))
                .route("/t/{id}/rounds", web::post().to(director::next_round))
                .route("/t/{id}/rounds/{n}", web::get().to(director::round))
                .route(
                    "/t/{id}/rounds/{n}/cards",
                    web::get().to(director::table_cards),
                )
                .route(
                    "/t/{id}/movement-cards",
                    web::get().to(director::movement_cards),
                ),
        )
        .service(
            web::scope("/desk")
                .wrap(from_fn(middleware::referee_only))
                .route("/seat-draw", web::get().to(public::seat_draw_form))
                .route("/seat-draw", web::post().to(public::seat_draw)),
        )
        .service(
            web::scope("/admin")
                .wrap(from_fn(middleware::admin_only))
                .route("/users", web::get().to(admin::list_users))
                .route("/users", web::post().to(admin::create_user))
                .route("/users/{id}", web::get().to(admin::edit_user))
                .route("/users/{id}/active", web::post().to(admin::set_active))
                .route("/users/{id}/role", web::post().to(admin::set_role))
                .route(
                    "/users/{id}/password",
                    web::post().to(admin::reset_password),
                ),
        );
}

/// Renders a template as an HTML page.
pub fn render<T: Template>(page: &T) -> Result<HttpResponse, AppError> {
    render_status(page, actix_web::http::StatusCode::OK)
}

/// Renders a template with a status (422 for a form sent back with errors).
pub fn render_status<T: Template>(
    page: &T,
    status: actix_web::http::StatusCode,
) -> Result<HttpResponse, AppError> {
    Ok(HttpResponse::build(status)
        .content_type("text/html; charset=utf-8")
        .body(page.render()?))
}

/// A 303 redirect (after a successful POST).
pub fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, location.to_string()))
        .finish()
}

/// Percent-encodes a value for a query string.
pub fn encode_query(s: &str) -> String {
    serde_urlencoded::to_string([("v", s)])
        .map(|q| q.trim_start_matches("v=").to_string())
        .unwrap_or_default()
}

/// A redirect target from a form or query: only local paths are followed.
pub fn safe_next(next: Option<&str>) -> Option<String> {
    let n = next?.trim();
    let local =
        n.starts_with('/') && !n.starts_with("//") && !n.contains('\\') && !n.contains("://");
    local.then(|| n.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_local_redirects() {
        assert_eq!(safe_next(Some("/admin/users")), Some("/admin/users".into()));
        assert_eq!(safe_next(Some("//evil.example")), None);
        assert_eq!(safe_next(Some("https://evil.example")), None);
        assert_eq!(safe_next(Some("/\\evil")), None);
        assert_eq!(safe_next(None), None);
    }

    #[test]
    fn query_values_are_encoded() {
        assert_eq!(encode_query("/a b?x=1&y"), "%2Fa+b%3Fx%3D1%26y");
    }
}
