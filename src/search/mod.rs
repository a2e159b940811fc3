//! Search: the contract between the protocol layer and the engine.
//!
//! The protocol builds a [`Limits`] from `go`, owns an [`Engine`] (which owns
//! the transposition table and the thread count), and calls
//! [`Engine::search`] on a worker thread with a [`Control`] it keeps a clone
//! of, so that `stop` and `ponderhit` from the stdin thread reach the search.

use crate::board::{Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub mod correction;
pub mod deepening;
pub mod endings;
pub mod engine;
pub mod eval;
pub mod eval_switch;
pub mod margins;
pub mod ordering;
pub mod params;
pub mod picker;
pub mod root;
pub mod score;
#[allow(clippy::module_inception)]
pub mod search;
pub mod see;
pub mod singular;
pub mod skill;
pub mod time;
pub mod tt;
pub mod tuned;

pub use engine::Engine;
pub use root::RootSet;
pub use score::Score;

/// Everything `go` can say. Times are in milliseconds.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The side to move's clock and increment. The protocol decides once
    /// which of the GUI's clocks is ours (UCI's `wtime`/`btime` by the side
    /// to move, UCCI's `time` as given); nothing below asks again.
    pub time: Option<u64>,
    pub inc: Option<u64>,
    pub movestogo: Option<u32>,
    /// Korean byoyomi: fixed time per move once the main time is spent.
    pub byoyomi: Option<u64>,
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Stop after the first completed iteration that reached this many
    /// nodes (data generation: every move ends on a whole iteration).
    pub soft_nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// UCCI `banmoves`: the root may not play these.
    pub banmoves: Vec<Move>,
    /// When the command that started this search arrived: the clock runs
    /// from then, not from when a busy machine got round to searching.
    pub received: Option<std::time::Instant>,
}

/// Shared between the protocol thread and the search.
#[derive(Clone, Default)]
pub struct Control {
    stop: Arc<AtomicBool>,
    ponderhit: Arc<AtomicBool>,
}

impl Control {
    pub fn new() -> Control {
        Control::default()
    }
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
    /// The stop flag itself, for work outside the search (perft) that
    /// must stop on the same `stop`.
    pub fn stop_flag(&self) -> &AtomicBool {
        &self.stop
    }
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    /// A ponder search becomes a normal timed search.
    pub fn ponderhit(&self) {
        self.ponderhit.store(true, Ordering::SeqCst);
    }
    pub fn pondering_hit(&self) -> bool {
        self.ponderhit.load(Ordering::Relaxed)
    }
    pub fn reset(&self) {
        self.stop.store(false, Ordering::SeqCst);
        self.ponderhit.store(false, Ordering::SeqCst);
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One `info` line's worth of data.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: u32,
    pub score: Score,
    pub bound: Bound,
    /// Win/draw/loss per mille, side to move's view.
    pub wdl: (u32, u32, u32),
    pub nodes: u64,
    pub nps: u64,
    pub hashfull: u32,
    pub time_ms: u64,
    pub pv: Vec<Move>,
}

/// What the search reports while it runs.
pub enum Report {
    Info(Info),
    /// `info depth D currmove M currmovenumber N` (sent after the first seconds).
    CurrMove {
        depth: u32,
        mv: Move,
        number: u32,
    },
    /// Free text, sent as `info string ...`.
    Text(String),
}

#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` only when the root has no legal move.
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub nodes: u64,
    pub depth: u32,
}

/// One pruning or reduction switched off, to measure what it is worth in
/// play (`setoption name Ablate value lmr`, then a match against the full
/// engine). Each feature stays in the search only while it gains.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Ablation {
    #[default]
    None,
    NullMove,
    ReverseFutility,
    Futility,
    LateMovePruning,
    LateMoveReductions,
    InternalIterativeReduction,
    HistoryPruning,
    ProbCut,
    /// Exchange-test pruning of quiet moves, captures and checks.
    SeePruning,
}

