//! Rounds: the first draw, the next round (Mitchell or Danish), the clock.

use crate::ids::{PairId, TournamentId};
use crate::services::Refusal;
use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::audit::{self, Action, Entry};
use super::{Actor, Conflict, Loaded, Need, ServiceError};
use crate::db::rounds::DrawError;
use crate::db::{Db, DbConn};
use crate::i18n::Lang;
use crate::movement::{self, Layout, MitchellPlan, PairNo, RosterChange};
use crate::services::view::{Pair, Seating};
use crate::tournament::{RoundMovement, Status};
use crate::tournament_file::FileKind;

mod clubs;
pub(crate) use super::unscored::{tables_missing, tables_without_score};
mod groups;
mod kinds;
mod undo;
pub use clubs::{club_meetings, clubs_crossing};
use clubs::{pair_clubs, separates_clubs};
pub use undo::{plan_undo, undo_round, UndoPlan};

fn movement_conflict(e: movement::MovementError) -> ServiceError {
    ServiceError::Conflict(Conflict::Movement(e))
}

/// Pair numbers to pair ids.
pub(crate) fn pair_ids(l: &Loaded) -> HashMap<PairNo, PairId> {
    l.pairs.iter().map(|p| (p.pair_no(), p.id)).collect()
}

/// The Mitchell plan of the tournament for a layout.
pub(crate) fn mitchell_plan(l: &Loaded, layout: &Layout) -> MitchellPlan {
    MitchellPlan {
        tables: layout.tables,
        rounds: l.settings.mitchell_rounds,
        advance: l.settings.mitchell_advance,
        allow_repeats: l.settings.allow_repeats,
    }
}

/// Late arrivals and withdrawals, as the movement engine sees them.
pub(crate) fn roster_changes(l: &Loaded) -> Vec<RosterChange> {
    let mut changes = Vec::new();
    for p in &l.pairs {
        let pair = p.pair_no();
        // A no-show never had a seat.
        if p.no_show {
            continue;
        }
        // A late pair withdrawn before its first round never took a seat.
        if let (Some(joined), Some(gone)) = (p.joined_from_round, p.withdrawn_from_round) {
            if gone <= joined {
                continue;
            }
        }
        if let Some(from) = p.joined_from_round {
            changes.push(RosterChange::Joined {
                pair,
                from_round: u32::try_from(from).unwrap_or(1),
            });
        }
        if let Some(from) = p.withdrawn_from_round {
            changes.push(RosterChange::Withdrawn {
                pair,
                from_round: u32::try_from(from).unwrap_or(1),
            });
        }
    }
    changes
}

/// Which draw of round 1: the start, or drawing round 1 again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawKind {
    /// The tournament is in preparation: round 1 is drawn and it runs.
    Start,
    /// Round 1 is drawn again while nothing is recorded for it.
    Redraw,
}

/// What a draw will do, or why it cannot happen: the one precondition the
/// confirmation page and the action share.
pub fn plan_draw(l: &Loaded, kind: DrawKind) -> Result<(), ServiceError> {
    if l.t.kind != FileKind::Pairs && kind == DrawKind::Redraw {
        return Err(ServiceError::refused(Refusal::TeamsPairsOnly));
    }
    match (kind, l.status()) {
        (DrawKind::Start, Status::Draft) => Ok(()),
        (DrawKind::Start, _) => Err(ServiceError::refused(Refusal::DrawStarted)),
        (DrawKind::Redraw, Status::Running) if l.rounds.len() <= 1 => Ok(()),
        (DrawKind::Redraw, Status::Draft) => Err(ServiceError::refused(Refusal::RoundNotStarted)),
        (DrawKind::Redraw, _) => Err(ServiceError::refused(Refusal::DrawTooLate)),
    }
}

