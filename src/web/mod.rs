//! The web layer: handlers, forms and templates, kept thin. Handlers parse
//! input into domain types, call the domain and render.

pub mod account;
pub mod admin;
pub mod api;
pub mod assets;
pub mod audit;
pub mod bearer;
pub mod cache;
pub mod client;
pub mod clock;
pub mod context;
pub mod desk;
pub mod director;
pub mod directory;
pub mod doors;
pub mod error;
pub mod error_code;
pub mod errors;
pub mod import;
pub mod limits;
pub mod middleware;
pub mod pages;
pub mod player;
pub mod public;
pub mod qr;
pub mod registry;
pub mod score_card;
pub mod seat_draw;
pub mod tokens;
pub mod upload;

use std::sync::Arc;

use actix_web::http::header;
use actix_web::middleware::from_fn;
use actix_web::{web, HttpResponse};
use askama::Template;

use crate::auth::csrf::CsrfKey;
use crate::auth::password::Hasher;
use crate::config::Settings;
use crate::db::Db;
use crate::web::error::AppError;

/// Shared by every handler.
pub struct AppState {
    /// The database: reads, and writes in one transaction each.
    pub db: Db,
    pub csrf_key: CsrfKey,
    pub settings: Settings,
    /// Public pages, rendered once per tournament revision.
    pub public: Arc<cache::PublicCache>,
    /// The bound on password hashing (memory and CPU).
    pub hasher: Arc<Hasher>,
    /// The brake on table-code lookups (and the codes found per address).
    pub lookups: Arc<crate::services::brakes::TableLookups>,
    /// The logins being checked now (the login brake's waiting room).
    pub logins: Arc<crate::services::brakes::LoginsInFlight>,
}

impl AppState {
    /// What a login goes through: the hasher and the logins being checked.
    pub fn login_doors(&self) -> crate::services::accounts::LoginDoors {
        crate::services::accounts::LoginDoors {
            hasher: self.hasher.clone(),
            in_flight: self.logins.clone(),
        }
    }
}

impl AppState {
    /// The state for `settings`: the hasher's bound comes from them.
    pub fn new(
        db: Db,
        csrf_key: CsrfKey,
        settings: Settings,
        public: Arc<cache::PublicCache>,
    ) -> AppState {
        AppState {
            db,
            csrf_key,
            hasher: Arc::new(Hasher::with_cost(
                settings.hash_concurrency,
                settings.hash_queue,
                settings.hash_cost,
            )),
            lookups: Arc::default(),
            logins: Arc::default(),
            settings,
            public,
        }
    }
}

pub use registry::{noted, noted_all, registered_routes};

