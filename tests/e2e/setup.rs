//! What the browser scenarios set up before the browser opens, through the
//! services (as the web pages would): staff accounts, a tournament with its
//! pairs registered and checked in, sheets saved.

use burraco_td::auth::Role;
use burraco_td::db::Db;
use burraco_td::services::{self, Actor, Need};
use burraco_td::tournament::pairs::{PairEntry, PairForm};
use burraco_td::tournament::settings::SettingsForm;

/// The time zone of every scenario.
pub const TZ: chrono_tz::Tz = chrono_tz::Europe::Rome;

/// A staff account; the actor who acts as it.
pub async fn user(db: &Db, name: &'static str, password: &str, role: Role) -> Actor {
    let hash = burraco_td::auth::password::hash_password(password).expect("hash");
    let now = db.now();
    let user_id = db
        .write(move |c| {
            burraco_td::db::users::create(c, name, &hash, role, now)
                .map_err(services::ServiceError::corrupt)
        })
        .await
        .expect("user");
    Actor { user_id, role }
}

/// Tonight's settings under a name (the rest: the defaults).
pub fn settings(name: &str) -> SettingsForm {
    let today = chrono::Utc::now().with_timezone(&TZ).date_naive();
    let mut form = SettingsForm::defaults(today);
    form.name = name.into();
    form
}

/// Pair `i` named `{surname}{i} {name}` – `{surname2}{i} {name2}`.
pub fn pairs(n: usize, p1: (&str, &str), p2: (&str, &str)) -> Vec<PairForm> {
    (1..=n)
        .map(|i| PairForm {
            p1_surname: format!("{}{i}", p1.0),
            p1_name: p1.1.into(),
            p2_surname: format!("{}{i}", p2.0),
            p2_name: p2.1.into(),
            ..PairForm::default()
        })
        .collect()
}

/// A tournament with these pairs registered; with `check_in`, all of them
/// checked in. Returns its id and the pairs' ids in registration order.
pub async fn tournament(
    db: &Db,
    director: Actor,
    form: SettingsForm,
    pairs: &[PairForm],
    check_in: bool,
) -> (burraco_td::ids::TournamentId, Vec<burraco_td::ids::PairId>) {
    let tid = services::tournaments::create(db, director, form, TZ)
        .await
        .expect("tournament");
    let entries = pairs
        .iter()
        .map(|p| PairEntry::parse(p).expect("pair"))
        .collect();
    services::pairs::import(db, director, tid, entries)
        .await
        .expect("pairs");
    let l = services::tournaments::load(db, director, tid, Need::Direct)
        .await
        .expect("load");
    let ids: Vec<burraco_td::ids::PairId> = l.pairs.iter().map(|p| p.id).collect();
    if check_in {
        for id in &ids {
            services::pairs::set_checked_in(db, director, tid, *id, true)
                .await
                .expect("check in");
        }
    }
    (tid, ids)
}

/// `rita` refereeing the tournament.
pub async fn referee(db: &Db, director: Actor, tid: burraco_td::ids::TournamentId) {
    services::tournaments::add_staff(db, director, tid, "rita".into(), Role::Referee)
        .await
        .expect("rita referees");
}

/// Round 1 drawn (the start).
pub async fn draw(db: &Db, director: Actor, tid: burraco_td::ids::TournamentId) {
    services::rounds::draw(db, director, tid, services::rounds::DrawKind::Start, None)
        .await
        .expect("round 1 drawn");
}

/// Round `n`'s seating: the tournament and its tables.
pub async fn seating(
    db: &Db,
    actor: Actor,
    tid: burraco_td::ids::TournamentId,
    n: i32,
) -> (services::Loaded, Vec<services::view::Seating>) {
    let (l, _, tables, _) = services::rounds::seating(db, actor, tid, n, Need::Direct)
        .await
        .expect("seating");
    (l, tables)
}

/// Saves a three-hand sheet NS `ns` – EW `ew` at a table, as the desk would.
pub async fn save_sheet(
    db: &Db,
    actor: Actor,
    tid: burraco_td::ids::TournamentId,
    round: i32,
    table: i32,
    ns: i64,
    ew: i64,
) {
    let sheet = burraco_td::tournament_file::fixtures::simple_sheet(ns, ew, 3);
    services::scoring::save_sheet(
        db,
        actor,
        tid,
        round,
        table,
        services::scoring::SheetInput {
            sheet: sheet.to_score_sheet(),
            accept_mismatch: false,
            accept_time_out: false,
            reason: String::new(),
            version: None,
        },
    )
    .await
    .expect("sheet");
}
