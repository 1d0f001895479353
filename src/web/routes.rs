//! The route table: every route of the application, by scope, and the
//! guards of the staff scopes. The handlers live in their modules; this
//! file only says which path reaches which.

use actix_web::middleware::from_fn;
use actix_web::web;

use crate::web::registry::{noted, noted_all};
use crate::web::{
    account, admin, api, assets, desk, director, directory, import, limits, middleware, pages,
    player, public, seat_draw, tokens,
};

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
        // The hall's and the public's pages first: actix tries the routes
        // in this order, and each pattern with a `{…}` costs a regex match
        // (a profile of /t/{id} under wrk showed about a tenth of the
        // server's time in the API's sixty patterns tried before it).
        .configure(player::routes)
        .route(
            noted("GET", "", "/t/{id}"),
            web::get().to(public::tournament),
        )
        .route(
            noted("GET", "", "/t/{id}/pairs/{pair}"),
            web::get().to(public::pair_card),
        )
        .route(
            noted("GET", "", "/t/{id}/players/{pair}"),
            web::get().to(public::individual::player_page),
        )
        .configure(public::teams::routes)
        .configure(public::enter::routes)
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
        .configure(api::routes)
        .configure(tokens::routes)
        .configure(api::score::routes)
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
                    noted("GET", "/director", "/members"),
                    web::get().to(director::members::show),
                )
                .route(
                    noted("POST", "/director", "/members"),
                    web::post().to(director::members::import),
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
                    noted("POST", "/director", "/t/{id}/entries/{entry}"),
                    web::post().to(director::online::decide),
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
                .configure(director::individual::routes)
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
                    noted("GET", "/desk", "/t/{id}/seating/{n}"),
                    web::get().to(director::individual_rounds::show),
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
