//! Jobs that run on the worker thread: a search (with its game-end and
//! bestmove bookkeeping) and perft.

use super::output::Writer;
use super::Dialect;
use crate::board::perft::divide;
use crate::board::{game_end, legal_moves, Move, MoveList, Position};
use crate::search::{Control, Engine, Limits, Report};
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
    pub show_wdl: bool,
    pub multipv: bool,
}

impl SearchJob {
    pub fn run(self) {
        let mut legal = MoveList::new();
        legal_moves(&self.pos, &mut legal);
        if legal.is_empty() {
            self.out.line(&self.dialect.no_move_info());
        }
        // Also when the root is over by repetition or the move limit: the
        // GUI may play on, but it should learn the verdict.
        if let Some(end) = game_end(&self.pos) {
            self.out.info_string(&format!("result {end}"));
        }
        let allowed: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| !self.limits.banmoves.contains(m))
            .collect();
        if allowed.is_empty() {
            if !legal.is_empty() {
                self.out.info_string("every legal move is banned");
            }
            self.wait_for_release();
            self.out.line(&self.dialect.bestmove(None, None));
            return;
        }
        // A GUI's `searchmoves` narrows what may be answered, unless all of
        // them are banned.
        let narrowed: Vec<Move> = allowed
            .iter()
            .copied()
            .filter(|m| self.limits.searchmoves.contains(m))
            .collect();
        let allowed = if narrowed.is_empty() {
            allowed
        } else {
            narrowed
        };
        let result = {
            let mut engine = self.engine.lock().unwrap_or_else(|e| e.into_inner());
            let (out, dialect, wdl, mpv) = (&self.out, self.dialect, self.show_wdl, self.multipv);
            let mut report = |r: Report| match r {
                Report::Info(i) => out.line(&dialect.info(&i, wdl, mpv)),
                Report::CurrMove { depth, mv, number } => out.line(&format!(
                    "info depth {depth} currmove {} currmovenumber {number}",
                    dialect.mv(mv)
                )),
                Report::Text(t) => out.info_string(&t),
            };
            engine.search(&self.pos, &self.limits, &self.control, &mut report)
        };
        self.wait_for_release();
        let best = match result.best {
            Some(m) if allowed.contains(&m) => m,
            other => {
                // Never leave a GUI without a legal move, whatever the search did.
                let fallback = allowed[0];
                if let Some(m) = other {
                    self.out.error(&format!(
                        "search answered {}, which may not be played; playing {}",
                        self.dialect.mv(m),
                        self.dialect.mv(fallback)
                    ));
                }
                fallback
            }
        };
        let ponder = result.ponder.filter(|&p| {
            let mut after = self.pos.clone();
            after.make(best);
            crate::board::movegen::is_legal(&after, p)
        });
        self.out.line(&self.dialect.bestmove(Some(best), ponder));
    }

    /// UCI: in `infinite` and unanswered `ponder` searches `bestmove` waits
    /// for `stop` or `ponderhit`, even if the search is done.
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

/// `go perft N`: the count below each root move, then the total.
pub fn perft(pos: &Position, depth: u32, threads: usize, dialect: Dialect, out: &Writer) {
    if depth == 0 {
        out.line("");
        out.line("Nodes searched: 1");
        return;
    }
    let lines = divide(pos, depth, threads);
    let mut total = 0u64;
    for (m, n) in &lines {
        let shown = match dialect {
            Dialect::Uci => m.clone(),
            // divide writes UCI strings; the root moves are legal, so they read back.
            Dialect::Ucci => crate::board::parse_move(pos, m, crate::board::Notation::Uci)
                .map(|mv| dialect.mv(mv))
                .unwrap_or_else(|_| m.clone()),
        };
        out.line(&format!("{shown}: {n}"));
        total += n;
    }
    out.line("");
    out.line(&format!("Nodes searched: {total}"));
}
