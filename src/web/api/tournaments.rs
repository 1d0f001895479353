//! Tournaments and pairs over JSON: the services of `services::tournaments`,
//! `services::rounds::draw`, `services::files` and `services::pairs`.

use crate::ids::TournamentId;
use actix_web::http::StatusCode;
use actix_web::{get, post, put, web, HttpRequest, HttpResponse};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::body::parse_body;
use super::reply::{done, json, Done};
use crate::services::rounds::DrawKind;
use crate::services::{self, Loaded, Need};
use crate::tournament::settings::{format_payout, scale_text, Settings, SettingsForm};
use crate::web::bearer::ApiActor;
use crate::web::context::PageCtx;
use crate::web::error::ApiError;
use crate::web::roles::{ApiAdmin, ApiDirector};
use crate::web::AppState;

pub use super::plan::DanishForm;
use super::online::OnlineIn;
use super::plan::{GroupPlanIn, GroupPrizeIn, LevelIn, PlanIn};

/// One line of the payout: from how many entries it applies, and the
/// percentage of the pool for each place.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct PayoutTier {
    pub min_entries: u32,
    /// Percentages as decimal strings (`"60"`, `"27.5"`).
    pub percents: Vec<String>,
}

/// A tournament's settings (createTournament, updateTournament). Once round
/// 1 is drawn only name, venue, date, start time, minutes and table entry
/// change; the rest keeps its saved values.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[schema(example = json!({"name": "Torneo del lunedì", "date": "2026-11-23", "start_time": "20:30",
    "venue": "Circolo", "profile": "codice", "planned_rounds": 4, "hands_per_round": 3,
    "mitchell_rounds": 2, "mitchell_advance": 1, "entry_fee": "10.00", "prize_share_percent": "70",
    "payout": [{"min_entries": 1, "percents": ["60", "40"]}]}))]
pub struct TournamentIn {
    pub name: String,
    /// Local date, `YYYY-MM-DD`.
    pub date: String,
    /// Local time, `HH:MM`.
    pub start_time: String,
    #[serde(default)]
    pub venue: Option<String>,
    /// Rule profile: `codice` or `classic`.
    pub profile: String,
    pub planned_rounds: u32,
    pub hands_per_round: u32,
    /// VP scale bounds; absent: the preset for the hands per round.
    #[serde(default)]
    pub vp_scale: Option<Vec<i64>>,
    /// Absent: the default for the hands per round.
    #[serde(default)]
    pub minutes_per_round: Option<u32>,
    pub mitchell_rounds: u32,
    #[serde(default)]
    pub danish_form: Option<DanishForm>,
    pub mitchell_advance: u32,
    #[serde(default)]
    pub allow_repeats: Option<bool>,
    /// Club separation in the first draw (RULES.md §13): pairs of one club
    /// on the same line of the Mitchell (default false).
    #[serde(default)]
    pub separate_clubs: Option<bool>,
    #[serde(default)]
    pub bye_vp: Option<u32>,
    /// Money as a decimal string (`"10.00"`).
    pub entry_fee: String,
    pub prize_share_percent: String,
    #[serde(default)]
    pub guaranteed_pool: Option<String>,
    pub payout: Vec<PayoutTier>,
    /// Suit order of the seat draw, e.g. `HDCS`.
    #[serde(default)]
    pub suit_order: Option<String>,
    /// Players enter their sheets from the table (default true).
    #[serde(default)]
    pub table_entry: Option<bool>,
    /// How the tables enter their sheets: `full` (default) or `totals`
    /// (hand totals only).
    #[serde(default)]
    pub sheet_mode: Option<SheetModeIn>,
    /// `pairs` (default) or `teams` (issue 25): chosen when the tournament
    /// is created, never changed after (ignored by an update).
    #[serde(default)]
    pub kind: Option<KindIn>,
    /// How many of the plan's last rounds are Danish in groups (RULES.md
    /// §13; 0 or absent: none).
    #[serde(default)]
    pub group_rounds: Option<u32>,
    /// Danish in the groups: modified (default) or pure.
    #[serde(default)]
    pub group_form: Option<DanishForm>,
    /// How the groups are made: `{"tables": [7, 9, 9]}` or `{"count": 3}`;
    /// required with rounds in groups.
    #[serde(default)]
    pub group_plan: Option<GroupPlanIn>,
    /// Prizes per group, shares adding up to 100; absent: the payout on
    /// the overall places.
    #[serde(default)]
    pub group_prizes: Option<Vec<GroupPrizeIn>>,
    /// The tournament's level (RULES.md §15): club (default), federal,
    /// regional or national; it only warns.
    #[serde(default)]
    pub level: Option<LevelIn>,
    /// The public entry form takes entries (issue 36; default false).
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

/// What a tournament holds: pairs or teams.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum KindIn {
    Pairs,
    Teams,
}