/// Starts the tournament, or draws round 1 again until a score or a
/// penalty is recorded (`kind`): the checked-in pairs are drawn at random
/// to tables and lines; the seed is stored. `seen`: the revision of the
/// page that asked (a stale page is refused).
pub async fn draw(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    kind: DrawKind,
    seen: Option<i64>,
) -> Result<(), ServiceError> {
    let seed = movement::new_seed().map_err(movement_conflict)?;
    let clock = db.clock().clone();
    db.write(move |c| {
        let now = clock.now();
        let (rows, l) = super::lock_both(c, &actor, tid, Need::Direct)?;
        l.ensure_seen(seen)?;
        plan_draw(&l, kind)?;
        // The waiting list closes and its entries are told (by e-mail), in
        // the draw's transaction: a draw refused below closes nothing.
        super::online::close_waiting_at_start(c, &l, now)?;
        // Teams and players alone draw their own (issues 25, 35).
        if l.t.kind != FileKind::Pairs {
            return kinds::start_locked(c, &actor, rows, seed, now);
        }
        let players: Vec<PairNo> = l.drawable().map(Pair::pair_no).collect();
        let layout = if separates_clubs(&l) {
            movement::clubs::first_round_draw_apart(&pair_clubs(&l), seed)
                .map_err(movement_conflict)?
                .layout
        } else {
            movement::first_round_draw(&players, seed).map_err(movement_conflict)?
        };
        let plan = mitchell_plan(&l, &layout);
        plan.validate().map_err(movement_conflict)?;
        let round1 = movement::round_seating(&layout, &plan, 1, &[]).map_err(movement_conflict)?;
        let redraw = kind == DrawKind::Redraw;
        // A sheet entered at a table counts as a score: the draw stands.
        if redraw && crate::db::table_side::any_entry(c, tid)? {
            return Err(ServiceError::refused(Refusal::DrawScoresIn));
        }
        match crate::db::rounds::save_draw(c, tid, &layout, &round1, &pair_ids(&l), now) {
            Ok(_) => {}
            Err(DrawError::ScoresIn) => return Err(ServiceError::refused(Refusal::DrawScoresIn)),
            Err(DrawError::Db(e)) => return Err(e.into()),
        }
        // RULES.md §10: a registration not checked in (or withdrawn, or
        // marked) when the tournament starts is a no-show, not an entry. The
        // start does not ask about them one by one: the director's
        // tournament page shows how many registrations are not checked in
        // next to the Start button, and the mark can be seen in the list.
        let drawn: Vec<PairId> = l
            .pairs
            .iter()
            .filter(|p| players.contains(&p.pair_no()))
            .map(|p| p.id)
            .collect();
        let no_shows = crate::db::pairs::mark_undrawn_no_show(c, tid, &drawn)?;
        // Table and pair codes for the table-side entry (a redraw keeps them).
        super::entries::ensure_codes(c, tid, now)?;
        audit::record(
            c,
            tid,
            &actor,
            Entry::new(Action::RoundDrawn)
                .round(1)
                .after(audit::values([
                    ("pairs", Value::from(players.len())),
                    ("tables", Value::from(layout.tables)),
                    ("redraw", Value::from(redraw)),
                    ("no_shows", Value::from(no_shows)),
                ])),
            now,
        )?;
        tracing::info!(
            tournament_id = tid.0,
            seed,
            pairs = players.len(),
            "first round drawn"
        );
        Ok(())
    })
    .await
}

/// What generating the next round will do.
#[derive(Debug, Clone)]
pub struct RoundPlan {
    /// The round it makes.
    pub number: i32,
    pub movement: RoundMovement,
    /// The last round's tables without a counted sheet or adjusted score
    /// (the director then gives a reason, which goes on the record).
    pub missing: Vec<u32>,
    /// The last round, when its time-out was not called.
    pub no_time_out: Option<i32>,
    /// The groups this round will cut (RULES.md §13), when it is the first
    /// round in groups (the confirmation page only).
    pub cut: Option<Vec<crate::tournament_file::GroupFile>>,
    layout: Layout,
}

