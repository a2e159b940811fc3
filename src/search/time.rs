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

/// Moves to plan for when the clock does not say. The soft limit is
/// stretched or shrunk by `soft_scale`, and the iteration it lets start runs
/// on past it. With 32 here, at 5 s + 0.05 s a move took 1.32 times the
/// 32-move budget on average (10 games against the fixed stability factors
/// used before the scale: 1.15), 230 ms a move in the first ten against 177,
/// and the clock fell to 0.6 s on average; 40 still took 1.23 times. With 48
/// the average spend (1.11) and the lowest clock match the older rule while
/// the scale still moves time towards the moves that need it.
const DEFAULT_MOVES_TO_GO: u64 = 48;

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

    /// After a completed iteration of a timed search: start no other.
    /// Without a soft limit (`movetime`, `nodes`, `depth`, `infinite`,
    /// `mate` without a clock) only the search's own limits end it.
    pub fn should_stop(&self, elapsed_ms: u64, signals: &IterationSignals) -> bool {
        let Some(soft) = self.soft else {
            return false;
        };
        // A forced move gains nothing from thought; its first iteration
        // has a score and a line to show.
        if signals.root_moves <= 1 {
            return true;
        }
        let mut limit = soft as f64 * soft_scale(signals);
        // The hard limit would cut the next iteration off anyway; starting
        // it past there only throws its work away.
        if let Some(h) = self.hard {
            limit = limit.min(h as f64);
        }
        elapsed_ms as f64 >= limit
    }
}

/// What the iteration loop has learnt by the end of one completed
/// iteration, for deciding whether to start the next.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IterationSignals {
    /// Moves at the root.
    pub root_moves: usize,
    /// Completed iterations in a row that ended with the same best move
    /// as the one before (0: it just changed).
    pub stable: u32,
    /// The best move's share (0..=1) of the nodes spent below root moves
    /// so far in this search; `None` where it says nothing (MultiPV
    /// searches several moves with a full window; a decided score's best
    /// move may end the game at once; no node counted yet).
    pub best_node_fraction: Option<f64>,
    /// How far the best score fell in this iteration, in centipawns
    /// (negative: it rose), against the one before and the recent average.
    pub score_drop: i32,
}

/// Iterations without a change of best move after which the stability
/// factor is at its lowest.
const STABLE_ITERATIONS: u32 = 6;
/// Stability factor just after the best move changed, and once it has
/// held `STABLE_ITERATIONS` times: a move that keeps winning iteration
/// after iteration is unlikely to be overturned by one more.
const STABILITY_MAX: f64 = 1.4;
const STABILITY_MIN: f64 = 0.7;
/// Node factor `(NODE_BASE - f) * NODE_SCALE` for a best move that took
/// the share `f` of the root's nodes. The best move is searched with a full
/// window and the others mostly refuted with null windows; when one of
/// them needs a deep refutation or a re-search, the choice is close and
/// its share falls. Here the share is low by the standards of engines
/// that reduce root moves harder: on tests/data/positions.epd at
/// 10 s + 0.1 s, past the first 100 ms, its quartiles were 0.39, 0.57 and
/// 0.72 (openings lower, endings higher). So the factor is neutral at
/// f = 0.56, the median, and shifts time rather than adds it: 0.5 for a
/// move that takes 93% of the nodes or more, 1.6 for one at 12% or less.
const NODE_BASE: f64 = 1.3;
const NODE_SCALE: f64 = 1.35;
const NODE_MIN: f64 = 0.5;
const NODE_MAX: f64 = 1.6;
/// Eval factor `1 + drop * EVAL_PER_CP`: a 50 cp fall buys 25% more time,
/// to look for a way out while the clock allows; from 100 cp on the
/// factor stays at 1.5. A rising score trims up to 20% (40 cp).
const EVAL_PER_CP: f64 = 0.005;
const EVAL_MIN: f64 = 0.8;
const EVAL_MAX: f64 = 1.5;
/// The product's range. At the top, 2.5 times soft leaves the iteration
/// it lets start some room below the hard limit (up to 4 times soft); at
/// 10 s + 0.1 s that is 0.9 s of a 10 s clock for a move whose best line
/// keeps changing, keeps falling and is a close call. At the bottom, a
/// clear, settled move still thinks for 0.4 times soft (and finishes the
/// iteration it is in), enough for a couple more plies if it is wrong.
const SCALE_MIN: f64 = 0.4;
const SCALE_MAX: f64 = 2.5;

