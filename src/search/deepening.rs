//! Iterative deepening with aspiration windows, run by every thread of a
//! Lazy SMP search. Threads share only the transposition table and the stop
//! flag; the main thread (id 0) alone watches the clock, reports and decides
//! when to stop.

use super::score::{to_score, wdl, INF, MATE, WIN_BOUND};
use super::search::{RootMove, Searcher};
use super::time::IterationSignals;
use super::tt::TranspositionTable;
use super::{Bound, Info, Limits, Report};
use std::sync::atomic::Ordering;

/// The `info` line for one root move, or nothing if it has no score yet.
pub fn root_info(
    rm: &RootMove,
    depth: i32,
    multipv: usize,
    nodes: u64,
    time_ms: u64,
    tt: &TranspositionTable,
) -> Option<Info> {
    let v = if rm.score == -INF {
        rm.prev_score
    } else {
        rm.score
    };
    (v != -INF).then(|| Info {
        depth: depth as u32,
        seldepth: rm.seldepth.max(1) as u32,
        multipv: multipv as u32,
        score: to_score(v),
        bound: Bound::Exact,
        wdl: wdl(v),
        nodes,
        nps: nodes * 1000 / time_ms.max(1),
        hashfull: tt.hashfull(),
        time_ms,
        pv: rm.pv.clone(),
    })
}

pub struct IterationOptions {
    pub multipv: usize,
    pub max_depth: i32,
    pub mate: Option<u32>,
}

impl Searcher<'_> {
    /// The best root move's share of this thread's root-move nodes.
    fn best_node_fraction(&self) -> Option<f64> {
        let total: u64 = self.root_moves.iter().map(|rm| rm.nodes).sum();
        (total > 0).then(|| self.root_moves[0].nodes as f64 / total as f64)
    }

    fn report_lines(
        &self,
        depth: i32,
        multipv: usize,
        tt: &TranspositionTable,
        report: &mut dyn FnMut(Report),
    ) {
        let nodes = self.shared.total_nodes().max(self.nodes);
        let time_ms = self.tm.elapsed_ms();
        for (k, rm) in self.root_moves.iter().take(multipv).enumerate() {
            if let Some(info) = root_info(rm, depth, k + 1, nodes, time_ms, tt) {
                report(Report::Info(info));
            }
        }
    }

    /// The iterative deepening loop. Returns the last completed depth.
    pub fn iterate(
        &mut self,
        opts: &IterationOptions,
        limits: &Limits,
        report: &mut dyn FnMut(Report),
    ) -> i32 {
        let main = self.id == 0;
        let multipv = opts.multipv.clamp(1, self.root_moves.len().max(1));
        let mut completed = 0;
        let mut last_best = None;
        let mut stable = 0;
        // The best score of each completed iteration (main thread).
        let mut best_scores: Vec<i32> = Vec::new();
        let timed = !limits.infinite;
        let start_depth = 1 + (self.id % 2) as i32;
        let mut depth = start_depth;
        while depth <= opts.max_depth {
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                if rm.score != -INF {
                    rm.prev_score = rm.score;
                }
            }
            let mut aborted = false;
            for pv_idx in 0..multipv {
                self.seldepth = 0;
                let prev = self.root_moves[pv_idx].prev_score;
                let mut delta = self.margin(super::margins::ASPIRATION);
                let (mut alpha, mut beta) = if depth >= 5 && prev.abs() < WIN_BOUND {
                    ((prev - delta).max(-INF), (prev + delta).min(INF))
                } else {
                    (-INF, INF)
                };
                loop {
                    let v = self.root_search(alpha, beta, depth, pv_idx, report);
                    if self.aborted() && depth > 1 {
                        aborted = true;
                        break;
                    }
                    self.root_moves[pv_idx..].sort_by_key(|rm| std::cmp::Reverse(rm.score));
                    if v <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (v - delta).max(-INF);
                    } else if v >= beta {
                        beta = (v + delta).min(INF);
                    } else {
                        break;
                    }
                    delta += delta / 2;
                }
                if aborted {
                    break;
                }
                self.root_moves[..=pv_idx].sort_by_key(|rm| std::cmp::Reverse(rm.score));
            }
            if aborted {
                break;
            }
            completed = depth;
            self.best_completed = Some((depth, self.root_moves[0].clone()));
            if main {
                self.report_lines(depth, multipv, self.shared.tt, report);
                let best = self.root_moves[0].mv;
                if last_best == Some(best) {
                    stable += 1;
                } else {
                    stable = 0;
                }
                last_best = Some(best);
                let score = self.root_moves[0].score;
                let score_drop = score_drop(&best_scores, score);
                best_scores.push(score);
                if let Some(n) = opts.mate {
                    if score >= WIN_BOUND && (MATE - score + 1) / 2 <= n as i32 {
                        break;
                    }
                }
                if self.single_thread && self.nodes >= self.shared.node_limit {
                    break;
                }
                if self.shared.total_nodes().max(self.nodes) >= self.shared.soft_node_limit {
                    break;
                }
                if timed && !self.pondering {
                    let signals = IterationSignals {
                        root_moves: self.root_moves.len(),
                        stable,
                        // A decided score's best move often ends the game
                        // at once (a winning pass, a mate in one) and costs
                        // no nodes: its share says nothing of a close call.
                        best_node_fraction: (multipv == 1 && score.abs() < WIN_BOUND)
                            .then(|| self.best_node_fraction())
                            .flatten(),
                        score_drop,
                    };
                    let elapsed = self.tm.elapsed_ms();
                    log::debug!(
                        "depth {depth}: {elapsed} ms, score {score}, {signals:?}, soft x{:.2}",
                        super::time::soft_scale(&signals)
                    );
                    if self.tm.should_stop(elapsed, &signals) {
                        break;
                    }
                }
            } else if self.aborted() {
                break;
            }
            depth += 1;
        }
        self.publish_nodes();
        // Holding `bestmove` until `stop` or `ponderhit` is the protocol's
        // business (it alone knows the GUI is waiting); the search is done.
        if main {
            self.shared.abort.store(true, Ordering::SeqCst);
        }
        completed
    }
}

