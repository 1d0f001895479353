//! The team file of a tournament (standings, cards, match results and the
//! export read it) and the rounds as the pages list them.

use super::{ensure_teams, load_teams, Team, TeamsLoaded};
use crate::db::{Db, DbConn};
use crate::i18n::Lang;
use crate::ids::{TeamId, TournamentId};
use crate::services::{load_rows, read_rows, Actor, Need, Rows, ServiceError};
use crate::standings::TeamStandings;
use crate::tournament::Status;
use crate::tournament_file::{
    FileKind, LineRef, MatchFile, MatchTableFile, TeamFile, TeamMovementKind, TeamPenaltyFile,
    TeamRoundFile, TeamTournamentFile, TournamentFile,
};
use std::collections::HashMap;

// ---- the team file ----

/// The team file of a loaded team tournament (what the standings, the
/// public pages and the export read).
pub fn team_file_on(
    c: &mut DbConn,
    t: &TeamsLoaded,
    tz: chrono_tz::Tz,
) -> Result<TeamTournamentFile, ServiceError> {
    let Rows {
        t: row,
        pairs: pair_rows,
        rounds: round_rows,
        ..
    } = &t.rows;
    let pairs_file = crate::db::export::load_file_of(c, None, row, pair_rows, round_rows, tz)?;
    let number_of: HashMap<u32, (TeamId, [u32; 2])> = pair_rows
        .iter()
        .filter_map(|p| t.pair_team.get(&p.id).map(|x| (p.pair_no(), *x)))
        .collect();
    let movements: HashMap<i32, String> = round_rows
        .iter()
        .map(|r| (r.number, r.movement.clone()))
        .collect();
    team_file_of(t, &pairs_file, &number_of, &movements)
}

/// The team file from the pairs file of the same rows: matches from the
/// seatings (tables 2m−1 and 2m), teams and resting teams from theirs.
fn team_file_of(
    t: &TeamsLoaded,
    pf: &TournamentFile,
    number_of: &HashMap<u32, (TeamId, [u32; 2])>,
    movements: &HashMap<i32, String>,
) -> Result<TeamTournamentFile, ServiceError> {
    let team_no = |id: TeamId| {
        t.team(id)
            .map(Team::team_no)
            .ok_or_else(|| ServiceError::corrupt(format!("team {id} is missing")))
    };
    let line = |pair: u32| -> Result<LineRef, ServiceError> {
        let (team, players) = number_of
            .get(&pair)
            .ok_or_else(|| ServiceError::corrupt(format!("pair {pair} is no team's pair")))?;
        Ok(LineRef {
            team: team_no(*team)?,
            players: *players,
        })
    };
    let mut f = TeamTournamentFile::new(pf.name.clone(), pf.date);
    f.venue = pf.venue.clone();
    f.start_time = pf.start_time;
    f.profile = pf.profile.clone();
    f.hands_per_round = pf.hands_per_round;
    f.minutes_per_round = pf.minutes_per_round;
    f.vp_scale = pf.vp_scale.clone();
    f.bye_vp = pf.bye_vp;
    f.team_scoring = t.setup.scoring.clone();
    f.team_bye_vp = t.setup.bye_vp.map(i64::from);
    f.entry_fee = pf.entry_fee;
    f.prize_share_percent = pf.prize_share_percent;
    f.guaranteed_pool = pf.guaranteed_pool;
    f.payout = pf.payout.clone();
    f.planned_rounds = pf.planned_rounds;
    f.suit_order = pf.suit_order.clone();
    f.draw_seed = pf.draw_seed;
    f.status = pf.status;
    f.declared_closed_at = pf.declared_closed_at;
    f.teams = t
        .teams
        .iter()
        .map(|x| TeamFile {
            number: x.team_no(),
            name: x.name.clone(),
            players: x
                .players
                .iter()
                .map(|p| crate::tournament_file::Player {
                    surname: p.surname().to_string(),
                    name: p.name().to_string(),
                    card: (!p.card().is_empty()).then(|| p.card().to_string()),
                    club: (!p.club().is_empty()).then(|| p.club().to_string()),
                })
                .collect(),
            checked_in: Some(x.checked_in),
            withdrawn_from_round: x.withdrawn_from_round.and_then(|w| u32::try_from(w).ok()),
            no_show: x.no_show || x.withdrawn_from_round == Some(1),
        })
        .collect();
    let group_of = |n: u32| {
        t.teams
            .iter()
            .find(|x| x.team_no() == n)
            .and_then(|x| x.group.clone())
    };
    for r in &pf.rounds {
        let number = i32::try_from(r.number).unwrap_or(0);
        let movement = match movements.get(&number).map(String::as_str) {
            Some("danish") => TeamMovementKind::Danish,
            _ => TeamMovementKind::RoundRobin,
        };
        let mut matches = Vec::new();
        let mut tables = r.tables.clone();
        tables.sort_by_key(|x| x.table);
        for pair in tables.chunks(2) {
            let [first, second] = pair else {
                return Err(ServiceError::corrupt(format!(
                    "round {}: table {} has no second table",
                    r.number,
                    pair.first().map_or(0, |x| x.table)
                )));
            };
            let table = |x: &crate::tournament_file::TableFile| -> Result<_, ServiceError> {
                Ok(MatchTableFile {
                    table: x.table,
                    ns: line(x.ns)?,
                    ew: line(x.ew)?,
                    sheet: x.sheet.clone(),
                    adjusted: x.adjusted,
                })
            };
            let a = table(first)?;
            let b = table(second)?;
            let home = a.ns.team;
            let group = match movement {
                TeamMovementKind::RoundRobin => group_of(home),
                TeamMovementKind::Danish => None,
            };
            matches.push(MatchFile {
                home,
                away: a.ew.team,
                group,
                tables: vec![a, b],
            });
        }
        let round_id = t.l.round(number).map(|x| x.id);
        let mut byes: Vec<u32> = t
            .byes
            .iter()
            .filter(|(rid, _)| Some(*rid) == round_id)
            .map(|(_, team)| team_no(*team))
            .collect::<Result<_, _>>()?;
        byes.sort_unstable();
        f.rounds.push(TeamRoundFile {
            number: r.number,
            movement: Some(movement),
            matches,
            byes,
        });
    }
    // A penalty is recorded on the pair of the team at its table.
    f.penalties = pf
        .penalties
        .iter()
        .map(|p| {
            let l = line(p.pair)?;
            Ok(TeamPenaltyFile {
                round: p.round,
                team: l.team,
                table: p.table,
                kind: p.kind,
                amount: p.amount,
                reason: p.reason.clone(),
                withdrawn: p.withdrawn,
                by: p.by.clone(),
                at: p.at,
                withdrawn_by: p.withdrawn_by.clone(),
                withdrawn_at: p.withdrawn_at,
                withdrawn_reason: p.withdrawn_reason.clone(),
            })
        })
        .collect::<Result<_, ServiceError>>()?;
    Ok(f)
}

