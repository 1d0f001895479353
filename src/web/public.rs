//! Pages anyone may open (players on their phones) and the seat-draw helper.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use askama::Template;

use super::context::{FieldErrors, PageCtx};
use super::{render, render_status, AppState};
use crate::auth::Role;
use crate::db::tournaments::TournamentRow;
use crate::rules::prize_pool::Prizes;
use crate::rules::{Card, SeatDraw, SuitOrder};
use crate::standings::{CardRound, Outcome, PairCard, Standings};
use crate::tournament::settings::Settings;
use crate::tournament_file::TournamentFile;
use crate::web::error::AppError;

#[derive(Template)]
#[template(path = "public/tournament.html")]
struct TournamentPage<'a> {
    ctx: &'a PageCtx,
    t: TournamentRow,
    settings: Settings,
    entries: u32,
    pool: Option<Prizes>,
    /// The scheme in force for the current entries (percent per place).
    scheme: Vec<String>,
    standings: Option<Standings>,
    file: Option<TournamentFile>,
    rounds_played: usize,
}

impl TournamentPage<'_> {
    fn names(&self, pair: &u32) -> String {
        pair_names(self.file.as_ref(), *pair)
    }
    fn finished(&self) -> bool {
        self.t.status == "finished"
    }
}

/// "Rossi Maria – Bianchi Luca".
fn pair_names(file: Option<&TournamentFile>, pair: u32) -> String {
    file.and_then(|f| f.pairs.iter().find(|p| p.number == pair))
        .map(|p| {
            p.players
                .iter()
                .map(|pl| format!("{} {}", pl.surname, pl.name))
                .collect::<Vec<_>>()
                .join(" – ")
        })
        .unwrap_or_default()
}

/// The public page of a tournament: format, rounds, fee, the pool so far
/// and how it is split (seed 000: shown during the whole tournament).
pub async fn tournament(
    ctx: PageCtx,
    state: web::Data<AppState>,
    id: web::Path<i64>,
) -> Result<HttpResponse, AppError> {
    let id = *id;
    let l = crate::services::tournaments::public(&state.db, id).await?;
    let draft = l.status() == crate::tournament::Status::Draft;
    let (t, settings, pairs) = (l.t, l.settings, l.pairs);
    let entries = u32::try_from(pairs.len()).unwrap_or(u32::MAX);
    let pool = settings.pool_for(entries).ok();
    let scheme = pool
        .as_ref()
        .map(|p| p.scheme.iter().map(|d| d.normalize().to_string()).collect())
        .unwrap_or_default();
    let (file, standings) = if draft {
        (None, None)
    } else {
        let (f, s) = crate::services::files::public_standings(
            &state.db,
            id,
            state.settings.timezone,
            ctx.lang,
        )
        .await?;
        (Some(f), Some(s))
    };
    let rounds_played = file.as_ref().map(|f| f.rounds.len()).unwrap_or(0);
    render(&TournamentPage {
        ctx: &ctx,
        t,
        settings,
        entries,
        pool,
        scheme,
        standings,
        file,
        rounds_played,
    })
}

// ---- the seat draw at a table (RULES.md §8) ----

#[derive(Template)]
#[template(path = "desk/seat_draw.html")]
struct SeatDrawPage<'a> {
    ctx: &'a PageCtx,
    form: SeatDrawForm,
    errors: FieldErrors,
    result: Option<SeatDraw>,
}

#[derive(Debug, Default, Clone, serde::Deserialize)]
#[serde(default)]
pub struct SeatDrawForm {
    pub c1: String,
    pub c2: String,
    pub c3: String,
    pub c4: String,
    pub suit_order: String,
    /// "yes": let the program draw the four cards.
    pub random: String,
}

impl SeatDrawForm {
    pub fn card(&self, i: usize) -> &str {
        match i {
            1 => &self.c1,
            2 => &self.c2,
            3 => &self.c3,
            _ => &self.c4,
        }
    }
}

pub async fn seat_draw_form(ctx: PageCtx) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Referee)?;
    render(&SeatDrawPage {
        ctx: &ctx,
        form: SeatDrawForm {
            suit_order: SuitOrder::default().to_string(),
            ..Default::default()
        },
        errors: FieldErrors::default(),
        result: None,
    })
}

