//! Jobs that run on the worker thread: a search (with its game-end and
//! bestmove bookkeeping) and perft. Both stop on the session's `stop`.

use super::dialect::Dialect;
use super::output::Writer;
use super::{ucci, uci};
use crate::board::perft::divide_until;
use crate::board::{
    game_end, move_to_string, parse_move, GameEnd, Move, Notation, Outcome, Position,
};
use crate::search::{Control, Engine, Info, Limits, Report, RootSet};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

pub struct SearchJob {
    pub engine: Arc<Mutex<Engine>>,
    pub control: Control,
    pub out: Writer,
    pub pos: Position,
    pub limits: Limits,
    pub dialect: Dialect,
    /// The dialect's, or ranks 0..9 for UCI after `ucicyclone`.
    pub notation: Notation,
    pub show_wdl: bool,
    pub multipv: bool,
}

impl SearchJob {
    pub fn run(self) {
        // The root set is decided here, once: the search gets exactly these
        // moves, so whatever it answers may be played.
        let root = RootSet::new(&self.pos, &self.limits);
        let end = game_end(&self.pos);
        match &root {
            RootSet::NoLegalMove => self.out.line(&no_move_info(self.dialect, end)),
            RootSet::AllBanned => self.out.info_string("every legal move is banned"),
            RootSet::Moves { note: Some(n), .. } => self.out.info_string(n),
            RootSet::Moves { note: None, .. } => {}
        }
        // Also when the root is over by repetition or the move limit: the
        // GUI may play on, but it should learn the verdict.
        if let Some(end) = end {
            self.out.info_string(&format!("result {end}"));
        }
        let result = (!root.moves().is_empty()).then(|| {
            let mut engine = self.engine.lock().unwrap_or_else(|e| e.into_inner());
            let (out, dialect, wdl, mpv) = (&self.out, self.dialect, self.show_wdl, self.multipv);
            let n = self.notation;
            let mut report = |r: Report| match r {
                Report::Info(i) => out.line(&info(dialect, n, &i, wdl, mpv)),
                Report::CurrMove { depth, mv, number } => out.line(&format!(
                    "info depth {depth} currmove {} currmovenumber {number}",
                    move_to_string(mv, n)
                )),
                Report::Text(t) => out.info_string(&t),
            };
            engine.search_root(
                &self.pos,
                root.moves(),
                &self.limits,
                &self.control,
                &mut report,
            )
        });
        self.wait_for_release();
        let best = result.as_ref().and_then(|r| r.best);
        let ponder = result.and_then(|r| r.ponder).filter(|&p| {
            best.is_some_and(|b| {
                let mut after = self.pos.clone();
                after.make(b);
                crate::board::movegen::is_legal(&after, p)
            })
        });
        self.out
            .line(&bestmove(self.dialect, self.notation, best, ponder));
    }

    /// UCI: in `infinite` and unanswered `ponder` searches `bestmove` waits
    /// for `stop` or `ponderhit`, even if the search is done. This is the
    /// only place that holds it.
    fn wait_for_release(&self) {
        let held = || {
            (self.limits.infinite || (self.limits.ponder && !self.control.pondering_hit()))
                && !self.control.stopped()
        };
        while held() {
            thread::sleep(Duration::from_millis(1));
        }
    }
}

fn info(dialect: Dialect, n: Notation, i: &Info, show_wdl: bool, multipv: bool) -> String {
    match dialect {
        Dialect::Uci => uci::info(i, show_wdl, n),
        Dialect::Ucci => ucci::info(i, multipv),
    }
}

fn bestmove(dialect: Dialect, n: Notation, best: Option<Move>, ponder: Option<Move>) -> String {
    match dialect {
        Dialect::Uci => uci::bestmove(best, ponder, n),
        Dialect::Ucci => ucci::bestmove(best, ponder),
    }
}

/// What FSF prints when the root has no legal move: a mate score for a
/// decided game, 0 for a drawn one (two passes under a rule set without
/// counting).
pub fn no_move_info(dialect: Dialect, end: Option<GameEnd>) -> String {
    let drawn = end.is_some_and(|e| e.outcome == Outcome::Draw);
    match (dialect, drawn) {
        (Dialect::Uci, false) => "info depth 0 score mate 0".to_string(),
        (Dialect::Uci, true) => "info depth 0 score cp 0".to_string(),
        (Dialect::Ucci, false) => format!("info depth 0 score {}", -ucci::MATE_VALUE),
        (Dialect::Ucci, true) => "info depth 0 score 0".to_string(),
    }
}

/// `go perft N`: the count below each root move, then the total; nothing
/// but a note if `stop` came first.
pub fn perft(
    pos: &Position,
    depth: u32,
    threads: usize,
    notation: Notation,
    out: &Writer,
    control: &Control,
) {
    if depth == 0 {
        out.line("");
        out.line("Nodes searched: 1");
        return;
    }
    let Some(lines) = divide_until(pos, depth, threads, control.stop_flag()) else {
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
