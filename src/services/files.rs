//! The tournament file (FORMAT.md): export, standings, import.

use super::{read, Actor, Need, ServiceError};
use crate::auth::Role;
use crate::db::import::ImportError;
use crate::db::{Db, DbConn};
use crate::i18n::Lang;
use crate::ids::TournamentId;
use crate::ids::UserId;
use crate::services::Refusal;
use crate::standings::Standings;
use crate::tournament_file::{AnyTournamentFile, TournamentFile};
use chrono::NaiveDateTime;

/// The tournament as a file, read on `conn`.
pub fn file_of(
    c: &mut DbConn,
    tid: TournamentId,
    tz: chrono_tz::Tz,
) -> Result<TournamentFile, ServiceError> {
    let t = crate::db::tournaments::find(c, tid)?.ok_or(ServiceError::NotFound)?;
    // A team tournament's file is the teams' (`services::teams`): its rows
    // read as a pairs file would name pairs that are line-ups.
    if t.kind == crate::tournament_file::FileKind::Teams {
        return Err(ServiceError::refused(Refusal::TeamsPairsFile));
    }
    // An individual tournament's pairs are its partnerships (issue 35).
    if t.kind == crate::tournament_file::FileKind::Individual {
        return Err(ServiceError::refused(Refusal::IndividualPairsFile));
    }
    let rows = super::load_rows(c, t)?;
    Ok(crate::db::export::load_file_of(
        c,
        None,
        &rows.t,
        &rows.pairs,
        &rows.rounds,
        tz,
    )?)
}

/// The one standings computation over a file; a file the engine refuses is
/// stored data that cannot be read, and says which tournament.
pub fn standings_of_file(
    tid: TournamentId,
    file: &TournamentFile,
    lang: Lang,
) -> Result<Standings, ServiceError> {
    crate::standings::compute_file(file, lang).map_err(|e| {
        ServiceError::corrupt(format!(
            "standings of tournament {tid}: {}",
            e.message(lang)
        ))
    })
}

/// The whole tournament as a file (staff).
pub async fn export(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    tz: chrono_tz::Tz,
) -> Result<TournamentFile, ServiceError> {
    db.read(move |c| {
        read(c, &actor, tid, Need::Direct)?;
        file_of(c, tid, tz)
    })
    .await
}

/// The file and its standings (staff).
pub async fn standings(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    tz: chrono_tz::Tz,
    lang: Lang,
) -> Result<(TournamentFile, Standings), ServiceError> {
    let file = export(db, actor, tid, tz).await?;
    let st = standings_of_file(tid, &file, lang)?;
    Ok((file, st))
}

/// The file and its standings, for public pages (no access check).
pub async fn public_standings(
    db: &Db,
    tid: TournamentId,
    tz: chrono_tz::Tz,
    lang: Lang,
) -> Result<(TournamentFile, Standings), ServiceError> {
    let file = db.read(move |c| file_of(c, tid, tz)).await?;
    let st = standings_of_file(tid, &file, lang)?;
    Ok((file, st))
}

/// Reads and checks a tournament file as strictly as the forms (its sheets
/// through the rules engine); the problems in words, each with its place.
pub fn check_text(json: &str, lang: Lang) -> Result<TournamentFile, Vec<String>> {
    match check_any(json, lang)? {
        AnyTournamentFile::Pairs(f) => Ok(f),
        AnyTournamentFile::Teams(_) => Err(vec![crate::i18n::tf(
            lang,
            "teams.error.team_file_here",
            &[],
        )]),
        AnyTournamentFile::Individual(_) => Err(vec![crate::i18n::tf(
            lang,
            "file.error.individual_not_importable",
            &[],
        )]),
    }
}

/// Reads and checks a tournament file of either kind (pairs or teams) as
/// strictly as the forms; the problems in words, each with its place.
pub fn check_any(json: &str, lang: Lang) -> Result<AnyTournamentFile, Vec<String>> {
    let file = crate::tournament_file::parse_any(json)
        .map_err(|e| vec![format!("{}: {}", e.path(), e.message(lang))])?;
    let refused = |e: crate::standings::StandingsError| match e {
        crate::standings::StandingsError::Invalid(problems) => {
            problems.iter().map(|p| p.line(lang)).collect()
        }
        other => vec![other.message(lang)],
    };
    match &file {
        AnyTournamentFile::Pairs(f) => {
            crate::standings::compute_file(f, lang).map_err(refused)?;
        }
        AnyTournamentFile::Teams(f) => {
            crate::standings::compute_teams_file(f, lang).map_err(refused)?;
        }
        AnyTournamentFile::Individual(f) => {
            crate::standings::compute_individual_file(f, lang).map_err(refused)?;
        }
    }
    Ok(file)
}

/// The whole tournament as a file of its kind (staff).
pub async fn export_any(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    tz: chrono_tz::Tz,
) -> Result<AnyTournamentFile, ServiceError> {
    db.read(move |c| {
        let rows = super::read_rows(c, &actor, tid, Need::Direct)?;
        if rows.t.kind == crate::tournament_file::FileKind::Teams {
            Ok(AnyTournamentFile::Teams(super::teams::export_on(
                c, rows, tz,
            )?))
        } else if rows.t.kind == crate::tournament_file::FileKind::Individual {
            let t = super::individual::loaded(c, rows)?;
            Ok(AnyTournamentFile::Individual(
                super::individual::rounds::file_of_loaded(c, &t, tz)?,
            ))
        } else {
            Ok(AnyTournamentFile::Pairs(file_of(c, tid, tz)?))
        }
    })
    .await
}

