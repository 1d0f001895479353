//! HTTP tests: each test starts the application on port 0 with a fresh
//! database (SQLite file, or a new PostgreSQL database when
//! `TEST_DATABASE_URL` is set) and drives it like a browser.

#[allow(dead_code)]
mod builders;
mod helpers;
mod peek;

mod account;
mod admin;
mod api_v1;
mod circuits;
mod cli_files;
mod clubs;
mod compression;
mod csrf;
mod data;
mod deskentry;
mod entries;
mod first_night;
mod groups;
mod hardening;
mod health;
mod individual;
mod italian;
mod members;
mod online;
mod online_kinds;
mod online_mail;
mod phone_check;
mod players;
mod printouts;
mod public;
mod qr_read;
mod referee;
mod roles;
mod rules_api;
mod scoring;
mod services;
mod shared;
mod states;
mod table_side;
mod teams;
mod tokens;
mod tournaments;
mod trust;
mod vocab;
