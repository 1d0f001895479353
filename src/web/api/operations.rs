//! The table of documented operations: the app's API routes and the
//! OpenAPI document are both built from [`register`], so they cannot drift.

use utoipa_actix_web::service_config::ServiceConfig;

use crate::web::api::circuits;
use crate::web::api::online;
use crate::web::api::pairs;
use crate::web::api::penalties;
use crate::web::api::play;
use crate::web::api::players;
use crate::web::api::rules;
use crate::web::api::teams;
use crate::web::api::tournaments;

/// Registers every documented operation (the app and the document both
/// come from here).
pub fn register(cfg: &mut ServiceConfig) {
    cfg.service(rules::check_sheet)
        .service(rules::meld)
        .service(rules::vp)
        .service(rules::seat_draw)
        .service(rules::prizes)
        .service(tournaments::list_tournaments)
        .service(tournaments::create_tournament)
        .service(tournaments::import_tournament)
        .service(tournaments::get_tournament)
        .service(tournaments::update_tournament)
        .service(tournaments::close_tournament)
        .service(tournaments::reopen_tournament)
        .service(tournaments::start_tournament)
        .service(tournaments::redraw_tournament)
        .service(tournaments::export_tournament)
        .service(pairs::list_pairs)
        .service(pairs::add_pair)
        .service(pairs::import_pairs_csv)
        .service(pairs::update_pair)
        .service(pairs::check_in_pair)
        .service(pairs::withdraw_pair)
        .service(play::next_round)
        .service(play::get_round)
        .service(play::clock_action)
        .service(play::get_sheet)
        .service(play::save_sheet)
        .service(play::set_adjusted_score)
        .service(penalties::list_penalties)
        .service(penalties::add_penalty)
        .service(penalties::withdraw_penalty)
        .service(penalties::reinstate_penalty)
        .service(play::get_pair_card)
        .service(players::list_players)
        .service(players::add_player)
        .service(players::check_in_player)
        .service(players::withdraw_player)
        .service(teams::list_teams)
        .service(teams::add_team)
        .service(teams::check_in_team)
        .service(teams::withdraw_team)
        .service(teams::update_team_settings)
        .service(teams::set_lineup)
        .service(teams::submit_lineup)
        .service(teams::get_team_card)
        .service(circuits::list_circuits)
        .service(circuits::create_circuit)
        .service(circuits::get_circuit)
        .service(circuits::update_circuit)
        .service(circuits::delete_circuit)
        .service(circuits::add_circuit_stage)
        .service(circuits::remove_circuit_stage)
        .service(circuits::get_circuit_standings)
        .service(circuits::get_season_card)
        .service(online::submit_entry)
        .service(online::get_entry)
        .service(online::withdraw_entry)
        .service(online::list_entries)
        .service(online::import_members);
}
