//! The player directory on the pair form (directors only): a plain search
//! form whose results carry "player 1" / "player 2" links that open the pair
//! form filled in (no JavaScript needed), and the same search as JSON for
//! the suggestion list `static/players.js` adds to the form.

use crate::ids::TournamentId;
use actix_web::{web, HttpResponse};
use askama::Template;

use super::context::PageCtx;
use super::error::AppError;
use super::{render, AppState};
use crate::services::directory::{self, DirectoryPlayer};
use crate::services::view::Tournament;
use crate::services::{self, Need};
use crate::tournament::pairs::PairForm;
use crate::web::roles::Director;

/// `?q=…` plus the pair form as it was (carried through the search so a
/// player picked for one seat keeps the other seat's player).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct SearchQuery {
    q: String,
    #[serde(flatten)]
    form: PairForm,
}

/// One result with its two pick links.
pub struct Found {
    pub player: DirectoryPlayer,
    pub pick1: String,
    pub pick2: String,
}

#[derive(Template)]
#[template(path = "director/players.html")]
struct PlayersPage<'a> {
    ctx: &'a PageCtx,
    t: &'a Tournament,
    q: String,
    /// The query was long enough to search.
    searched: bool,
    form: PairForm,
    found: Vec<Found>,
    /// Where "back to the form" goes: the form as it was.
    back: String,
}

/// The pair form's address with `form` filled in.
fn form_href(tid: TournamentId, form: &PairForm) -> String {
    let query = serde_urlencoded::to_string(form).unwrap_or_default();
    let query: Vec<&str> = query
        .split('&')
        .filter(|kv| !kv.ends_with('=') && !kv.is_empty())
        .collect();
    if query.is_empty() {
        format!("/director/t/{tid}/pairs/new")
    } else {
        format!("/director/t/{tid}/pairs/new?{}", query.join("&"))
    }
}

/// `form` with `player` in seat 1 or 2.
fn with_player(form: &PairForm, seat: u8, player: &DirectoryPlayer) -> PairForm {
    let mut f = form.clone();
    let (surname, name, card, club) = if seat == 1 {
        (
            &mut f.p1_surname,
            &mut f.p1_name,
            &mut f.p1_card,
            &mut f.p1_club,
        )
    } else {
        (
            &mut f.p2_surname,
            &mut f.p2_name,
            &mut f.p2_card,
            &mut f.p2_club,
        )
    };
    surname.clone_from(&player.surname);
    name.clone_from(&player.name);
    card.clone_from(&player.card);
    club.clone_from(&player.club);
    f
}

/// `GET /director/t/{id}/players?q=…`: the search and its results.
pub async fn search(
    ctx: PageCtx,
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
    query: web::Query<SearchQuery>,
) -> Result<HttpResponse, AppError> {
    let tid = *id;
    let SearchQuery { q, form } = query.into_inner();
    let l = services::tournaments::load(&state.db, actor, tid, Need::Direct).await?;
    let players = directory::search(&state.db, actor, tid, &q).await?;
    let found = players
        .into_iter()
        .map(|player| Found {
            pick1: form_href(tid, &with_player(&form, 1, &player)),
            pick2: form_href(tid, &with_player(&form, 2, &player)),
            player,
        })
        .collect();
    render(&PlayersPage {
        ctx: &ctx,
        t: &l.t,
        searched: directory::normalise_query(&q).is_some(),
        back: form_href(tid, &form),
        q,
        form,
        found,
    })
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct JsonQuery {
    q: String,
}

/// `GET /director/t/{id}/players.json?q=…`: the same search for the
/// suggestion list (`{"players":[{surname,name,card,club,registrations}]}`).
pub async fn search_json(
    Director(actor): Director,
    state: web::Data<AppState>,
    id: web::Path<crate::ids::TournamentId>,
    query: web::Query<JsonQuery>,
) -> Result<HttpResponse, AppError> {
    let players = directory::search(&state.db, actor, *id, &query.q).await?;
    Ok(HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(serde_json::json!({ "players": players })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pick_links_fill_one_seat_and_keep_the_other() {
        let player = DirectoryPlayer {
            surname: "D'Alò".into(),
            name: "Anna Maria".into(),
            card: "12&3".into(),
            club: "Circolo #1".into(),
            registrations: 1,
        };
        let form = PairForm {
            p2_surname: "Bianchi".into(),
            p2_name: "Luca".into(),
            ..PairForm::default()
        };
        let href = form_href(crate::ids::TournamentId(7), &with_player(&form, 1, &player));
        assert!(href.starts_with("/director/t/7/pairs/new?"), "{href}");
        let back: PairForm = serde_urlencoded::from_str(href.split_once('?').unwrap().1).unwrap();
        assert_eq!(back.p1_surname, "D'Alò");
        assert_eq!(back.p1_card, "12&3");
        assert_eq!(back.p1_club, "Circolo #1");
        assert_eq!(back.p2_surname, "Bianchi");
        assert_eq!(
            form_href(crate::ids::TournamentId(7), &PairForm::default()),
            "/director/t/7/pairs/new"
        );
    }
}