/// By how much to stretch (above 1) or shrink the soft limit: the product
/// of the stability, node and falling-eval factors, clamped.
pub fn soft_scale(signals: &IterationSignals) -> f64 {
    let stable = signals.stable.min(STABLE_ITERATIONS) as f64;
    let stability =
        STABILITY_MAX - (STABILITY_MAX - STABILITY_MIN) * stable / STABLE_ITERATIONS as f64;
    let nodes = match signals.best_node_fraction {
        Some(f) if f.is_finite() => {
            ((NODE_BASE - f.clamp(0.0, 1.0)) * NODE_SCALE).clamp(NODE_MIN, NODE_MAX)
        }
        _ => 1.0,
    };
    let eval = (1.0 + signals.score_drop as f64 * EVAL_PER_CP).clamp(EVAL_MIN, EVAL_MAX);
    (stability * nodes * eval).clamp(SCALE_MIN, SCALE_MAX)
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
    fn a_long_game_keeps_a_reserve() {
        // The scaled soft limit, with the iteration it lets start, took
        // about 1.3 times the budget on average at 5 s + 0.05 s. Over 100
        // moves that must still leave 15 increments on the clock, where
        // planning for 32 moves fell to about 11.
        let (mut clock, inc) = (5000.0f64, 50u64);
        for _ in 0..100 {
            let l = Limits {
                time: Some(clock as u64),
                inc: Some(inc),
                ..Limits::default()
            };
            let (soft, hard) = budget(&l, 10);
            let spent = (soft.unwrap() as f64 * 1.3).min(hard.unwrap() as f64);
            clock += inc as f64 - spent;
        }
        assert!(clock >= 15.0 * inc as f64, "{clock}");
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

    /// The share of nodes at which the node factor is 1.
    const NEUTRAL_SHARE: f64 = NODE_BASE - 1.0 / NODE_SCALE;

    /// Signals in the middle of every factor's range.
    fn plain() -> IterationSignals {
        IterationSignals {
            root_moves: 30,
            stable: 3,
            best_node_fraction: Some(NEUTRAL_SHARE),
            score_drop: 0,
        }
    }

    fn manager(soft: u64, hard: u64) -> TimeManager {
        TimeManager {
            start: Instant::now(),
            soft: Some(soft),
            hard: Some(hard),
        }
    }

    #[test]
    fn each_factor_moves_the_limit_the_right_way() {
        let base = soft_scale(&plain());
        let with = |f: &dyn Fn(&mut IterationSignals)| {
            let mut s = plain();
            f(&mut s);
            soft_scale(&s)
        };
        // A best move that just changed: more time; a settled one: less.
        assert!(with(&|s| s.stable = 0) > base);
        assert!(with(&|s| s.stable = 6) < base);
        assert!(with(&|s| s.stable = 2) > with(&|s| s.stable = 4));
        // Smooth: no step between neighbouring stabilities is large.
        for k in 0..8 {
            let (a, b) = (with(&|s| s.stable = k), with(&|s| s.stable = k + 1));
            assert!(a >= b && a - b <= 0.15, "{k}: {a} -> {b}");
        }
        // A best move that took nearly all the nodes: less; a close call: more.
        assert!(with(&|s| s.best_node_fraction = Some(0.98)) < base);
        assert!(with(&|s| s.best_node_fraction = Some(0.3)) > base);
        // No share (MultiPV, a decided score): the node factor is 1.
        assert!((with(&|s| s.best_node_fraction = None) - base).abs() < 1e-9);
        // A falling score: more, about a quarter more for 50 cp; rising: less.
        let fell = with(&|s| s.score_drop = 50);
        assert!((fell / base - 1.25).abs() < 0.01, "{fell} vs {base}");
        assert!(with(&|s| s.score_drop = -30) < base);
        assert!(with(&|s| s.score_drop = 200) > fell);
    }

    #[test]
    fn the_product_stays_in_range() {
        let mut seen = (f64::MAX, f64::MIN);
        for stable in [0, 1, 3, 6, 100] {
            for f in [
                None,
                Some(0.0),
                Some(0.5),
                Some(1.0),
                Some(f64::NAN),
                Some(7.0),
            ] {
                for drop in [-40_000, -100, 0, 50, 40_000] {
                    let s = IterationSignals {
                        root_moves: 2,
                        stable,
                        best_node_fraction: f,
                        score_drop: drop,
                    };
                    let x = soft_scale(&s);
                    assert!((SCALE_MIN..=SCALE_MAX).contains(&x), "{s:?} -> {x}");
                    seen = (seen.0.min(x), seen.1.max(x));
                }
            }
        }
        // Both ends are reached, so the clamp is what holds them.
        assert_eq!(seen, (SCALE_MIN, SCALE_MAX));
    }

    #[test]
    fn the_decision_follows_the_scale_and_never_the_hard_limit() {
        let tm = manager(1000, 4000);
        let calm = IterationSignals {
            stable: 10,
            best_node_fraction: Some(0.95),
            score_drop: -10,
            ..plain()
        };
        let worried = IterationSignals {
            stable: 0,
            best_node_fraction: Some(0.4),
            score_drop: 60,
            ..plain()
        };
        assert!(tm.should_stop(700, &calm));
        assert!(!tm.should_stop(700, &worried));
        assert!(tm.should_stop(3000, &worried));
        // Whatever the scale, the next iteration starts before the hard limit.
        let tight = manager(1000, 1200);
        assert!(tight.should_stop(1200, &worried));
        assert!(!tight.should_stop(1100, &worried));
    }

    #[test]
    fn a_single_move_stops_after_the_first_iteration() {
        let tm = manager(1000, 4000);
        let forced = IterationSignals {
            root_moves: 1,
            stable: 0,
            best_node_fraction: Some(1.0),
            score_drop: 0,
        };
        assert!(tm.should_stop(0, &forced));
        assert!(!tm.should_stop(0, &plain()));
    }

    #[test]
    fn no_soft_limit_no_early_stop() {
        // movetime, nodes, depth, infinite: the factors never apply.
        for l in [
            Limits {
                movetime: Some(1000),
                ..Limits::default()
            },
            Limits::default(),
        ] {
            let tm = TimeManager::new(&l, 10);
            let forced = IterationSignals {
                root_moves: 1,
                ..plain()
            };
            assert!(!tm.should_stop(u64::MAX / 2, &forced));
            assert!(!tm.should_stop(u64::MAX / 2, &plain()));
        }
    }
}
