//! Entries online (issue 36): the public form's entries, confirmed in
//! arrival order up to the capacity and waiting after it; withdrawals that
//! confirm the first waiting entry at once; the director's waiting list.
//!
//! Every use case locks the tournament first (`bump`: a row lock on
//! PostgreSQL, the write lock on SQLite) and re-reads the entries inside
//! the transaction, so that a burst of entries for the last places, on any
//! number of instances, confirms exactly the capacity in arrival order.
//! A confirmed entry *is* a registration: its pair is added like one the
//! director types, and a withdrawal before the start deletes it.

use chrono::NaiveDateTime;
use serde_json::{Map, Value};

use super::audit::{self, Action, Entry};
pub use super::mail::{Notice, NoticeKind};
use super::{bump, load_state, Loaded, Refusal, ServiceError};
use crate::db::online_entries::{self as odb, EntryRow, Holder, NewEntry};
use crate::db::{Db, DbConn};
use crate::ids::{PairId, TournamentId};
use crate::tournament::online::{Entrant, EntryForm, EntryIn, EntryStatus};
use crate::tournament::pairs::{PairEntry, Player};
use crate::tournament::Status;

/// What a new entry became.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placed {
    /// Confirmed: its pair's number.
    Confirmed(i32),
    /// Waiting: its place in the list (1 = next).
    Waiting(usize),
}

/// An entry as its private link shows it.
#[derive(Debug, Clone)]
pub struct EntryState {
    pub tournament: TournamentId,
    pub tournament_name: String,
    pub status: EntryStatus,
    pub number: Option<i32>,
    pub position: Option<usize>,
    /// A team entry's name ('' for a pair).
    pub team_name: String,
    pub players: Vec<Player>,
}

/// A new entry's answer: its token, where it stands, whom to tell.
#[derive(Debug, Clone)]
pub struct Submitted {
    pub token: String,
    pub placed: Placed,
    pub notices: Vec<Notice>,
}

