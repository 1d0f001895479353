//! Tournaments: create, read, settings, staff, close.

use crate::ids::TournamentId;
use crate::ids::UserId;
use crate::services::Refusal;
use serde_json::{Map, Value};

use super::audit::{self, Action, Entry};
use super::{check_access, lock, read, Actor, Loaded, Need, ServiceError};
use crate::auth::Role;
use crate::db::tournaments::{self as tdb};
use crate::db::{Db, DbConn};
use crate::services::view::Tournament;
use crate::tournament::settings::{Settings, SettingsForm};
use crate::tournament::{FieldProblem, Status};

/// The settings as the audit log keeps them (the form's fields).
fn settings_values(s: &Settings, tz: chrono_tz::Tz) -> Map<String, Value> {
    match serde_json::to_value(SettingsForm::from_settings(s, tz)) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    }
}

/// The tournaments the actor may see: all for an admin, their own and
/// co-directed ones for a director, assigned ones for a referee (all when
/// the admin setting says so).
pub async fn list(db: &Db, actor: Actor) -> Result<Vec<Tournament>, ServiceError> {
    db.read(move |c| {
        let all = tdb::list(c)?;
        if actor.role == Role::Admin {
            return all.iter().map(Tournament::of).collect();
        }
        let mut out = Vec::new();
        for t in all {
            let need = if actor.role.allows(Role::Director) {
                Need::Direct
            } else {
                Need::Referee
            };
            match check_access(c, &actor, &t, need) {
                Ok(()) => out.push(t),
                Err(ServiceError::NotFound) if need == Need::Direct => {
                    // A director may also referee a tournament.
                    if check_access(c, &actor, &t, Need::Referee).is_ok() {
                        out.push(t);
                    }
                }
                Err(ServiceError::NotFound) => {}
                Err(e) => return Err(e),
            }
        }
        out.iter().map(Tournament::of).collect()
    })
    .await
}

/// The front page: whether anyone has an account yet (a fresh installation
/// leads to the setup page), and every tournament, newest first.
pub async fn front_page(db: &Db) -> Result<(bool, Vec<Tournament>), ServiceError> {
    db.read(|c| {
        let any_user = crate::db::users::count(c)? > 0;
        let all = tdb::list(c)?
            .iter()
            .map(Tournament::of)
            .collect::<Result<Vec<_>, _>>()?;
        Ok((any_user, all))
    })
    .await
}

/// Whether the database answers (the health check), within its pool's wait.
pub async fn database_answers(db: &Db) -> bool {
    db.read(|c| -> Result<(), ServiceError> { Ok(crate::db::ping(c)?) })
        .await
        .is_ok()
}

/// A tournament with its pairs and rounds, if the actor may see it.
pub async fn load(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    need: Need,
) -> Result<Loaded, ServiceError> {
    db.read(move |c| read(c, &actor, tid, need)).await
}

/// Whether the actor directs the tournament (its imports take large
/// bodies only from its directors): `NotFound` when the tournament is not
/// hers (or does not exist), as every director's page answers.
pub async fn may_direct(db: &Db, actor: Actor, tid: TournamentId) -> Result<(), ServiceError> {
    db.read(move |c| {
        let t = tdb::find(c, tid)?.ok_or(ServiceError::NotFound)?;
        check_access(c, &actor, &t, Need::Direct)
    })
    .await
}

/// The movement fields a kind decides itself: a team tournament's rounds
/// are round robin then Danish (its Teams page), the pairs' Mitchell count
/// following the planned rounds; an individual tournament draws round 1
/// and seats the others Danish (RULES.md §14: no Mitchell, no groups, no
/// modified Danish).
fn shape_form(kind: crate::tournament_file::FileKind, form: &mut SettingsForm) {
    match kind {
        crate::tournament_file::FileKind::Teams => {
            form.mitchell_rounds = form.planned_rounds.clone();
        }
        crate::tournament_file::FileKind::Individual => {
            form.mitchell_rounds = "1".into();
            form.danish_form = "pure".into();
            form.group_rounds = "0".into();
        }
        crate::tournament_file::FileKind::Pairs => {}
    }
}