/// Every route of the application. Staff scopes are guarded by role on the
/// server: `/admin` (admins), `/director` (directors), `/desk` (referees).
pub fn routes(cfg: &mut web::ServiceConfig) {
    limits::configure_app(cfg);
    cfg.route(noted("GET", "", "/"), web::get().to(pages::home))
        .route(noted("GET", "", "/healthz"), web::get().to(pages::healthz))
        .route(
            noted("GET", "", "/lang/{code}"),
            web::get().to(pages::switch_lang),
        )
        .route(
            noted("GET", "", "/static/{name}"),
            web::get().to(assets::serve),
        )
        .route(
            noted("GET", "", "/setup"),
            web::get().to(account::setup_form),
        )
        .route(
            noted("POST", "", "/setup"),
            web::post().to(account::setup_submit),
        )
        .route(
            noted("GET", "", "/login"),
            web::get().to(account::login_form),
        )
        .route(
            noted("POST", "", "/login"),
            web::post().to(account::login_submit),
        )
        .route(
            noted("POST", "", "/logout"),
            web::post().to(account::logout),
        )
        .configure(api::routes)
        .configure(tokens::routes)
        .configure(api::score::routes)
        .configure(player::routes)
        .route(
            noted("GET", "", "/t/{id}"),
            web::get().to(public::tournament),
        )
        .route(
            noted("GET", "", "/t/{id}/pairs/{pair}"),
            web::get().to(public::pair_card),
        )
        .configure(public::teams::routes)
        .route(
            noted("GET", "", "/t/{id}/find"),
            web::get().to(public::players::find),
        )
        .route(
            noted("GET", "", "/t/{id}/rounds/{n}"),
            web::get().to(public::players::round),
        )
        .route(
            noted("GET", "", "/t/{id}/prizes"),
            web::get().to(public::players::prizes),
        )
        .route(
            noted("GET", "", "/t/{id}/screen"),
            web::get().to(public::players::screen),
        )
        .route(
            noted("GET", "", "/t/{id}/rev"),
            web::get().to(public::players::revision),
        )
        .route(
            noted("GET", "", "/c/{id}"),
            web::get().to(public::circuits::circuit),
        )
        .route(
            noted("GET", "", "/c/{id}/people/{person}"),
            web::get().to(public::circuits::season_card),
        )
        .route(
            noted("GET", "", "/c/{id}/standings.csv"),
            web::get().to(public::circuits::standings_csv),
        )
        .route(
            noted("GET", "", "/api/v1/tournaments/{id}/standings"),
            web::get().to(public::standings_json),
        )
        .service(
            web::scope("/director")
                .wrap(from_fn(middleware::director_only))
                .route(
                    noted("GET", "/director", "/tournaments"),
                    web::get().to(director::tournaments::list),
                )
                .route(
                    noted("GET", "/director", "/circuits"),
                    web::get().to(director::circuits::list),
                )
                .route(
                    noted("POST", "/director", "/circuits"),
                    web::post().to(director::circuits::create),
                )
                .route(
                    noted("GET", "/director", "/circuits/{id}"),
                    web::get().to(director::circuits::edit),
                )
                .route(
                    noted("POST", "/director", "/circuits/{id}"),
                    web::post().to(director::circuits::update),
                )
                .route(
                    noted("POST", "/director", "/circuits/{id}/stages"),
                    web::post().to(director::circuits::add_stage),
                )
                .route(
                    noted("POST", "/director", "/circuits/{id}/stages/{tid}/remove"),
                    web::post().to(director::circuits::remove_stage),
                )
                .route(
                    noted("POST", "/director", "/circuits/{id}/delete"),
                    web::post().to(director::circuits::delete),
                )
                .route(
                    noted("GET", "/director", "/circuits/{id}/export.json"),
                    web::get().to(director::circuits::export),
                )
                .route(
                    noted("GET", "/director", "/people"),
                    web::get().to(director::people::list),
                )
                .route(
                    noted("POST", "/director", "/people/merge"),
                    web::post().to(director::people::merge),
                )
                .route(
                    noted("POST", "/director", "/people/{id}/split"),
                    web::post().to(director::people::split),
                )
                .route(
                    noted("POST", "/director", "/tournaments"),
                    web::post().to(director::tournaments::create),
                )
                .route(
                    noted("GET", "/director", "/tournaments/new"),
                    web::get().to(director::tournaments::new_form),
                )
                .route(
                    noted("GET", "/director", "/t/{id}"),
                    web::get().to(director::show),
                )
                .route(
                    noted("GET", "/director", "/t/{id}/edit"),
                    web::get().to(director::tournaments::edit_form),
                )
                .route(
                    noted("POST", "/director", "/t/{id}/edit"),
                    web::post().to(director::tournaments::update),
                )
                .route(
                    noted("POST", "/director", "/t/{id}/pairs"),
                    web::post().to(director::pairs::add_pair),
                )
                .route(
                    noted("GET", "/director", "/t/{id}/pairs/new"),
                    web::get().to(director::pairs::new_pair),
                )
                .route(
                    noted("GET", "/director", "/t/{id}/players"),
                    web::get().to(directory::search),
                )
                .route(
                    noted("GET", "/director", "/t/{id}/players.json"),
                    web::get().to(directory::search_json),
                )
                .route(
                    noted("GET", "/director", "/t/{id}/pairs/{pid}"),
                    web::get().to(director::pairs::edit_pair),
                )
                .route(
                    noted("POST", "/director", "/t/{id}/pairs/{pid}"),
                    web::post().to(director::pairs::update_pair),
                )
                .route(
                    noted("POST", "/director", "/t/{id}/pairs/{pid}/checkin"),
                    web::post().to(director::pairs::check_in),
                )
                .route(
                    noted("POST", "/director", "/t/{id}/checkin"),
                    web::post().to(director::pairs::check_in_many),
                )
                .route(
                    noted("POST", "/director", "/t/{id}/pairs/{pid}/withdraw"),
                    web::post().to(director::pairs::withdraw),
                )
                .route(
                    noted("POST", "/director", "/t/{id}/pairs/{pid}/no-show"),
                    web::post().to(director::pairs::no_show),
                )
                .route(
                    noted("GET", "/director", "/t/{id}/pairs/{pid}/delete"),
                    web::get().to(director::pairs::delete_pair_confirm),
                )
                .route(
                    noted("POST", "/director", "/t/{id}/pairs/{pid}/delete"),
                    web::post().to(director::pairs::delete_pair),
                )
                .service(
                    web::resource(noted_all(&["GET", "POST"], "/director", "/t/{id}/import"))
                        .app_data(limits::form(limits::PAIRS_CSV))
                        .route(web::get().to(director::csv::import_form))
                        .route(web::post().to(director::csv::import)),
                )
                .route(
                    noted("POST", "/director", "/t/{id}/staff"),
                    web::post().to(director::staff::add_staff),
                )
                .route(
                    noted("POST", "/director", "/t/{id}/staff/{uid}/remove"),
                    web::post().to(director::staff::remove_staff),
                )
                .route(
                    noted("POST", "/director", "/t/{id}/draw"),
                    web::post().to(director::rounds::draw),
                )
                .route(
                    noted("POST", "/director", "/t/{id}/redraw"),
                    web::post().to(director::rounds::redraw),
                )
                .route(
                    noted("GET", "/director", "/t/{id}/confirm-start"),
                    web::get().to(director::rounds::confirm_start),
                )
                .route(
                    noted("GET", "/director", "/t/{id}/confirm-redraw"),
                    web::get().to(director::rounds::confirm_redraw),
                )
                .route(
                    noted("GET", "/director", "/t/{id}/confirm-round"),
                    web::get().to(director::rounds::confirm_round),
                )
                .route(
                    noted("GET", "/director", "/t/{id}/confirm-close"),
                    web::get().to(director::close::confirm_close),
                )
                .route(
                    noted("GET", "/director", "/t/{id}/rounds/{n}/confirm-time-out"),
                    web::get().to(director::clock::confirm_time_out),
                )
                .route(
                    noted("GET", "/director", "/t/{id}/rounds/{n}/confirm-undo"),
                    web::get().to(director::rounds::confirm_undo),
                )
                .route(
                    noted("POST", "/director", "/t/{id}/rounds/{n}/undo"),
                    web::post().to(director::rounds::undo_round),
                )
                .route(
                    noted("POST", "/director", "/t/{id}/rounds"),
                    web::post().to(director::rounds::next_round),
                )
                .route(
                    noted("GET", "/director", "/t/{id}/rounds/{n}"),
                    web::get().to(director::printouts::round),
                )
                .route(
                    noted("GET", "/director", "/t/{id}/rounds/{n}/cards"),
                    web::get().to(director::printouts::table_cards),
                )
                .route(
                    noted("GET", "/director", "/t/{id}/rounds/{n}/score-cards"),
                    web::get().to(desk::cards::score_cards),
                )
                .route(
                    noted("GET", "/director", "/t/{id}/movement-cards"),
                    web::get().to(director::printouts::movement_cards),
                )
                .route(
                    noted("POST", "/director", "/t/{id}/rounds/{n}/clock"),
                    web::post().to(director::clock::clock),
                )
                .route(
                    noted("POST", "/director", "/t/{id}/close"),
                    web::post().to(director::close::close),
                )
                .route(
                    noted("POST", "/director", "/t/{id}/reopen"),
                    web::post().to(director::close::reopen),
                )
                .configure(director::teams::routes)
                .route(
                    noted("GET", "/director", "/t/{id}/export.json"),
                    web::get().to(director::exports::export_json),
                )
                .route(
                    noted("GET", "/director", "/t/{id}/standings.csv"),
                    web::get().to(director::exports::export_standings_csv),
                )
                .route(
                    noted("GET", "/director", "/t/{id}/sheets.csv"),
                    web::get().to(director::exports::export_sheets_csv),
                ),
        )
        .service(
            web::scope("/desk")
                .wrap(from_fn(middleware::referee_only))
                .route(
                    noted("GET", "/desk", "/seat-draw"),
                    web::get().to(seat_draw::seat_draw_form),
                )
                .route(
                    noted("POST", "/desk", "/seat-draw"),
                    web::post().to(seat_draw::seat_draw),
                )
                .route(
                    noted("GET", "/desk", "/t/{id}/rounds/{n}"),
                    web::get().to(desk::round::round_desk),
                )
                .route(
                    noted("GET", "/desk", "/t/{id}/rounds/{n}/states"),
                    web::get().to(desk::round::round_states),
                )
                .route(
                    noted("POST", "/desk", "/t/{id}/rounds/{n}/tables/{table}/confirm"),
                    web::post().to(desk::round::confirm_entry),
                )
                .route(
                    noted("GET", "/desk", "/t/{id}/rounds/{n}/go"),
                    web::get().to(desk::round::jump),
                )
                .route(
                    noted("GET", "/desk", "/t/{id}/rounds/{n}/score-cards"),
                    web::get().to(desk::cards::score_cards),
                )
                .route(
                    noted("GET", "/desk", "/t/{id}/rounds/{n}/tables/{table}/preview"),
                    web::get().to(desk::save::preview),
                )
                .route(
                    noted("GET", "/desk", "/t/{id}/rounds/{n}/tables/{table}"),
                    web::get().to(desk::save::sheet_form),
                )
                .route(
                    noted("POST", "/desk", "/t/{id}/rounds/{n}/tables/{table}"),
                    web::post().to(desk::save::save_sheet),
                )
                .route(
                    noted(
                        "POST",
                        "/desk",
                        "/t/{id}/rounds/{n}/tables/{table}/adjusted",
                    ),
                    web::post().to(desk::save::adjusted),
                )
                .route(
                    noted("GET", "/desk", "/t/{id}/penalties"),
                    web::get().to(desk::penalties::penalties),
                )
                .route(
                    noted("POST", "/desk", "/t/{id}/penalties"),
                    web::post().to(desk::penalties::add_penalty),
                )
                .route(
                    noted("POST", "/desk", "/t/{id}/penalties/{pid}/withdraw"),
                    web::post().to(desk::penalties::withdraw_penalty),
                )
                .route(
                    noted("POST", "/desk", "/t/{id}/penalties/{pid}/reinstate"),
                    web::post().to(desk::penalties::reinstate_penalty),
                )
                .route(
                    noted("GET", "/desk", "/t/{id}/audit"),
                    web::get().to(desk::audit::audit),
                ),
        )
        .service(
            web::scope("/admin")
                .wrap(from_fn(middleware::admin_only))
                .service(
                    web::resource(noted_all(&["GET", "POST"], "/admin", "/import"))
                        .app_data(limits::form(limits::TOURNAMENT_FILE))
                        .route(web::get().to(import::form))
                        .route(web::post().to(import::submit)),
                )
                .route(
                    noted("GET", "/admin", "/users"),
                    web::get().to(admin::list_users),
                )
                .route(
                    noted("POST", "/admin", "/referees"),
                    web::post().to(admin::set_referees),
                )
                .route(
                    noted("POST", "/admin", "/public-url"),
                    web::post().to(admin::set_public_url),
                )
                .route(
                    noted("POST", "/admin", "/users"),
                    web::post().to(admin::create_user),
                )
                .route(
                    noted("GET", "/admin", "/users/{id}"),
                    web::get().to(admin::edit_user),
                )
                .route(
                    noted("POST", "/admin", "/users/{id}/tokens/{token}/revoke"),
                    web::post().to(admin::revoke_token),
                )
                .route(
                    noted("POST", "/admin", "/users/{id}/active"),
                    web::post().to(admin::set_active),
                )
                .route(
                    noted("POST", "/admin", "/users/{id}/role"),
                    web::post().to(admin::set_role),
                )
                .route(
                    noted("POST", "/admin", "/users/{id}/password"),
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

/// The live totals of a sheet form as the engine reads it (the desk's sheet
/// page calls this while the form is typed; the phone's has its own, with
/// the submission's verdict: `web::player::live`).
pub fn preview_response(report: Option<&crate::rules::SheetReport>) -> HttpResponse {
    let body = match report {
        Some(r) => serde_json::json!({
            "ok": true,
            // A hand that breaks a rule has no total to show (null).
            "hands": r.hands.iter().enumerate().map(|(i, h)| {
                if r.violations.iter().any(|v| v.hand == Some(i + 1)) {
                    serde_json::Value::Null
                } else {
                    serde_json::json!({"ns": h.ns.total, "ew": h.ew.total})
                }
            }).collect::<Vec<_>>(),
            "totals": {"ns": r.totals.ns, "ew": r.totals.ew},
            "vp": {"ns": r.vp.ns, "ew": r.vp.ew},
        }),
        None => serde_json::json!({"ok": false}),
    };
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(body)
}

/// `Cache-Control: no-store` (pages with a form a pair types codes into).
pub fn no_store(res: &mut HttpResponse) {
    res.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
}

/// A 303 redirect (after a successful POST).
pub fn see_other(location: &str) -> HttpResponse {
    HttpResponse::SeeOther()
        .insert_header((header::LOCATION, location.to_string()))
        .finish()
}

/// Percent-encodes a value for a query string.
pub use error::encode_query;

/// A redirect target from a form or query: only local paths are followed.
pub fn safe_next(next: Option<&str>) -> Option<String> {
    let n = next?.trim();
    // A local path only: browsers drop tabs and newlines and read `\` as
    // `/`, so `/<tab>/evil.example` would leave the site.
    let local = n.starts_with('/')
        && !n.starts_with("//")
        && !n
            .chars()
            .any(|c| c.is_control() || c.is_whitespace() || c == '\\')
        && !n.contains("://");
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
        assert_eq!(safe_next(Some("/\t/evil.example")), None);
        assert_eq!(safe_next(Some("/\n/evil.example")), None);
        assert_eq!(safe_next(Some("/\t/evil.example")), None);
        assert_eq!(safe_next(Some("/\n/evil.example")), None);
        assert_eq!(safe_next(None), None);
    }

    #[test]
    fn query_values_are_encoded() {
        assert_eq!(encode_query("/a b?x=1&y"), "%2Fa+b%3Fx%3D1%26y");
    }
}
