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

/// What the staff clock shows.
pub struct ClockView {
    /// `not_started`, `running`, `paused`, `over` or `time_out`.
    pub state: &'static str,
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
            state: "not_started",
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
                v.state = "running";
                v.left = format_left(left);
                v.ends_at_ms = Some(ends_at.and_utc().timestamp_millis());
                v.warning = warning;
            }
            ClockState::Paused {
                left,
                since,
                warning,
            } => {
                v.state = "paused";
                v.left = format_left(left);
                let since = since
                    .and_utc()
                    .with_timezone(&ctx.timezone)
                    .format("%H:%M")
                    .to_string();
                v.paused_text = tf(ctx.lang, "states.clock.paused", &[("since", &since)]);
                v.warning = warning;
            }
            ClockState::Over { .. } => v.state = "over",
            ClockState::TimeOut { at } => {
                v.state = "time_out";
                v.time_out_at = Some(at);
            }
        }
        v
    }

    pub fn started(&self) -> bool {
        self.state != "not_started"
    }

    pub fn open(&self) -> bool {
        matches!(self.state, "running" | "paused" | "over")
    }
}
