//! The tournament file (`burraco-td/tournament@1`) from the database and
//! back: the export, the import (all or nothing) and the input of the one
//! standings computation.

use crate::ids::PairId;
use crate::ids::RoundId;
use crate::ids::SeatingId;
use crate::ids::TournamentId;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use chrono::TimeZone;
use diesel::prelude::*;
use diesel::result::Error as DieselError;

use super::pairs::PairRow;
use super::penalties::{self, PenaltyRow};
use super::rounds::SeatingRow;
use super::schema::{byes, rounds, seatings, sheets, users};
use super::scoring::{self, SheetRow};
use super::tournaments::{self as tdb};
use super::{unreadable, DbConn};
use crate::rules::ScoreSheet;
use crate::tournament::{RoundMovement, Status};
use crate::tournament_file::{
    Adjusted, GroupFile, GroupPrizeFile, MovementKind, PairFile, PayoutTierFile, PenaltyFile,
    PenaltyKind, Player, RoundFile, SheetFile, TableFile, TournamentFile,
};

fn movement_kind(m: RoundMovement) -> MovementKind {
    match m {
        RoundMovement::Mitchell => MovementKind::Mitchell,
        RoundMovement::Danish => MovementKind::Danish,
        RoundMovement::DanishModified => MovementKind::DanishModified,
        RoundMovement::DanishGroups => MovementKind::DanishGroups,
        RoundMovement::DanishGroupsModified => MovementKind::DanishGroupsModified,
        // Only in a team or individual tournament, whose file writes its
        // own movements: the pairs view of its rows never shows them.
        RoundMovement::RoundRobin | RoundMovement::Draw => MovementKind::Mitchell,
    }
}

/// The groups as cut (RULES.md §13): each group's pairs in number order;
/// `None` before the cut.
fn groups_of(pair_rows: &[super::pairs::PairRow]) -> Option<Vec<GroupFile>> {
    let mut groups: std::collections::BTreeMap<&str, Vec<u32>> = std::collections::BTreeMap::new();
    for p in pair_rows {
        if let Some(g) = p.group_label.as_deref() {
            groups.entry(g).or_default().push(p.pair_no());
        }
    }
    (!groups.is_empty()).then(|| {
        groups
            .into_iter()
            .map(|(name, mut pairs)| {
                pairs.sort_unstable();
                GroupFile {
                    name: name.to_string(),
                    pairs,
                }
            })
            .collect()
    })
}

fn status_file(s: Status) -> crate::tournament_file::Status {
    match s {
        Status::Draft => crate::tournament_file::Status::Draft,
        Status::Running => crate::tournament_file::Status::Running,
        Status::Finished => crate::tournament_file::Status::Finished,
    }
}

fn opt(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_string())
}

fn utc(t: chrono::NaiveDateTime) -> chrono::DateTime<chrono::Utc> {
    chrono::Utc.from_utc_datetime(&t)
}

/// The whole tournament as a file. Times are written in `tz` (the date and
/// start time a director typed); timestamps in UTC.
pub fn load_file(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    tz: chrono_tz::Tz,
) -> Result<Option<TournamentFile>, DieselError> {
    let Some(t) = tdb::find(conn, tournament_id)? else {
        return Ok(None);
    };
    let pair_rows = super::pairs::list_pairs(conn, tournament_id)?;
    let round_rows = super::rounds::list_rounds(conn, tournament_id)?;
    load_file_of(conn, None, &t, &pair_rows, &round_rows, tz).map(Some)
}

/// What the file needs of a stored sheet (not its note, totals or history).
#[derive(Debug)]
struct SheetData {
    id: i64,
    seating_id: SeatingId,
    version: i32,
    /// None: an adjusted score.
    sheet: Option<String>,
    adjusted_ns_vp: Option<i32>,
    adjusted_ew_vp: Option<i32>,
    adjusted_ns_mp_diff: Option<i64>,
    adjusted_ew_mp_diff: Option<i64>,
}

/// The columns of [`SheetData`], in its order.
type SheetCols = (
    i64,
    SeatingId,
    i32,
    Option<String>,
    Option<i32>,
    Option<i32>,
    Option<i64>,
    Option<i64>,
);