/// Everything the team pages show, computed once per revision.
#[derive(Debug, Clone)]
pub struct TeamView {
    pub file: TeamTournamentFile,
    pub standings: TeamStandings,
    pub revision: i64,
    pub status: Status,
    pub tournament_id: TournamentId,
    /// UTC.
    pub starts_at: chrono::NaiveDateTime,
}

impl TeamView {
    pub fn team_name(&self, n: u32) -> String {
        self.file
            .teams
            .iter()
            .find(|t| t.number == n)
            .map(|t| t.name.clone())
            .unwrap_or_default()
    }

    /// "Rossi – Bianchi": two players of team `n`.
    pub fn pair_label(&self, n: u32, players: [u32; 2]) -> String {
        let team = self.file.teams.iter().find(|t| t.number == n);
        let surname = |i: u32| {
            team.and_then(|t| t.players.get(usize::try_from(i).unwrap_or(usize::MAX)))
                .map(|p| p.surname.clone())
                .unwrap_or_else(|| "?".into())
        };
        format!("{} – {}", surname(players[0]), surname(players[1]))
    }
}

/// The team view of a loaded team tournament.
fn view_of(
    c: &mut DbConn,
    t: &TeamsLoaded,
    tz: chrono_tz::Tz,
    lang: Lang,
) -> Result<TeamView, ServiceError> {
    let tid = t.l.t.id;
    let file = team_file_on(c, t, tz)?;
    let standings = crate::standings::compute_teams_file(&file, lang)
        .map_err(|e| ServiceError::corrupt(format!("tournament {tid}: team standings: {e:?}")))?;
    Ok(TeamView {
        file,
        standings,
        revision: t.l.t.revision,
        status: t.l.status(),
        tournament_id: tid,
        starts_at: t.l.t.starts_at,
    })
}

