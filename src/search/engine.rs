//! PLACEHOLDER: the search helper replaces this file with the real engine
//! (iterative deepening, TT, Lazy SMP). The public API below is the contract.

use super::{Control, Info, Limits, Report, Score, SearchResult, Settings};
use crate::board::{legal_moves, MoveList, Position};

pub struct Engine {
    settings: Settings,
}

impl Engine {
    pub fn new(settings: Settings) -> Engine {
        Engine { settings }
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Applies changed settings (resizes the table, changes the thread count).
    pub fn apply(&mut self, settings: Settings) {
        self.settings = settings;
    }

    /// Clears the transposition table and histories (`ucinewgame`, `Clear Hash`).
    pub fn clear(&mut self) {}

    /// Table fill in per mille.
    pub fn hashfull(&self) -> u32 {
        0
    }

    /// Searches `pos` (with its game history) within `limits`; returns when
    /// done or when `control` says stop. Reports `info` data through `report`.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(Report),
    ) -> SearchResult {
        let _ = (limits, control);
        let mut list = MoveList::new();
        legal_moves(pos, &mut list);
        let best = list.iter().copied().find(|m| !limits.banmoves.contains(m));
        report(Report::Info(Info {
            depth: 1,
            seldepth: 1,
            multipv: 1,
            score: Score::Cp(0),
            bound: super::Bound::Exact,
            wdl: (0, 1000, 0),
            nodes: list.len() as u64,
            nps: 0,
            hashfull: 0,
            time_ms: 0,
            pv: best.into_iter().collect(),
        }));
        SearchResult {
            best,
            ponder: None,
            score: Score::Cp(0),
            nodes: list.len() as u64,
            depth: 1,
        }
    }

    /// Static evaluation from the side to move's view, in centipawns.
    pub fn evaluate(pos: &Position) -> i32 {
        let _ = pos;
        0
    }

    /// The evaluation's terms as text (debug `eval`, UCCI `probe`).
    pub fn eval_report(pos: &Position) -> String {
        format!("total {}", Engine::evaluate(pos))
    }
}
