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
use super::{bump, check_access, load_state, Actor, Loaded, Need, Refusal, ServiceError};
use crate::db::online_entries::{self as odb, EntryRow, NewEntry};
use crate::db::{Db, DbConn};
use crate::ids::{PairId, TournamentId};
use crate::tournament::online::{EntryForm, EntryStatus, PairEntryIn};
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
    pub players: Vec<Player>,
}

/// An entry in the director's list.
#[derive(Debug, Clone)]
pub struct Listed {
    pub id: i64,
    pub status: EntryStatus,
    pub number: Option<i32>,
    pub position: Option<usize>,
    pub players: Vec<Player>,
    pub email: String,
    pub phone: String,
    /// UTC.
    pub created_at: NaiveDateTime,
}

/// Someone to tell by e-mail, after the commit: the entry's address and
/// private token, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub email: String,
    pub token: String,
    pub kind: NoticeKind,
    pub tournament_name: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoticeKind {
    /// The entry was taken (confirmed or waiting).
    Entered,
    /// Confirmed from the waiting list.
    Confirmed,
    /// Still waiting at the start: the list is closed.
    Closed,
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

fn players_json(p: &PairEntry) -> String {
    let v: Vec<Value> = p
        .players
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

fn pair_of(row: &EntryRow) -> Result<PairEntry, ServiceError> {
    let p = players_of(row)?;
    match <[Player; 2]>::try_from(p) {
        Ok(players) => Ok(PairEntry { players }),
        Err(_) => Err(ServiceError::corrupt(format!(
            "online entry {}: not a pair",
            row.id
        ))),
    }
}

fn status_of(row: &EntryRow) -> Result<EntryStatus, ServiceError> {
    EntryStatus::parse(&row.status)
        .ok_or_else(|| ServiceError::corrupt(format!("online entry {}: status", row.id)))
}

/// The places taken: the registrations that hold their players.
fn holding(l: &Loaded) -> usize {
    l.pairs
        .iter()
        .filter(|p| !p.no_show && p.withdrawn_from_round.is_none())
        .count()
}

/// The waiting entries in order.
fn waiting(rows: &[EntryRow]) -> impl Iterator<Item = &EntryRow> {
    rows.iter()
        .filter(|r| r.status == EntryStatus::Waiting.code())
}

fn position_in(rows: &[EntryRow], id: i64) -> Option<usize> {
    waiting(rows).position(|r| r.id == id).map(|i| i + 1)
}

/// Locks a tournament for a public entry (no access check: the form is
/// public) and refuses a team tournament.
fn lock_public(c: &mut DbConn, tid: TournamentId) -> Result<Loaded, ServiceError> {
    let t = bump(c, tid)?;
    let l = load_state(c, t)?;
    if l.t.is_teams() {
        return Err(Refusal::TeamsNoPairs.into());
    }
    if l.t.is_individual() {
        return Err(Refusal::IndividualNoPairs.into());
    }
    Ok(l)
}

/// Refuses an entry whose card is unknown, expired on the tournament's
/// date or without the right to its level (RULES.md §15), naming the
/// player.
fn check_members(c: &mut DbConn, l: &Loaded, pair: &PairEntry) -> Result<(), ServiceError> {
    use crate::tournament::members::{check_card, CardProblem};
    let date = l.settings.starts_at.date();
    for p in &pair.players {
        let member = match p.card() {
            "" => None,
            card => crate::db::members::find(c, card)?,
        };
        if let Err(why) = check_card(member.as_ref(), date, l.settings.level) {
            let r = match why {
                CardProblem::Unknown => Refusal::MembershipUnknown,
                CardProblem::Expired => Refusal::MembershipExpired,
                CardProblem::Level => Refusal::MembershipLevel,
            };
            return Err(ServiceError::refused_with(
                r,
                vec![("player", p.full_name())],
            ));
        }
    }
    Ok(())
}

/// Imports the member list (an administrator or a director); how many.
pub async fn import_members(
    db: &Db,
    actor: Actor,
    list: Vec<crate::tournament::members::Member>,
) -> Result<usize, ServiceError> {
    if !actor.role.allows(crate::auth::Role::Director) {
        return Err(ServiceError::Forbidden);
    }
    let clock = db.clock().clone();
    db.write(move |c| Ok(crate::db::members::save(c, &list, clock.now())?))
        .await
}

/// The player of `entry` who already holds a live entry or a registration.
fn already_in(
    l: &Loaded,
    rows: &[EntryRow],
    entry: &PairEntry,
) -> Result<Option<String>, ServiceError> {
    let mut others: Vec<PairEntry> = l
        .pairs
        .iter()
        .filter(|p| !p.no_show && p.withdrawn_from_round.is_none())
        .map(|p| p.entry())
        .collect();
    for r in rows
        .iter()
        .filter(|r| r.status == EntryStatus::Waiting.code())
    {
        others.push(pair_of(r)?);
    }
    Ok(entry
        .clashes_with(others.iter())
        .map(|(_, who)| who.to_string()))
}

fn entered_notice(l: &Loaded, email: &str, token: &str, kind: NoticeKind) -> Vec<Notice> {
    if email.is_empty() {
        return Vec::new();
    }
    vec![Notice {
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
        let PairEntryIn { pair, email, phone } =
            form.parse_pair().map_err(ServiceError::Invalid)?;
        if l.settings.online.member_check {
            check_members(c, &l, &pair)?;
        }
        let rows = odb::list(c, tid)?;
        if let Some(who) = already_in(&l, &rows, &pair)? {
            return Err(ServiceError::refused_with(
                Refusal::AlreadyEntered,
                vec![("player", who)],
            ));
        }
        let token = new_token();
        let confirmed = l.settings.online.has_room(holding(&l));
        let pair_id = if confirmed {
            Some(add_pair(c, tid, &pair, now)?)
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
                pair_id: pair_id.map(|p| p.0 .0),
                players: &players_json(&pair),
                email: &email,
                phone: &phone,
            },
            now,
        )?;
        let placed = match pair_id {
            Some((_, number)) => Placed::Confirmed(number),
            None => {
                let rows = odb::list(c, tid)?;
                Placed::Waiting(position_in(&rows, id).unwrap_or(1))
            }
        };
        let mut after = pair_values(&pair);
        after.insert("status".into(), Value::from(status.code()));
        if let Placed::Confirmed(n) = placed {
            after.insert("number".into(), Value::from(n));
        }
        audit::record_anonymous(c, tid, Entry::new(Action::EntryOnline).after(after), now)?;
        let notices = entered_notice(&l, &email, &token, NoticeKind::Entered);
        Ok(Submitted {
            token,
            placed,
            notices,
        })
    })
    .await
}

fn pair_values(p: &PairEntry) -> Map<String, Value> {
    match serde_json::to_value(p.to_form()) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
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
        state_of(&l, &rows, &row)
    })
    .await
}

