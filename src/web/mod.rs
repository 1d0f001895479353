//! The web layer: handlers, forms and templates, kept thin. Handlers parse
//! input into domain types, call the domain and render. The route table is
//! `routes`, the shared state `state`, the responses handlers build `respond`;
//! this file only declares the modules and names what the handlers share.

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
pub mod mail;
pub mod middleware;
pub mod pages;
pub mod player;
pub mod public;
pub mod qr;
pub mod registry;
pub mod respond;
pub mod roles;
pub mod routes;
pub mod score_card;
pub mod seat_draw;
pub mod state;
pub mod tokens;
pub mod upload;

pub use error::encode_query;
pub use registry::{noted, noted_all, registered_routes};
pub use respond::{no_store, preview_response, render, render_status, safe_next, see_other};
pub use routes::routes;
pub use state::AppState;
