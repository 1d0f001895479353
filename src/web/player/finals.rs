//! A closed tournament on the table's page (issue 31, "states in words"):
//! each pair of the table reads its final place and its prize instead of
//! being told to wait for a next round that will not come; while it runs,
//! where each pair plays next.

use crate::i18n::{format::money, t, tf, Lang};
use crate::rules::Line;
use crate::services::table_side::view::TableView;
use crate::tournament::Status;
use crate::web::error::AppError;
use crate::web::score_card::line_label;
use crate::web::AppState;

/// One pair of the table at the close, in words.
pub struct FinalView {
    pub pair: i32,
    /// "Coppia 3: 2° posto".
    pub place: String,
    /// "premio 60,00 €", when the pair wins money.
    pub prize: Option<String>,
}

/// The final places of the table's pairs when the tournament is closed
/// (`None` while it runs); in a team tournament, the place and prize of
/// each pair's team.
pub async fn finals(
    state: &AppState,
    lang: Lang,
    v: &TableView,
) -> Result<Option<Vec<FinalView>>, AppError> {
    if v.l.status() != Status::Finished {
        return Ok(None);
    }
    if v.l.t.is_teams() {
        return team_finals(state, lang, v).await.map(Some);
    }
    let snap = state
        .public
        .snapshot(state, v.l.t.id, v.l.t.revision, lang)
        .await?;
    let Some(st) = &snap.standings else {
        return Ok(Some(Vec::new()));
    };
    let views = [&v.ns, &v.ew]
        .into_iter()
        .flatten()
        .filter_map(|p| {
            let number = u32::try_from(p.number).ok()?;
            let row = st.row(number)?;
            let prize = prize_line(lang, st.prize(number).map(|z| z.amount));
            Some(FinalView {
                pair: p.number,
                place: tf(
                    lang,
                    "table.final.place",
                    &[("pair", &p.number), ("place", &row.place)],
                ),
                prize,
            })
        })
        .collect();
    Ok(Some(views))
}

/// A team tournament's close: each pair of the table reads its team's
/// final place and prize.
async fn team_finals(
    state: &AppState,
    lang: Lang,
    v: &TableView,
) -> Result<Vec<FinalView>, AppError> {
    let view = state
        .public
        .teams(state, v.l.t.id, v.l.t.revision, lang)
        .await?;
    let st = &view.standings;
    Ok([&v.ns, &v.ew]
        .into_iter()
        .flatten()
        .filter_map(|p| {
            let pair = v.l.pairs.iter().find(|x| x.id == p.id)?;
            let number = u32::try_from(pair.team_number?).ok()?;
            let row = st.row(number)?;
            let prize = prize_line(lang, st.prize(number).map(|z| z.amount));
            Some(FinalView {
                pair: p.number,
                place: tf(
                    lang,
                    "table.final.team_place",
                    &[
                        ("team", &pair.team.clone().unwrap_or_default()),
                        ("place", &row.place),
                    ],
                ),
                prize,
            })
        })
        .collect())
}

/// The title of the closing section.
pub fn title(lang: Lang) -> &'static str {
    t(lang, "table.final.title")
}

/// Where a pair of the table plays next, in words.
pub struct NextView {
    pub pair: i32,
    pub text: String,
}

/// Where each pair of the table plays next, in words.
pub fn next_views(v: &TableView, lang: Lang) -> Vec<NextView> {
    let Some(round) = v.next_round else {
        return Vec::new();
    };
    v.next
        .iter()
        .map(|n| NextView {
            pair: n.pair,
            text: match n.seat {
                Some((table, line)) => tf(
                    lang,
                    "table.next.seat",
                    &[
                        ("pair", &n.pair),
                        ("round", &round),
                        ("table", &table),
                        ("line", &line_label(line, lang)),
                    ],
                ),
                None => tf(
                    lang,
                    "table.next.rest",
                    &[("pair", &n.pair), ("round", &round)],
                ),
            },
        })
        .collect()
}

/// "Premio: 37,33 €" for a prize won.
fn prize_line(lang: Lang, amount: Option<rust_decimal::Decimal>) -> Option<String> {
    amount.map(|a| tf(lang, "table.final.prize", &[("amount", &money(lang, a))]))
}