/// Creates a tournament owned by the actor.
pub async fn create(
    db: &Db,
    actor: Actor,
    form: SettingsForm,
    tz: chrono_tz::Tz,
) -> Result<TournamentId, ServiceError> {
    if !actor.role.allows(Role::Director) {
        return Err(ServiceError::Forbidden);
    }
    let kind = match form.kind.trim() {
        "" | "pairs" => Some(crate::tournament_file::FileKind::Pairs),
        "teams" => Some(crate::tournament_file::FileKind::Teams),
        "individual" => Some(crate::tournament_file::FileKind::Individual),
        _ => None,
    };
    let mut form = form;
    if let Some(kind) = kind {
        shape_form(kind, &mut form);
    }
    let settings = Settings::parse(&form, tz).map_err(ServiceError::Invalid)?;
    let kind = kind.ok_or_else(|| ServiceError::invalid("kind", "teams.error.kind"))?;
    db.write_at(move |c, now| {
        let id = tdb::create(c, &settings, actor.user_id, now)?;
        crate::db::online_entries::save_switches(c, id, &settings.online)?;
        if kind == crate::tournament_file::FileKind::Teams {
            let setup = super::teams::parse_setup(&super::teams::SetupForm::default())
                .map_err(ServiceError::Invalid)?;
            super::teams::write_setup(c, id, &setup, now)?;
        }
        if kind == crate::tournament_file::FileKind::Individual {
            super::individual::make_individual(c, id, now)?;
        }
        audit::record(
            c,
            id,
            &actor,
            Entry::new(Action::TournamentCreated).after(settings_values(&settings, tz)),
            now,
        )?;
        Ok(id)
    })
    .await
}

/// A running tournament's plan may change only in the rounds not yet
/// seated: its rounds in groups must all come after them, and once cut the
/// groups stay as they are.
fn check_plan_against_rounds(l: &Loaded, s: &Settings) -> Result<(), ServiceError> {
    let seated = u32::try_from(l.rounds.len()).unwrap_or(u32::MAX);
    if l.cut_made() {
        return Ok(());
    }
    match &s.groups {
        Some(g) if g.first_round(s.planned_rounds) <= seated => {
            Err(ServiceError::Invalid(vec![FieldProblem::new(
                "group_rounds",
                "settings.error.group_rounds_seated",
            )
            .with("seated", seated)
            .with("max", s.planned_rounds.saturating_sub(seated))]))
        }
        _ => Ok(()),
    }
}

/// Saves the settings. Once round 1 is drawn the game-shaping fields keep
/// their saved values whatever the form says; a closed tournament is
/// read-only.
pub async fn update_settings(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    form: SettingsForm,
    tz: chrono_tz::Tz,
) -> Result<(), ServiceError> {
    db.write_at(move |c, now| {
        let l = lock(c, &actor, tid, Need::Direct)?;
        l.ensure_not_finished()?;
        let saved = SettingsForm::from_settings(&l.settings, tz);
        let mut form = if l.status() == Status::Draft {
            form
        } else {
            form.with_locked_fields_of(&saved, l.cut_made())
        };
        shape_form(l.t.kind, &mut form);
        let settings = Settings::parse(&form, tz).map_err(ServiceError::Invalid)?;
        check_plan_against_rounds(&l, &settings)?;
        tdb::update_settings(c, tid, &settings, now)?;
        crate::db::online_entries::save_switches(c, tid, &settings.online)?;
        audit::record(
            c,
            tid,
            &actor,
            Entry::new(Action::SettingsChanged)
                .before(settings_values(&l.settings, tz))
                .after(settings_values(&settings, tz))
                .changes_only(),
            now,
        )?;
        Ok(())
    })
    .await
}

/// Closes the tournament: final standings. Every table of every round must
/// have a score.
pub async fn close(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    seen: Option<i64>,
) -> Result<(), ServiceError> {
    db.write_at(move |c, now| {
        let l = lock(c, &actor, tid, Need::Direct)?;
        l.ensure_seen(seen)?;
        check_close(c, &l)?;
        tdb::finish(c, tid, actor.user_id, now)?;
        Ok(())
    })
    .await
}

