//! A round's page and printouts: seating by table and by player, table cards with QR codes, movement cards.

use super::{load, refused};
use crate::ids::TournamentId;
use crate::services::view::{Pair, Round, Seating};
use crate::services::Refusal;
use crate::services::{Actor, Loaded, Need, ServiceError};
use crate::web::context::PageCtx;
use crate::web::error::AppError;
use crate::web::roles::Director;
use crate::web::{render, AppState};
use crate::{movement, services};
use actix_web::{web, HttpResponse};
use askama::Template;

/// One table of a round, with the pairs' names.
pub struct TableView<'a> {
    pub table_no: i32,
    /// Its group, in a round in groups (RULES.md §13).
    pub group: Option<&'a str>,
    pub ns: Option<&'a Pair>,
    pub ew: Option<&'a Pair>,
    /// On the table cards: the table's code, its player page's address and
    /// that address as a QR code (inline SVG).
    pub code: Option<String>,
    pub url: Option<String>,
    pub qr: Option<String>,
}

/// Where a player sits, for the alphabetical list.
pub struct PlayerSeat {
    pub player: String,
    /// Whose the player is: the pair's number, or a team tournament's team
    /// ("6 Fiume").
    pub pair: String,
    pub table: Option<i32>,
    pub line: &'static str,
    /// The pair's group, in a round in groups.
    pub group: Option<String>,
}

#[derive(Template)]
#[template(path = "director/round.html")]
pub(super) struct RoundPage<'a> {
    ctx: &'a PageCtx,
    l: &'a Loaded,
    round: &'a Round,
    tables: Vec<TableView<'a>>,
    resting: Vec<&'a Pair>,
    by_player: Vec<PlayerSeat>,
    /// The round clock (staff only).
    clock: crate::web::clock::ClockView,
    clock_back: &'static str,
    /// The last round, with nothing recorded yet: it can be undone.
    can_undo: bool,
    /// In a Mitchell round of a draw that keeps clubs apart: the clubs
    /// whose pairs meet all the same ("Aurora: 1, 3 · 5, 6").
    club_meetings: Vec<String>,
}

#[derive(Template)]
#[template(path = "director/table_cards.html")]
pub(super) struct TableCardsPage<'a> {
    ctx: &'a PageCtx,
    l: &'a Loaded,
    round: &'a Round,
    tables: Vec<TableView<'a>>,
    loopback: Option<LoopbackWarning>,
}

/// The table cards would print an address only this machine can open.
pub struct LoopbackWarning {
    pub base: String,
    /// The network addresses the server listens on (a phone on the hall's
    /// network opens one of them); none: it listens on this computer only.
    pub addresses: Vec<String>,
    /// The command that restarts the server listening on every interface
    /// (when it listens on this computer only).
    pub restart: Option<String>,
    /// The reader may save the public address (an administrator).
    pub admin: bool,
    /// `PUBLIC_URL` itself is the loopback address.
    pub from_env: bool,
}

pub(super) async fn round_data(
    state: &AppState,
    actor: Actor,
    tid: TournamentId,
    n: i32,
) -> Result<(Loaded, usize, Vec<Seating>, Vec<crate::ids::PairId>), AppError> {
    Ok(services::rounds::seating(&state.db, actor, tid, n, Need::Direct).await?)
}

pub(super) fn table_views<'a>(
    l: &'a Loaded,
    round: &Round,
    tables: &[Seating],
) -> Vec<TableView<'a>> {
    let in_groups = round.movement.in_groups();
    tables
        .iter()
        .map(|s| TableView {
            table_no: s.table_no,
            group: l
                .pair(s.ns_pair)
                .and_then(|p| p.group.as_deref())
                .filter(|_| in_groups),
            ns: l.pair(s.ns_pair),
            ew: l.pair(s.ew_pair),
            code: None,
            url: None,
            qr: None,
        })
        .collect()
}

pub(super) fn players_alphabetical(
    ctx: &PageCtx,
    l: &Loaded,
    round: &Round,
    tables: &[Seating],
    resting: &[crate::ids::PairId],
) -> Vec<PlayerSeat> {
    let in_groups = round.movement.in_groups();
    let mut out = Vec::new();
    let mut add = |p: &Pair, table: Option<i32>, line: &'static str| {
        for (surname, name) in [(&p.p1_surname, &p.p1_name), (&p.p2_surname, &p.p2_name)] {
            out.push(PlayerSeat {
                player: format!("{surname} {name}"),
                pair: p.team.clone().unwrap_or_else(|| p.number.to_string()),
                table,
                line,
                group: p.group.clone().filter(|_| in_groups),
            });
        }
    };
    for s in tables {
        if let Some(p) = l.pair(s.ns_pair) {
            add(p, Some(s.table_no), "NS");
        }
        if let Some(p) = l.pair(s.ew_pair) {
            add(p, Some(s.table_no), crate::rules::Line::Ew.label(ctx.lang));
        }
    }
    for id in resting {
        if let Some(p) = l.pair(Some(*id)) {
            add(p, None, "");
        }
    }
    out.sort_by_key(|a| crate::tournament::pairs::fold(&a.player));
    out
}

