//! Entries online over JSON (issue 36): the tournament's switches (the
//! fields `createTournament`, `updateTournament` and `getTournament`
//! share), and the public entry, its private link and the staff's list:
//! the services of `services::online`.

use actix_web::http::StatusCode;
use actix_web::{delete, get, post, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::body::parse_body;
use super::reply::json;
use crate::ids::TournamentId;
use crate::services::online::{self as online, Placed};
use crate::tournament::online::{EntryForm, OnlineSwitches};
use crate::tournament::pairs::PlayerForm;
use crate::tournament::settings::SettingsForm;
use crate::web::bearer::ApiActor;
use crate::web::error::ApiError;
use crate::web::AppState;

/// The switches of entries online (all optional: absent, entries off).
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct OnlineIn {
    /// The public entry form takes entries (default false).
    #[serde(default)]
    pub online_entries: Option<bool>,
    /// Entries confirmed at most (≥ 1); null: no limit.
    #[serde(default)]
    pub capacity: Option<i64>,
    /// When entries close, RFC 3339 (given back in UTC); null: at the
    /// start. A past time closes entries at once.
    #[serde(default)]
    pub entries_close_at: Option<String>,
    /// Cards are checked against the member list (default false).
    #[serde(default)]
    pub member_check: Option<bool>,
}

impl OnlineIn {
    /// Writes the switches into the settings form the services parse.
    pub fn fill(&self, form: &mut SettingsForm) {
        let on = |b: Option<bool>| if b == Some(true) { "on" } else { "" }.to_string();
        form.online.online_entries = on(self.online_entries);
        form.online.capacity = self.capacity.map(|c| c.to_string()).unwrap_or_default();
        form.online.entries_close_at = self.entries_close_at.clone().unwrap_or_default();
        form.online.member_check = on(self.member_check);
    }

    /// The saved switches (the closing time in UTC).
    pub fn of(s: &OnlineSwitches) -> OnlineIn {
        OnlineIn {
            online_entries: Some(s.online_entries),
            capacity: s.capacity.map(i64::from),
            entries_close_at: s.entries_close_at.map(|t| {
                t.and_utc()
                    .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
            }),
            member_check: Some(s.member_check),
        }
    }
}

/// One player of an entry.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct EntryPlayerIn {
    pub surname: String,
    pub name: String,
    #[serde(default)]
    pub card: Option<String>,
    #[serde(default)]
    pub club: Option<String>,
}

/// An entry: 2 players for a pair (a team: its `team_name` and 4–6
/// players), an e-mail and/or a phone number, and consent to keep the
/// data for the tournament.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"players": [{"surname": "Rossi", "name": "Anna", "card": "AB123", "club": "Circolo"},
    {"surname": "Bianchi", "name": "Luca"}], "email": "anna@example.org", "consent": true}))]
pub struct EntryIn {
    pub players: Vec<EntryPlayerIn>,
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub phone: Option<String>,
    #[serde(default)]
    pub consent: Option<bool>,
    /// A team entry's name.
    #[serde(default)]
    pub team_name: Option<String>,
}

impl EntryIn {
    fn form(&self) -> EntryForm {
        EntryForm {
            players: self
                .players
                .iter()
                .map(|p| PlayerForm {
                    surname: p.surname.clone(),
                    name: p.name.clone(),
                    card: p.card.clone().unwrap_or_default(),
                    club: p.club.clone().unwrap_or_default(),
                })
                .collect(),
            email: self.email.clone().unwrap_or_default(),
            phone: self.phone.clone().unwrap_or_default(),
            consent: self.consent == Some(true),
            team_name: self.team_name.clone().unwrap_or_default(),
        }
    }
}

/// Where a new entry stands, with its private token.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"token": "3f2a…", "status": "confirmed", "number": 7}))]
pub struct EntryPlaced {
    pub token: String,
    /// `confirmed` or `waiting`.
    pub status: String,
    /// The registration's pair number (confirmed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub number: Option<i32>,
    /// The place in the waiting list, 1 = next (waiting).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<usize>,
}

/// An entry as its private link shows it.
#[derive(Debug, Serialize, ToSchema)]
pub struct EntryOut {
    /// `confirmed`, `waiting`, `withdrawn`, `refused` or `closed`.
    pub status: String,
    pub number: Option<i32>,
    pub position: Option<usize>,
    pub tournament: TournamentId,
}

/// An entry in the staff's list.
#[derive(Debug, Serialize, ToSchema)]
pub struct ListedEntry {
    pub id: i64,
    pub status: String,
    pub number: Option<i32>,
    pub position: Option<usize>,
    /// A team entry's name (absent for a pair).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub team_name: Option<String>,
    pub players: Vec<EntryPlayerIn>,
    pub email: String,
    pub phone: String,
    /// UTC (RFC 3339).
    pub created_at: String,
}

/// An entry withdrawn.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "withdrawn"}))]
pub struct Withdrawn {
    pub status: String,
}

/// Enters a pair in a tournament from the public form's data (no token):
/// confirmed in arrival order up to the capacity, waiting after it.
#[utoipa::path(tag = "public", operation_id = "submitEntry",
    params(("id" = i64, Path, description = "Tournament id")),
    request_body = EntryIn,
    responses((status = 201, description = "Confirmed or waiting", body = EntryPlaced),
        (status = 409, description = "`entries_closed` or `already_entered`", body = super::reply::ErrorBody),
        (status = 422, description = "Invalid fields (`consent`, the players, `email`)", body = super::reply::ErrorBody)))]