/// Whether the tournament can close now: it runs and every table of every
/// round has a counted sheet or an adjusted score (the one precondition of
/// the confirmation page and the action).
fn check_close(c: &mut DbConn, l: &Loaded) -> Result<(), ServiceError> {
    if l.status() != Status::Running {
        return Err(ServiceError::refused(Refusal::CloseNotRunning));
    }
    for r in &l.rounds {
        let missing = super::unscored::tables_without_score(c, r.id)?;
        if !missing.is_empty() {
            return Err(super::unscored::tables_missing(
                Refusal::CloseMissing,
                r.number,
                &missing,
            ));
        }
    }
    Ok(())
}

/// The tournament and whether it can close now, or why not (the
/// confirmation page).
pub async fn plan_close(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
) -> Result<(Loaded, Result<(), ServiceError>), ServiceError> {
    db.read(move |c| {
        let l = super::read(c, &actor, tid, Need::Direct)?;
        let plan = check_close(c, &l);
        Ok((l, plan))
    })
    .await
}

/// Reopens a closed tournament (a correction after the close), with the
/// reason on the record.
pub async fn reopen(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    reason: String,
) -> Result<(), ServiceError> {
    let reason = crate::tournament::text::clean_reason("reason", &reason, "reopen.error.reason")
        .map_err(|p| ServiceError::Invalid(vec![p]))?;
    db.write_at(move |c, now| {
        let l = lock(c, &actor, tid, Need::Direct)?;
        if l.status() != Status::Finished {
            return Err(ServiceError::refused(Refusal::ReopenNotFinished));
        }
        tdb::set_status(c, tid, Status::Running, now)?;
        audit::record(
            c,
            tid,
            &actor,
            Entry::new(Action::TournamentReopened).reason(reason),
            now,
        )
    })
    .await
}

/// A member of a tournament's staff.
#[derive(Debug, Clone)]
pub struct StaffMember {
    pub user_id: UserId,
    pub username: String,
    pub role: Role,
}

impl StaffMember {
    pub fn role_key(&self) -> &'static str {
        match self.role {
            Role::Director => "role.director",
            Role::Referee => "role.referee",
            Role::Admin => "role.admin",
        }
    }
}

/// The owner's name (None for an imported tournament whose owner is gone).
pub async fn owner_name(db: &Db, t: &Tournament) -> Result<Option<String>, ServiceError> {
    let Some(owner) = t.created_by else {
        return Ok(None);
    };
    db.read(move |c| Ok(crate::db::users::find(c, owner)?.map(|u| u.username)))
        .await
}

/// The tournament's co-directors and referees.
pub async fn staff(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
) -> Result<Vec<StaffMember>, ServiceError> {
    db.read(move |c| {
        read(c, &actor, tid, Need::Direct)?;
        let rows = crate::db::staff::list(c, tid)?;
        Ok(rows
            .into_iter()
            .map(|(user_id, username, role)| StaffMember {
                user_id,
                username,
                role,
            })
            .collect())
    })
    .await
}

/// The active accounts that could join the tournament's staff (directors
/// and referees, not the owner, not already on it): the staff form's
/// picker. (username, role)
pub async fn staff_candidates(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
) -> Result<Vec<(String, Role)>, ServiceError> {
    db.read(move |c| {
        let l = read(c, &actor, tid, Need::Direct)?;
        let on = crate::db::staff::user_ids(c, tid)?;
        Ok(crate::db::users::list(c)?
            .into_iter()
            .filter(|u| u.active && Some(u.id) != l.t.created_by && !on.contains(&u.id))
            .map(|u| (u.username.clone(), u.role()))
            .filter(|(_, r)| matches!(r, Role::Director | Role::Referee))
            .collect())
    })
    .await
}

