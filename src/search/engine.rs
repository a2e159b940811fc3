//! The engine the protocol drives: owns the transposition table and each
//! thread's history tables, and runs one Lazy SMP search per `go`.

use super::deepening::{initial_root_moves, root_info, IterationOptions};
use super::eval;
use super::margins::{self, LmrTable};
use super::ordering::History;
use super::root::RootSet;
use super::score::MAX_PLY;
use super::score::{to_score, INF};
use super::search::{Searcher, Shared};
use super::skill::Skill;
use super::time::TimeManager;
use super::tt::TranspositionTable;
use super::{Control, Limits, Report, Score, SearchResult, Settings};
use crate::board::{Move, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

pub struct Engine {
    settings: Settings,
    tt: TranspositionTable,
    histories: Vec<History>,
    /// The reduction table of `settings`' LMR divisor, built when that
    /// changes rather than on every search.
    lmr: LmrTable,
}

impl Engine {
    /// An engine with the settings' table size, or a smaller table if that
    /// cannot be allocated (see `try_new` for the strict form).
    pub fn new(settings: Settings) -> Engine {
        let tt = TranspositionTable::new(settings.hash_mb);
        Engine::with_table(settings, tt)
    }

    /// An engine whose table has exactly the settings' size, or an error.
    pub fn try_new(settings: Settings) -> Result<Engine, String> {
        let tt = TranspositionTable::try_new(settings.hash_mb)?;
        Ok(Engine::with_table(settings, tt))
    }

    fn with_table(settings: Settings, tt: TranspositionTable) -> Engine {
        let histories = (0..settings.threads.max(1))
            .map(|_| History::new())
            .collect();
        Engine {
            lmr: LmrTable::new(settings.margins.get(margins::LMR_DIV)),
            settings,
            tt,
            histories,
        }
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Applies changed settings (resizes the table, changes the thread
    /// count). If the new table cannot be allocated, a smaller one is in
    /// use, `settings()` says which, and the error says so too.
    pub fn apply(&mut self, mut settings: Settings) -> Result<(), String> {
        let mut result = Ok(());
        if settings.hash_mb != self.settings.hash_mb {
            log::debug!("hash: resizing to {} MB", settings.hash_mb);
            result = self.tt.resize(settings.hash_mb);
            if result.is_err() {
                settings.hash_mb = self.tt.size_mb().max(1);
            }
        }
        let threads = settings.threads.max(1);
        self.histories.truncate(threads);
        while self.histories.len() < threads {
            self.histories.push(History::new());
        }
        let divisor = settings.margins.get(margins::LMR_DIV);
        if divisor != self.settings.margins.get(margins::LMR_DIV) {
            self.lmr = LmrTable::new(divisor);
        }
        self.settings = settings;
        result
    }

    /// Clears the transposition table and histories (`ucinewgame`, `Clear Hash`).
    pub fn clear(&mut self) {
        self.tt.clear();
        for h in &mut self.histories {
            h.clear();
        }
    }

    /// Table fill in per mille.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Searches `pos` (with its game history) within `limits`; returns when
    /// done or when `control` says stop. Reports `info` data through
    /// `report`. The root moves are `RootSet::new`'s.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(Report),
    ) -> SearchResult {
        let set = RootSet::new(pos, limits);
        if let RootSet::Moves { note: Some(n), .. } = &set {
            report(Report::Text(n.clone()));
        }
        self.search_root(pos, set.moves(), limits, control, report)
    }

    /// Searches only `root` (a caller that already holds the `RootSet`
    /// passes its moves): the answer is always one of them, and `None`
    /// when there are none.
    pub fn search_root(
        &mut self,
        pos: &Position,
        root: &[Move],
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(Report),
    ) -> SearchResult {
        if root.is_empty() {
            return SearchResult {
                best: None,
                ponder: None,
                score: Score::Mate(0),
                nodes: 0,
                depth: 0,
            };
        }

        let skill = Skill::from_settings(&self.settings);
        let multipv = (self.settings.multipv as usize).max(skill.multipv());
        let mut max_depth = limits.depth.map_or(MAX_PLY as i32 - 8, |d| d.max(1) as i32);
        max_depth = max_depth.min(MAX_PLY as i32 - 8);
        if let Some(d) = skill.max_depth() {
            max_depth = max_depth.min(d);
        }
        let tm = TimeManager::new(limits, self.settings.move_overhead_ms);
        self.tt.new_search();
        let threads = self.histories.len();
        log::debug!(
            "search: {} root moves, {threads} threads, soft {:?} ms, hard {:?} ms",
            root.len(),
            tm.soft,
            tm.hard
        );
        let shared = Shared {
            tt: &self.tt,
            abort: AtomicBool::new(false),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            control,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            soft_node_limit: limits.soft_nodes.unwrap_or(u64::MAX),
            ablation: self.settings.ablation,
            net: self.settings.eval.network(),
            // `MarginScale` applied once a search, not at every read.
            margins: self.settings.margins.in_force(),
            lmr: &self.lmr,
        };
        let opts = IterationOptions {
            multipv,
            max_depth,
            mate: limits.mate,
        };
        let root_moves = initial_root_moves(root);
        let (main_hist, helper_hists) = self.histories.split_first_mut().expect("one thread");

        let clock = tm.clone();
        let (mut main, mut completed, helpers) = std::thread::scope(|s| {
            let handles: Vec<_> = helper_hists
                .iter_mut()
                .enumerate()
                .map(|(i, h)| {
                    let mut helper = Searcher::new(
                        i + 1,
                        pos.clone(),
                        &shared,
                        h,
                        root_moves.clone(),
                        tm.clone(),
                    );
                    let opts = &opts;
                    s.spawn(move || {
                        helper.iterate(opts, limits, &mut |_| {});
                        helper.best_completed
                    })
                })
                .collect();
            let mut main = Searcher::new(0, pos.clone(), &shared, main_hist, root_moves, tm);
            main.pondering = limits.ponder;
            let completed = main.iterate(&opts, limits, report);
            shared.abort.store(true, Ordering::SeqCst);
            let helpers: Vec<_> = handles
                .into_iter()
                .filter_map(|h| h.join().ok().flatten())
                .collect();
            (std::mem::take(&mut main.root_moves), completed, helpers)
        });
        let nodes = shared.total_nodes();
        log::debug!(
            "search: {threads} threads stopped after {} ms, depth {completed}, {nodes} nodes",
            clock.elapsed_ms()
        );

        // Lazy SMP pays off here: a helper that finished a deeper iteration
        // than the main thread knows more, so its move is played. (Not with
        // MultiPV or a skill level, which choose among the main thread's
        // ranked lines.)
        if multipv == 1 && !skill.enabled() {
            let deepest = helpers.into_iter().max_by_key(|(d, _)| *d);
            if let Some((depth, rm)) = deepest.filter(|(d, _)| *d > completed) {
                let time_ms = clock.elapsed_ms();
                if let Some(info) = root_info(&rm, depth, 1, nodes, time_ms, &self.tt) {
                    report(Report::Info(info));
                }
                main.insert(0, rm);
                completed = depth;
            }
        }

        let pick = if skill.enabled() {
            let seed = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64);
            skill.pick(&main, multipv, seed)
        } else {
            0
        };
        let chosen = main.swap_remove(pick);
        let v = if chosen.score == -INF {
            chosen.prev_score
        } else {
            chosen.score
        };
        SearchResult {
            best: Some(chosen.mv),
            ponder: chosen.pv.get(1).copied(),
            score: if v == -INF { Score::Cp(0) } else { to_score(v) },
            nodes,
            depth: completed.max(1) as u32,
        }
    }

    /// Static evaluation from the side to move's view, in centipawns.
    pub fn evaluate(pos: &Position) -> i32 {
        eval::evaluate(pos)
    }

    /// The evaluation's terms as text (debug `eval`, UCCI `probe`).
    pub fn eval_report(pos: &Position) -> String {
        eval::report(pos)
    }
}