/// How the tables enter their sheets.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum SheetModeIn {
    Full,
    Totals,
}

/// The bounds of the settings' numbers, from the core's limits: the
/// document states them (`openapi::document`) and a body outside them is
/// refused with 422 naming the field, whether or not the use case reads
/// the value (a locked setting of a running tournament).
pub fn schema_bounds() -> Vec<(&'static str, &'static str, i64, i64)> {
    use crate::tournament::settings::{
        BYE_VP, HANDS_PER_ROUND, MAX_ADVANCE, MAX_PAYOUT_ENTRIES, MAX_ROUNDS, MINUTES_PER_ROUND,
    };
    let range = |r: std::ops::RangeInclusive<u32>| (i64::from(*r.start()), i64::from(*r.end()));
    let t = "TournamentIn";
    vec![
        (t, "planned_rounds", 1, i64::from(MAX_ROUNDS)),
        (
            t,
            "hands_per_round",
            range(HANDS_PER_ROUND).0,
            range(HANDS_PER_ROUND).1,
        ),
        (
            t,
            "minutes_per_round",
            range(MINUTES_PER_ROUND).0,
            range(MINUTES_PER_ROUND).1,
        ),
        (t, "mitchell_rounds", 1, i64::from(MAX_ROUNDS)),
        (t, "mitchell_advance", 1, i64::from(MAX_ADVANCE)),
        (t, "bye_vp", range(BYE_VP).0, range(BYE_VP).1),
        (
            "PayoutTier",
            "min_entries",
            0,
            i64::from(MAX_PAYOUT_ENTRIES),
        ),
    ]
}

impl TournamentIn {
    /// The settings form the services parse (every value as typed).
    fn form(&self) -> SettingsForm {
        let opt = |v: Option<u32>| v.map(|n| n.to_string()).unwrap_or_default();
        let mut form = SettingsForm {
            name: self.name.clone(),
            date: self.date.clone(),
            start_time: self.start_time.clone(),
            venue: self.venue.clone().unwrap_or_default(),
            profile: self.profile.clone(),
            planned_rounds: self.planned_rounds.to_string(),
            hands_per_round: self.hands_per_round.to_string(),
            vp_scale: self
                .vp_scale
                .as_ref()
                .map(|s| s.iter().map(i64::to_string).collect::<Vec<_>>().join(" "))
                .unwrap_or_default(),
            minutes_per_round: opt(self.minutes_per_round),
            mitchell_rounds: self.mitchell_rounds.to_string(),
            danish_form: match self.danish_form {
                Some(DanishForm::Pure) => "pure".into(),
                _ => "modified".into(),
            },
            mitchell_advance: self.mitchell_advance.to_string(),
            allow_repeats: if self.allow_repeats == Some(true) {
                "on".into()
            } else {
                String::new()
            },
            separate_clubs: if self.separate_clubs == Some(true) {
                "on".into()
            } else {
                String::new()
            },
            bye_vp: opt(self.bye_vp),
            entry_fee: self.entry_fee.clone(),
            prize_share_percent: self.prize_share_percent.clone(),
            prize_share_unit: String::new(),
            guaranteed_pool: self.guaranteed_pool.clone().unwrap_or_default(),
            payout: self
                .payout
                .iter()
                .map(|t| format!("{}: {}", t.min_entries, t.percents.join(" ")))
                .collect::<Vec<_>>()
                .join("\n"),
            suit_order: self.suit_order.clone().unwrap_or_default(),
            table_entry: match self.table_entry {
                Some(false) => "off".into(),
                _ => "on".into(),
            },
            sheet_mode: match self.sheet_mode {
                Some(SheetModeIn::Totals) => "totals".into(),
                _ => "full".into(),
            },
            kind: match self.kind {
                Some(KindIn::Teams) => "teams".into(),
                _ => "pairs".into(),
            },
            ..SettingsForm::default()
        };
        PlanIn {
            group_rounds: self.group_rounds,
            group_form: self.group_form,
            group_plan: self.group_plan.clone(),
            group_prizes: self.group_prizes.clone(),
            level: self.level,
        }
        .fill(&mut form);
        OnlineIn {
            online_entries: self.online_entries,
            capacity: self.capacity,
            entries_close_at: self.entries_close_at.clone(),
            member_check: self.member_check,
        }
        .fill(&mut form);
        form
    }

