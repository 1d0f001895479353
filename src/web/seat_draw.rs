//! The seat draw at a table (RULES.md §8), as referees speak the cards.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;

use super::context::{web_query_value, FieldErrors, PageCtx};
use super::{render, render_status, AppState};
use crate::auth::Role;
use crate::rules::{Card, SeatDraw, SuitOrder};
use crate::web::error::AppError;
use crate::web::roles::Staff;

#[derive(Template)]
#[template(path = "desk/seat_draw.html")]
struct SeatDrawPage<'a> {
    ctx: &'a PageCtx,
    form: SeatDrawForm,
    errors: FieldErrors,
    result: Option<SeatDraw>,
    /// The tournament whose suit order applies (from the staff home).
    tournament: Option<(crate::ids::TournamentId, String)>,
    /// The cards as read back in words, player by player, step by step.
    read_back: Vec<String>,
    /// The redraw step to fill in next: (step number, players).
    next_step: Option<(usize, Vec<u8>)>,
}

impl SeatDrawPage<'_> {
    fn ranks(&self) -> &'static [(&'static str, &'static str)] {
        &GRID_RANKS
    }
    fn suits(&self) -> &'static [(&'static str, &'static str)] {
        &GRID_SUITS
    }
    /// Every card by name in the page's language, for the suggestions.
    fn card_names(&self) -> Vec<String> {
        let italian = self.ctx.lang == crate::i18n::Lang::It;
        let mut out = vec![crate::rules::spoken_name(Card::Joker, italian)];
        for suit in ["H", "D", "C", "S"] {
            for (rank, _) in GRID_RANKS.iter().filter(|(r, _)| *r != "JK") {
                if let Ok(c) = format!("{rank}{suit}").parse::<Card>() {
                    out.push(crate::rules::spoken_name(c, italian));
                }
            }
        }
        out
    }
    fn step_value(&self, step: &usize, player: &u8) -> String {
        self.form
            .steps
            .get(step.saturating_sub(1))
            .and_then(|s| s.iter().find(|(p, _)| p == player))
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }
}

/// The card grid: ranks (value, label) and suits (letter, symbol).
const GRID_RANKS: [(&str, &str); 14] = [
    ("JK", "Jolly"),
    ("2", "2"),
    ("A", "A"),
    ("K", "K"),
    ("Q", "Q"),
    ("J", "J"),
    ("10", "10"),
    ("9", "9"),
    ("8", "8"),
    ("7", "7"),
    ("6", "6"),
    ("5", "5"),
    ("4", "4"),
    ("3", "3"),
];
const GRID_SUITS: [(&str, &str); 4] = [("H", "♥"), ("D", "♦"), ("C", "♣"), ("S", "♠")];

/// What the seat-draw form sends: four cards (typed in words or notation,
/// or picked from the grid), the suit order, and the redraw steps so far
/// (`s{step}_p{player}`).
#[derive(Debug, Default, Clone)]
pub struct SeatDrawForm {
    pub cards: [String; 4],
    pub rank: [String; 4],
    pub suit: [String; 4],
    pub suit_order: String,
    /// "yes": let the program draw the four cards.
    pub random: String,
    pub tournament: Option<crate::ids::TournamentId>,
    pub steps: Vec<Vec<(u8, String)>>,
}

impl SeatDrawForm {
    fn from_fields(fields: Vec<(String, String)>) -> SeatDrawForm {
        let mut f = SeatDrawForm::default();
        let mut steps: std::collections::BTreeMap<usize, Vec<(u8, String)>> = Default::default();
        for (k, v) in fields {
            let slot = |prefix: &str| -> Option<usize> {
                let i: usize = k.strip_prefix(prefix)?.parse().ok()?;
                (1..=4).contains(&i).then(|| i - 1)
            };
            if let Some(i) = slot("c") {
                f.cards[i] = v;
            } else if let Some(i) = slot("rank") {
                f.rank[i] = v;
            } else if let Some(i) = slot("suit") {
                f.suit[i] = v;
            } else if k == "suit_order" {
                f.suit_order = v;
            } else if k == "random" {
                f.random = v;
            } else if k == "t" {
                f.tournament = v.trim().parse().ok();
            } else if let Some((step, player)) = k
                .strip_prefix('s')
                .and_then(|rest| rest.split_once("_p"))
                .and_then(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<u8>().ok()?)))
            {
                if (1..=20).contains(&step) && (1..=4).contains(&player) {
                    steps.entry(step).or_default().push((player, v));
                }
            }
        }
        // Steps in order, without gaps (a gap ends them).
        for (i, (n, mut step)) in steps.into_iter().enumerate() {
            if n != i + 1 {
                break;
            }
            step.sort_by_key(|(p, _)| *p);
            f.steps.push(step);
        }
        f
    }

    pub fn card(&self, i: usize) -> &str {
        self.cards
            .get(i.saturating_sub(1))
            .map_or("", |s| s.as_str())
    }
    fn rank_of(&self, i: usize) -> &str {
        self.rank
            .get(i.saturating_sub(1))
            .map_or("", |s| s.as_str())
    }
    fn suit_of(&self, i: usize) -> &str {
        self.suit
            .get(i.saturating_sub(1))
            .map_or("", |s| s.as_str())
    }
    /// Card `i` (1..4) as given: the typed text, else the grid's rank and suit.
    fn given(&self, i: usize) -> String {
        let typed = self.card(i).trim();
        if !typed.is_empty() {
            return typed.to_string();
        }
        match (self.rank_of(i), self.suit_of(i)) {
            ("JK", _) => "JK".to_string(),
            ("", _) | (_, "") => String::new(),
            (r, s) => format!("{r}{s}"),
        }
    }
}

