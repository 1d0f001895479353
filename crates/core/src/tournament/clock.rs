//! The round clock (RULES.md §6), computed from stored times and a `now`
//! the caller passes in: pure, so it is tested without waiting.
//!
//! A round has a fixed time. The director starts the clock, may pause it
//! (the time left is frozen while paused) and resume it, and calls time-out
//! when the time is up. Staff see warnings when 10 and 5 minutes are left;
//! players never see the time left.

use chrono::{Duration, NaiveDateTime};

/// Minutes left at which the staff clock warns, largest first.
pub const WARNINGS_AT_MINUTES: [i64; 2] = [10, 5];

/// A round's clock as stored (UTC).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockTimes {
    pub started_at: Option<NaiveDateTime>,
    /// When the current pause began (None: not paused).
    pub paused_at: Option<NaiveDateTime>,
    /// Seconds of the pauses that are over.
    pub paused_seconds: i64,
    pub time_out_at: Option<NaiveDateTime>,
    /// The round's time.
    pub minutes: u32,
}

/// A warning on the staff clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Warning {
    /// 10 minutes or less are left.
    TenMinutes,
    /// 5 minutes or less are left.
    FiveMinutes,
}

impl Warning {
    pub fn code(self) -> &'static str {
        match self {
            Warning::TenMinutes => "ten",
            Warning::FiveMinutes => "five",
        }
    }

    pub fn label_key(self) -> &'static str {
        match self {
            Warning::TenMinutes => "states.clock.warning_ten",
            Warning::FiveMinutes => "states.clock.warning_five",
        }
    }
}

/// What the clock shows at a moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockState {
    NotStarted,
    /// Counting down: `left` (never negative) until `ends_at` (UTC).
    Running {
        left: Duration,
        ends_at: NaiveDateTime,
        warning: Option<Warning>,
    },
    /// Frozen: `left` stays as it was when the pause began.
    Paused {
        left: Duration,
        since: NaiveDateTime,
        warning: Option<Warning>,
    },
    /// The time is up and time-out has not been called yet.
    Over {
        ends_at: NaiveDateTime,
    },
    /// Time-out called: the last lap is played.
    TimeOut {
        at: NaiveDateTime,
    },
}

impl ClockTimes {
    /// The seconds the clock has not counted: finished pauses plus the
    /// current one up to `now`.
    pub fn paused_until(&self, now: NaiveDateTime) -> Duration {
        let current = self
            .paused_at
            .map(|p| (now - p).max(Duration::zero()))
            .unwrap_or_else(Duration::zero);
        Duration::seconds(self.paused_seconds.max(0)) + current
    }

    /// The clock at `now`.
    pub fn state(&self, now: NaiveDateTime) -> ClockState {
        if let Some(at) = self.time_out_at {
            return ClockState::TimeOut { at };
        }
        let Some(start) = self.started_at else {
            return ClockState::NotStarted;
        };
        let length = Duration::minutes(i64::from(self.minutes));
        let ends_at = start + length + self.paused_until(now);
        let left = (ends_at - now).max(Duration::zero());
        if let Some(since) = self.paused_at {
            return ClockState::Paused {
                left,
                since,
                warning: warning_for(left),
            };
        }
        if left <= Duration::zero() {
            return ClockState::Over { ends_at };
        }
        ClockState::Running {
            left,
            ends_at,
            warning: warning_for(left),
        }
    }
}

/// The warning due with `left` on the clock (none above 10 minutes).
pub fn warning_for(left: Duration) -> Option<Warning> {
    if left <= Duration::minutes(WARNINGS_AT_MINUTES[1]) {
        Some(Warning::FiveMinutes)
    } else if left <= Duration::minutes(WARNINGS_AT_MINUTES[0]) {
        Some(Warning::TenMinutes)
    } else {
        None
    }
}