/// The columns of [`SheetCols`].
const SHEET_COLUMNS: (
    sheets::id,
    sheets::seating_id,
    sheets::version,
    sheets::sheet,
    sheets::adjusted_ns_vp,
    sheets::adjusted_ew_vp,
    sheets::adjusted_ns_mp_diff,
    sheets::adjusted_ew_mp_diff,
) = (
    sheets::id,
    sheets::seating_id,
    sheets::version,
    sheets::sheet,
    sheets::adjusted_ns_vp,
    sheets::adjusted_ew_vp,
    sheets::adjusted_ns_mp_diff,
    sheets::adjusted_ew_mp_diff,
);

impl From<SheetCols> for SheetData {
    fn from(c: SheetCols) -> SheetData {
        SheetData {
            id: c.0,
            seating_id: c.1,
            version: c.2,
            sheet: c.3,
            adjusted_ns_vp: c.4,
            adjusted_ew_vp: c.5,
            adjusted_ns_mp_diff: c.6,
            adjusted_ew_mp_diff: c.7,
        }
    }
}

/// Sheets parsed before, by row id, with the exact text each was parsed
/// from: a sheet is parsed again only when its stored text changed. Every
/// page after a change needs all the tournament's sheets (1,200 for 300
/// pairs × 8 rounds), and parsing their megabyte of JSON was most of the
/// cost. Checked against the text, so never stale, whatever database the
/// row came from. Bounded: emptied when it grows past [`SHEET_MEMO_CAP`]
/// entries.
type SheetMemo = HashMap<i64, (Box<str>, Arc<SheetFile>)>;

const SHEET_MEMO_CAP: usize = 50_000;

fn sheet_memo() -> &'static Mutex<SheetMemo> {
    static MEMO: OnceLock<Mutex<SheetMemo>> = OnceLock::new();
    MEMO.get_or_init(Mutex::default)
}

/// The sheets of `rows` by seating id (adjusted scores have none).
fn parse_sheets(rows: &[SheetData]) -> Result<HashMap<SeatingId, Arc<SheetFile>>, DieselError> {
    let mut out: HashMap<SeatingId, Arc<SheetFile>> = HashMap::with_capacity(rows.len());
    let mut missing: Vec<(&SheetData, &str)> = Vec::new();
    {
        let memo = sheet_memo().lock().unwrap_or_else(|p| p.into_inner());
        for row in rows {
            let Some(text) = row.sheet.as_deref() else {
                continue;
            };
            match memo.get(&row.id) {
                Some((was, sheet)) if **was == *text => {
                    out.insert(row.seating_id, sheet.clone());
                }
                _ => missing.push((row, text)),
            }
        }
    }
    let mut fresh = Vec::with_capacity(missing.len());
    for (row, text) in missing {
        let sheet = serde_json::from_str::<ScoreSheet>(text).map_err(|e| {
            unreadable(format!(
                "sheet {} (seating {}): {e}",
                row.id, row.seating_id
            ))
        })?;
        let sheet = Arc::new(SheetFile::from(sheet));
        out.insert(row.seating_id, sheet.clone());
        fresh.push((row.id, text, sheet));
    }
    if !fresh.is_empty() {
        let mut memo = sheet_memo().lock().unwrap_or_else(|p| p.into_inner());
        if memo.len() + fresh.len() > SHEET_MEMO_CAP {
            memo.clear();
        }
        for (id, text, sheet) in fresh {
            memo.insert(id, (text.into(), sheet));
        }
    }
    Ok(out)
}

/// A stored sheet or adjusted score as the file holds it.
#[derive(Debug, Clone)]
struct KnownSheet {
    seating_id: SeatingId,
    version: i32,
    /// None: an adjusted score.
    sheet: Option<Arc<SheetFile>>,
    adjusted: Option<Adjusted>,
}

/// `rows` as the file holds them, by sheet row id.
fn known_sheets(rows: &[SheetData]) -> Result<Vec<(i64, KnownSheet)>, DieselError> {
    let mut parsed = parse_sheets(rows)?;
    Ok(rows
        .iter()
        .map(|r| {
            let sheet = parsed.remove(&r.seating_id);
            // A sheet row without a sheet is an adjusted score.
            let adjusted = sheet.is_none().then(|| Adjusted {
                ns_vp: i64::from(r.adjusted_ns_vp.unwrap_or(0)),
                ew_vp: i64::from(r.adjusted_ew_vp.unwrap_or(0)),
                ns_mp_diff: r.adjusted_ns_mp_diff,
                ew_mp_diff: r.adjusted_ew_mp_diff,
            });
            let known = KnownSheet {
                seating_id: r.seating_id,
                version: r.version,
                sheet,
                adjusted,
            };
            (r.id, known)
        })
        .collect())
}