    fn of(s: &Settings, tz: chrono_tz::Tz) -> TournamentIn {
        let f = SettingsForm::from_settings(s, tz);
        let plan = PlanIn::of(s);
        let online = OnlineIn::of(&s.online);
        TournamentIn {
            name: s.name.clone(),
            date: f.date,
            start_time: f.start_time,
            venue: Some(s.venue.clone()),
            profile: s.profile.name.to_string(),
            planned_rounds: s.planned_rounds,
            hands_per_round: s.hands_per_round,
            vp_scale: Some(
                scale_text(&s.vp_scale)
                    .split_whitespace()
                    .filter_map(|n| n.parse().ok())
                    .collect(),
            ),
            minutes_per_round: Some(s.minutes_per_round),
            mitchell_rounds: s.mitchell_rounds,
            danish_form: Some(if s.danish_modified {
                DanishForm::Modified
            } else {
                DanishForm::Pure
            }),
            mitchell_advance: s.mitchell_advance,
            allow_repeats: Some(s.allow_repeats),
            separate_clubs: Some(s.separate_clubs),
            bye_vp: Some(u32::from(s.bye_vp)),
            entry_fee: f.entry_fee,
            prize_share_percent: f.prize_share_percent,
            guaranteed_pool: Some(f.guaranteed_pool),
            payout: format_payout(&s.payout)
                .lines()
                .filter_map(|l| {
                    let (min, rest) = l.split_once(':')?;
                    Some(PayoutTier {
                        min_entries: min.trim().parse().ok()?,
                        percents: rest.split_whitespace().map(str::to_string).collect(),
                    })
                })
                .collect(),
            suit_order: Some(f.suit_order),
            table_entry: Some(s.table_entry),
            sheet_mode: Some(match s.sheet_mode {
                crate::rules::SheetMode::Totals => SheetModeIn::Totals,
                crate::rules::SheetMode::Full => SheetModeIn::Full,
            }),
            kind: None,
            group_rounds: plan.group_rounds,
            group_form: plan.group_form,
            group_plan: plan.group_plan,
            group_prizes: plan.group_prizes,
            level: plan.level,
            online_entries: online.online_entries,
            capacity: online.capacity,
            entries_close_at: online.entries_close_at,
            member_check: online.member_check,
        }
    }
}

/// A tournament as staff see it.
#[derive(Debug, Serialize, ToSchema)]
pub struct TournamentOut {
    pub id: TournamentId,
    /// `draft`, `running` or `finished`.
    pub status: String,
    /// Goes up with every change.
    pub revision: i64,
    /// Start, UTC (RFC 3339).
    pub starts_at: String,
    pub pairs: usize,
    /// The numbers of the rounds drawn so far.
    pub rounds: Vec<i32>,
    pub settings: TournamentIn,
}

impl TournamentOut {
    fn of(l: &Loaded, tz: chrono_tz::Tz) -> TournamentOut {
        TournamentOut {
            id: l.t.id,
            status: l.t.status.as_str().to_string(),
            revision: l.t.revision,
            starts_at: l.t.starts_at.and_utc().to_rfc3339(),
            pairs: l.pairs.len(),
            rounds: l.rounds.iter().map(|r| r.number).collect(),
            settings: TournamentIn {
                kind: Some(if l.t.is_teams() {
                    KindIn::Teams
                } else {
                    KindIn::Pairs
                }),
                ..TournamentIn::of(&l.settings, tz)
            },
        }
    }
}

/// A tournament in a list.
#[derive(Debug, Serialize, ToSchema)]
pub struct TournamentSummary {
    pub id: TournamentId,
    pub name: String,
    pub status: String,
    pub starts_at: String,
    pub venue: String,
}

/// The id of what was made.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": 7}))]
pub struct Created {
    pub id: i64,
}

