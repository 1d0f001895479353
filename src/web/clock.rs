//! The round clock as the staff pages show it (the desk's and the director's
//! round pages): computed on the server from the stored times, so a reload
//! is right without JavaScript; the script only counts down between reloads.
//! Players' pages never use this (RULES.md §6).

use chrono::NaiveDateTime;

use super::context::PageCtx;
use crate::i18n::tf;
use crate::services::view::Round;
use crate::services::Loaded;
use crate::tournament::clock::{format_left, ClockState, Warning};

/// Where the clock stands (the page's CSS class `clock-{code}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    NotStarted,
    Running,
    Paused,
    Over,
    TimeOut,
}

impl Phase {
    pub fn code(self) -> &'static str {
        match self {
            Phase::NotStarted => "not_started",
            Phase::Running => "running",
            Phase::Paused => "paused",
            Phase::Over => "over",
            Phase::TimeOut => "time_out",
        }
    }
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.code())
    }
}

/// What the staff clock shows.
pub struct ClockView {
    pub state: Phase,
    /// The time left, `mm:ss` (running or paused).
    pub left: String,
    /// When the time runs out (UTC, ms since the epoch), while running.
    pub ends_at_ms: Option<i64>,
    pub warning: Option<Warning>,
    /// "Paused since 21:14…" in the reader's language and time zone.
    pub paused_text: String,
    pub time_out_at: Option<NaiveDateTime>,
}

impl ClockView {
    pub fn of(ctx: &PageCtx, l: &Loaded, round: &Round, now: NaiveDateTime) -> ClockView {
        let mut v = ClockView {
            state: Phase::NotStarted,
            left: String::new(),
            ends_at_ms: None,
            warning: None,
            paused_text: String::new(),
            time_out_at: None,
        };
        match round.clock_times(l.settings.minutes_per_round).state(now) {
            ClockState::NotStarted => {}
            ClockState::Running {
                left,
                ends_at,
                warning,
            } => {
                v.state = Phase::Running;
                v.left = format_left(left);
                v.ends_at_ms = Some(ends_at.and_utc().timestamp_millis());
                v.warning = warning;
            }
            ClockState::Paused {
                left,
                since,
                warning,
            } => {
                v.state = Phase::Paused;
                v.left = format_left(left);
                let since = since
                    .and_utc()
                    .with_timezone(&ctx.timezone)
                    .format("%H:%M")
                    .to_string();
                v.paused_text = tf(ctx.lang, "states.clock.paused", &[("since", &since)]);
                v.warning = warning;
            }
            ClockState::Over { .. } => v.state = Phase::Over,
            ClockState::TimeOut { at } => {
                v.state = Phase::TimeOut;
                v.time_out_at = Some(at);
            }
        }
        v
    }

    pub fn started(&self) -> bool {
        self.state != Phase::NotStarted
    }

    pub fn open(&self) -> bool {
        matches!(self.state, Phase::Running | Phase::Paused | Phase::Over)
    }
}
