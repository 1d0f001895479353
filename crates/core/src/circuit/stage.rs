//! A stage (tappa): what the circuit needs of one tournament.

use crate::i18n::Lang;
use crate::standings::{compute_file, StandingsError};
use crate::tournament_file::{Player, Status, TournamentFile};
use serde::Serialize;
use std::collections::HashMap;

/// One player of a stage result: the key the caller identifies people by
/// (a player-directory id, a [`super::PersonKey`]…) and the name and card
/// shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StagePlayer<K> {
    pub key: K,
    pub surname: String,
    pub name: String,
    pub card: Option<String>,
}

/// One pair's final result in a stage (RULES.md §5 standings).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StageResult<K> {
    pub pair_number: u32,
    /// 1-based; shared places possible (1, 2, 2, 4…).
    pub place: u32,
    /// Net VP (after penalties).
    pub vp: i64,
    pub mp_diff: i64,
    pub players: [StagePlayer<K>; 2],
}

/// One tournament of the circuit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Stage<K> {
    pub title: String,
    /// Only finished tournaments count; an unfinished one is provisional.
    pub finished: bool,
    /// The tournament's entries (RULES.md §10): the base of the `placing`
    /// method and of the finalists' cut-off.
    pub entries: u32,
    /// One per entry; no-shows have no result.
    pub results: Vec<StageResult<K>>,
}

/// The stage of a tournament file: its final standings by
/// [`crate::standings::compute_file`] (so an invalid file or a broken sheet
/// is the same error as for `burraco-td standings`), each player keyed by
/// `key`. `finished` is `status: finished`; a file without `status`, like a
/// draft or a running one, is not finished (provisional). `lang` is the language of the
/// standings' own texts (not used by the circuit).
pub fn stage_of_file<K>(
    file: &TournamentFile,
    mut key: impl FnMut(&Player) -> K,
    lang: Lang,
) -> Result<Stage<K>, StandingsError> {
    stage_of_file_by_seat(file, |_, _, p| key(p), lang)
}

/// [`stage_of_file`] with each player keyed by their seat: the pair's
/// number, the seat (0 or 1) and the player (the web keys people by the
/// registration's seat, which the file does not carry).
pub fn stage_of_file_by_seat<K>(
    file: &TournamentFile,
    mut key: impl FnMut(u32, usize, &Player) -> K,
    lang: Lang,
) -> Result<Stage<K>, StandingsError> {
    let standings = compute_file(file, lang)?;
    let pairs: HashMap<u32, &[Player]> = file
        .pairs
        .iter()
        .map(|p| (p.number, p.players.as_slice()))
        .collect();
    let mut player = |pair: u32, seat: usize, p: &Player| StagePlayer {
        key: key(pair, seat, p),
        surname: p.surname.clone(),
        name: p.name.clone(),
        card: p
            .card
            .as_deref()
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(str::to_string),
    };
    let mut results = Vec::with_capacity(standings.rows.len());
    for row in &standings.rows {
        // A validated file's pairs have exactly two players.
        let Some([a, b]) = pairs.get(&row.number).copied() else {
            continue;
        };
        results.push(StageResult {
            pair_number: row.number,
            place: row.place,
            vp: row.vp,
            mp_diff: row.mp_diff,
            players: [player(row.number, 0, a), player(row.number, 1, b)],
        });
    }
    Ok(Stage {
        title: file.name.clone(),
        finished: file.status == Some(Status::Finished),
        entries: standings.entries,
        results,
    })
}

/// The stage of an individual tournament file (RULES.md §14, §11 `rank:
/// player`): its standings per player by the one engine, each player's
/// result their own. A result holds its player twice (the circuit counts
/// a result whose two players are one person once: one entrant, shown
/// once), so a circuit ranking players reads it like any other stage.
pub fn stage_of_individual_file<K: Clone>(
    file: &crate::tournament_file::IndividualTournamentFile,
    mut key: impl FnMut(u32, &Player) -> K,
    lang: Lang,
) -> Result<Stage<K>, StandingsError> {
    let standings = crate::standings::compute_individual_file(file, lang)?;
    let mut results = Vec::with_capacity(standings.rows.len());
    for row in &standings.rows {
        let Some(p) = file.players.iter().find(|p| p.number == row.number) else {
            continue;
        };
        let shown = StagePlayer {
            key: key(row.number, &p.player),
            surname: p.player.surname.clone(),
            name: p.player.name.clone(),
            card: p
                .player
                .card
                .as_deref()
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .map(str::to_string),
        };
        results.push(StageResult {
            pair_number: row.number,
            place: row.place,
            vp: row.vp,
            mp_diff: row.mp_diff,
            players: [shown.clone(), shown],
        });
    }
    Ok(Stage {
        title: file.name.clone(),
        finished: file.status == Some(Status::Finished),
        entries: standings.entries,
        results,
    })
}

#[cfg(test)]
mod individual_tests {
    use super::*;
    use crate::circuit::{compute, parse};
    use crate::tournament_file::individual_kit::one_round;

    #[test]
    fn an_individual_stage_ranks_each_player_once_with_their_own_place() {
        let mut f = one_round();
        f.status = Some(Status::Finished);
        let stage = stage_of_individual_file(&f, |n, _| n, Lang::En).unwrap();
        assert_eq!(stage.entries, 8);
        assert_eq!(stage.results.len(), 8);
        // 1 and 2 won their table 14–6: they share the first place.
        let r1 = stage.results.iter().find(|r| r.pair_number == 1).unwrap();
        let r2 = stage.results.iter().find(|r| r.pair_number == 2).unwrap();
        assert_eq!((r1.place, r1.vp), (r2.place, r2.vp));
        let spec = parse(
            r#"{"format":"burraco-td/circuit@1","name":"C","season":"S",
                "points":{"method":"placing"}}"#,
        )
        .unwrap();
        let st = compute(&spec, &[stage]);
        assert_eq!(st.rows.len(), 8, "one row per player");
        assert!(st.rows.iter().all(|r| r.players.len() == 1));
    }
}