/// Whether the next round can be made now, and what it will be: the one
/// precondition the confirmation page and the action share (a Danish
/// round waits for every sheet of the last one; tables without a score
/// otherwise only ask for a reason).
fn check_next_round(c: &mut DbConn, l: &Loaded) -> Result<RoundPlan, ServiceError> {
    if l.t.kind != FileKind::Pairs {
        return Ok(RoundPlan {
            number: kinds::next_of_kind(c, l)?,
            movement: RoundMovement::Danish,
            missing: Vec::new(),
            no_time_out: l
                .rounds
                .last()
                .filter(|r| r.time_out_at.is_none())
                .map(|r| r.number),
            cut: None,
            layout: Layout {
                seed: 0,
                tables: 0,
                fixed: Vec::new(),
                moving: Vec::new(),
            },
        });
    }
    let n = l.next_round();
    let Some(layout) = l.t.layout().filter(|_| l.status() == Status::Running) else {
        return Err(ServiceError::refused(Refusal::RoundNotStarted));
    };
    if u32::try_from(n).unwrap_or(u32::MAX) > l.settings.planned_rounds {
        return Err(ServiceError::refused(Refusal::RoundAllGenerated));
    }
    let missing = match l.rounds.last() {
        Some(last) => tables_without_score(c, last.id)?,
        None => Vec::new(),
    };
    let movement = l.settings.movement_of(u32::try_from(n).unwrap_or(1));
    if movement != RoundMovement::Mitchell {
        movement::ensure_previous_round_complete(&missing).map_err(movement_conflict)?;
    }
    Ok(RoundPlan {
        number: n,
        movement,
        missing,
        no_time_out: l
            .rounds
            .last()
            .filter(|r| r.time_out_at.is_none())
            .map(|r| r.number),
        cut: None,
        layout,
    })
}

/// The tournament and what generating its next round would do, or why it
/// cannot happen now (the confirmation page).
pub async fn plan_next_round(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    tz: chrono_tz::Tz,
) -> Result<(Loaded, Result<RoundPlan, ServiceError>), ServiceError> {
    db.read(move |c| {
        let l = super::read(c, &actor, tid, Need::Direct)?;
        let plan = check_next_round(c, &l).and_then(|mut plan| {
            if plan.movement.in_groups() && !l.cut_made() && plan.missing.is_empty() {
                plan.cut = groups::cut_preview(c, &l, tz)?;
            }
            Ok(plan)
        });
        Ok((l, plan))
    })
    .await
}

/// Generates the next round by the tournament's plan and returns its number.
/// `requested` is the round the director's form named: when it already
/// exists (a double click, a second director) that round is returned and
/// nothing is made; a stale form naming a later round is refused. While a
/// table of the last round has neither a counted sheet nor an adjusted
/// score, the round is refused unless the director forces it with a reason
/// (`force`), which goes on the record.
pub async fn next_round(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    requested: Option<i32>,
    force: Option<String>,
    seen: Option<i64>,
    tz: chrono_tz::Tz,
) -> Result<i32, ServiceError> {
    draw_next(db, actor, tid, Asked::Named(requested), force, seen, tz).await
}

/// `nextRound` without a round (the API): the round after the last one
/// when the request arrived (`arrived`, read off the clock before anything
/// else of the request ran). Of concurrent such calls one draws it and the
/// others are refused (409 `already_drawn`): a client retrying, or twenty
/// calls at once, never draws two rounds.
pub async fn next_round_after_arrival(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    arrived: chrono::NaiveDateTime,
    force: Option<String>,
    tz: chrono_tz::Tz,
) -> Result<i32, ServiceError> {
    draw_next(
        db,
        actor,
        tid,
        Asked::AfterArrival(arrived),
        force,
        None,
        tz,
    )
    .await
}

/// Which round a request asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Asked {
    /// The round a director's form names (`None`: whichever comes next).
    /// Already drawn (a form posted twice, a second director): that round
    /// is the answer, and nothing is drawn.
    Named(Option<i32>),
    /// The round after the last one drawn before this moment (a round's
    /// `created_at` is stamped as its transaction ends). Already drawn:
    /// another request drew it (409). A call that came a moment after
    /// another one's commit (a burst is served one after the other) would
    /// mean the round after that one: a round nobody has played a table of
    /// is never followed by another without its number being named (409
    /// `last_round_unplayed`), so a burst draws one round, forced or not.
    AfterArrival(chrono::NaiveDateTime),
}

impl Asked {
    /// The round number asked for, given the rounds drawn so far; `Err`
    /// when another request drew it since this one arrived.
    fn round(self, c: &mut DbConn, l: &Loaded) -> Result<Option<i32>, ServiceError> {
        match self {
            Asked::Named(r) => Ok(r),
            Asked::AfterArrival(at) => {
                let before = l.rounds.iter().filter(|r| r.created_at < at).count();
                let n = i32::try_from(before).unwrap_or(i32::MAX) + 1;
                if l.round(n).is_some() {
                    return Err(ServiceError::refused(Refusal::RoundAlreadyDrawn));
                }
                if let Some(last) = l.rounds.last() {
                    let tables = crate::db::export::round_tables(c, last.id)?;
                    if !tables.is_empty() && tables.iter().all(|(_, sheet)| sheet.is_none()) {
                        return Err(ServiceError::refused(Refusal::RoundLastUnplayed));
                    }
                }
                Ok(Some(n))
            }
        }
    }
}