/// Adds a co-director (owner or admin only) or a referee (any director of
/// the tournament) by username.
pub async fn add_staff(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    username: String,
    role: Role,
) -> Result<(), ServiceError> {
    db.write_at(move |c, now| {
        let l = lock(c, &actor, tid, Need::Direct)?;
        l.ensure_not_finished()?;
        let owner = l.t.created_by == Some(actor.user_id) || actor.role == Role::Admin;
        if role == Role::Director && !owner {
            return Err(ServiceError::Forbidden);
        }
        // Usernames are kept in lower case: `Dora` finds `dora`.
        let username = crate::tournament::text::clean_line("username", &username, 64)
            .map_err(|p| ServiceError::Invalid(vec![p]))?
            .to_ascii_lowercase();
        let user = crate::db::users::find_by_username(c, &username)?
            .filter(|u| u.active)
            .ok_or_else(|| ServiceError::invalid("username", "staff.error.no_user"))?;
        let user_role = user.role();
        let fits = match role {
            Role::Director => user_role == Role::Director,
            Role::Referee => user_role.allows(Role::Referee) && user_role != Role::Admin,
            Role::Admin => false,
        };
        if !fits {
            return Err(ServiceError::Invalid(vec![FieldProblem::new(
                "username",
                "staff.error.wrong_role",
            )]));
        }
        if l.t.created_by == Some(user.id) {
            return Err(ServiceError::invalid("username", "staff.error.owner"));
        }
        crate::db::staff::put(c, tid, user.id, role, actor.user_id, now)?;
        audit::record(
            c,
            tid,
            &actor,
            Entry::new(Action::StaffAdded).after(audit::values([
                ("user", Value::from(user.username)),
                ("role", Value::from(role.as_str())),
            ])),
            now,
        )
    })
    .await
}

/// Removes a member of the staff.
pub async fn remove_staff(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    user_id: UserId,
) -> Result<(), ServiceError> {
    db.write_at(move |c, now| {
        let l = lock(c, &actor, tid, Need::Direct)?;
        let row = crate::db::staff::member(c, tid, user_id)?;
        let Some((username, role)) = row else {
            return Err(ServiceError::NotFound);
        };
        let owner = l.t.created_by == Some(actor.user_id) || actor.role == Role::Admin;
        if role == Role::Director && !owner {
            return Err(ServiceError::Forbidden);
        }
        crate::db::staff::remove(c, tid, user_id)?;
        audit::record(
            c,
            tid,
            &actor,
            Entry::new(Action::StaffRemoved).before(audit::values([
                ("user", Value::from(username)),
                ("role", Value::from(role.as_str())),
            ])),
            now,
        )
    })
    .await
}

/// A tournament as the public sees it (no login): settings, pairs, rounds.
pub async fn public(db: &Db, tid: TournamentId) -> Result<Loaded, ServiceError> {
    db.read(move |c| {
        let t = tdb::find(c, tid)?.ok_or(ServiceError::NotFound)?;
        super::load_state(c, t)
    })
    .await
}

/// A tournament on a staff member's home page: the rounds it has (for the
/// desk's links) and whether the member may direct it.
#[derive(Debug, Clone)]
pub struct HomeEntry {
    pub t: Tournament,
    pub rounds: Vec<i32>,
    pub directs: bool,
    /// Tables whose players disagree on the sheet (round, table): a
    /// referee's to settle, nothing counts there until she does.
    pub disputed: Vec<(i32, i32)>,
}

/// The tournaments the actor works on, newest first, with their rounds.
pub async fn staff_home(db: &Db, actor: Actor) -> Result<Vec<HomeEntry>, ServiceError> {
    let list = list(db, actor).await?;
    db.read(move |c| {
        list.into_iter()
            .map(|t| {
                let round_rows = crate::db::rounds::list_rounds(c, t.id)?;
                let rounds = round_rows.iter().map(|r| r.number).collect();
                let directs = check_access(c, &actor, &t, Need::Direct).is_ok();
                let mut disputed = Vec::new();
                if t.status == Status::Running {
                    for r in &round_rows {
                        let entries = crate::db::table_side::entries_of_round(c, r.id)?;
                        for (seating, sheet) in crate::db::export::round_tables(c, r.id)? {
                            let entry = entries.iter().find(|e| e.seating_id == seating.id);
                            if super::board::DeskState::of(sheet.as_ref(), entry)
                                == super::board::DeskState::Disputed
                            {
                                disputed.push((r.number, seating.table_no));
                            }
                        }
                    }
                }
                Ok(HomeEntry {
                    t,
                    rounds,
                    directs,
                    disputed,
                })
            })
            .collect()
    })
    .await
}
