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
    let client = crate::web::client::client_addr(req, state.settings.trust_forwarded_for);
    crate::services::brakes::take_entry(&state.db, client).await?;
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

/// Wakes the sender for the notices the service queued (after the
/// commit).
pub fn send(state: &AppState, notices: Vec<Notice>) {
    if !notices.is_empty() {
        state.mail.notify_one();
    }
}

// ---- pages ----

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

use crate::services::online::EntryState;
use crate::tournament::online::EntryStatus;
use crate::tournament::pairs::PlayerForm;
use crate::tournament::team_csv::{MAX_PLAYERS, MIN_PLAYERS};
use crate::tournament_file::FileKind;
use crate::web::context::{FieldErrors, PageCtx};
use crate::web::error::AppError;
use crate::web::{render_status, see_other};

/// The entry form as typed: the players' fields (`p1_surname`…, two for a
/// pair, up to six for a team), a team's name, the contact and consent.
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default)]
pub struct EnterForm {
    pub team_name: String,
    pub email: String,
    pub phone: String,
    pub consent: String,
    #[serde(flatten)]
    pub players: std::collections::HashMap<String, String>,
}

impl EnterForm {
    /// The entry for a tournament of `kind`.
    fn entry(&self, kind: FileKind) -> EntryForm {
        let count = players_on_form(kind);
        let field = |i: usize, f: &str| {
            self.players
                .get(&format!("p{i}_{f}"))
                .cloned()
                .unwrap_or_default()
        };
        EntryForm {
            team_name: self.team_name.clone(),
            players: (1..=count)
                .map(|i| PlayerForm {
                    surname: field(i, "surname"),
                    name: field(i, "name"),
                    card: field(i, "card"),
                    club: field(i, "club"),
                })
                .collect(),
            email: self.email.clone(),
            phone: self.phone.clone(),
            // The box counts as ticked with any value.
            consent: !self.consent.trim().is_empty(),
        }
    }
}

#[derive(Template)]
#[template(path = "public/enter.html")]
struct EnterPage<'a> {
    ctx: &'a PageCtx,
    tid: TournamentId,
    tname: String,
    open: bool,
    /// The tournament's kind: a pair, a team (its name and up to six
    /// players) or a player alone enters.
    kind: FileKind,
    form: EnterForm,
    errors: FieldErrors,
    /// A refusal (closed, already entered), above the form.
    refusal: Option<String>,
}

impl EnterPage<'_> {
    /// The typed value of a player's field (`p1_surname`…).
    fn value(&self, field: &str) -> String {
        self.form.players.get(field).cloned().unwrap_or_default()
    }

    fn teams(&self) -> bool {
        self.kind == FileKind::Teams
    }

    /// The players' numbers on the form: 1–2, 1–6 for a team, 1 alone.
    fn player_numbers(&self) -> Vec<usize> {
        (1..=players_on_form(self.kind)).collect()
    }

    /// Whether player `n`'s surname and name must be filled in.
    fn required(&self, n: usize) -> bool {
        n <= match self.kind {
            FileKind::Teams => MIN_PLAYERS,
            kind => players_on_form(kind),
        }
    }
}

/// How many players the form of a tournament of `kind` asks for.
fn players_on_form(kind: FileKind) -> usize {
    match kind {
        FileKind::Pairs => 2,
        FileKind::Teams => MAX_PLAYERS,
        FileKind::Individual => 1,
    }
}

/// A tournament's name, whether it takes entries now, and its kind.
async fn open_state(
    state: &AppState,
    tid: TournamentId,
) -> Result<(String, bool, FileKind), AppError> {
    let l = crate::services::tournaments::public(&state.db, tid).await?;
    let now = state.db.clock().now();
    let open = l
        .settings
        .online
        .open(now, l.status() != crate::tournament::Status::Draft);
    Ok((l.settings.name.clone(), open, l.t.kind))
}

/// `GET /t/{id}/enter`: the entry form (or why entries are closed).
pub async fn enter_form(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let (tname, open, kind) = open_state(&state, *id).await?;
    let page = EnterPage {
        ctx: &ctx,
        tid: *id,
        tname,
        open,
        kind,
        form: EnterForm::default(),
        errors: FieldErrors::default(),
        refusal: None,
    };
    render_status(&page, StatusCode::OK)
}