async fn draw_next(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    asked: Asked,
    force: Option<String>,
    seen: Option<i64>,
    tz: chrono_tz::Tz,
) -> Result<i32, ServiceError> {
    let force = match force.filter(|r| !r.trim().is_empty()) {
        Some(r) => Some(
            crate::tournament::text::clean_reason("force_reason", &r, "round.error.force_reason")
                .map_err(|p| ServiceError::Invalid(vec![p]))?,
        ),
        None => None,
    };
    let clock = db.clock().clone();
    db.write(move |c| {
        let now = clock.now();
        let (rows, l) = super::lock_both(c, &actor, tid, Need::Direct)?;
        let requested = asked.round(c, &l)?;
        if let Some(r) = requested.filter(|r| l.round(*r).is_some()) {
            return Ok(r);
        }
        l.ensure_seen(seen)?;
        // Teams and players alone seat their own (issues 25, 35).
        if l.t.kind != FileKind::Pairs {
            let n = kinds::next_round_locked(c, &actor, rows, requested, now)?;
            crate::db::rounds::stamp_drawn(c, tid, n, clock.now())?;
            return Ok(n);
        }
        let n = l.next_round();
        if requested.is_some_and(|r| r != n) {
            return Err(ServiceError::refused(Refusal::RoundStaleForm));
        }
        let plan = check_next_round(c, &l)?;
        let layout = plan.layout.clone();
        let missing = plan.missing.clone();
        let round_no = u32::try_from(n).unwrap_or(1);
        if !missing.is_empty() && force.is_none() {
            return Err(tables_missing(Refusal::RoundMissingSheets, n - 1, &missing));
        }
        let movement_kind = plan.movement;
        let seating = match movement_kind {
            RoundMovement::Mitchell => movement::round_seating(
                &layout,
                &mitchell_plan(&l, &layout),
                round_no,
                &roster_changes(&l),
            )
            .map_err(movement_conflict)?,
            RoundMovement::Danish | RoundMovement::DanishModified => danish_seating(
                c,
                &l,
                round_no,
                movement_kind == RoundMovement::DanishModified,
                tz,
            )?,
            RoundMovement::DanishGroups | RoundMovement::DanishGroupsModified => {
                let (seating, cut) = groups::next_in_groups(c, &l, tz)?;
                if let Some(cut) = &cut {
                    groups::save_cut(c, &l, cut, &pair_ids(&l))?;
                }
                seating
            }
            // Only a team or individual tournament's (gone to theirs above).
            RoundMovement::RoundRobin | RoundMovement::Draw => {
                return Err(ServiceError::refused(Refusal::TeamsPairsOnly))
            }
        };
        crate::db::rounds::insert_round(c, tid, movement_kind, &seating, &pair_ids(&l), now)?;
        super::entries::ensure_codes(c, tid, now)?;
        audit::record(
            c,
            tid,
            &actor,
            Entry::new(Action::RoundGenerated)
                .round(n)
                .after(audit::values([
                    ("movement", Value::from(movement_kind.as_str())),
                    ("tables", Value::from(seating.tables.len())),
                    (
                        "missing_tables",
                        Value::from(
                            missing
                                .iter()
                                .map(u32::to_string)
                                .collect::<Vec<_>>()
                                .join(", "),
                        ),
                    ),
                ]))
                .reason(force.clone().unwrap_or_default()),
            now,
        )?;
        crate::db::rounds::stamp_drawn(c, tid, n, clock.now())?;
        tracing::info!(
            tournament_id = tid.0,
            round = n,
            movement = movement_kind.as_str(),
            "round generated"
        );
        Ok(n)
    })
    .await
}

