//! The JSON API under `/api/v1`: one operation per use case. Each handler
//! parses JSON into the domain's types (`body`), calls the service the web
//! pages call and serialises what comes back (`reply`); errors are mapped
//! once ([`ApiError::from_service`]). The OpenAPI document (`GET
//! /api/openapi.json`) is generated from these handlers by `utoipa` and
//! `utoipa-actix-web` (`operations::register` builds both the app's routes
//! and the document, so they cannot drift).

pub mod body;
pub mod circuits;
pub mod online;
pub mod openapi;
pub mod operations;
pub mod pairs;
pub mod penalties;
pub mod plan;
pub mod play;
pub mod players;
pub mod reply;
pub mod rules;
pub mod score;
pub mod teams;
pub mod tournament_in;
pub mod tournaments;

use actix_web::web;

use crate::web::registry::noted;

/// The API's routes: the operations and the document (and the bounds the
/// document sets on bodies, for `body::parse_body`). Another method on a
/// documented path answers 405 with `Allow` (`web::doors::gate`, for every
/// path under `/api/`, whichever module serves it).
pub fn routes(cfg: &mut web::ServiceConfig) {
    operations::register(&mut utoipa_actix_web::service_config::ServiceConfig::new(
        cfg,
    ));
    cfg.app_data(body::SchemaBounds(openapi::check_bounds));
    cfg.route(
        noted("GET", "", "/api/openapi.json"),
        web::get().to(openapi::serve),
    );
}