/// How many earlier iterations the recent average of best scores takes:
/// enough to smooth the swing between odd and even depths.
const SCORE_HISTORY: usize = 4;

/// How far `now` fell below the previous iteration's best score and the
/// average of the recent ones (centipawns; negative: it rose). The average
/// catches a slide over several iterations that no single step shows.
fn score_drop(previous: &[i32], now: i32) -> i32 {
    let Some(&last) = previous.last() else {
        return 0;
    };
    let recent = &previous[previous.len().saturating_sub(SCORE_HISTORY)..];
    let average = recent.iter().map(|&s| s as i64).sum::<i64>() / recent.len() as i64;
    ((last as i64 - now as i64 + average - now as i64) / 2) as i32
}

/// Root moves in a first order: captures of valuable pieces first.
pub fn initial_root_moves(moves: &[crate::board::Move]) -> Vec<RootMove> {
    moves
        .iter()
        .map(|&mv| RootMove {
            mv,
            score: -INF,
            prev_score: -INF,
            pv: vec![mv],
            seldepth: 0,
            nodes: 0,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::score_drop;

    #[test]
    fn score_drop_weighs_the_last_step_and_the_slide() {
        assert_eq!(score_drop(&[], -500), 0);
        assert_eq!(score_drop(&[30, 30, 30], 30), 0);
        // A sudden fall of 50 from a steady score counts in full.
        assert_eq!(score_drop(&[30, 30, 30, 30], -20), 50);
        // A slow slide counts more than its last step alone.
        let slide = score_drop(&[100, 80, 60, 40], 20);
        assert!(slide > 20, "{slide}");
        // A rise is a negative drop; old history beyond the window is ignored.
        assert!(score_drop(&[0, 0], 40) < 0);
        assert_eq!(score_drop(&[-900, 30, 30, 30, 30], 30), 0);
        // Mate scores do not overflow.
        assert!(score_drop(&[32000, 32000], -32000) > 0);
    }
}