/// The rounds so far as the movement engine sees them (pair numbers).
fn history(c: &mut DbConn, l: &Loaded) -> Result<Vec<movement::RoundSeating>, ServiceError> {
    let number_of: HashMap<PairId, PairNo> = l.pairs.iter().map(|p| (p.id, p.pair_no())).collect();
    let mut out = Vec::new();
    for r in &l.rounds {
        let (tables, resting) = crate::db::rounds::seating_of(c, r.id)?;
        out.push(movement::RoundSeating {
            round: u32::try_from(r.number).unwrap_or(0),
            tables: tables
                .iter()
                .map(|s| movement::Seat {
                    table: u32::try_from(s.table_no).unwrap_or(0),
                    ns: s.ns_pair.and_then(|id| number_of.get(&id).copied()),
                    ew: s.ew_pair.and_then(|id| number_of.get(&id).copied()),
                })
                .collect(),
            byes: resting
                .iter()
                .filter_map(|id| number_of.get(id).copied())
                .collect(),
        });
    }
    Ok(out)
}

/// A Danish round: pairs matched by the current standings (every sheet of
/// the previous round must be in).
fn danish_seating(
    c: &mut DbConn,
    l: &Loaded,
    round_no: u32,
    modified: bool,
    tz: chrono_tz::Tz,
) -> Result<movement::RoundSeating, ServiceError> {
    let last = l.rounds.last().ok_or(ServiceError::NotFound)?;
    let missing = tables_without_score(c, last.id)?;
    movement::ensure_previous_round_complete(&missing).map_err(movement_conflict)?;
    let file = crate::db::export::load_file(c, l.t.id, tz)?.ok_or(ServiceError::NotFound)?;
    let standings = crate::standings::compute_file(&file, Lang::En).map_err(|e| {
        ServiceError::corrupt(format!(
            "standings of tournament {}: {}",
            l.t.id,
            e.message(Lang::En)
        ))
    })?;
    let history = history(c, l)?;
    let seen: HashSet<PairNo> = history
        .iter()
        .flat_map(|r| {
            r.tables
                .iter()
                .flat_map(|s| [s.ns, s.ew])
                .flatten()
                .chain(r.byes.iter().copied())
        })
        .collect();
    let n = i32::try_from(round_no).unwrap_or(i32::MAX);
    let active: HashSet<PairNo> = l
        .pairs
        .iter()
        .filter(|p| !p.withdrawn_by(n))
        .filter(|p| seen.contains(&p.pair_no()) || p.joined_from_round.is_some_and(|j| j <= n))
        .map(Pair::pair_no)
        .collect();
    let ranking: Vec<PairNo> = standings
        .rows
        .iter()
        .map(|r| r.number)
        .filter(|p| active.contains(p))
        .collect();
    let entries = movement::entries_from_history(&ranking, &history);
    movement::danish_round(round_no, &entries, modified).map_err(movement_conflict)
}

/// The tables of the last round without a counted sheet or adjusted score.
pub async fn missing_in_last_round(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
) -> Result<Vec<u32>, ServiceError> {
    db.read(move |c| {
        let l = super::read(c, &actor, tid, Need::Direct)?;
        match l.rounds.last() {
            Some(last) => tables_without_score(c, last.id),
            None => Ok(Vec::new()),
        }
    })
    .await
}

/// A round's seating: the tournament, the round's index in `l.rounds`, its
/// tables and the ids of the resting pairs.
pub async fn seating(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    n: i32,
    need: Need,
) -> Result<(Loaded, usize, Vec<Seating>, Vec<PairId>), ServiceError> {
    db.read(move |c| {
        let l = super::read(c, &actor, tid, need)?;
        let idx = l
            .rounds
            .iter()
            .position(|r| r.number == n)
            .ok_or(ServiceError::NotFound)?;
        let (tables, resting) = crate::db::rounds::seating_of(c, l.rounds[idx].id)?;
        Ok((l, idx, super::view::seatings(&tables), resting))
    })
    .await
}

/// The Mitchell rounds of the whole tournament (for the movement cards):
/// None before the draw.
pub fn mitchell_schedule(
    l: &Loaded,
) -> Result<Option<(Layout, Vec<movement::RoundSeating>)>, ServiceError> {
    let Some(layout) = l.t.layout() else {
        return Ok(None);
    };
    let plan = mitchell_plan(l, &layout);
    let schedule = movement::schedule(&layout, &plan, &roster_changes(l))
        .map_err(|e| ServiceError::corrupt(format!("tournament {}: movement: {e}", l.t.id)))?;
    Ok(Some((layout, schedule)))
}
