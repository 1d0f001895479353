//! Use cases: one function each, one transaction each.
//!
//! Every write follows the same beats (ARCHITECTURE.md): lock the tournament
//! (its revision goes up: a row lock on PostgreSQL, the file's write lock on
//! SQLite), re-read and re-check its state *inside* the transaction, call the
//! pure core, write, append the audit entry, return a typed result or a
//! typed [`ServiceError`]. Nothing here knows about HTTP: the web layer
//! parses requests, calls a service and renders what comes back.

pub mod accounts;
pub mod audit;
pub mod board;
pub mod brakes;
pub mod circuits;
pub mod clock;
pub mod directory;
pub mod entries;
pub mod files;
pub mod individual;
pub mod mail;
pub mod members;
pub mod online;
pub mod pairs;
pub mod people;
pub mod players;
pub mod public;
pub mod refusal;
pub mod rounds;
pub mod scoring;
pub mod table_side;
pub mod teams;
pub mod tokens;
pub mod tournaments;
pub mod unscored;
pub mod users;
pub mod view;
pub mod waiting_list;

/// The tournament's current revision (what the public pages are cached
/// by); `None` for no such tournament.
pub async fn current_revision(
    db: &crate::db::Db,
    tid: TournamentId,
) -> Result<Option<i64>, ServiceError> {
    Ok(db.revision(tid).await?)
}

use crate::auth::Role;
use crate::db::tournaments::{self as tdb, TournamentRow};
use crate::db::{DbConn, DbError};
use crate::i18n::{tf, Lang};
use crate::ids::PairId;
use crate::ids::TournamentId;
use crate::ids::UserId;
use crate::movement::MovementError;
use crate::rules::api::InputError;
use crate::tournament::settings::Settings;
use crate::tournament::{FieldProblem, Status};
pub use refusal::Refusal;

/// Who acts: the signed-in staff member (or a token's owner).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Actor {
    pub user_id: UserId,
    pub role: Role,
}

/// What a use case cannot do, said once for every caller.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// Does not exist, or is not the caller's to see.
    #[error("not found")]
    NotFound,
    /// The caller's role does not allow this.
    #[error("not allowed")]
    Forbidden,
    /// Cannot happen now, or not for this caller: a named [`Refusal`] (or
    /// the movement engine's reason).
    #[error("refused: {}", .0.code())]
    Conflict(Conflict),
    /// Input that does not fit, field by field.
    #[error("invalid input: {0:?}")]
    Invalid(Vec<FieldProblem>),
    /// A score sheet that breaks the rules (nothing saved).
    #[error("the sheet breaks the rules")]
    Sheet(Box<SheetRejection>),
    /// A sheet that cannot be read (the rules API's error: the table side).
    #[error("unreadable sheet: {}", .0.message)]
    Unreadable(InputError),
    /// Too many wrong codes from this address: wait (the table side).
    #[error("too many wrong codes")]
    Throttled { wait_seconds: u64 },
    /// A twin submission with the same idempotency key stored its answer
    /// first (internal: the caller answers with the twin's answer).
    #[error("answered already")]
    Replay,
    /// A stored row that cannot be read: named, never skipped.
    #[error("stored data cannot be read: {0}")]
    Corrupt(String),
    #[error(transparent)]
    Db(#[from] DbError),
}

impl From<diesel::result::Error> for ServiceError {
    fn from(e: diesel::result::Error) -> Self {
        ServiceError::Db(DbError::Query(e))
    }
}

impl From<Refusal> for ServiceError {
    fn from(r: Refusal) -> Self {
        ServiceError::refused(r)
    }
}

impl ServiceError {
    /// The database could not be reached in time (the pool's wait ran out):
    /// a 503 to try again, not a fault.
    pub fn is_unavailable(&self) -> bool {
        matches!(self, ServiceError::Db(DbError::Pool(_)))
    }

    /// A refusal whose message has no placeholder.
    pub fn refused(why: Refusal) -> ServiceError {
        ServiceError::Conflict(Conflict::Refused(why, Vec::new()))
    }

