//! Jobs that run on the worker thread: a search (with its root set, its
//! reports in the dialect's words and the hold on its answer) and perft.
//! Both stop on the core's stop flag.

use super::core::{Answer, JobContext};
use super::output::Output;
use super::{cecp, ucci, uci};
use crate::board::perft::divide_until;
use crate::board::{game_end, move_to_string, parse_move, GameEnd, Notation, Outcome, Position};
use crate::search::{Control, Info, Limits, Report, RootSet};
use std::thread;
use std::time::Duration;

/// How a search's reports are written.
#[derive(Copy, Clone, Debug)]
pub enum Render {
    /// `n`: UCI's notation, or ranks 0..9 after `ucicyclone`.
    Uci {
        n: Notation,
        wdl: bool,
    },
    Ucci {
        multipv: bool,
    },
    /// Thinking lines only with `post` (or while analysing).
    Cecp {
        post: bool,
    },
}

impl Render {
    fn info(self, i: &Info) -> Option<String> {
        match self {
            Render::Uci { n, wdl } => Some(uci::info(i, wdl, n)),
            Render::Ucci { multipv } => Some(ucci::info(i, multipv)),
            Render::Cecp { post } => post.then(|| cecp::thinking(i)),
        }
    }

    fn report(self, out: &Output, r: Report) {
        match (self, r) {
            (_, Report::Info(i)) => {
                if let Some(l) = self.info(&i) {
                    out.line(&l);
                }
            }
            (Render::Cecp { .. }, _) => {}
            (Render::Uci { n, .. }, Report::CurrMove { depth, mv, number }) => out.line(&format!(
                "info depth {depth} currmove {} currmovenumber {number}",
                move_to_string(mv, n)
            )),
            (Render::Ucci { .. }, Report::CurrMove { depth, mv, number }) => out.line(&format!(
                "info depth {depth} currmove {} currmovenumber {number}",
                move_to_string(mv, Notation::Ucci)
            )),
            (_, Report::Text(t)) => out.info_string(&t),
        }
    }

    /// Before the search: what FSF prints when the root has no legal move,
    /// and the verdict of a root that is already over. CECP claims results
    /// itself, on the move that ends the game.
    fn root(self, out: &Output, root: &RootSet, end: Option<GameEnd>) {
        if matches!(self, Render::Cecp { .. }) {
            return;
        }
        match root {
            RootSet::NoLegalMove => out.line(&no_move_info(self, end)),
            RootSet::AllBanned => out.info_string("every legal move is banned"),
            RootSet::Moves { note: Some(n), .. } => out.info_string(n),
            RootSet::Moves { note: None, .. } => {}
        }
        // Also when the root is over by repetition or the move limit: the
        // GUI may play on, but it should learn the verdict.
        if let Some(end) = end {
            out.info_string(&format!("result {end}"));
        }
    }
}

/// Searches `pos` within `limits`: the worker's side of every dialect's
/// search. The answer is held until `stop`/`ponderhit` in `infinite` and
/// unanswered `ponder` searches, even when the search is done: this is the
/// only place that holds it.
pub fn search(ctx: &JobContext, pos: &Position, limits: &Limits, render: Render) -> Answer {
    // The root set is decided here, once: the search gets exactly these
    // moves, so whatever it answers may be played.
    let root = RootSet::new(pos, limits);
    render.root(&ctx.out, &root, game_end(pos));
    let result = (!root.moves().is_empty()).then(|| {
        let mut engine = ctx.engine();
        let out = &ctx.out;
        let mut report = |r: Report| render.report(out, r);
        engine.search_root(pos, root.moves(), limits, &ctx.control, &mut report)
    });
    hold(limits, &ctx.control);
    let best = result.as_ref().and_then(|r| r.best);
    let ponder = result.and_then(|r| r.ponder).filter(|&p| {
        best.is_some_and(|b| {
            let mut after = pos.clone();
            after.make(b);
            crate::board::movegen::is_legal(&after, p)
        })
    });
    Answer { best, ponder }
}

fn hold(limits: &Limits, control: &Control) {
    let held =
        || (limits.infinite || (limits.ponder && !control.pondering_hit())) && !control.stopped();
    while held() {
        thread::sleep(Duration::from_millis(1));
    }
}

/// What FSF prints when the root has no legal move: a mate score for a
/// decided game, 0 for a drawn one (two passes under a rule set without
/// counting).
fn no_move_info(render: Render, end: Option<GameEnd>) -> String {
    let drawn = end.is_some_and(|e| e.outcome == Outcome::Draw);
    match (render, drawn) {
        (Render::Ucci { .. }, false) => format!("info depth 0 score {}", -ucci::MATE_VALUE),
        (Render::Ucci { .. }, true) => "info depth 0 score 0".to_string(),
        (_, false) => "info depth 0 score mate 0".to_string(),
        (_, true) => "info depth 0 score cp 0".to_string(),
    }
}

/// `go perft N`: the count below each root move, then the total; nothing
/// but a note if `stop` came first.
pub fn perft(ctx: &JobContext, pos: &Position, depth: u32, threads: usize, notation: Notation) {
    let out = &ctx.out;
    if depth == 0 {
        out.line("");
        out.line("Nodes searched: 1");
        return;
    }
    let Some(lines) = divide_until(pos, depth, threads, ctx.control.stop_flag()) else {
        out.info_string(&format!("perft {depth} stopped"));
        return;
    };
    let mut total = 0u64;
    for (m, n) in &lines {
        let shown = match notation {
            Notation::Uci => m.clone(),
            // divide writes UCI strings; the root moves are legal, so they read back.
            Notation::Ucci => parse_move(pos, m, Notation::Uci)
                .map(|mv| move_to_string(mv, notation))
                .unwrap_or_else(|_| m.clone()),
        };
        out.line(&format!("{shown}: {n}"));
        total += n;
    }
    out.line("");
    out.line(&format!("Nodes searched: {total}"));
}