/// Why a closed tournament is opened again (on the record).
#[derive(Debug, Deserialize, ToSchema)]
#[schema(example = json!({"reason": "a sheet of round 3 was entered wrong"}))]
pub struct ReasonIn {
    pub reason: String,
}

pub(super) async fn loaded(
    state: &AppState,
    actor: crate::services::Actor,
    tid: TournamentId,
) -> Result<Loaded, ApiError> {
    services::tournaments::load(&state.db, actor, tid, Need::Referee)
        .await
        .map_err(ApiError::from)
}

/// The tournaments the caller works on.
#[utoipa::path(tag = "tournaments", operation_id = "listTournaments", security(("bearer" = [])),
    responses((status = 200, description = "Newest first", body = Vec<TournamentSummary>)))]
#[get("/api/v1/tournaments")]
pub async fn list_tournaments(
    state: web::Data<AppState>,
    actor: ApiActor,
) -> Result<HttpResponse, ApiError> {
    let list = services::tournaments::list(&state.db, actor.0).await?;
    let out: Vec<TournamentSummary> = list
        .into_iter()
        .map(|t| TournamentSummary {
            id: t.id,
            name: t.name,
            status: t.status.as_str().to_string(),
            starts_at: t.starts_at.and_utc().to_rfc3339(),
            venue: t.venue,
        })
        .collect();
    Ok(json(StatusCode::OK, &out))
}

/// Creates a tournament owned by the caller (a director).
#[utoipa::path(tag = "tournaments", operation_id = "createTournament", security(("bearer" = [])),
    request_body = TournamentIn,
    responses((status = 201, description = "Created", body = TournamentOut)))]
#[post("/api/v1/tournaments")]
pub async fn create_tournament(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let input: TournamentIn = parse_body(&req, body).await?;
    let tz = state.settings.timezone;
    let id = services::tournaments::create(&state.db, actor, input.form(), tz).await?;
    let l = loaded(&state, actor, id).await?;
    Ok(json(StatusCode::CREATED, &TournamentOut::of(&l, tz)))
}

/// A tournament with its settings.
#[utoipa::path(tag = "tournaments", operation_id = "getTournament", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "The tournament", body = TournamentOut)))]
#[get("/api/v1/tournaments/{id}")]
pub async fn get_tournament(
    state: web::Data<AppState>,
    actor: ApiActor,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, ApiError> {
    let l = loaded(&state, actor.0, *id).await?;
    Ok(json(
        StatusCode::OK,
        &TournamentOut::of(&l, state.settings.timezone),
    ))
}

/// Saves the settings (the whole set).
#[utoipa::path(tag = "tournaments", operation_id = "updateTournament", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    request_body = TournamentIn,
    responses((status = 200, description = "Saved", body = TournamentOut)))]
#[put("/api/v1/tournaments/{id}")]
pub async fn update_tournament(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    id: web::Path<crate::ids::TournamentId>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let input: TournamentIn = parse_body(&req, body).await?;
    let tz = state.settings.timezone;
    services::tournaments::update_settings(&state.db, actor, *id, input.form(), tz).await?;
    let l = loaded(&state, actor, *id).await?;
    Ok(json(StatusCode::OK, &TournamentOut::of(&l, tz)))
}

/// Closes the tournament: the standings become final.
#[utoipa::path(tag = "tournaments", operation_id = "closeTournament", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "Closed", body = Done)))]
#[post("/api/v1/tournaments/{id}/close")]
pub async fn close_tournament(
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, ApiError> {
    services::tournaments::close(&state.db, actor, *id, None).await?;
    Ok(done())
}

/// Reopens a closed tournament, with the reason on the record.
#[utoipa::path(tag = "tournaments", operation_id = "reopenTournament", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    request_body = ReasonIn,
    responses((status = 200, description = "Running again", body = Done)))]
#[post("/api/v1/tournaments/{id}/reopen")]
pub async fn reopen_tournament(
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    id: web::Path<crate::ids::TournamentId>,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let input: ReasonIn = parse_body(&req, body).await?;
    services::tournaments::reopen(&state.db, actor, *id, input.reason).await?;
    Ok(done())
}

/// Starts the tournament: the checked-in pairs drawn at random to the
/// tables of round 1. A tournament that has started is a conflict (409
/// `started`): drawing round 1 again is `redrawTournament`.
#[utoipa::path(tag = "tournaments", operation_id = "startTournament", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "Round 1 drawn", body = Done),
        (status = 409, description = "Already started (`started`)", body = super::reply::ErrorBody)))]
