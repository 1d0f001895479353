//! burraco-td: the program that runs Burraco tournaments, pairs and teams.
//!
//! - `rules`, `movement`: the rules engine and the movements, pure Rust.
//! - `db`: the schema and the queries (SQLite or PostgreSQL).
//! - `auth`: passwords, sessions, CSRF.
//! - `web`: handlers, forms and templates.
//! - `reach`: how phones in the hall reach the server (the listening
//!   socket, the addresses printed at start and on the table cards).
//! - `cli`: the command line (`serve`, `create-user`, `rules …`).

pub use burraco_core::{
    circuit, i18n, movement, next_round, rules, standings, tournament, tournament_file,
};

pub mod auth;
pub mod cli;
pub mod config;
pub mod db;
pub mod ids;
pub mod reach;
pub mod services;
pub mod startup;
pub mod telemetry;
pub mod web;

#[cfg(test)]
mod i18n_usage_tests;
#[cfg(test)]
mod layers_tests;