/// The sheets one database's public pages have read, by row id, with the
/// version each was read at. A sheet row changes only by an `UPDATE` that
/// raises its `version` (`db::scoring::save_sheet`), and row ids are never
/// used again (`AUTOINCREMENT` on SQLite, a sequence on PostgreSQL), so
/// (id, version) names one content: after a change the public pages read
/// every table's sheet id and version (from the index
/// `sheets_seating_version`, without reading the sheets) and the sheets
/// themselves only where the version is new. One per [`super::Db`]: ids of
/// two databases say nothing about each other. Bounded like the parsed
/// sheets.
#[derive(Debug, Default)]
pub struct SheetVersions(Mutex<HashMap<i64, KnownSheet>>);

/// The seatings of every round of a tournament, and their sheets by seating
/// id: with `versions`, only the sheets whose version it does not know are
/// read; without, all of them in the same query.
fn tables_and_sheets(
    conn: &mut DbConn,
    tournament_id: TournamentId,
    versions: Option<&SheetVersions>,
) -> Result<(Vec<SeatingRow>, HashMap<SeatingId, KnownSheet>), DieselError> {
    let Some(versions) = versions else {
        let joined: Vec<(SeatingRow, Option<SheetCols>)> = seatings::table
            .inner_join(rounds::table)
            .left_join(sheets::table)
            .filter(rounds::tournament_id.eq(tournament_id))
            // No ORDER BY: SQLite would sort the megabyte of sheets in a
            // temporary b-tree; each round's tables are sorted by the caller.
            .select((SeatingRow::as_select(), SHEET_COLUMNS.nullable()))
            .load(conn)?;
        let mut seats = Vec::with_capacity(joined.len());
        let mut rows = Vec::new();
        for (s, sheet) in joined {
            rows.extend(sheet.map(SheetData::from));
            seats.push(s);
        }
        let known = known_sheets(&rows)?
            .into_iter()
            .map(|(_, k)| (k.seating_id, k))
            .collect();
        return Ok((seats, known));
    };
    let light: Vec<(SeatingRow, Option<(i64, i32)>)> = seatings::table
        .inner_join(rounds::table)
        .left_join(sheets::table)
        .filter(rounds::tournament_id.eq(tournament_id))
        .select((
            SeatingRow::as_select(),
            (sheets::id, sheets::version).nullable(),
        ))
        .load(conn)?;
    let mut known: HashMap<SeatingId, KnownSheet> = HashMap::with_capacity(light.len());
    let mut missing: Vec<i64> = Vec::new();
    {
        let memo = versions.0.lock().unwrap_or_else(|p| p.into_inner());
        for (s, sheet) in &light {
            let Some((id, version)) = *sheet else {
                continue;
            };
            match memo.get(&id) {
                Some(k) if k.version == version && k.seating_id == s.id => {
                    known.insert(s.id, k.clone());
                }
                _ => missing.push(id),
            }
        }
    }
    if !missing.is_empty() {
        let mut rows: Vec<SheetData> = Vec::with_capacity(missing.len());
        // Well under SQLite's limit of bound parameters.
        for ids in missing.chunks(500) {
            let chunk: Vec<SheetCols> = sheets::table
                .filter(sheets::id.eq_any(ids))
                .select(SHEET_COLUMNS)
                .load(conn)?;
            rows.extend(chunk.into_iter().map(SheetData::from));
        }
        let fresh = known_sheets(&rows)?;
        let mut memo = versions.0.lock().unwrap_or_else(|p| p.into_inner());
        if memo.len() + fresh.len() > SHEET_MEMO_CAP {
            memo.clear();
        }
        for (id, k) in fresh {
            known.insert(k.seating_id, k.clone());
            memo.insert(id, k);
        }
    }
    Ok((light.into_iter().map(|(s, _)| s).collect(), known))
}

