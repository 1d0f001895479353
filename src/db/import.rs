//! A tournament file into the database as a new tournament, all or nothing (the checks are the services'; `services::files::import` calls this).

use super::schema::{byes, pairs, rounds, seatings, tournaments, users};
use super::scoring::{self};
use super::tournaments::{self as tdb};
use super::{unreadable, DbConn};
use crate::ids::PairId;
use crate::ids::RoundId;
use crate::ids::SeatingId;
use crate::ids::TournamentId;
use crate::ids::UserId;
use crate::rules::ScoreSheet;
use crate::tournament::{RoundMovement, Status};
use crate::tournament_file::{MovementKind, PairFile, Penalty, Player, TableFile, TournamentFile};
use chrono::NaiveDateTime;
use diesel::prelude::*;
use diesel::result::Error as DieselError;
use std::collections::HashMap;

/// Why an import was refused.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("the file's settings are not valid: {0}")]
    Settings(String),
    #[error(transparent)]
    Db(#[from] DieselError),
}

/// The settings a file's header gives (checked as the settings form checks
/// them).
pub(super) fn settings_of(
    file: &TournamentFile,
    tz: chrono_tz::Tz,
) -> Result<crate::tournament::settings::Settings, ImportError> {
    use crate::tournament::settings::{format_payout, Settings, SettingsForm};
    let mitchell_rounds = file
        .movements
        .as_ref()
        .map(|m| {
            m.iter()
                .take_while(|k| **k == MovementKind::Mitchell)
                .count()
        })
        .unwrap_or(file.rounds.len().max(1));
    let danish_modified = !file
        .movements
        .as_ref()
        .is_some_and(|m| m.contains(&MovementKind::Danish));
    // The plan's last rounds in groups, and how the groups are made.
    let in_groups: Vec<MovementKind> = file
        .movements
        .iter()
        .flatten()
        .copied()
        .filter(|m| m.in_groups())
        .collect();
    let group_rounds = in_groups.len();
    let group_modified = !in_groups.contains(&MovementKind::DanishGroups);
    let (group_count, group_tables) = file
        .group_plan
        .as_ref()
        .map(crate::tournament::plan::group_plan_fields)
        .unwrap_or_default();
    let planned = file
        .planned_rounds
        .unwrap_or(u32::try_from(file.rounds.len()).unwrap_or(1))
        .max(1);
    let form = SettingsForm {
        name: file.name.clone(),
        date: file.date.format("%Y-%m-%d").to_string(),
        start_time: file
            .start_time
            .map(|t| t.format("%H:%M").to_string())
            .unwrap_or_else(|| "00:00".into()),
        venue: file.venue.clone().unwrap_or_default(),
        profile: file.profile.clone(),
        planned_rounds: planned.to_string(),
        hands_per_round: file.hands_per_round.to_string(),
        vp_scale: file
            .vp_scale
            .as_ref()
            .map(|v| {
                v.iter()
                    .map(|n| n.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .unwrap_or_default(),
        minutes_per_round: file
            .minutes_per_round
            .map(|m| m.to_string())
            .unwrap_or_default(),
        mitchell_rounds: mitchell_rounds.max(1).min(planned as usize).to_string(),
        danish_form: if danish_modified { "modified" } else { "pure" }.into(),
        mitchell_advance: file.mitchell_advance.unwrap_or(1).to_string(),
        allow_repeats: if file.allow_repeats == Some(true) {
            "on".into()
        } else {
            String::new()
        },
        bye_vp: file.bye_vp.to_string(),
        entry_fee: file.entry_fee.to_string(),
        prize_share_percent: file.prize_share_percent.to_string(),
        prize_share_unit: String::new(),
        guaranteed_pool: file.guaranteed_pool.to_string(),
        payout: format_payout(
            &file
                .payout
                .iter()
                .map(|t| crate::rules::PayoutTier {
                    min_entries: t.min_entries,
                    scheme: t.scheme.clone(),
                })
                .collect::<Vec<_>>(),
        ),
        suit_order: file.suit_order.clone().unwrap_or_default(),
        // Not in the file: the default (on).
        table_entry: String::new(),
        // The file's club separation is read with its plan (issue 34): off.
        separate_clubs: if file.separate_clubs == Some(true) {
            "on".into()
        } else {
            String::new()
        },
        group_rounds: group_rounds.to_string(),
        group_form: if group_modified { "modified" } else { "pure" }.into(),
        group_count,
        group_tables,
        group_prizes: crate::tournament::plan::format_group_prizes(
            &file
                .group_prizes
                .iter()
                .flatten()
                .map(|g| crate::tournament::plan::GroupPrize {
                    group: g.group.clone(),
                    share_percent: g.share_percent,
                    scheme: g
                        .scheme
                        .iter()
                        .copied()
                        .map(crate::tournament::plan::PercentText)
                        .collect(),
                })
                .collect::<Vec<_>>(),
        ),
        level: String::new(),
        sheet_mode: file
            .sheet_mode
            .map(|m| m.code().to_string())
            .unwrap_or_default(),
        kind: String::new(),
        online: Default::default(),
    };
    let settings = Settings::parse(&form, tz).map_err(|problems| {
        ImportError::Settings(
            problems
                .iter()
                .map(|p| format!("{}: {}", p.field, p.message(crate::i18n::Lang::En)))
                .collect::<Vec<_>>()
                .join("; "),
        )
    })?;
    Ok(settings)
}

/// Writes a validated file as a new tournament, all or nothing. Returns its id.
pub fn import_file(
    conn: &mut DbConn,
    file: &TournamentFile,
    tz: chrono_tz::Tz,
    user_id: UserId,
    now: NaiveDateTime,
) -> Result<TournamentId, ImportError> {
    let settings = settings_of(file, tz)?;
    conn.transaction(|conn| {
        let tid = tdb::create(conn, &settings, user_id, now)?;
        let status = status_of(file.status, file.rounds.is_empty());
        tdb::set_status(conn, tid, status, now)?;
        let mut id_of: HashMap<u32, PairId> = HashMap::new();
        for p in &file.pairs {
            let player = |i: usize| file_player(p, i);
            let (a, b) = (player(0), player(1));
            let id: PairId = diesel::insert_into(pairs::table)
                .values((
                    pairs::tournament_id.eq(tid),
                    pairs::number.eq(i32::try_from(p.number).unwrap_or(i32::MAX)),
                    pairs::p1_surname.eq(&a.surname),
                    pairs::p1_name.eq(&a.name),
                    pairs::p1_card.eq(a.card.clone().unwrap_or_default()),
                    pairs::p1_club.eq(a.club.clone().unwrap_or_default()),
                    pairs::p2_surname.eq(&b.surname),
                    pairs::p2_name.eq(&b.name),
                    pairs::p2_card.eq(b.card.clone().unwrap_or_default()),
                    pairs::p2_club.eq(b.club.clone().unwrap_or_default()),
                    pairs::checked_in.eq(p.checked_in.unwrap_or(!file.rounds.is_empty())),
                    pairs::withdrawn_from_round
                        .eq(p.withdrawn_from_round.and_then(|w| i32::try_from(w).ok())),
                    pairs::no_show.eq(p.no_show),
                    pairs::created_at.eq(now),
                ))
                .returning(pairs::id)
                .get_result(conn)?;
            super::people::link_pair(conn, id, now)?;
            id_of.insert(p.number, id);
        }
        // The groups as cut are taken as they are (FORMAT.md).
        for g in file.groups.iter().flatten() {
            let ids: Vec<PairId> = g
                .pairs
                .iter()
                .filter_map(|n| id_of.get(n).copied())
                .collect();
            super::pairs::set_group(conn, tid, &ids, Some(&g.name))?;
        }
        for r in &file.rounds {
            let movement = match r.movement {
                Some(MovementKind::Danish) => RoundMovement::Danish,
                Some(MovementKind::DanishModified) => RoundMovement::DanishModified,
                Some(MovementKind::DanishGroups) => RoundMovement::DanishGroups,
                Some(MovementKind::DanishGroupsModified) => RoundMovement::DanishGroupsModified,
                _ => RoundMovement::Mitchell,
            };
            let round_no = i32::try_from(r.number).unwrap_or(i32::MAX);
            let round_id: RoundId = diesel::insert_into(rounds::table)
                .values((
                    rounds::tournament_id.eq(tid),
                    rounds::number.eq(round_no),
                    rounds::movement.eq(movement.as_str()),
                    rounds::created_at.eq(now),
                ))
                .returning(rounds::id)
                .get_result(conn)?;
            // The file was validated: a pair it names that is not among its
            // pairs is an error, never a seat or a bye quietly dropped.
            let pair_id = |n: &u32| {
                id_of.get(n).copied().ok_or_else(|| {
                    unreadable(format!("round {}: pair {n} is not in the file", r.number))
                })
            };
            for tf in &r.tables {
                let seating_id: SeatingId = diesel::insert_into(seatings::table)
                    .values((
                        seatings::round_id.eq(round_id),
                        seatings::table_no.eq(i32::try_from(tf.table).unwrap_or(i32::MAX)),
                        seatings::ns_pair.eq(Some(pair_id(&tf.ns)?)),
                        seatings::ew_pair.eq(Some(pair_id(&tf.ew)?)),
                    ))
                    .returning(seatings::id)
                    .get_result(conn)?;
                if let Some(write) = table_write(file, tf)? {
                    scoring::insert_sheet(conn, seating_id, &write, user_id, now)?;
                }
            }
            for b in &r.byes {
                diesel::insert_into(byes::table)
                    .values((byes::round_id.eq(round_id), byes::pair_id.eq(pair_id(b)?)))
                    .execute(conn)?;
            }
        }
        for p in &file.penalties {
            let pair_id = id_of.get(&p.pair).copied().ok_or_else(|| {
                unreadable(format!("a penalty names pair {}, not in the file", p.pair))
            })?;
            let table_no = p.table.and_then(|t| i32::try_from(t).ok());
            insert_penalty(conn, tid, pair_id, table_no, p, now)?;
        }
        // The Mitchell draw: the seed replays it when the round-1 pairs are
        // the same; otherwise round 1 itself is the layout.
        if let Some(layout) = restore_layout(file) {
            let json = serde_json::to_string(&layout)
                .map_err(|e| DieselError::SerializationError(Box::new(e)))?;
            diesel::update(tournaments::table.find(tid))
                .set((
                    tournaments::layout.eq(Some(json)),
                    tournaments::draw_seed.eq(file.draw_seed.and_then(|s| i64::try_from(s).ok())),
                ))
                .execute(conn)?;
        }
        audit_imported(conn, tid, user_id, now)?;
        Ok(tid)
    })
}

/// A penalty of a file (of either kind), given to `pair_id` at `table_no`.
pub(super) fn insert_penalty(
    conn: &mut DbConn,
    tid: TournamentId,
    pair_id: PairId,
    table_no: Option<i32>,
    p: &impl Penalty,
    now: NaiveDateTime,
) -> QueryResult<()> {
    use super::schema::penalties;
    let by = p
        .by()
        .and_then(|name| user_id_named(conn, name).ok().flatten());
    let withdrawn_by = p
        .withdrawn_by()
        .and_then(|name| user_id_named(conn, name).ok().flatten());
    diesel::insert_into(penalties::table)
        .values((
            penalties::tournament_id.eq(tid),
            penalties::round_no.eq(i32::try_from(p.round()).unwrap_or(i32::MAX)),
            penalties::pair_id.eq(pair_id),
            penalties::table_no.eq(table_no),
            penalties::kind.eq(p.kind().code()),
            penalties::amount.eq(p.amount()),
            penalties::reason.eq(p.reason()),
            penalties::given_by.eq(by),
            penalties::given_at.eq(p.at().map(|a| a.naive_utc()).unwrap_or(now)),
            penalties::withdrawn_by.eq(withdrawn_by),
            penalties::withdrawn_at.eq(if p.withdrawn() {
                Some(p.withdrawn_at().map(|a| a.naive_utc()).unwrap_or(now))
            } else {
                None
            }),
            penalties::withdrawn_reason.eq(if p.withdrawn() {
                p.withdrawn_reason()
            } else {
                ""
            }),
        ))
        .execute(conn)?;
    Ok(())
}

/// The audit entry of an imported tournament.
pub(super) fn audit_imported(
    conn: &mut DbConn,
    tid: TournamentId,
    user_id: UserId,
    now: NaiveDateTime,
) -> QueryResult<()> {
    super::audit::audit_by(
        conn,
        tid,
        None,
        None,
        "tournament.imported",
        None,
        None,
        "",
        Some(user_id),
        now,
    )
}

/// The status of an imported tournament: the file's, else running once
/// it has rounds.
pub(super) fn status_of(status: Option<crate::tournament_file::Status>, no_rounds: bool) -> Status {
    match status {
        Some(crate::tournament_file::Status::Finished) => Status::Finished,
        Some(crate::tournament_file::Status::Draft) => Status::Draft,
        Some(crate::tournament_file::Status::Running) => Status::Running,
        None if no_rounds => Status::Draft,
        None => Status::Running,
    }
}

fn file_player(p: &PairFile, i: usize) -> Player {
    p.players.get(i).cloned().unwrap_or(Player {
        surname: String::new(),
        name: String::new(),
        card: None,
        club: None,
    })
}

pub(super) fn user_id_named(conn: &mut DbConn, name: &str) -> QueryResult<Option<i64>> {
    users::table
        .filter(users::username.eq(name))
        .select(users::id)
        .first(conn)
        .optional()
}

/// The stored row of a table of a (validated) file, with its computed
/// totals: None for a table without a score; an error when the file's
/// rules cannot be read (validation lets no such file through).
fn table_write(
    file: &TournamentFile,
    tf: &TableFile,
) -> Result<Option<scoring::SheetWrite>, DieselError> {
    sheet_write(
        &file.profile,
        file.hands_per_round,
        file.vp_scale.as_ref(),
        tf.table,
        tf.sheet.as_ref(),
        tf.adjusted,
    )
}

/// The stored row of a table's sheet or adjusted score (a pairs or a team
/// file's), with its computed totals; `None` when the table has no score.
pub(super) fn sheet_write(
    profile: &str,
    hands_per_round: i64,
    vp_scale: Option<&Vec<i64>>,
    table: u32,
    sheet: Option<&crate::tournament_file::SheetFile>,
    adjusted: Option<crate::tournament_file::Adjusted>,
) -> Result<Option<scoring::SheetWrite>, DieselError> {
    if let Some(a) = adjusted {
        let vp = |v: i64| i32::try_from(v).unwrap_or(0);
        return Ok(Some(scoring::SheetWrite {
            sheet: None,
            adjusted: Some((vp(a.ns_vp), vp(a.ew_vp), a.ns_mp_diff, a.ew_mp_diff)),
            ns_total: 0,
            ew_total: 0,
            ns_vp: vp(a.ns_vp),
            ew_vp: vp(a.ew_vp),
            accepted_mismatch: false,
            note: String::new(),
        }));
    }
    let Some(sheet) = sheet else {
        return Ok(None);
    };
    let bad = |what: &str| unreadable(format!("table {table}: {what}"));
    let profile = crate::rules::RuleProfile::by_name(profile).ok_or_else(|| bad("rule profile"))?;
    let hands = usize::try_from(hands_per_round).map_err(|_| bad("hands per round"))?;
    let scale = match vp_scale {
        Some(v) => crate::rules::VpScale::parse(v.clone()).map_err(|_| bad("VP scale"))?,
        None => u32::try_from(hands)
            .ok()
            .and_then(crate::rules::VpScale::preset)
            .ok_or_else(|| bad("VP scale"))?,
    };
    let score: ScoreSheet = sheet.to_score_sheet();
    let report = crate::rules::check(&score, profile, hands, &scale);
    Ok(Some(scoring::SheetWrite {
        sheet: Some(serde_json::to_string(&score).map_err(|e| bad(&e.to_string()))?),
        adjusted: None,
        ns_total: report.totals.ns,
        ew_total: report.totals.ew,
        ns_vp: i32::from(report.vp.ns),
        ew_vp: i32::from(report.vp.ew),
        accepted_mismatch: report.has(crate::rules::ViolationCode::DeclaredTotalMismatch),
        note: String::new(),
    }))
}

fn restore_layout(file: &TournamentFile) -> Option<crate::movement::Layout> {
    let r1 = file.rounds.first()?;
    let mut players: Vec<u32> = r1
        .tables
        .iter()
        .flat_map(|t| [t.ns, t.ew])
        .chain(r1.byes.iter().copied())
        .collect();
    players.sort_unstable();
    if let Some(seed) = file.draw_seed {
        if let Ok(layout) = crate::movement::first_round_draw(&players, seed) {
            let first = layout.first_round();
            let same = r1.tables.iter().all(|t| {
                first
                    .tables
                    .iter()
                    .any(|s| s.table == t.table && s.ns == Some(t.ns) && s.ew == Some(t.ew))
            });
            if same {
                return Some(layout);
            }
        }
    }
    // Round 1 itself: fixed = NS, moving = EW; a resting pair sits as the
    // moving pair of a phantom table at the end.
    let mut tables: Vec<&TableFile> = r1.tables.iter().collect();
    tables.sort_by_key(|t| t.table);
    let mut fixed: Vec<Option<u32>> = tables.iter().map(|t| Some(t.ns)).collect();
    let mut moving: Vec<Option<u32>> = tables.iter().map(|t| Some(t.ew)).collect();
    for b in &r1.byes {
        fixed.push(None);
        moving.push(Some(*b));
    }
    Some(crate::movement::Layout {
        seed: file.draw_seed.unwrap_or(0),
        tables: u32::try_from(fixed.len()).ok()?,
        fixed,
        moving,
    })
}