/// Writes a checked file of either kind as a new tournament (see
/// [`import`]).
pub async fn import_any(
    db: &Db,
    actor: Actor,
    owner: Option<String>,
    file: AnyTournamentFile,
    tz: chrono_tz::Tz,
) -> Result<TournamentId, ServiceError> {
    match file {
        AnyTournamentFile::Pairs(f) => import(db, actor, owner, f, tz).await,
        // Individual tournaments are not stored yet (issue 35: the web part).
        AnyTournamentFile::Individual(_) => Err(ServiceError::invalid(
            "kind",
            "file.error.individual_not_importable",
        )),
        AnyTournamentFile::Teams(f) => {
            if actor.role != Role::Admin {
                return Err(ServiceError::Forbidden);
            }
            db.write_at(move |c, now| {
                let owner_id = owner_id(c, &actor, owner.as_deref())?;
                let tid = match crate::db::import_teams::import_team_file(c, &f, tz, owner_id, now)
                {
                    Ok(tid) => tid,
                    Err(e) => return Err(import_refused(e)),
                };
                let tables = crate::db::table_side::table_numbers_of(c, tid)?;
                crate::db::table_side::ensure_codes(c, tid, &tables, now)?;
                crate::db::teams::ensure_codes(c, tid)?;
                super::audit::record(
                    c,
                    tid,
                    &actor,
                    super::audit::Entry::new(super::audit::Action::TournamentImported).after(
                        super::audit::values([
                            ("name", serde_json::Value::from(f.name.clone())),
                            ("owner_id", serde_json::Value::from(owner_id.0)),
                            ("kind", serde_json::Value::from("teams")),
                        ]),
                    ),
                    now,
                )?;
                Ok(tid)
            })
            .await
        }
    }
}

/// The owner an import names (an active director), or the actor.
fn owner_id(c: &mut DbConn, actor: &Actor, owner: Option<&str>) -> Result<UserId, ServiceError> {
    match owner {
        None => Ok(actor.user_id),
        Some(name) => {
            let user = crate::db::users::find_by_username(c, &name.trim().to_ascii_lowercase())?
                .filter(|u| u.active && u.role().allows(Role::Director))
                .ok_or_else(|| ServiceError::invalid("owner", "import.error.owner"))?;
            Ok(user.id)
        }
    }
}

fn import_refused(e: ImportError) -> ServiceError {
    match e {
        ImportError::Settings(msg) => {
            ServiceError::Invalid(vec![crate::tournament::FieldProblem::new(
                "json",
                "import.error.settings",
            )
            .with("message", msg)])
        }
        ImportError::Db(e) => e.into(),
    }
}

/// Writes a checked file as a new tournament, all or nothing, owned by the
/// actor or by the director `owner` names (an administrator imports for
/// someone else: `burraco-td import --owner dora`). A running tournament
/// gets its table and pair codes exactly as one imported on the web; the
/// import is on the tournament's record. `Err(Invalid)` names the settings
/// problem or an owner who cannot own a tournament.
pub async fn import(
    db: &Db,
    actor: Actor,
    owner: Option<String>,
    file: TournamentFile,
    tz: chrono_tz::Tz,
) -> Result<TournamentId, ServiceError> {
    if actor.role != Role::Admin {
        return Err(ServiceError::Forbidden);
    }
    db.write_at(move |c, now| {
        let owner_id = owner_id(c, &actor, owner.as_deref())?;
        import_on(c, &actor, owner_id, &file, tz, now)
    })
    .await
}

/// Writes a checked file as a new tournament owned by `owner_id`, inside
/// the caller's transaction (a tournament import, a circuit's bundle).
pub fn import_on(
    c: &mut DbConn,
    actor: &Actor,
    owner_id: UserId,
    file: &TournamentFile,
    tz: chrono_tz::Tz,
    now: NaiveDateTime,
) -> Result<TournamentId, ServiceError> {
    let tid = crate::db::import::import_file(c, file, tz, owner_id, now).map_err(import_refused)?;
    // A running tournament gets its table and pair codes (never in a file).
    super::entries::ensure_codes(c, tid, now)?;
    super::audit::record(
        c,
        tid,
        actor,
        super::audit::Entry::new(super::audit::Action::TournamentImported).after(
            super::audit::values([
                ("name", serde_json::Value::from(file.name.clone())),
                ("owner_id", serde_json::Value::from(owner_id.0)),
            ]),
        ),
        now,
    )?;
    Ok(tid)
}

/// A consistent copy of the live SQLite database into a new file, while the
/// server takes writes (the command line's `backup`: whoever runs it holds
/// the database file already).
pub async fn backup(
    db: &Db,
    target: std::path::PathBuf,
) -> Result<(), crate::db::backup::BackupError> {
    db.read(move |c| crate::db::backup::sqlite_into(c, &target))
        .await
}
