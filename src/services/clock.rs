//! The round clock: start, pause, resume and call time-out.

use crate::ids::TournamentId;
use serde_json::Value;

use super::audit::{self, Action, Entry};
use super::{lock, Actor, Need, ServiceError};
use crate::db::Db;

/// What the director does with a round's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockAction {
    Start,
    Pause,
    Resume,
    TimeOut,
}

impl ClockAction {
    pub fn parse(s: &str) -> Option<ClockAction> {
        match s {
            "start" => Some(ClockAction::Start),
            "pause" => Some(ClockAction::Pause),
            "resume" => Some(ClockAction::Resume),
            "time_out" => Some(ClockAction::TimeOut),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ClockAction::Start => "start",
            ClockAction::Pause => "pause",
            ClockAction::Resume => "resume",
            ClockAction::TimeOut => "time_out",
        }
    }
}

/// Why time-out cannot be called on a round now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeOutBlocked {
    /// The tournament is not running.
    NotRunning,
    /// Time-out was called already, at this time (UTC).
    Called(chrono::NaiveDateTime),
    /// The round's clock has not started.
    NotStarted,
}

/// Whether time-out may be called on `round` of `l` now: the one check of
/// the confirmation page (which says why not) and of the action (which
/// then does nothing, or refuses a tournament that is not running).
pub fn plan_time_out(l: &super::Loaded, round: &super::view::Round) -> Result<(), TimeOutBlocked> {
    if l.status() != crate::tournament::Status::Running {
        Err(TimeOutBlocked::NotRunning)
    } else if let Some(at) = round.time_out_at {
        Err(TimeOutBlocked::Called(at))
    } else if round.started_at.is_none() {
        Err(TimeOutBlocked::NotStarted)
    } else {
        Ok(())
    }
}

/// Seconds between two times, never negative, saturating.
fn seconds_between(from: chrono::NaiveDateTime, to: chrono::NaiveDateTime) -> i32 {
    i32::try_from((to - from).num_seconds().max(0)).unwrap_or(i32::MAX)
}

/// Starts a round's clock, pauses or resumes it, or calls time-out. Each
/// happens only when due (a second click changes nothing): start once,
/// pause while it runs, resume while paused, time-out once after the start
/// (a paused clock's pause ends there). While paused the time left is
/// frozen (RULES.md §6): the pause's seconds are added to the round's time.
pub async fn clock(
    db: &Db,
    actor: Actor,
    tid: TournamentId,
    n: i32,
    action: ClockAction,
    seen: Option<i64>,
) -> Result<(), ServiceError> {
    let now = db.now();
    db.write(move |c| {
        let l = lock(c, &actor, tid, Need::Direct)?;
        l.ensure_running()?;
        if action == ClockAction::TimeOut {
            l.ensure_seen(seen)?;
        }
        let round = l.round(n).ok_or(ServiceError::NotFound)?;
        let started = round.started_at.is_some();
        let open = started && round.time_out_at.is_none();
        match action {
            ClockAction::Start | ClockAction::TimeOut => {
                let due = match action {
                    ClockAction::Start => !started,
                    _ => plan_time_out(&l, round).is_ok(),
                };
                if !due {
                    return Ok(());
                }
                if let Some(since) = round.paused_at.filter(|_| action == ClockAction::TimeOut) {
                    let total = round
                        .paused_seconds
                        .saturating_add(seconds_between(since, now));
                    crate::db::rounds::set_pause(c, round.id, None, total)?;
                }
                crate::db::rounds::record_clock(
                    c,
                    tid,
                    round.id,
                    n,
                    action == ClockAction::Start,
                    actor.user_id,
                    now,
                )?;
            }
            ClockAction::Pause => {
                if !open || round.paused_at.is_some() {
                    return Ok(());
                }
                crate::db::rounds::set_pause(c, round.id, Some(now), round.paused_seconds)?;
                let left = round.clock_times(l.settings.minutes_per_round).state(now);
                let left = match left {
                    crate::tournament::clock::ClockState::Running { left, .. } => left,
                    _ => chrono::Duration::zero(),
                };
                audit::record(
                    c,
                    tid,
                    &actor,
                    Entry::new(Action::ClockPaused)
                        .round(n)
                        .after(audit::values([(
                            "time_left",
                            Value::from(crate::tournament::clock::format_left(left)),
                        )])),
                    now,
                )?;
            }
            ClockAction::Resume => {
                let Some(since) = round.paused_at.filter(|_| open) else {
                    return Ok(());
                };
                let pause = seconds_between(since, now);
                crate::db::rounds::set_pause(
                    c,
                    round.id,
                    None,
                    round.paused_seconds.saturating_add(pause),
                )?;
                audit::record(
                    c,
                    tid,
                    &actor,
                    Entry::new(Action::ClockResumed)
                        .round(n)
                        .after(audit::values([(
                            "paused",
                            Value::from(crate::tournament::clock::format_left(
                                chrono::Duration::seconds(i64::from(pause)),
                            )),
                        )])),
                    now,
                )?;
            }
        }
        Ok(())
    })
    .await
}