    /// A refusal and the placeholders of its message.
    pub fn refused_with(why: Refusal, params: Vec<(&'static str, String)>) -> ServiceError {
        ServiceError::Conflict(Conflict::Refused(why, params))
    }

    /// The refusal, if this is one.
    pub fn refusal(&self) -> Option<Refusal> {
        match self {
            ServiceError::Conflict(c) => c.refusal(),
            _ => None,
        }
    }

    pub fn invalid(field: &'static str, key: &str) -> ServiceError {
        ServiceError::Invalid(vec![FieldProblem::new(field, key)])
    }

    pub fn corrupt(what: impl std::fmt::Display) -> ServiceError {
        ServiceError::Corrupt(what.to_string())
    }
}

/// Why a sheet was not saved: the engine's report, and what else is missing.
#[derive(Debug, Clone)]
pub struct SheetRejection {
    pub report: crate::rules::SheetReport,
    pub problems: Vec<FieldProblem>,
}

/// Why a use case cannot happen now (or not for this caller).
#[derive(Debug, Clone)]
pub enum Conflict {
    /// A named refusal and the placeholders of its message.
    Refused(Refusal, Vec<(&'static str, String)>),
    /// The movement engine's reason (no free seat, round incomplete…): 409.
    Movement(MovementError),
    /// The group plan cannot cut this field (RULES.md §13): 409.
    Groups(crate::movement::groups::GroupPlanError),
}

impl Conflict {
    pub fn message(&self, lang: Lang) -> String {
        match self {
            Conflict::Refused(why, params) => {
                let args: Vec<(&str, &dyn std::fmt::Display)> = params
                    .iter()
                    .map(|(n, v)| (*n, v as &dyn std::fmt::Display))
                    .collect();
                tf(lang, why.key(), &args)
            }
            Conflict::Movement(e) => e.message(lang),
            Conflict::Groups(e) => e.message(lang),
        }
    }

    /// The stable snake_case code (JSON API errors).
    pub fn code(&self) -> std::borrow::Cow<'static, str> {
        match self {
            Conflict::Refused(why, _) => why.code().into(),
            Conflict::Movement(e) => e.code().to_ascii_lowercase().into(),
            Conflict::Groups(e) => e.code().to_ascii_lowercase().into(),
        }
    }

    /// The HTTP status.
    pub fn status(&self) -> u16 {
        match self {
            Conflict::Refused(why, _) => why.status(),
            Conflict::Movement(_) | Conflict::Groups(_) => 409,
        }
    }

    /// The refusal, when it is one (not the movement engine's reason).
    pub fn refusal(&self) -> Option<Refusal> {
        match self {
            Conflict::Refused(why, _) => Some(*why),
            Conflict::Movement(_) | Conflict::Groups(_) => None,
        }
    }
}

/// A tournament with its settings, pairs and rounds, read in one go (the
/// services' views of the rows: `view`).
#[derive(Debug, Clone)]
pub struct Loaded {
    pub t: view::Tournament,
    pub settings: Settings,
    pub status: Status,
    pub pairs: Vec<view::Pair>,
    pub rounds: Vec<view::Round>,
}

impl Loaded {
    pub fn status(&self) -> Status {
        self.status
    }
    pub fn pair(&self, id: Option<PairId>) -> Option<&view::Pair> {
        id.and_then(|id| self.pairs.iter().find(|p| p.id == id))
    }
    /// Whether the field is cut into groups (a round in groups is seated).
    pub fn cut_made(&self) -> bool {
        self.rounds.iter().any(|r| r.movement.in_groups())
    }
    pub fn next_round(&self) -> i32 {
        i32::try_from(self.rounds.len()).unwrap_or(i32::MAX) + 1
    }
    pub fn round(&self, n: i32) -> Option<&view::Round> {
        self.rounds.iter().find(|r| r.number == n)
    }

    /// The pairs a draw of round 1 seats: checked in, not withdrawn, not
    /// marked no-show (the one predicate the confirmation page and the
    /// draw share).
    pub fn drawable(&self) -> impl Iterator<Item = &view::Pair> {
        self.pairs
            .iter()
            .filter(|p| p.checked_in && p.withdrawn_from_round.is_none() && !p.no_show)
    }

    /// Registrations a draw would leave out because they are not checked in.
    pub fn not_checked_in(&self) -> impl Iterator<Item = &view::Pair> {
        self.pairs
            .iter()
            .filter(|p| !p.checked_in && p.withdrawn_from_round.is_none() && !p.no_show)
    }