#[post("/api/v1/tournaments/{id}/entries")]
pub async fn submit_entry(
    req: HttpRequest,
    state: web::Data<AppState>,
    id: web::Path<TournamentId>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let input: EntryIn = parse_body(&req, body).await?;
    let done = crate::web::public::enter::submit(&req, &state, *id, input.form()).await?;
    let out = match done.placed {
        Placed::Confirmed(n) => EntryPlaced {
            token: done.token,
            status: "confirmed".into(),
            number: Some(n),
            position: None,
        },
        Placed::Waiting(k) => EntryPlaced {
            token: done.token,
            status: "waiting".into(),
            number: None,
            position: Some(k),
        },
    };
    Ok(json(StatusCode::CREATED, &out))
}

/// An entry by its private token (public).
#[utoipa::path(tag = "public", operation_id = "getEntry",
    params(("token" = String, Path, description = "The entry's private token")),
    responses((status = 200, description = "The entry", body = EntryOut)))]
#[get("/api/v1/entries/{token}")]
pub async fn get_entry(
    state: web::Data<AppState>,
    token: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let e = online::get(&state.db, token.into_inner()).await?;
    Ok(json(
        StatusCode::OK,
        &EntryOut {
            status: e.status.code().into(),
            number: e.number,
            position: e.position,
            tournament: e.tournament,
        },
    ))
}

/// Withdraws an entry (public with its token): the first waiting entry is
/// confirmed at once. After the start: 409 `started`.
#[utoipa::path(tag = "public", operation_id = "withdrawEntry",
    params(("token" = String, Path, description = "The entry's private token")),
    responses((status = 200, description = "Withdrawn", body = Withdrawn),
        (status = 409, description = "The tournament has started (`started`)", body = super::reply::ErrorBody)))]
#[delete("/api/v1/entries/{token}")]
pub async fn withdraw_entry(
    state: web::Data<AppState>,
    token: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    crate::web::public::enter::withdraw(&state, token.into_inner()).await?;
    Ok(json(
        StatusCode::OK,
        &Withdrawn {
            status: "withdrawn".into(),
        },
    ))
}

/// The waiting list in order (staff).
#[utoipa::path(tag = "tournaments", operation_id = "listEntries", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "The waiting entries, first first", body = Vec<ListedEntry>)))]
#[get("/api/v1/tournaments/{id}/entries")]
pub async fn list_entries(
    state: web::Data<AppState>,
    actor: ApiActor,
    id: web::Path<TournamentId>,
) -> Result<HttpResponse, ApiError> {
    let all = crate::services::waiting_list::list(&state.db, actor.0, *id).await?;
    let out: Vec<ListedEntry> = all
        .into_iter()
        .filter(|e| e.position.is_some())
        .map(|e| ListedEntry {
            id: e.id,
            status: e.status.code().into(),
            number: e.number,
            position: e.position,
            team_name: Some(e.team_name.clone()).filter(|n| !n.is_empty()),
            players: e
                .players
                .iter()
                .map(|p| EntryPlayerIn {
                    surname: p.surname().into(),
                    name: p.name().into(),
                    card: Some(p.card().into()),
                    club: Some(p.club().into()),
                })
                .collect(),
            email: e.email,
            phone: e.phone,
            created_at: e.created_at.and_utc().to_rfc3339(),
        })
        .collect();
    let mut out = out;
    out.sort_by_key(|e| e.position);
    Ok(json(StatusCode::OK, &out))
}

/// Members imported.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"imported": 120}))]
pub struct Imported {
    pub imported: usize,
}

/// Imports the member list (administrator or director): a CSV body (`;`
/// or `,`) with `card, surname, name, valid_until` (and optionally `type`)
/// or `tessera, cognome, nome, scadenza` (and `tipo`), ISO dates. A card
/// already listed is replaced.
#[utoipa::path(tag = "tournaments", operation_id = "importMembers", security(("bearer" = [])),
    request_body(content = String, content_type = "text/csv", description = "The member list"),
    responses((status = 200, description = "Imported", body = Imported),
        (status = 422, description = "A line or the header does not read", body = super::reply::ErrorBody)))]
#[post("/api/v1/members/import")]
pub async fn import_members(
    ctx: crate::web::context::PageCtx,
    state: web::Data<AppState>,
    crate::web::roles::ApiDirector(actor): crate::web::roles::ApiDirector,
    body: web::Bytes,
) -> Result<HttpResponse, ApiError> {
    let text = crate::tournament::spreadsheet::decode_upload(&body).map_err(|e| {
        ApiError::invalid(
            "not a member list",
            vec![("file".into(), e.message(ctx.lang))],
        )
    })?;
    let list = crate::tournament::members::parse_members(&text).map_err(|problems| {
        ApiError::invalid(
            "not a member list",
            problems
                .iter()
                .map(|p| ("file".to_string(), p.message(ctx.lang)))
                .collect(),
        )
    })?;
    let imported = crate::services::members::import_members(&state.db, actor, list).await?;
    Ok(json(StatusCode::OK, &Imported { imported }))
}