fn state_of(l: &Loaded, rows: &[EntryRow], row: &EntryRow) -> Result<EntryState, ServiceError> {
    let status = status_of(row)?;
    Ok(EntryState {
        tournament: row.tournament_id,
        tournament_name: l.settings.name.clone(),
        status,
        number: row
            .pair_id
            .and_then(|p| l.pair(Some(PairId(p))))
            .map(|p| p.number)
            .filter(|_| status == EntryStatus::Confirmed),
        position: position_in(rows, row.id),
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
    loop {
        let t = crate::db::tournaments::find(c, tid)?.ok_or(ServiceError::NotFound)?;
        let l = load_state(c, t)?;
        if !l.settings.online.has_room(holding(&l)) {
            return Ok(notices);
        }
        let rows = odb::list(c, tid)?;
        let Some(first) = waiting(&rows).next() else {
            return Ok(notices);
        };
        notices.extend(confirm_row(c, &l, first, now)?);
    }
}

fn confirm_row(
    c: &mut DbConn,
    l: &Loaded,
    row: &EntryRow,
    now: NaiveDateTime,
) -> Result<Vec<Notice>, ServiceError> {
    let pair = pair_of(row)?;
    let (pid, number) = add_pair(c, row.tournament_id, &pair, now)?;
    odb::set_status(c, row.id, EntryStatus::Confirmed.code(), Some(pid.0), now)?;
    let mut after = pair_values(&pair);
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
/// confirmed entry's pair is deleted and the first waiting entry confirmed
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
        if let Some(pid) = row.pair_id.filter(|_| status == EntryStatus::Confirmed) {
            crate::db::pairs::delete_pair(c, tid, PairId(pid))?;
        }
        odb::set_status(c, row.id, EntryStatus::Withdrawn.code(), row.pair_id, now)?;
        let mut before = match pair_of(&row) {
            Ok(p) => pair_values(&p),
            Err(_) => Map::new(),
        };
        before.insert("status".into(), Value::from(status.code()));
        audit::record_anonymous(
            c,
            tid,
            Entry::new(Action::EntryWithdrawn).before(before),
            now,
        )?;
        move_up(c, tid, now)
    })
    .await
}

