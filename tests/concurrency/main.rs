//! The concurrency suite of issue 11: real HTTP against real servers, many
//! clients at once, each with its own session. Every test runs on SQLite by
//! default and on PostgreSQL when `TEST_DATABASE_URL` is set (the mixed-load
//! test always uses SQLite; the two-instance tests need PostgreSQL).
//!
//! Run: `cargo test --test concurrency -- --nocapture` (each test prints one
//! summary line, the figures of the closing note).
//!
//! Contract these tests assume (the service layer of issue 11):
//! - `POST /director/t/{id}/rounds` carries `round=N`; a post for a round
//!   that already exists answers 303 to `/director/t/{id}/rounds/N…`.
//! - The last active administrator is never demoted: the refused request
//!   answers 403, 409 or 422, never 2xx/3xx that leaves no admin.
//! - Status checks (closed tournament) run inside the write transaction; a
//!   sheet posted to a closed tournament is refused (4xx).
//! - A director who neither owns nor co-directs a tournament gets 404 on
//!   every `/director/t/{id}/…` and `/desk/t/{id}/…` route.

#[allow(dead_code)]
#[path = "../api/builders.rs"]
mod builders;
#[allow(dead_code)]
#[path = "../api/helpers.rs"]
mod helpers;
#[path = "../api/peek.rs"]
mod peek;

mod support;

mod circuits;
mod confirm;
mod doors;
mod groups;
mod hall;
mod holes;
mod individual;
mod online;
mod ownership;
mod processes;
mod races;
mod teams;