    /// Refuses a change to a closed tournament.
    pub fn ensure_not_finished(&self) -> Result<(), ServiceError> {
        match self.status {
            Status::Finished => Err(Refusal::Finished.into()),
            _ => Ok(()),
        }
    }

    /// The page that asked for an irreversible action was shown at revision
    /// `seen` (a hidden field of its form): anything written since — a
    /// redraw, a round, a check-in, a sheet — makes it stale. Called right
    /// after [`lock`], which raised the revision by one.
    pub fn ensure_seen(&self, seen: Option<i64>) -> Result<(), ServiceError> {
        match seen {
            Some(r) if r != self.t.revision - 1 => Err(Refusal::Stale.into()),
            _ => Ok(()),
        }
    }

    /// Results change only while the tournament runs.
    pub fn ensure_running(&self) -> Result<(), ServiceError> {
        match self.status {
            Status::Running => Ok(()),
            _ => Err(Refusal::NotRunning.into()),
        }
    }
}

/// A tournament's rows as read (the file's export reads the same rows).
#[derive(Debug, Clone)]
pub struct Rows {
    pub t: TournamentRow,
    pub pairs: Vec<crate::db::pairs::PairRow>,
    pub rounds: Vec<crate::db::rounds::RoundRow>,
    /// A team tournament's teams (none for pairs).
    pub teams: Vec<crate::db::teams::TeamRow>,
    /// Its switches for entries online (issue 36), beside the row.
    pub online: crate::tournament::online::OnlineSwitches,
}

/// Reads a tournament's rows on `conn`.
pub fn load_rows(conn: &mut DbConn, t: TournamentRow) -> Result<Rows, ServiceError> {
    let pairs = crate::db::pairs::list_pairs(conn, t.id)?;
    let rounds = crate::db::rounds::list_rounds(conn, t.id)?;
    let teams = if t.kind == crate::tournament_file::FileKind::Teams {
        crate::db::teams::list_teams(conn, t.id)?
    } else {
        Vec::new()
    };
    let online = crate::db::online_entries::switches(conn, t.id)?;
    Ok(Rows {
        t,
        pairs,
        rounds,
        teams,
        online,
    })
}

impl Loaded {
    /// The state of a tournament from its rows.
    pub fn of(rows: &Rows) -> Result<Loaded, ServiceError> {
        let t = &rows.t;
        let mut settings = t
            .settings()
            .map_err(|e| ServiceError::corrupt(format!("tournament {}: settings: {e}", t.id)))?;
        settings.online = rows.online.clone();
        let t = view::Tournament::of(t)?;
        Ok(Loaded {
            status: t.status,
            t,
            settings,
            pairs: view::pairs(&rows.pairs, &rows.teams),
            rounds: view::rounds(&rows.rounds)?,
        })
    }
}

/// Reads a tournament's state on `conn` (inside the caller's transaction).
pub fn load_state(conn: &mut DbConn, t: TournamentRow) -> Result<Loaded, ServiceError> {
    Loaded::of(&load_rows(conn, t)?)
}

/// What the caller needs on a tournament.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// Run it: settings, pairs, rounds, close (owner, co-directors, admins).
    Direct,
    /// Referee it: the desk, sheets, penalties, the audit log.
    Referee,
}

/// The `app_settings` key that lets every referee work on every tournament.
pub const REFEREES_SEE_ALL: &str = "referees_see_all";

/// Whether every referee works on every tournament (an admin setting; off:
/// referees work on the tournaments they are assigned to).
pub fn referees_see_all(conn: &mut DbConn) -> Result<bool, ServiceError> {
    Ok(crate::db::settings::get(conn, REFEREES_SEE_ALL)?.as_deref() == Some("true"))
}

/// Whose a tournament is: its id and its owner (a row's or a view's).
pub trait Owned {
    fn tournament_id(&self) -> TournamentId;
    fn owner(&self) -> Option<UserId>;
}

impl Owned for TournamentRow {
    fn tournament_id(&self) -> TournamentId {
        self.id
    }
    fn owner(&self) -> Option<UserId> {
        self.created_by
    }
}

impl Owned for view::Tournament {
    fn tournament_id(&self) -> TournamentId {
        self.id
    }
    fn owner(&self) -> Option<UserId> {
        self.created_by
    }
}

/// Whether `actor` may do `need` on `t`. Tournaments of other directors do
/// not exist for the caller (404, not 403: their ids are not confirmed).
pub fn check_access(
    conn: &mut DbConn,
    actor: &Actor,
    t: &impl Owned,
    need: Need,
) -> Result<(), ServiceError> {
    let (tid, owner) = (t.tournament_id(), t.owner());
    if actor.role == Role::Admin {
        return Ok(());
    }
    if owner == Some(actor.user_id) && actor.role.allows(Role::Director) {
        return Ok(());
    }
    let staff = crate::db::staff::role_of(conn, tid, actor.user_id)?;
    let allowed = match (need, staff) {
        (_, Some(Role::Director)) => actor.role.allows(Role::Director),
        (Need::Referee, Some(Role::Referee)) => true,
        (Need::Referee, None) => actor.role == Role::Referee && referees_see_all(conn)?,
        _ => false,
    };
    if allowed {
        Ok(())
    } else {
        Err(ServiceError::NotFound)
    }
}

/// Locks a tournament for a write and returns it, access-checked: its
/// revision goes up first (a row lock on PostgreSQL that later writers wait
/// for; SQLite's write lock is already held by `Db::write`), so everything
/// read afterwards in this transaction is current.
pub fn lock(
    conn: &mut DbConn,
    actor: &Actor,
    tid: TournamentId,
    need: Need,
) -> Result<Loaded, ServiceError> {
    Loaded::of(&lock_rows(conn, actor, tid, need)?)
}

/// [`lock`], the rows as read (for a use case that needs them as well as
/// the state: a team tournament's file).
pub fn lock_rows(
    conn: &mut DbConn,
    actor: &Actor,
    tid: TournamentId,
    need: Need,
) -> Result<Rows, ServiceError> {
    let t = bump(conn, tid)?;
    check_access(conn, actor, &t, need)?;
    load_rows(conn, t)
}

/// Raises a tournament's revision (a row lock on PostgreSQL) and returns
/// the row as it is now. The new revision is published by `Db::write` once
/// the transaction commits: the one place where this process learns of its
/// own writes (public page caches).
pub fn bump(conn: &mut DbConn, tid: TournamentId) -> Result<TournamentRow, ServiceError> {
    if !crate::db::table_side::bump_revision(conn, tid)? {
        return Err(ServiceError::NotFound);
    }
    let t = tdb::find(conn, tid)?.ok_or(ServiceError::NotFound)?;
    crate::db::revisions::note_bump(tid, t.revision);
    Ok(t)
}

/// [`lock`]: the rows as read and the state made of them.
pub fn lock_both(
    conn: &mut DbConn,
    actor: &Actor,
    tid: TournamentId,
    need: Need,
) -> Result<(Rows, Loaded), ServiceError> {
    let rows = lock_rows(conn, actor, tid, need)?;
    let l = Loaded::of(&rows)?;
    Ok((rows, l))
}

/// A write to a running tournament: locked for `need` (see [`lock`]),
/// refused unless it runs, then `f` with the connection, the tournament and
/// the time of the write.
pub async fn write_running<T: Send + 'static>(
    db: &crate::db::Db,
    actor: Actor,
    tid: TournamentId,
    need: Need,
    f: impl FnOnce(&mut DbConn, Loaded, chrono::NaiveDateTime) -> Result<T, ServiceError>
        + Send
        + 'static,
) -> Result<T, ServiceError> {
    db.write_at(move |c, now| {
        let l = lock(c, &actor, tid, need)?;
        l.ensure_running()?;
        f(c, l, now)
    })
    .await
}

/// Reads a tournament, access-checked (no lock).
pub fn read(
    conn: &mut DbConn,
    actor: &Actor,
    tid: TournamentId,
    need: Need,
) -> Result<Loaded, ServiceError> {
    Loaded::of(&read_rows(conn, actor, tid, need)?)
}

/// [`read`], the rows as read.
pub fn read_rows(
    conn: &mut DbConn,
    actor: &Actor,
    tid: TournamentId,
    need: Need,
) -> Result<Rows, ServiceError> {
    let t = tdb::find(conn, tid)?.ok_or(ServiceError::NotFound)?;
    check_access(conn, actor, &t, need)?;
    load_rows(conn, t)
}

/// Sets an application setting (admin only).
pub fn set_app_setting(conn: &mut DbConn, key: &str, value: &str) -> Result<(), ServiceError> {
    Ok(crate::db::settings::set(conn, key, value)?)
}