/// A tournament's entries for its staff: the confirmed ones, then the
/// waiting list in order, then the rest.
pub async fn list(db: &Db, actor: Actor, tid: TournamentId) -> Result<Vec<Listed>, ServiceError> {
    db.read(move |c| {
        let l = super::read(c, &actor, tid, Need::Referee)?;
        let rows = odb::list(c, tid)?;
        let mut out = Vec::new();
        for r in &rows {
            let s = state_of(&l, &rows, r)?;
            out.push(Listed {
                id: r.id,
                status: s.status,
                number: s.number,
                position: s.position,
                players: s.players,
                email: r.email.clone(),
                phone: r.phone.clone(),
                created_at: r.created_at,
            });
        }
        let rank = |s: EntryStatus| match s {
            EntryStatus::Confirmed => 0,
            EntryStatus::Waiting => 1,
            _ => 2,
        };
        out.sort_by_key(|e| (rank(e.status), e.number.unwrap_or(0)));
        Ok(out)
    })
    .await
}

/// What the director does with a waiting entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    /// Confirmed now, whatever the capacity.
    Confirm,
    Refuse,
    /// One place up the list.
    Up,
    /// One place down the list.
    Down,
}

/// The director's decision on a waiting entry (audited).
pub async fn decide(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    entry_id: i64,
    decision: Decision,
) -> Result<Vec<Notice>, ServiceError> {
    let clock = db.clock().clone();
    db.write(move |c| {
        let now = clock.now();
        let t = bump(c, tid)?;
        check_access(c, &actor, &t, Need::Direct)?;
        let l = load_state(c, t)?;
        l.ensure_not_finished()?;
        if l.status() != Status::Draft {
            return Err(Refusal::EntriesStarted.into());
        }
        let rows = odb::list(c, tid)?;
        let row = rows
            .iter()
            .find(|r| r.id == entry_id)
            .ok_or(ServiceError::NotFound)?;
        if status_of(row)? != EntryStatus::Waiting {
            return Err(Refusal::EntryNotWaiting.into());
        }
        let mut notices = Vec::new();
        let action = match decision {
            Decision::Confirm => {
                notices = confirm_row(c, &l, row, now)?;
                Action::EntryConfirmed
            }
            Decision::Refuse => {
                odb::set_status(c, row.id, EntryStatus::Refused.code(), None, now)?;
                Action::EntryRefused
            }
            Decision::Up | Decision::Down => {
                let list: Vec<&EntryRow> = waiting(&rows).collect();
                let i = list.iter().position(|r| r.id == entry_id).unwrap_or(0);
                let j = if decision == Decision::Up {
                    i.checked_sub(1)
                } else {
                    Some(i + 1).filter(|j| *j < list.len())
                };
                if let Some(j) = j {
                    odb::set_queue(c, list[i].id, list[j].queue)?;
                    odb::set_queue(c, list[j].id, list[i].queue)?;
                }
                Action::EntryReordered
            }
        };
        let mut after = pair_values(&pair_of(row)?);
        after.insert("position".into(), Value::from(position_in(&rows, entry_id)));
        audit::record(c, tid, &actor, Entry::new(action).after(after), now)?;
        Ok(notices)
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
    Ok(closed
        .iter()
        .flat_map(|r| entered_notice(l, &r.email, &r.token, NoticeKind::Closed))
        .collect())
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