/// The tournament the helper works for: its name and suit order.
async fn seat_draw_tournament(
    ctx: &PageCtx,
    state: &AppState,
    tid: Option<crate::ids::TournamentId>,
) -> Result<Option<(crate::ids::TournamentId, String, SuitOrder)>, AppError> {
    let Some(tid) = tid else {
        return Ok(None);
    };
    let actor = ctx.actor(Role::Referee)?;
    let l =
        crate::services::tournaments::load(&state.db, actor, tid, crate::services::Need::Referee)
            .await?;
    Ok(Some((tid, l.t.name.clone(), l.settings.suit_order)))
}

pub async fn seat_draw_form(
    ctx: PageCtx,
    _: Staff,
    state: web::Data<AppState>,
    req: HttpRequest,
) -> Result<HttpResponse, AppError> {
    let tid = web_query_value(req.query_string(), "t").and_then(|v| v.parse().ok());
    let t = seat_draw_tournament(&ctx, &state, tid).await?;
    render(&SeatDrawPage {
        ctx: &ctx,
        form: SeatDrawForm {
            suit_order: t
                .as_ref()
                .map_or_else(SuitOrder::default, |(_, _, o)| *o)
                .initials(ctx.lang),
            tournament: tid,
            ..Default::default()
        },
        errors: FieldErrors::default(),
        result: None,
        tournament: t.map(|(id, name, _)| (id, name)),
        read_back: Vec::new(),
        next_step: None,
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

/// Who chooses the seats and who deals (RULES.md §8): the four cards in
/// Italian or English words, in notation or from the grid, under the
/// tournament's suit order; identical cards that decide lead to a redraw
/// step between those players, as many steps as it takes.
pub async fn seat_draw(
    ctx: PageCtx,
    _: Staff,
    state: web::Data<AppState>,
    fields: web::Form<Vec<(String, String)>>,
) -> Result<HttpResponse, AppError> {
    let mut form = SeatDrawForm::from_fields(fields.into_inner());
    let t = seat_draw_tournament(&ctx, &state, form.tournament).await?;
    if form.random == "yes" {
        form.cards = random_cards();
        form.steps.clear();
    }
    let italian = ctx.lang == crate::i18n::Lang::It;
    let card_error =
        |token: &str| crate::i18n::tf(ctx.lang, "seat_draw.error.card", &[("token", &token)]);
    let mut errors = FieldErrors::default();
    let mut read_back = Vec::new();
    let mut cards = Vec::new();
    for (i, field) in [(1, "c1"), (2, "c2"), (3, "c3"), (4, "c4")] {
        let given = form.given(i);
        match crate::rules::parse_spoken_card(&given) {
            Ok(c) => {
                read_back.push(format!(
                    "{} {i}: {}",
                    ctx.t("seat_draw.player"),
                    crate::rules::spoken_name(c, italian)
                ));
                cards.push(c);
            }
            Err(_) => errors.add(field, card_error(&given)),
        }
    }
    let mut steps: Vec<Vec<(u8, Card)>> = Vec::new();
    for (k, step) in form.steps.iter().enumerate() {
        let mut parsed = Vec::new();
        for (p, text) in step {
            match crate::rules::parse_spoken_card(text) {
                Ok(c) => {
                    read_back.push(format!(
                        "{} {} · {} {p}: {}",
                        ctx.t("seat_draw.redraw_step"),
                        k + 1,
                        ctx.t("seat_draw.player"),
                        crate::rules::spoken_name(c, italian)
                    ));
                    parsed.push((*p, c));
                }
                Err(_) => errors.add("steps", card_error(text.trim())),
            }
        }
        steps.push(parsed);
    }
    let order = match &t {
        Some((_, _, o)) if form.suit_order.trim().is_empty() => Ok(*o),
        _ => SuitOrder::parse_typed(form.suit_order.trim()),
    };
    if order.is_err() {
        errors.add("suit_order", ctx.t("settings.error.suit_order"));
    }
    let tournament = t.map(|(id, name, _)| (id, name));
    let refused = |form, errors, read_back| {
        render_status(
            &SeatDrawPage {
                ctx: &ctx,
                form,
                errors,
                result: None,
                tournament: tournament.clone(),
                read_back,
                next_step: None,
            },
            StatusCode::UNPROCESSABLE_ENTITY,
        )
    };
    let (Ok(order), Ok(four)) = (order, <[Card; 4]>::try_from(cards)) else {
        return refused(form, errors, Vec::new());
    };
    if !errors.is_empty() {
        return refused(form, errors, Vec::new());
    }
    // The steps must name exactly the players each previous step sent to
    // redraw; a changed first card can make them stale: start the redraw over.
    let result = match crate::rules::seat_draw::resolve_draws(four, &steps, order) {
        Some(r) => r,
        None => {
            form.steps.clear();
            read_back.retain(|l| !l.starts_with(ctx.t("seat_draw.redraw_step")));
            crate::rules::seat_draw::seat_draw(four, order)
        }
    };
    let next_step = match &result {
        SeatDraw::Redraw { players } => Some((form.steps.len() + 1, players.clone())),
        SeatDraw::Chooser { .. } => None,
    };
    render(&SeatDrawPage {
        ctx: &ctx,
        form,
        errors,
        result: Some(result),
        tournament,
        read_back,
        next_step,
    })
}