fn new_token() -> String {
    use rand::RngCore;
    let mut bytes = [0u8; 24];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

fn players_json(players: &[Player]) -> String {
    let v: Vec<Value> = players
        .iter()
        .map(|p| {
            serde_json::json!({"surname": p.surname(), "name": p.name(),
                "card": p.card(), "club": p.club()})
        })
        .collect();
    Value::Array(v).to_string()
}

fn players_of(row: &EntryRow) -> Result<Vec<Player>, ServiceError> {
    let v: Vec<Map<String, Value>> = serde_json::from_str(&row.players)
        .map_err(|e| ServiceError::corrupt(format!("online entry {}: players: {e}", row.id)))?;
    let s = |m: &Map<String, Value>, k: &str| {
        m.get(k)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string()
    };
    Ok(v.iter()
        .map(|m| {
            Player::from_stored(
                &s(m, "surname"),
                &s(m, "name"),
                &s(m, "card"),
                &s(m, "club"),
            )
        })
        .collect())
}

/// Who an entry enters: a team when it has a team's name, a player alone
/// when it has one player, else a pair.
pub(super) fn entrant_of(row: &EntryRow) -> Result<Entrant, ServiceError> {
    let mut players = players_of(row)?;
    if !row.team_name.is_empty() {
        return Ok(Entrant::Team {
            name: row.team_name.clone(),
            players,
        });
    }
    if players.len() == 1 {
        return Ok(Entrant::Player(players.remove(0)));
    }
    match <[Player; 2]>::try_from(players) {
        Ok(players) => Ok(Entrant::Pair(PairEntry { players })),
        Err(_) => Err(ServiceError::corrupt(format!(
            "online entry {}: not a pair",
            row.id
        ))),
    }
}

pub(super) fn status_of(row: &EntryRow) -> Result<EntryStatus, ServiceError> {
    EntryStatus::parse(&row.status)
        .ok_or_else(|| ServiceError::corrupt(format!("online entry {}: status", row.id)))
}

/// The places taken: the registrations (pairs, teams or players) that
/// hold their players.
fn holding(c: &mut DbConn, l: &Loaded) -> Result<usize, ServiceError> {
    Ok(live_players(c, l)?.len())
}

/// The players of each registration that holds its players (a pair, a
/// team or a player alone, by the tournament's kind).
fn live_players(c: &mut DbConn, l: &Loaded) -> Result<Vec<Vec<Player>>, ServiceError> {
    if l.t.is_individual() {
        return Ok(crate::db::individual::list_players(c, l.t.id)?
            .iter()
            .filter(|p| !p.no_show && p.withdrawn_from_round.is_none())
            .map(|p| vec![p.player()])
            .collect());
    }
    if l.t.is_teams() {
        return Ok(crate::db::teams::live_teams(c, l.t.id)?
            .into_iter()
            .map(|(_, players)| players)
            .collect());
    }
    Ok(l.pairs
        .iter()
        .filter(|p| !p.no_show && p.withdrawn_from_round.is_none())
        .map(|p| p.entry().players.to_vec())
        .collect())
}

/// The waiting entries in order.
pub(super) fn waiting(rows: &[EntryRow]) -> impl Iterator<Item = &EntryRow> {
    rows.iter()
        .filter(|r| r.status == EntryStatus::Waiting.code())
}

pub(super) fn position_in(rows: &[EntryRow], id: i64) -> Option<usize> {
    waiting(rows).position(|r| r.id == id).map(|i| i + 1)
}

/// Locks a tournament for a public entry (no access check: the form is
/// public).
fn lock_public(c: &mut DbConn, tid: TournamentId) -> Result<Loaded, ServiceError> {
    let t = bump(c, tid)?;
    load_state(c, t)
}

/// The player of `entry` who already holds a live entry or a registration.
fn already_in(
    c: &mut DbConn,
    l: &Loaded,
    rows: &[EntryRow],
    entry: &Entrant,
) -> Result<Option<String>, ServiceError> {
    let mut others = live_players(c, l)?;
    for r in waiting(rows) {
        others.push(players_of(r)?);
    }
    Ok(entry.clashes_with(others.iter().map(Vec::as_slice)))
}

fn entered_notice(l: &Loaded, email: &str, token: &str, kind: NoticeKind) -> Vec<Notice> {
    if email.is_empty() {
        return Vec::new();
    }
    vec![Notice {
        tournament: l.t.id,
        email: email.to_string(),
        token: token.to_string(),
        kind,
        tournament_name: l.settings.name.clone(),
    }]
}

/// Takes an entry from the public form: refused when entries are closed
/// or one of its players is in already; confirmed while there is room,
/// waiting after.
pub async fn submit(
    db: &Db,
    tid: TournamentId,
    form: EntryForm,
) -> Result<Submitted, ServiceError> {
    let clock = db.clock().clone();
    db.write(move |c| {
        let now = clock.now();
        let l = lock_public(c, tid)?;
        if !l.settings.online.open(now, l.status() != Status::Draft) {
            return Err(Refusal::EntriesClosed.into());
        }
        let parsed = if l.t.is_teams() {
            form.parse_team()
        } else if l.t.is_individual() {
            form.parse_player()
        } else {
            form.parse_pair()
        };
        let EntryIn {
            entrant,
            email,
            phone,
        } = parsed.map_err(ServiceError::Invalid)?;
        if l.settings.online.member_check {
            super::members::check_entry(c, &l, entrant.players())?;
        }
        let rows = odb::list(c, tid)?;
        if let Some(who) = already_in(c, &l, &rows, &entrant)? {
            return Err(ServiceError::refused_with(
                Refusal::AlreadyEntered,
                vec![("player", who)],
            ));
        }
        let token = new_token();
        let confirmed = l.settings.online.has_room(holding(c, &l)?);
        let registered = if confirmed {
            Some(register(c, tid, &entrant, now)?)
        } else {
            None
        };
        let status = if confirmed {
            EntryStatus::Confirmed
        } else {
            EntryStatus::Waiting
        };
        let id = odb::insert(
            c,
            &NewEntry {
                tid,
                token: &token,
                status: status.code(),
                holder: registered.map(|r| r.0).unwrap_or_default(),
                team_name: entrant.team_name(),
                players: &players_json(entrant.players()),
                email: &email,
                phone: &phone,
            },
            now,
        )?;
        let placed = match registered {
            Some((_, number)) => Placed::Confirmed(number),
            None => {
                let rows = odb::list(c, tid)?;
                Placed::Waiting(position_in(&rows, id).unwrap_or(1))
            }
        };
        let mut after = entrant_values(&entrant);
        after.insert("status".into(), Value::from(status.code()));
        if let Placed::Confirmed(n) = placed {
            after.insert("number".into(), Value::from(n));
        }
        audit::record_anonymous(c, tid, Entry::new(Action::EntryOnline).after(after), now)?;
        let notices = entered_notice(&l, &email, &token, NoticeKind::Entered);
        let notices = super::mail::queue(c, notices, now)?;
        Ok(Submitted {
            token,
            placed,
            notices,
        })
    })
    .await
}

/// An entrant as the audit log shows it: the pair form's fields, or the
/// team's name and players.
pub(super) fn entrant_values(e: &Entrant) -> Map<String, Value> {
    match e {
        Entrant::Pair(p) => match serde_json::to_value(p.to_form()) {
            Ok(Value::Object(m)) => m,
            _ => Map::new(),
        },
        Entrant::Team { name, players } => audit::values([
            ("team", Value::from(name.clone())),
            (
                "players",
                Value::from(players.iter().map(Player::full_name).collect::<Vec<_>>()),
            ),
        ]),
        Entrant::Player(p) => audit::values([("player", Value::from(p.full_name()))]),
    }
}

/// The registration an entry became, and its number.
type Registered = (Holder, i32);

/// Registers a confirmed entry: its pair, team or player, with the next
/// number.
fn register(
    c: &mut DbConn,
    tid: TournamentId,
    entrant: &Entrant,
    now: NaiveDateTime,
) -> Result<Registered, ServiceError> {
    match entrant {
        Entrant::Pair(pair) => {
            let (id, number) = add_pair(c, tid, pair, now)?;
            let pair = Some(id.0);
            Ok((
                Holder {
                    pair,
                    ..Holder::default()
                },
                number,
            ))
        }
        Entrant::Team { name, players } => {
            let (id, number) = crate::db::teams::insert_team(c, tid, name, players, false, now)?;
            let team = Some(id.0);
            Ok((
                Holder {
                    team,
                    ..Holder::default()
                },
                number,
            ))
        }
        Entrant::Player(p) => {
            let (id, number) =
                crate::db::individual::insert_players(c, tid, std::slice::from_ref(p), now)?
                    .first()
                    .copied()
                    .ok_or_else(|| ServiceError::corrupt("player not inserted"))?;
            let player = Some(id.0);
            Ok((
                Holder {
                    player,
                    ..Holder::default()
                },
                number,
            ))
        }
    }
}

/// Registers a confirmed entry's pair (the next number).
fn add_pair(
    c: &mut DbConn,
    tid: TournamentId,
    pair: &PairEntry,
    now: NaiveDateTime,
) -> Result<(PairId, i32), ServiceError> {
    crate::db::pairs::add_pair(c, tid, pair, None, now).map_err(|e| match e {
        crate::db::pairs::PairError::PlayerTaken { player, .. } => {
            ServiceError::refused_with(Refusal::AlreadyEntered, vec![("player", player)])
        }
        crate::db::pairs::PairError::NotFound => ServiceError::NotFound,
        crate::db::pairs::PairError::Db(e) => e.into(),
    })
}

/// An entry by its private token.
pub async fn get(db: &Db, token: String) -> Result<EntryState, ServiceError> {
    db.read(move |c| {
        let row = odb::by_token(c, &token)?.ok_or(ServiceError::NotFound)?;
        let t =
            crate::db::tournaments::find(c, row.tournament_id)?.ok_or(ServiceError::NotFound)?;
        let l = load_state(c, t)?;
        let rows = odb::list(c, row.tournament_id)?;
        let numbers = holder_numbers(c, &l)?;
        state_of(&l, &numbers, &rows, &row)
    })
    .await
}

/// The numbers of a team tournament's teams, or of an individual
/// tournament's players, by their ids (empty for pairs: they are in the
/// loaded state).
pub(super) fn holder_numbers(c: &mut DbConn, l: &Loaded) -> Result<Vec<(i64, i32)>, ServiceError> {
    if l.t.is_individual() {
        return Ok(crate::db::individual::list_players(c, l.t.id)?
            .iter()
            .map(|p| (p.id.0, p.number))
            .collect());
    }
    if !l.t.is_teams() {
        return Ok(Vec::new());
    }
    Ok(crate::db::teams::list_teams(c, l.t.id)?
        .iter()
        .map(|t| (t.id.0, t.number))
        .collect())
}

pub(super) fn state_of(
    l: &Loaded,
    numbers: &[(i64, i32)],
    rows: &[EntryRow],
    row: &EntryRow,
) -> Result<EntryState, ServiceError> {
    let status = status_of(row)?;
    let number = match row.team_id.or(row.player_id) {
        Some(holder) => numbers
            .iter()
            .find(|(id, _)| *id == holder)
            .map(|(_, n)| *n),
        None => row
            .pair_id
            .and_then(|p| l.pair(Some(PairId(p))))
            .map(|p| p.number),
    };
    Ok(EntryState {
        tournament: row.tournament_id,
        tournament_name: l.settings.name.clone(),
        status,
        number: number.filter(|_| status == EntryStatus::Confirmed),
        position: position_in(rows, row.id),
        team_name: row.team_name.clone(),
        players: players_of(row)?,
    })
}

/// Confirms waiting entries, first first, while there is room; whom to
/// tell.
fn move_up(
    c: &mut DbConn,
    tid: TournamentId,
    now: NaiveDateTime,
) -> Result<Vec<Notice>, ServiceError> {
    let mut notices = Vec::new();
    // An entry one of whose players the director registered meanwhile
    // cannot be confirmed: it keeps its place (the director decides) and
    // the next one moves up instead.
    let mut passed_over: Vec<i64> = Vec::new();
    loop {
        let t = crate::db::tournaments::find(c, tid)?.ok_or(ServiceError::NotFound)?;
        let l = load_state(c, t)?;
        if !l.settings.online.has_room(holding(c, &l)?) {
            return Ok(notices);
        }
        let rows = odb::list(c, tid)?;
        let Some(next) = waiting(&rows).find(|r| !passed_over.contains(&r.id)) else {
            return Ok(notices);
        };
        if already_in(c, &l, &[], &entrant_of(next)?)?.is_some() {
            passed_over.push(next.id);
            continue;
        }
        notices.extend(confirm_row(c, &l, next, now)?);
    }
}

pub(super) fn confirm_row(
    c: &mut DbConn,
    l: &Loaded,
    row: &EntryRow,
    now: NaiveDateTime,
) -> Result<Vec<Notice>, ServiceError> {
    let entrant = entrant_of(row)?;
    let (holder, number) = register(c, row.tournament_id, &entrant, now)?;
    odb::set_status(c, row.id, EntryStatus::Confirmed.code(), holder, now)?;
    let mut after = entrant_values(&entrant);
    after.insert("number".into(), Value::from(number));
    audit::record_anonymous(
        c,
        row.tournament_id,
        Entry::new(Action::EntryMovedUp).after(after),
        now,
    )?;
    Ok(entered_notice(
        l,
        &row.email,
        &row.token,
        NoticeKind::Confirmed,
    ))
}

/// Withdraws an entry by its private token (before the start): a
/// confirmed entry's pair (team, player) is deleted and the first waiting entry confirmed
/// at once. Withdrawing twice is the same as once.
pub async fn withdraw(db: &Db, token: String) -> Result<Vec<Notice>, ServiceError> {
    let clock = db.clock().clone();
    db.write(move |c| {
        let now = clock.now();
        let found = odb::by_token(c, &token)?.ok_or(ServiceError::NotFound)?;
        let tid = found.tournament_id;
        let t = bump(c, tid)?;
        let l = load_state(c, t)?;
        // Re-read under the lock: a twin withdrawal may have come first.
        let row = odb::by_token(c, &token)?.ok_or(ServiceError::NotFound)?;
        let status = status_of(&row)?;
        if !status.is_live() {
            return Ok(Vec::new());
        }
        if l.status() != Status::Draft {
            return Err(Refusal::EntryWithdrawStarted.into());
        }
        if status == EntryStatus::Confirmed {
            if let Some(pid) = row.pair_id {
                crate::db::pairs::delete_pair(c, tid, PairId(pid))?;
            }
            if let Some(team) = row.team_id {
                crate::db::teams::delete_team(c, tid, crate::ids::TeamId(team))?;
            }
            if let Some(player) = row.player_id {
                let id = crate::ids::IndividualPlayerId(player);
                crate::db::individual::delete_player(c, id)?;
            }
        }
        odb::set_status(c, row.id, EntryStatus::Withdrawn.code(), row.holder(), now)?;
        let mut before = match entrant_of(&row) {
            Ok(e) => entrant_values(&e),
            Err(_) => Map::new(),
        };
        before.insert("status".into(), Value::from(status.code()));
        audit::record_anonymous(
            c,
            tid,
            Entry::new(Action::EntryWithdrawn).before(before),
            now,
        )?;
        let notices = move_up(c, tid, now)?;
        super::mail::queue(c, notices, now)
    })
    .await
}

/// At the start (inside the draw's transaction): the entries still
/// waiting are closed; whom to tell.
pub fn close_waiting_at_start(
    c: &mut DbConn,
    l: &Loaded,
    now: NaiveDateTime,
) -> Result<Vec<Notice>, ServiceError> {
    let closed = odb::close_waiting(c, l.t.id, now)?;
    let notices = closed
        .iter()
        .flat_map(|r| entered_notice(l, &r.email, &r.token, NoticeKind::Closed))
        .collect();
    super::mail::queue(c, notices, now)
}

/// The pair ids of a tournament's confirmed online entries (the pairs
/// page marks them).
pub async fn online_pairs(
    db: &Db,
    tid: TournamentId,
) -> Result<std::collections::HashSet<PairId>, ServiceError> {
    db.read(move |c| {
        Ok(odb::list(c, tid)?
            .iter()
            .filter(|r| r.status == EntryStatus::Confirmed.code())
            .filter_map(|r| r.pair_id.map(PairId))
            .collect())
    })
    .await
}
