//! What anyone may see of a tournament (players on their phones, the hall):
//! one snapshot per revision, and the public form of the standings. Nothing
//! staff-only leaves this module: no referee notes, no staff names, no
//! withdrawn penalties (RULES.md §9: they count for nothing).

use crate::ids::TournamentId;
use serde::Serialize;

use super::{Loaded, ServiceError};
use crate::db::tournaments as tdb;
use crate::db::Db;
use crate::i18n::Lang;
use crate::standings::{CardPenalty, Prize, Standings, TieBreak};
use crate::tournament::Status;
use crate::tournament_file::{PenaltyKind, TournamentFile};

/// A tournament as its public pages show it, read in one go.
#[derive(Debug, Clone)]
pub struct Snapshot {
    pub loaded: Loaded,
    /// `None` while the tournament is a draft (nothing to show yet).
    pub file: Option<TournamentFile>,
    pub standings: Option<Standings>,
    /// The circuits this tournament is a stage of: (id, name).
    pub circuits: Vec<(i64, String)>,
}

impl Snapshot {
    pub fn finished(&self) -> bool {
        self.loaded.status == Status::Finished
    }

    /// "Rossi Maria – Bianchi Luca".
    pub fn pair_names(&self, pair: u32) -> String {
        pair_names(self.file.as_ref(), pair)
    }
}

/// "Rossi Maria – Bianchi Luca" (empty when the pair is unknown).
pub fn pair_names(file: Option<&TournamentFile>, pair: u32) -> String {
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

/// "Rossi – Bianchi": the surnames only (narrow screens).
pub fn pair_surnames(file: Option<&TournamentFile>, pair: u32) -> String {
    file.and_then(|f| f.pairs.iter().find(|p| p.number == pair))
        .map(|p| {
            p.players
                .iter()
                .map(|pl| pl.surname.as_str())
                .collect::<Vec<_>>()
                .join(" – ")
        })
        .unwrap_or_default()
}

/// Reads the tournament and computes its standings (the expensive part of
/// every public page: callers cache it per revision).
pub async fn snapshot(
    db: &Db,
    tid: TournamentId,
    tz: chrono_tz::Tz,
    lang: Lang,
) -> Result<Snapshot, ServiceError> {
    let versions = db.sheet_versions();
    db.read(move |c| {
        let t = tdb::find(c, tid)?.ok_or(ServiceError::NotFound)?;
        let rows = super::load_rows(c, t)?;
        let loaded = super::Loaded::of(&rows)?;
        let circuits = super::circuits::names_of_tournament(c, tid)?;
        if loaded.status == Status::Draft {
            return Ok(Snapshot {
                loaded,
                file: None,
                standings: None,
                circuits,
            });
        }
        let t0 = std::time::Instant::now();
        // The tournament, its pairs and rounds are read already: the file
        // takes them rather than reading them again.
        let file = crate::db::export::load_file_of(
            c,
            Some(&versions),
            &rows.t,
            &rows.pairs,
            &rows.rounds,
            tz,
        )?;
        let t1 = std::time::Instant::now();
        let standings = super::files::standings_of_file(tid, &file, lang)?;
        tracing::debug!(
            tid = tid.0,
            load_ms = (t1 - t0).as_secs_f64() * 1e3,
            standings_ms = t1.elapsed().as_secs_f64() * 1e3,
            "public snapshot computed"
        );
        Ok(Snapshot {
            loaded,
            file: Some(file),
            standings: Some(standings),
            circuits,
        })
    })
    .await
}

/// Whether a penalty may be shown in public: only the ones that count
/// (never a withdrawn one).
pub fn shows_in_public(p: &CardPenalty) -> bool {
    p.counts && !p.withdrawn
}

/// A penalty as the public sees it: what, when, why. Never who gave or
/// withdrew it.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PublicPenalty {
    pub round: u32,
    pub pair: u32,
    pub table: Option<u32>,
    pub kind: PenaltyKind,
    pub amount: Option<i64>,
    /// The public reason (for an automatic VP, the warning count in words).
    pub reason: String,
    /// Added by the program (−1 VP for every second warning).
    pub automatic: bool,
}

/// A pair's line in the public standings.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PublicRow {
    pub place: u32,
    pub pair: u32,
    pub names: String,
    pub vp: i64,
    pub mp_diff: i64,
    pub mp: i64,
    pub played: u32,
    pub byes: u32,
    pub penalty_vp: i64,
    pub withdrawn: bool,
    pub tie_break: Option<TieBreak>,
    /// Its group once the field is cut (RULES.md §13); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// Its place inside its group; absent without groups.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_place: Option<u32>,
}

/// `GET /api/v1/tournaments/{id}/standings`.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct PublicStandings {
    pub tournament: TournamentId,
    pub name: String,
    /// `draft`, `running` or `finished`.
    pub status: &'static str,
    /// Goes up with every change; the same revision is the same content.
    pub revision: i64,
    pub rounds: usize,
    /// Best first; empty while the tournament is a draft.
    pub rows: Vec<PublicRow>,
    /// The pairs that win money so far; final once `status` is `finished`.
    pub prizes: Vec<Prize>,
    pub prizes_provisional: bool,
    /// The penalties that count, round by round.
    pub penalties: Vec<PublicPenalty>,
}

impl PublicStandings {
    pub fn of(s: &Snapshot, revision: i64) -> PublicStandings {
        let t = &s.loaded.t;
        let mut rows = Vec::new();
        let mut penalties = Vec::new();
        let mut prizes = Vec::new();
        if let Some(st) = &s.standings {
            rows = st
                .rows
                .iter()
                .map(|r| PublicRow {
                    place: r.place,
                    pair: r.number,
                    names: s.pair_names(r.number),
                    vp: r.vp,
                    mp_diff: r.mp_diff,
                    mp: r.mp,
                    played: r.played,
                    byes: r.byes,
                    penalty_vp: r.penalty_vp,
                    withdrawn: r.withdrawn,
                    tie_break: r.tie_break.clone(),
                    group: r.group.clone(),
                    group_place: r.group_place,
                })
                .collect();
            for card in &st.cards {
                for r in &card.rounds {
                    for p in r.penalties.iter().filter(|p| shows_in_public(p)) {
                        penalties.push(PublicPenalty {
                            round: r.round,
                            pair: card.number,
                            table: p.table,
                            kind: p.kind,
                            amount: p.amount,
                            reason: p.reason.clone(),
                            automatic: p.automatic,
                        });
                    }
                }
            }
            penalties.sort_by_key(|p| (p.round, p.pair));
            prizes = st.prizes.clone();
        }
        PublicStandings {
            tournament: t.id,
            name: t.name.clone(),
            status: s.loaded.status.as_str(),
            revision,
            rounds: s.file.as_ref().map_or(0, |f| f.rounds.len()),
            rows,
            prizes,
            prizes_provisional: !s.finished(),
            penalties,
        }
    }
}