#[post("/api/v1/tournaments/{id}/start")]
pub async fn start_tournament(
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, ApiError> {
    services::rounds::draw(&state.db, actor, *id, DrawKind::Start, None).await?;
    Ok(done())
}

/// Draws round 1 again (the tournament runs and nothing is recorded for
/// round 1 yet).
#[utoipa::path(tag = "tournaments", operation_id = "redrawTournament", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "Round 1 drawn again", body = Done),
        (status = 409, description = "Not running, or round 1 has results or later rounds", body = super::reply::ErrorBody)))]
#[post("/api/v1/tournaments/{id}/redraw")]
pub async fn redraw_tournament(
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, ApiError> {
    services::rounds::draw(&state.db, actor, *id, DrawKind::Redraw, None).await?;
    Ok(done())
}

/// The exported file of either kind of tournament (for the document: the
/// handler writes the file itself).
#[derive(serde::Serialize, ToSchema)]
#[serde(untagged)]
pub enum ExportDoc {
    Pairs(crate::tournament_file::TournamentFile),
    Teams(crate::tournament_file::TeamTournamentFile),
}

/// The whole tournament as a tournament file (FORMAT.md).
#[utoipa::path(tag = "tournaments", operation_id = "exportTournament", security(("bearer" = [])),
    params(("id" = i64, Path, description = "Tournament id")),
    responses((status = 200, description = "The tournament file (FORMAT.md): a pairs tournament's, or a team tournament's (`kind` `teams`)", body = ExportDoc)))]
#[get("/api/v1/tournaments/{id}/export")]
pub async fn export_tournament(
    ctx: PageCtx,
    state: web::Data<AppState>,
    ApiDirector(actor): ApiDirector,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, ApiError> {
    let file = services::files::export_any(&state.db, actor, *id, state.settings.timezone).await?;
    let body = file.to_json().map_err(|e| {
        ApiError::from_service(
            crate::services::ServiceError::corrupt(format!("tournament {id}: export: {e}")),
            ctx.lang,
        )
    })?;
    Ok(HttpResponse::Ok()
        .insert_header((actix_web::http::header::CACHE_CONTROL, "no-store"))
        .content_type("application/json")
        .body(body))
}

/// Imports a tournament file as a new tournament (administrators).
#[utoipa::path(tag = "tournaments", operation_id = "importTournament", security(("bearer" = [])),
    request_body(content = crate::tournament_file::TournamentFile, description = "A tournament file (FORMAT.md)"),
    responses((status = 201, description = "Imported", body = Created)))]
#[post("/api/v1/tournaments/import")]
pub async fn import_tournament(
    ctx: PageCtx,
    req: HttpRequest,
    state: web::Data<AppState>,
    ApiAdmin(actor): ApiAdmin,
    body: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let value: serde_json::Value = parse_body(&req, body).await?;
    let text = value.to_string();
    let file = crate::tournament_file::parse_any(&text).map_err(|e| {
        ApiError::invalid(
            "not a valid tournament file",
            vec![(e.path().to_string(), e.message(ctx.lang))],
        )
    })?;
    let checked = match &file {
        crate::tournament_file::AnyTournamentFile::Pairs(f) => {
            crate::standings::compute_file(f, ctx.lang).map(|_| ())
        }
        crate::tournament_file::AnyTournamentFile::Teams(f) => {
            crate::standings::compute_teams_file(f, ctx.lang).map(|_| ())
        }
        crate::tournament_file::AnyTournamentFile::Individual(f) => {
            crate::standings::compute_individual_file(f, ctx.lang).map(|_| ())
        }
    };
    checked.map_err(|e| {
        let fields = match e {
            crate::standings::StandingsError::Invalid(problems) => problems
                .iter()
                .map(|p| ("file".to_string(), p.line(ctx.lang)))
                .collect(),
            other => vec![("file".to_string(), other.message(ctx.lang))],
        };
        ApiError::invalid("the file does not add up", fields)
    })?;
    let id =
        services::files::import_any(&state.db, actor, None, file, state.settings.timezone).await?;
    Ok(json(StatusCode::CREATED, &Created { id: id.0 }))
}