/// `POST /t/{id}/enter`: 303 to the entry's private page, or the form again
/// with each problem next to its field.
pub async fn enter_submit(
    ctx: PageCtx,
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<TournamentId>,
    form: web::Form<EnterForm>,
) -> Result<HttpResponse, AppError> {
    let form = form.into_inner();
    let tid = *id;
    let (_, _, kind) = open_state(&state, tid).await?;
    let (errors, refusal, status) = match submit(&req, &state, tid, form.entry(kind)).await {
        Ok(done) => return Ok(see_other(&format!("/entry/{}", done.token))),
        Err(ServiceError::Invalid(problems)) => {
            let mut e = FieldErrors::default();
            for p in &problems {
                e.add(p.field, p.message(ctx.lang));
            }
            (e, None, StatusCode::UNPROCESSABLE_ENTITY)
        }
        Err(ServiceError::Conflict(c)) => (
            FieldErrors::default(),
            Some(c.message(ctx.lang)),
            StatusCode::from_u16(c.status()).unwrap_or(StatusCode::CONFLICT),
        ),
        Err(e) => return Err(e.into()),
    };
    let (tname, open, kind) = open_state(&state, tid).await?;
    let page = EnterPage {
        ctx: &ctx,
        tid,
        tname,
        open,
        kind,
        form,
        errors,
        refusal,
    };
    render_status(&page, status)
}

#[derive(Template)]
#[template(path = "public/entry.html")]
struct EntryPage<'a> {
    ctx: &'a PageCtx,
    token: String,
    e: EntryState,
    /// No mail server: the page says to keep the link.
    no_mail: bool,
    error: Option<String>,
}

impl EntryPage<'_> {
    fn live(&self) -> bool {
        self.e.status.is_live()
    }
    fn status_code(&self) -> &'static str {
        self.e.status.code()
    }
    fn number(&self) -> String {
        self.e.number.map(|n| n.to_string()).unwrap_or_default()
    }
    fn position(&self) -> String {
        self.e.position.map(|n| n.to_string()).unwrap_or_default()
    }
    fn waiting(&self) -> bool {
        self.e.status == EntryStatus::Waiting
    }
}

async fn entry_page(
    ctx: &PageCtx,
    state: &AppState,
    token: String,
    error: Option<String>,
    status: StatusCode,
) -> Result<HttpResponse, AppError> {
    let e = online::get(&state.db, token.clone()).await?;
    let page = EntryPage {
        ctx,
        token,
        e,
        no_mail: !crate::web::public::enter::mail_configured(state),
        error,
    };
    render_status(&page, status)
}

/// `GET /entry/{token}`: the entry's state and its withdraw form.
pub async fn entry_show(
    ctx: PageCtx,
    state: web::Data<AppState>,
    token: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    entry_page(&ctx, &state, token.into_inner(), None, StatusCode::OK).await
}

/// `POST /entry/{token}/withdraw` (CSRF-protected like every form).
pub async fn entry_withdraw(
    ctx: PageCtx,
    state: web::Data<AppState>,
    token: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let token = token.into_inner();
    match withdraw(&state, token.clone()).await {
        Ok(()) => Ok(see_other(&format!("/entry/{token}"))),
        Err(ServiceError::Conflict(c)) => {
            let status = StatusCode::from_u16(c.status()).unwrap_or(StatusCode::CONFLICT);
            entry_page(&ctx, &state, token, Some(c.message(ctx.lang)), status).await
        }
        Err(e) => Err(e.into()),
    }
}

/// Whether e-mails go out (`SMTP_URL` set).
pub fn mail_configured(state: &AppState) -> bool {
    state.settings.smtp.is_some()
}

/// The routes of the public entry.
pub fn routes(cfg: &mut web::ServiceConfig) {
    use crate::web::registry::noted;
    cfg.route(noted("GET", "", "/t/{id}/enter"), web::get().to(enter_form))
        .route(
            noted("POST", "", "/t/{id}/enter"),
            web::post().to(enter_submit),
        )
        .route(
            noted("GET", "", "/entry/{token}"),
            web::get().to(entry_show),
        )
        .route(
            noted("POST", "", "/entry/{token}/withdraw"),
            web::post().to(entry_withdraw),
        );
}
