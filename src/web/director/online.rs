//! The director's waiting list of entries online (issue 36): confirm,
//! refuse, or move an entry up or down (audited by the service).

use super::refused;
use crate::services;
use crate::services::waiting_list::Decision;
use crate::web::context::PageCtx;
use crate::web::error::AppError;
use crate::web::roles::Director;
use crate::web::{see_other, AppState};
use actix_web::{web, HttpResponse};

/// The button pressed.
#[derive(Debug, serde::Deserialize)]
pub struct DecisionForm {
    #[serde(rename = "do")]
    pub action: String,
}

/// `POST /director/t/{id}/entries/{entry}`.
pub async fn decide(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, i64)>,
    form: web::Form<DecisionForm>,
) -> Result<HttpResponse, AppError> {
    let (tid, entry) = path.into_inner();
    let decision = match form.action.as_str() {
        "confirm" => Decision::Confirm,
        "refuse" => Decision::Refuse,
        "up" => Decision::Up,
        "down" => Decision::Down,
        _ => return Err(AppError::BadRequest("error.bad_request.message")),
    };
    match services::waiting_list::decide(&state.db, actor, tid, entry, decision).await {
        Ok(notices) => {
            crate::web::public::enter::send(&state, notices);
            Ok(see_other(&format!("/director/t/{tid}#waiting")))
        }
        Err(e) => refused(&ctx, &state, actor, tid, e).await,
    }
}
