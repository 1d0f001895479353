//! The tournament file (FORMAT.md): export, standings, import.

use super::{read, Actor, Need, ServiceError};
use crate::auth::Role;
use crate::db::export::ImportError;
use crate::db::{Db, DbConn};
use crate::i18n::Lang;
use crate::standings::Standings;
use crate::tournament_file::TournamentFile;

/// The tournament as a file, read on `conn`.
pub fn file_of(
    c: &mut DbConn,
    tid: i64,
    tz: chrono_tz::Tz,
) -> Result<TournamentFile, ServiceError> {
    crate::db::export::load_file(c, tid, tz)?.ok_or(ServiceError::NotFound)
}

/// The one standings computation over a file; a file the engine refuses is
/// stored data that cannot be read, and says which tournament.
pub fn standings_of_file(
    tid: i64,
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
    tid: i64,
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
    tid: i64,
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
    tid: i64,
    tz: chrono_tz::Tz,
    lang: Lang,
) -> Result<(TournamentFile, Standings), ServiceError> {
    let file = db.read(move |c| file_of(c, tid, tz)).await?;
    let st = standings_of_file(tid, &file, lang)?;
    Ok((file, st))
}

/// Writes a checked file as a new tournament owned by the actor, all or
/// nothing. `Err(Invalid)` carries the settings problem.
pub async fn import(
    db: &Db,
    actor: Actor,
    file: TournamentFile,
    tz: chrono_tz::Tz,
) -> Result<i64, ServiceError> {
    if actor.role != Role::Admin {
        return Err(ServiceError::Forbidden);
    }
    db.write(move |c| {
        let tid = match crate::db::export::import_file(c, &file, tz, actor.user_id) {
            Ok(tid) => tid,
            Err(ImportError::Settings(msg)) => {
                return Err(ServiceError::Invalid(vec![
                    crate::tournament::FieldProblem::new("json", "import.error.settings")
                        .with("message", msg),
                ]))
            }
            Err(ImportError::Db(e)) => return Err(e.into()),
        };
        // A running tournament gets its table and pair codes (never in a file).
        super::table_side::ensure_codes(c, tid)?;
        Ok(tid)
    })
    .await
}