impl Ablation {
    /// Every value with its option name, in the order the option lists
    /// them: the one table `NAMES`, `ALL`, `name` and `from_name` read.
    const TABLE: [(Ablation, &'static str); 10] = [
        (Ablation::None, "none"),
        (Ablation::NullMove, "nullmove"),
        (Ablation::ReverseFutility, "rfp"),
        (Ablation::Futility, "futility"),
        (Ablation::LateMovePruning, "lmp"),
        (Ablation::LateMoveReductions, "lmr"),
        (Ablation::InternalIterativeReduction, "iir"),
        (Ablation::HistoryPruning, "histprune"),
        (Ablation::ProbCut, "probcut"),
        (Ablation::SeePruning, "see"),
    ];
    /// Option values, in the table's order.
    pub const NAMES: &'static [&'static str] = &{
        let mut names = [""; Self::TABLE.len()];
        let mut i = 0;
        while i < names.len() {
            names[i] = Self::TABLE[i].1;
            i += 1;
        }
        names
    };
    /// Every value, in the table's order.
    pub const ALL: [Ablation; Self::TABLE.len()] = {
        let mut all = [Ablation::None; Self::TABLE.len()];
        let mut i = 0;
        while i < all.len() {
            all[i] = Self::TABLE[i].0;
            i += 1;
        }
        all
    };

    pub fn name(self) -> &'static str {
        Self::TABLE
            .iter()
            .find(|&&(a, _)| a == self)
            .map_or(Self::TABLE[0].1, |&(_, n)| n)
    }

    pub fn from_name(name: &str) -> Option<Ablation> {
        Self::TABLE
            .iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(name))
            .map(|&(a, _)| a)
    }
}

/// Largest hash table a GUI or the command line may ask for, in MB.
pub const MAX_HASH_MB: usize = 65536;
/// Most search threads (and perft threads) anyone may ask for.
pub const MAX_THREADS: usize = 256;

/// A thread count from the command line, checked against `MAX_THREADS`.
pub fn check_threads(n: usize) -> Result<usize, String> {
    if (1..=MAX_THREADS).contains(&n) {
        Ok(n)
    } else {
        Err(format!("threads must be 1..{MAX_THREADS}, got {n}"))
    }
}

/// A hash size from the command line, checked against `MAX_HASH_MB`.
pub fn check_hash_mb(mb: usize) -> Result<usize, String> {
    if (1..=MAX_HASH_MB).contains(&mb) {
        Ok(mb)
    } else {
        Err(format!("hash must be 1..{MAX_HASH_MB} MB, got {mb}"))
    }
}

/// Engine settings that the protocol's options change.
#[derive(Clone, Debug)]
pub struct Settings {
    pub threads: usize,
    pub hash_mb: usize,
    pub multipv: u32,
    pub move_overhead_ms: u64,
    /// -20..=20; 20 is full strength.
    pub skill_level: i32,
    pub limit_strength: bool,
    pub elo: u32,
    pub analyse_mode: bool,
    pub show_wdl: bool,
    pub ponder: bool,
    pub ablation: Ablation,
    /// The evaluation: by default the embedded net, else another net or
    /// the classical terms (`nnue::choice` owns which).
    pub eval: crate::nnue::Evaluator,
    /// The tunable margins (hidden options; `janggun spsa` tunes them).
    pub margins: margins::Margins,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            threads: 1,
            hash_mb: 16,
            multipv: 1,
            move_overhead_ms: 10,
            skill_level: 20,
            limit_strength: false,
            elo: 1350,
            analyse_mode: false,
            show_wdl: false,
            ponder: false,
            ablation: Ablation::None,
            // The embedded net beat the classical evaluation (docs/RESULTS.md,
            // "Net against classical").
            eval: crate::nnue::Evaluator::default(),
            margins: margins::Margins::default(),
        }
    }
}

#[allow(dead_code)]
fn _assert_send(pos: Position) -> impl Send {
    pos
}

#[cfg(test)]
mod tests {
    use super::Ablation;

    #[test]
    fn ablation_names_round_trip() {
        assert_eq!(Ablation::NAMES.len(), Ablation::TABLE.len());
        for (i, &(a, n)) in Ablation::TABLE.iter().enumerate() {
            assert_eq!(a.name(), n);
            assert_eq!(Ablation::NAMES[i], n);
            assert_eq!(Ablation::ALL[i], a);
            assert_eq!(Ablation::from_name(&n.to_uppercase()), Some(a));
        }
        assert_eq!(Ablation::from_name("nothing"), None);
    }
}