/// Four cards from a shuffled double deck (108 cards), for "let the program draw".
fn random_cards() -> [String; 4] {
    use rand::seq::SliceRandom;
    let mut deck: Vec<String> = Vec::with_capacity(108);
    for _ in 0..2 {
        for suit in ["H", "D", "C", "S"] {
            for rank in [
                "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
            ] {
                deck.push(format!("{rank}{suit}"));
            }
        }
        deck.push("JK".into());
        deck.push("JK".into());
    }
    deck.shuffle(&mut rand::thread_rng());
    [
        deck[0].clone(),
        deck[1].clone(),
        deck[2].clone(),
        deck[3].clone(),
    ]
}

pub async fn seat_draw(
    ctx: PageCtx,
    form: web::Form<SeatDrawForm>,
) -> Result<HttpResponse, AppError> {
    ctx.require(Role::Referee)?;
    let mut form = form.into_inner();
    if form.random == "yes" {
        let [a, b, c, d] = random_cards();
        form.c1 = a;
        form.c2 = b;
        form.c3 = c;
        form.c4 = d;
    }
    let mut errors = FieldErrors::default();
    let mut cards = Vec::new();
    for (i, field) in [(1, "c1"), (2, "c2"), (3, "c3"), (4, "c4")] {
        match form.card(i).trim().parse::<Card>() {
            Ok(c) => cards.push(c),
            Err(_) => errors.add(
                field,
                crate::i18n::tf(
                    ctx.lang,
                    "seat_draw.error.card",
                    &[("token", &form.card(i).trim())],
                ),
            ),
        }
    }
    let order = SuitOrder::parse(form.suit_order.trim());
    if order.is_err() {
        errors.add("suit_order", ctx.t("settings.error.suit_order"));
    }
    let (Ok(order), Ok(four)) = (order, <[Card; 4]>::try_from(cards)) else {
        return render_status(
            &SeatDrawPage {
                ctx: &ctx,
                form,
                errors,
                result: None,
            },
            StatusCode::UNPROCESSABLE_ENTITY,
        );
    };
    let result = crate::rules::seat_draw::seat_draw(four, order);
    render(&SeatDrawPage {
        ctx: &ctx,
        form,
        errors,
        result: Some(result),
    })
}

// ---- a pair's card ----

#[derive(Template)]
#[template(path = "public/pair.html")]
struct PairPage<'a> {
    ctx: &'a PageCtx,
    tid: i64,
    name: String,
    finished: bool,
    pair: u32,
    names: String,
    card: PairCard,
    row: Option<crate::standings::Row>,
    prize: Option<crate::standings::Prize>,
    file: TournamentFile,
}

impl PairPage<'_> {
    fn opponent(&self, r: &CardRound) -> String {
        match r.opponent {
            Some(o) => format!("{o} · {}", pair_names(Some(&self.file), o)),
            None => String::new(),
        }
    }
    fn outcome_key(&self, r: &CardRound) -> &'static str {
        match r.outcome {
            Outcome::Played => "card.outcome.played",
            Outcome::Adjusted => "card.outcome.adjusted",
            Outcome::Bye => "card.outcome.bye",
            Outcome::Pending => "card.outcome.pending",
            Outcome::Absent => "card.outcome.absent",
        }
    }
    fn line_label(&self, r: &CardRound) -> &'static str {
        match r.line {
            Some(crate::rules::Line::Ns) => "NS",
            Some(crate::rules::Line::Ew) => self.ctx.t("line.ew_short"),
            None => "",
        }
    }
}

/// A pair's card: round by round, public (no login).
pub async fn pair_card(
    ctx: PageCtx,
    state: web::Data<AppState>,
    path: web::Path<(i64, u32)>,
) -> Result<HttpResponse, AppError> {
    let (tid, pair) = path.into_inner();
    let (file, standings) =
        crate::services::files::public_standings(&state.db, tid, state.settings.timezone, ctx.lang)
            .await?;
    let card = standings.card(pair).cloned().ok_or(AppError::NotFound)?;
    let page = PairPage {
        ctx: &ctx,
        tid,
        name: file.name.clone(),
        finished: file.status == Some(crate::tournament_file::Status::Finished),
        pair,
        names: pair_names(Some(&file), pair),
        card,
        row: standings.row(pair).cloned(),
        prize: standings.prize(pair).cloned(),
        file,
    };
    render(&page)
}