/// The team view of a tournament (public: no access check), or `None` for
/// a pairs tournament.
pub async fn view(
    db: &Db,
    tid: TournamentId,
    tz: chrono_tz::Tz,
    lang: Lang,
) -> Result<Option<TeamView>, ServiceError> {
    db.read(move |c| {
        let row = crate::db::tournaments::find(c, tid)?.ok_or(ServiceError::NotFound)?;
        if row.kind != FileKind::Teams {
            return Ok(None);
        }
        let rows = load_rows(c, row)?;
        let t = load_teams(c, rows)?;
        view_of(c, &t, tz, lang).map(Some)
    })
    .await
}

/// A team tournament, access-checked, and its team view, in one read
/// (the director's pages).
pub async fn load_view(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    need: Need,
    tz: chrono_tz::Tz,
    lang: Lang,
) -> Result<(TeamsLoaded, TeamView), ServiceError> {
    db.read(move |c| {
        let rows = read_rows(c, &actor, tid, need)?;
        let t = load_teams(c, rows)?;
        ensure_teams(&t)?;
        let v = view_of(c, &t, tz, lang)?;
        Ok((t, v))
    })
    .await
}

/// The team file of a tournament for its export (staff).
pub fn export_on(
    c: &mut DbConn,
    rows: Rows,
    tz: chrono_tz::Tz,
) -> Result<TeamTournamentFile, ServiceError> {
    let t = load_teams(c, rows)?;
    ensure_teams(&t)?;
    team_file_on(c, &t, tz)
}

// ---- the rounds as the pages list them ----

/// One table of a match as the director's page lists it.
pub struct TableLine {
    pub table: u32,
    pub ns: String,
    pub ew: String,
    pub result: String,
}

/// One match of a round.
pub struct MatchLine {
    pub home: u32,
    pub away: u32,
    pub home_name: String,
    pub away_name: String,
    pub group: Option<String>,
    pub tables: Vec<TableLine>,
    /// "24 – 16" once both tables are scored.
    pub score: Option<String>,
}

/// One round's matches and resting teams.
pub struct RoundLine {
    pub number: u32,
    pub movement_key: &'static str,
    pub matches: Vec<MatchLine>,
    pub byes: Vec<String>,
}

/// The rounds of the team view, as the director's page, the team cards
/// and the public round pages list them.
pub fn round_lines(v: &TeamView) -> Vec<RoundLine> {
    v.file
        .rounds
        .iter()
        .map(|r| {
            let results = v.standings.rounds().iter().find(|x| x.round == r.number);
            RoundLine {
                number: r.number,
                movement_key: match r.movement {
                    Some(crate::tournament_file::TeamMovementKind::Danish) => {
                        "movement_kind.danish"
                    }
                    _ => "movement_kind.round_robin",
                },
                matches: r
                    .matches
                    .iter()
                    .map(|m| {
                        let res = results.and_then(|x| {
                            x.matches
                                .iter()
                                .find(|y| y.home == m.home && y.away == m.away)
                        });
                        MatchLine {
                            home: m.home,
                            away: m.away,
                            home_name: v.team_name(m.home),
                            away_name: v.team_name(m.away),
                            group: m.group.clone(),
                            tables: m
                                .tables
                                .iter()
                                .map(|t| {
                                    let tr = res
                                        .and_then(|x| x.tables.iter().find(|y| y.table == t.table));
                                    TableLine {
                                        table: t.table,
                                        ns: format!(
                                            "{} {}",
                                            t.ns.team,
                                            v.pair_label(t.ns.team, t.ns.players)
                                        ),
                                        ew: format!(
                                            "{} {}",
                                            t.ew.team,
                                            v.pair_label(t.ew.team, t.ew.players)
                                        ),
                                        result: match tr.map(|x| (x.ns_vp, x.ew_vp)) {
                                            Some((Some(a), Some(b))) => format!("{a} – {b}"),
                                            _ => String::new(),
                                        },
                                    }
                                })
                                .collect(),
                            score: res
                                .filter(|x| x.complete)
                                .and_then(|x| Some(format!("{} – {}", x.home_vp?, x.away_vp?))),
                        }
                    })
                    .collect(),
                byes: r
                    .byes
                    .iter()
                    .map(|b| format!("{b} {}", v.team_name(*b)))
                    .collect(),
            }
        })
        .collect()
}
