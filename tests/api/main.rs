//! HTTP tests: each test starts the application on port 0 with a fresh
//! database (SQLite file, or a new PostgreSQL database when
//! `TEST_DATABASE_URL` is set) and drives it like a browser.

mod helpers;

mod account;
mod admin;
mod csrf;
mod data;
mod deskentry;
mod hardening;
mod health;
mod printouts;
mod public;
mod roles;
mod rules_api;
mod scoring;
mod services;
mod table_side;
mod tournaments;