pub async fn round(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, i32)>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let (l, idx, tables, resting) = round_data(&state, actor, tid, n).await?;
    let round = &l.rounds[idx];
    let by_player = players_alphabetical(&ctx, &l, round, &tables, &resting);
    let can_undo = services::rounds::plan_undo(&state.db, actor, tid, n)
        .await?
        .1
        .is_ok();
    let page = RoundPage {
        ctx: &ctx,
        l: &l,
        round,
        tables: table_views(&l, round, &tables),
        resting: resting.iter().filter_map(|id| l.pair(Some(*id))).collect(),
        by_player,
        clock: crate::web::clock::ClockView::of(&ctx, &l, round, state.db.now()),
        clock_back: "director",
        can_undo,
        club_meetings: match (round.movement, l.t.layout()) {
            (crate::tournament::RoundMovement::Mitchell, Some(layout)) => {
                services::rounds::club_meetings(&l, &layout)
                    .iter()
                    .map(|m| {
                        let list = |ps: &[u32]| {
                            ps.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
                        };
                        format!("{}: {} · {}", m.club, list(&m.fixed), list(&m.moving))
                    })
                    .collect()
            }
            _ => Vec::new(),
        },
    };
    render(&page)
}

pub async fn table_cards(
    ctx: PageCtx,
    Director(actor): Director,
    req: actix_web::HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(crate::ids::TournamentId, i32)>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let (l, idx, tables, _) = round_data(&state, actor, tid, n).await?;
    let codes = services::entries::codes(&state.db, actor, tid).await?;
    let base = crate::web::qr::base_url(&state, &req).await?;
    // A card printed with an address only this machine opens is useless:
    // say so above the cards and offer this machine's network addresses.
    let loopback = crate::tournament::text::is_loopback_url(&base).then(|| {
        let addresses = crate::web::qr::network_addresses(&state, &req);
        LoopbackWarning {
            base: base.clone(),
            restart: addresses
                .is_empty()
                .then(|| crate::web::qr::restart_command(&state)),
            addresses,
            admin: ctx.is_role("admin"),
            from_env: state.settings.public_url.is_some(),
        }
    });
    let mut views = table_views(&l, &l.rounds[idx], &tables);
    for v in &mut views {
        if let Some(code) = codes.table(v.table_no) {
            let url = format!("{base}/s/{code}");
            v.qr = Some(
                crate::web::qr::svg(&url)
                    .map_err(|e| AppError::Internal(anyhow::anyhow!("QR code: {e}")))?,
            );
            v.code = Some(code.to_string());
            v.url = Some(url);
        }
    }
    let page = TableCardsPage {
        ctx: &ctx,
        l: &l,
        round: &l.rounds[idx],
        tables: views,
        loopback,
    };
    render(&page)
}

/// Where a pair plays each Mitchell round.
pub struct MovementCard<'a> {
    pub pair: &'a Pair,
    /// The pair's private code (to enter and confirm scores at the table).
    pub code: Option<String>,
    /// (round, table, line, what the card says without a table: resting,
    /// not yet registered, withdrawn).
    pub rounds: Vec<(u32, Option<u32>, &'static str, &'static str)>,
}

#[derive(Template)]
#[template(path = "director/movement_cards.html")]
pub(super) struct MovementCardsPage<'a> {
    ctx: &'a PageCtx,
    l: &'a Loaded,
    cards: Vec<MovementCard<'a>>,
}

pub async fn movement_cards(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
) -> Result<HttpResponse, AppError> {
    let tid = *id;
    let l = load(&state, actor, tid).await?;
    let codes = services::entries::codes(&state.db, actor, tid).await?;
    let Some((layout, schedule)) = services::rounds::mitchell_schedule(&l)? else {
        return refused(
            &ctx,
            &state,
            actor,
            tid,
            ServiceError::refused(Refusal::RoundNotStarted),
        )
        .await;
    };
    let ew = crate::rules::Line::Ew.label(ctx.lang);
    let cards = l
        .pairs
        .iter()
        .filter(|p| layout.pairs().any(|q| q == p.pair_no()) || p.joined_from_round.is_some())
        .map(|p| MovementCard {
            pair: p,
            code: codes.pair(p.number).map(str::to_string),
            rounds: schedule
                .iter()
                .map(|r| {
                    let no = p.pair_no();
                    let round = i32::try_from(r.round).unwrap_or(i32::MAX);
                    // Not a rest: a late pair before it joined, a withdrawn
                    // pair once it left.
                    if p.joined_from_round.is_some_and(|j| round < j) {
                        return (r.round, None, "", "movement_cards.not_yet");
                    }
                    if p.withdrawn_from_round.is_some_and(|w| round >= w) {
                        return (r.round, None, "", "movement_cards.withdrawn");
                    }
                    let line = match r.line(no) {
                        Some(movement::Line::Ns) => "NS",
                        Some(movement::Line::Ew) => ew,
                        None => "",
                    };
                    (
                        r.round,
                        r.table_of(no).filter(|_| !r.rests(no)),
                        line,
                        "round.rests",
                    )
                })
                .collect(),
        })
        .collect();
    render(&MovementCardsPage {
        ctx: &ctx,
        l: &l,
        cards,
    })
}