/// `mm:ss` (or `h:mm:ss` past an hour) of a duration, never negative.
pub fn format_left(left: Duration) -> String {
    let s = left.num_seconds().max(0);
    let (h, m, s) = (s / 3600, (s % 3600) / 60, s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m:02}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    fn at(h: u32, m: u32, s: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(2026, 11, 23)
            .unwrap()
            .and_hms_opt(h, m, s)
            .unwrap()
    }

    fn started(minutes: u32) -> ClockTimes {
        ClockTimes {
            started_at: Some(at(20, 0, 0)),
            paused_at: None,
            paused_seconds: 0,
            time_out_at: None,
            minutes,
        }
    }

    #[test]
    fn not_started_and_time_out_come_first() {
        let mut c = started(40);
        c.started_at = None;
        assert_eq!(c.state(at(21, 0, 0)), ClockState::NotStarted);
        let mut c = started(40);
        c.time_out_at = Some(at(20, 41, 0));
        c.paused_at = Some(at(20, 30, 0));
        assert_eq!(
            c.state(at(21, 0, 0)),
            ClockState::TimeOut { at: at(20, 41, 0) }
        );
    }

    #[test]
    fn counts_down_with_warnings_at_ten_and_five_minutes() {
        let c = started(40);
        let left = |now| match c.state(now) {
            ClockState::Running { left, warning, .. } => (left.num_seconds(), warning),
            other => panic!("{other:?}"),
        };
        assert_eq!(left(at(20, 0, 0)), (2400, None));
        assert_eq!(left(at(20, 29, 59)), (601, None));
        assert_eq!(left(at(20, 30, 0)), (600, Some(Warning::TenMinutes)));
        assert_eq!(left(at(20, 34, 59)), (301, Some(Warning::TenMinutes)));
        assert_eq!(left(at(20, 35, 0)), (300, Some(Warning::FiveMinutes)));
        assert_eq!(left(at(20, 39, 59)), (1, Some(Warning::FiveMinutes)));
        assert_eq!(
            c.state(at(20, 40, 0)),
            ClockState::Over {
                ends_at: at(20, 40, 0)
            }
        );
        assert_eq!(
            c.state(at(22, 0, 0)),
            ClockState::Over {
                ends_at: at(20, 40, 0)
            }
        );
    }

    #[test]
    fn a_pause_freezes_the_time_left_and_moves_the_end() {
        // Paused at 20:10 (30 minutes left), still paused at 20:25.
        let mut c = started(40);
        c.paused_at = Some(at(20, 10, 0));
        for now in [at(20, 10, 0), at(20, 25, 0), at(23, 0, 0)] {
            match c.state(now) {
                ClockState::Paused { left, since, .. } => {
                    assert_eq!(left, Duration::minutes(30));
                    assert_eq!(since, at(20, 10, 0));
                }
                other => panic!("{other:?}"),
            }
        }
        // Resumed at 20:25: 15 paused minutes, the round now ends at 20:55.
        c.paused_at = None;
        c.paused_seconds = 15 * 60;
        match c.state(at(20, 25, 0)) {
            ClockState::Running { left, ends_at, .. } => {
                assert_eq!(left, Duration::minutes(30));
                assert_eq!(ends_at, at(20, 55, 0));
            }
            other => panic!("{other:?}"),
        }
        // A second pause adds to the first.
        c.paused_at = Some(at(20, 50, 0));
        match c.state(at(21, 30, 0)) {
            ClockState::Paused { left, warning, .. } => {
                assert_eq!(left, Duration::minutes(5));
                assert_eq!(warning, Some(Warning::FiveMinutes));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_clock_paused_after_the_time_is_up_shows_nothing_left() {
        let mut c = started(40);
        c.paused_at = Some(at(20, 45, 0));
        match c.state(at(20, 50, 0)) {
            ClockState::Paused { left, .. } => assert_eq!(left, Duration::zero()),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn formats_minutes_and_seconds() {
        assert_eq!(format_left(Duration::seconds(2400)), "40:00");
        assert_eq!(format_left(Duration::seconds(61)), "01:01");
        assert_eq!(format_left(Duration::seconds(-5)), "00:00");
        assert_eq!(format_left(Duration::seconds(3725)), "1:02:05");
    }
}
