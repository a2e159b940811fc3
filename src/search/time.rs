//! Time management: how long to think for one move.
//!
//! `soft` is when no new iteration should start; `hard` is when the search
//! stops wherever it is. Both are measured from `start`, which a ponder
//! search sets at `ponderhit` (the opponent's clock ran until then).

use super::Limits;
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct TimeManager {
    pub start: Instant,
    pub soft: Option<u64>,
    pub hard: Option<u64>,
}

/// Moves to plan for when the clock does not say.
const DEFAULT_MOVES_TO_GO: u64 = 32;

impl TimeManager {
    pub fn new(limits: &Limits, overhead: u64) -> TimeManager {
        let start = limits.received.unwrap_or_else(Instant::now);
        let (soft, hard) = budget(limits, overhead);
        TimeManager { start, soft, hard }
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// The search must stop now.
    #[inline]
    pub fn hard_expired(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed_ms() >= h)
    }
}

/// (soft, hard) in milliseconds, or `None` when the clock does not limit.
pub fn budget(limits: &Limits, overhead: u64) -> (Option<u64>, Option<u64>) {
    if let Some(mt) = limits.movetime {
        // A fixed time per move is meant to be used up: no soft limit.
        let t = mt.saturating_sub(overhead).max(1);
        return (None, Some(t));
    }
    let (time, inc) = (limits.time, limits.inc);
    let byo = limits.byoyomi.unwrap_or(0);
    let Some(time) = time else {
        if byo > 0 {
            let t = byo.saturating_sub(overhead).max(1);
            return (Some(t), Some(t));
        }
        return (None, None);
    };
    let inc = inc.unwrap_or(0);
    let byo_usable = byo.saturating_sub(overhead);
    if time <= overhead && byo > 0 {
        // Main time is spent: every move has the byoyomi period; use nearly all of it.
        let t = byo_usable.max(1);
        return (Some(t * 9 / 10), Some(t));
    }
    let mtg = limits
        .movestogo
        .map_or(DEFAULT_MOVES_TO_GO, |m| (m as u64).clamp(1, 60));
    let avail = time.saturating_sub(overhead);
    // Half the increment, not more: an iteration that starts before the
    // soft limit may run well past it, and a budget that spends more than
    // the increment on average drains the clock until only the ceiling
    // below protects it.
    let soft = avail / mtg + inc / 2 + byo_usable * 9 / 10;
    // Never more than three quarters of what is on the clock (the increment
    // arrives only after the move), unless a byoyomi period follows the
    // main time.
    let ceiling = if byo > 0 {
        avail + byo_usable
    } else {
        avail * 3 / 4
    };
    let hard = (soft * 4).min(ceiling).max(1);
    let soft = soft.min(hard).max(1);
    (Some(soft), Some(hard))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_past_the_clock() {
        for time in [1u64, 5, 50, 500, 5000, 60000] {
            for inc in [0u64, 50, 1000] {
                let l = Limits {
                    time: Some(time),
                    inc: Some(inc),
                    ..Limits::default()
                };
                let (s, h) = budget(&l, 10);
                let (s, h) = (s.unwrap(), h.unwrap());
                assert!(s <= h);
                assert!(h <= time.saturating_sub(10).max(1), "{time} {inc} -> {h}");
            }
        }
    }

    #[test]
    fn a_low_clock_keeps_a_quarter() {
        // The clock that lost a game at 1s+0.1s: 114 ms left.
        for time in [60u64, 114, 200, 400] {
            let l = Limits {
                time: Some(time),
                inc: Some(100),
                ..Limits::default()
            };
            let (_, h) = budget(&l, 10);
            assert!(h.unwrap() <= (time - 10) * 3 / 4, "{time} -> {h:?}");
        }
    }

    #[test]
    fn byoyomi_uses_the_period() {
        let l = Limits {
            time: Some(0),
            byoyomi: Some(3000),
            ..Limits::default()
        };
        let (_, h) = budget(&l, 50);
        assert_eq!(h, Some(2950));
        let l = Limits {
            time: Some(1000),
            byoyomi: Some(1000),
            ..Limits::default()
        };
        let (s, h) = budget(&l, 50);
        assert!(s.unwrap() >= 850 && h.unwrap() <= 1900);
    }

    #[test]
    fn the_clock_runs_from_when_the_command_arrived() {
        let l = Limits {
            movetime: Some(1000),
            received: Some(Instant::now() - std::time::Duration::from_secs(2)),
            ..Limits::default()
        };
        assert!(TimeManager::new(&l, 10).hard_expired());
        let l = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        assert!(!TimeManager::new(&l, 10).hard_expired());
    }

    #[test]
    fn movetime_minus_overhead() {
        let l = Limits {
            movetime: Some(1000),
            ..Limits::default()
        };
        assert_eq!(budget(&l, 30), (None, Some(970)));
    }
}