/// The file of a tournament whose row, pairs (by number) and rounds (by
/// number) the caller has read already. The seatings, byes and sheets of
/// every round come in one query each (not three per round), only the
/// columns the file holds; the names of the staff who gave or withdrew a
/// penalty, only theirs. With `versions` (the public pages), only the sheets
/// changed since its last read are read again.
pub fn load_file_of(
    conn: &mut DbConn,
    versions: Option<&SheetVersions>,
    t: &tdb::TournamentRow,
    pair_rows: &[PairRow],
    round_rows: &[super::rounds::RoundRow],
    tz: chrono_tz::Tz,
) -> Result<TournamentFile, DieselError> {
    let tournament_id = t.id;
    let settings = t.settings()?;
    let local = utc(t.starts_at).with_timezone(&tz);
    let number_of: HashMap<PairId, u32> = pair_rows.iter().map(|p| (p.id, p.pair_no())).collect();
    let group_of: HashMap<u32, String> = pair_rows
        .iter()
        .filter_map(|p| Some((p.pair_no(), p.group_label.clone()?)))
        .collect();

    let mut file = TournamentFile::new(t.name.clone(), local.date_naive());
    file.venue = opt(&t.venue);
    file.start_time = Some(local.time());
    file.profile = settings.profile.name.to_string();
    file.hands_per_round = i64::from(settings.hands_per_round);
    file.minutes_per_round = Some(settings.minutes_per_round);
    file.vp_scale = Some(settings.vp_scale.bounds().to_vec());
    file.bye_vp = i64::from(settings.bye_vp);
    file.entry_fee = settings.entry_fee;
    file.prize_share_percent = settings.prize_share_percent;
    file.guaranteed_pool = settings.guaranteed_pool;
    file.payout = settings
        .payout
        .iter()
        .map(|tier| PayoutTierFile {
            min_entries: tier.min_entries,
            scheme: tier.scheme.clone(),
        })
        .collect();
    file.planned_rounds = Some(settings.planned_rounds);
    file.movements = Some(
        (1..=settings.planned_rounds)
            .map(|n| movement_kind(settings.movement_of(n)))
            .collect(),
    );
    file.mitchell_advance = Some(settings.mitchell_advance);
    file.separate_clubs = settings.separate_clubs.then_some(true);
    if let Some(g) = &settings.groups {
        file.group_plan = Some(g.plan.clone());
        file.group_prizes = g.prizes.as_ref().map(|prizes| {
            prizes
                .iter()
                .map(|p| GroupPrizeFile {
                    group: p.group.clone(),
                    share_percent: p.share_percent,
                    scheme: p.scheme.iter().map(|s| s.0).collect(),
                })
                .collect()
        });
    }
    file.groups = groups_of(pair_rows);
    file.allow_repeats = Some(settings.allow_repeats);
    file.suit_order = Some(settings.suit_order.to_string());
    file.sheet_mode =
        (settings.sheet_mode == crate::rules::SheetMode::Totals).then_some(settings.sheet_mode);
    file.draw_seed = t.draw_seed.and_then(|s| u64::try_from(s).ok());
    file.status = Some(status_file(t.status));
    file.pairs = pair_rows
        .iter()
        .map(|p| PairFile {
            number: p.pair_no(),
            players: vec![
                Player {
                    surname: p.p1_surname.clone(),
                    name: p.p1_name.clone(),
                    card: opt(&p.p1_card),
                    club: opt(&p.p1_club),
                },
                Player {
                    surname: p.p2_surname.clone(),
                    name: p.p2_name.clone(),
                    card: opt(&p.p2_card),
                    club: opt(&p.p2_club),
                },
            ],
            checked_in: Some(p.checked_in),
            withdrawn_from_round: p.withdrawn_from_round.and_then(|w| u32::try_from(w).ok()),
            // A pair withdrawn before it ever played is a no-show too (FORMAT.md).
            no_show: !p.is_entry(),
        })
        .collect();

    // Every round's seatings with their sheets, and the byes.
    let (seats, known) = tables_and_sheets(conn, tournament_id, versions)?;
    let mut tables_of: HashMap<RoundId, Vec<SeatingRow>> = HashMap::with_capacity(round_rows.len());
    for s in seats {
        tables_of.entry(s.round_id).or_default().push(s);
    }
    let mut resting_of: HashMap<RoundId, Vec<PairId>> = HashMap::new();
    for (round_id, pair_id) in byes::table
        .inner_join(rounds::table)
        .filter(rounds::tournament_id.eq(tournament_id))
        .select((byes::round_id, byes::pair_id))
        .load::<(RoundId, PairId)>(conn)?
    {
        resting_of.entry(round_id).or_default().push(pair_id);
    }

    for r in round_rows {
        let mut tables = tables_of.remove(&r.id).unwrap_or_default();
        tables.sort_unstable_by_key(|s| s.table_no);
        let resting = resting_of.remove(&r.id).unwrap_or_default();
        let mut round = RoundFile {
            number: u32::try_from(r.number).unwrap_or(0),
            movement: Some(movement_kind(r.movement())),
            tables: Vec::with_capacity(tables.len()),
            byes: resting
                .iter()
                .map(|id| {
                    number_of.get(id).copied().ok_or_else(|| {
                        unreadable(format!("round {}: resting pair {id} is missing", r.number))
                    })
                })
                .collect::<Result<_, _>>()?,
        };
        round.byes.sort_unstable();
        for s in &tables {
            let (Some(ns), Some(ew)) = (
                s.ns_pair.and_then(|id| number_of.get(&id).copied()),
                s.ew_pair.and_then(|id| number_of.get(&id).copied()),
            ) else {
                return Err(unreadable(format!(
                    "round {} table {}: a pair of the seating is missing",
                    r.number, s.table_no
                )));
            };
            let k = known.get(&s.id);
            round.tables.push(TableFile {
                group: r
                    .movement()
                    .in_groups()
                    .then(|| group_of.get(&ns).cloned())
                    .flatten(),
                table: u32::try_from(s.table_no).unwrap_or(0),
                ns,
                ew,
                sheet: k.and_then(|k| k.sheet.as_deref().cloned()),
                adjusted: k.and_then(|k| k.adjusted),
            });
        }
        file.rounds.push(round);
    }

    let penalty_rows = penalties::penalties_of(conn, tournament_id)?;
    let mut staff: Vec<i64> = penalty_rows
        .iter()
        .flat_map(|p| [p.given_by, p.withdrawn_by])
        .flatten()
        .collect();
    staff.sort_unstable();
    staff.dedup();
    let user_names: HashMap<i64, String> = if staff.is_empty() {
        HashMap::new()
    } else {
        users::table
            .filter(users::id.eq_any(&staff))
            .select((users::id, users::username))
            .load::<(i64, String)>(conn)?
            .into_iter()
            .collect()
    };
    file.penalties = penalty_rows
        .iter()
        .map(|p: &PenaltyRow| {
            let bad = |what: &str| unreadable(format!("penalty {}: {what}", p.id));
            Ok(PenaltyFile {
                round: u32::try_from(p.round_no).map_err(|_| bad("round"))?,
                pair: *number_of.get(&p.pair_id).ok_or_else(|| bad("pair"))?,
                kind: match p.kind.as_str() {
                    "mp" => PenaltyKind::Mp,
                    "vp" => PenaltyKind::Vp,
                    "warning" => PenaltyKind::Warning,
                    other => return Err(bad(&format!("kind {other:?}"))),
                },
                amount: p.amount,
                reason: p.reason.clone(),
                withdrawn: p.withdrawn_at.is_some(),
                table: p.table_no.and_then(|t| u32::try_from(t).ok()),
                by: p.given_by.and_then(|id| user_names.get(&id).cloned()),
                at: Some(utc(p.given_at)),
                withdrawn_by: p.withdrawn_by.and_then(|id| user_names.get(&id).cloned()),
                withdrawn_at: p.withdrawn_at.map(utc),
                withdrawn_reason: if p.withdrawn_at.is_some() {
                    p.withdrawn_reason.clone()
                } else {
                    String::new()
                },
            })
        })
        .collect::<Result<_, DieselError>>()?;
    Ok(file)
}

/// Seating rows and sheets of one round keyed by table number (for pages).
pub fn round_tables(
    conn: &mut DbConn,
    round_id: RoundId,
) -> QueryResult<Vec<(SeatingRow, Option<SheetRow>)>> {
    let (tables, _) = super::rounds::seating_of(conn, round_id)?;
    let sheet_rows = scoring::sheets_of_round(conn, round_id)?;
    Ok(tables
        .into_iter()
        .map(|s| {
            let sheet = sheet_rows.iter().find(|r| r.seating_id == s.id).cloned();
            (s, sheet)
        })
        .collect())
}

/// Pairs by id (for pages).
pub fn pairs_by_id(pairs: &[PairRow]) -> HashMap<PairId, &PairRow> {
    pairs.iter().map(|p| (p.id, p)).collect()
}
