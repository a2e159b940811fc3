//! What a match is: its engines, limits, openings, adjudication and
//! outputs, as `janggun match` (src/arena/cli.rs) reads them from the
//! command line. The runner, the reports and `spsa` take it from here.

use crate::board::RuleSet;
use std::path::PathBuf;

/// Most games one match may schedule (all pairings together): more would
/// take years, so a larger number is a typo, not a plan.
pub const MAX_GAMES: usize = 1_000_000;
/// Longest time any time argument may name, one day: clock, increment,
/// byoyomi and margin then add up far from any overflow.
pub const MAX_MS: u64 = 86_400_000;
/// Most nodes a search may be given (days of search for any engine).
pub const MAX_NODES: u64 = 1_000_000_000_000;
/// Largest adjudication score: engines report mates near 100000 cp.
pub const MAX_SCORE: i32 = 100_000;

/// One engine as given by `--engine name=.. cmd=.. [arg=..] [option.X=..]
/// [tc=.. movetime=.. nodes=.. depth=..]`.
#[derive(Clone, Debug, Default)]
pub struct EngineSpec {
    pub name: String,
    pub cmd: String,
    pub args: Vec<String>,
    pub options: Vec<(String, String)>,
    /// Its own limits, which replace the match's for this engine (a
    /// handicap such as 5+0.05 against 20+0.2).
    pub limits: Option<MatchLimits>,
}

/// Time control: base and increment in milliseconds, plus byoyomi.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Clock {
    pub base_ms: u64,
    pub inc_ms: u64,
    pub byoyomi_ms: u64,
}

impl Clock {
    /// As PGN's `TimeControl` writes it: base+increment in seconds.
    pub fn text(&self) -> String {
        let s = |ms: u64| ms as f64 / 1000.0;
        if self.byoyomi_ms > 0 {
            format!(
                "{}+{}+byo{}",
                s(self.base_ms),
                s(self.inc_ms),
                s(self.byoyomi_ms)
            )
        } else {
            format!("{}+{}", s(self.base_ms), s(self.inc_ms))
        }
    }
}

/// What bounds one search: a clock, a time a move, nodes, depth, in any
/// combination (UCI's `go` takes them together).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MatchLimits {
    pub clock: Option<Clock>,
    pub movetime_ms: Option<u64>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
}

impl MatchLimits {
    pub fn is_empty(&self) -> bool {
        *self == MatchLimits::default()
    }

    /// Whether the runner bounds the search by time (otherwise only its
    /// `--timeout` does).
    pub fn timed(&self) -> bool {
        self.clock.is_some() || self.movetime_ms.is_some()
    }

    /// Nodes or depth and no time: the engine plays the same moves every
    /// time it is given the same position.
    pub fn deterministic(&self) -> bool {
        !self.timed() && (self.nodes.is_some() || self.depth.is_some())
    }

    /// The limits as `--engine` fields, in a fixed order.
    pub fn fields(&self) -> Vec<String> {
        let mut v = Vec::new();
        if let Some(c) = self.clock {
            v.push(format!("tc={}", c.text()));
        }
        if let Some(mt) = self.movetime_ms {
            v.push(format!("movetime={mt}"));
        }
        if let Some(n) = self.nodes {
            v.push(format!("nodes={n}"));
        }
        if let Some(d) = self.depth {
            v.push(format!("depth={d}"));
        }
        v
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtSpec {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Bounds of the SPRT's Elo hypotheses (normalized Elo: tests run at a
/// few Elo, never near a thousand).
pub const SPRT_ELO: (f64, f64) = (-1000.0, 1000.0);
/// Bounds of the SPRT's error rates: at 0 or from 0.5 on, the LLR bounds
/// are infinite, cross or are not numbers.
pub const SPRT_P: (f64, f64) = (0.0, 0.5);

impl SprtSpec {
    /// The one rule for an SPRT, wherever it comes from (`--sprt`, a
    /// shard's `sprt_test`, a report's `sprt`): each number in its range
    /// and elo0 < elo1, so that the LLR and its bounds are numbers.
    pub fn check(&self) -> Result<(), String> {
        for (key, x, (lo, hi)) in [
            ("elo0", self.elo0, SPRT_ELO),
            ("elo1", self.elo1, SPRT_ELO),
            ("alpha", self.alpha, SPRT_P),
            ("beta", self.beta, SPRT_P),
        ] {
            if !(lo..=hi).contains(&x) {
                return Err(format!("{key} {x} is not a number from {lo} to {hi}"));
            }
        }
        let ok_p = |p: f64| p > SPRT_P.0 && p < SPRT_P.1;
        if self.elo1 <= self.elo0 || !ok_p(self.alpha) || !ok_p(self.beta) {
            return Err("needs elo0 < elo1 and 0 < alpha, beta < 0.5".into());
        }
        Ok(())
    }
}

/// Ends a game as a draw when both engines' scores stay within `score` cp
/// for `count` consecutive moves each, from move `from_move` on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DrawAdj {
    pub from_move: u32,
    pub count: u32,
    pub score: i32,
}

/// Ends a game when one engine reports at most `-score` and the other at
/// least `score` for `count` consecutive moves each.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResignAdj {
    pub count: u32,
    pub score: i32,
}

#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    pub rules: RuleSet,
    /// Games per pairing of engines (always even: pairs with colours reversed).
    pub games: usize,
    pub concurrency: usize,
    /// The match's limits, for every engine without its own.
    pub limits: MatchLimits,
    pub timemargin_ms: u64,
    /// How long a search without a clock may take before it counts as lost.
    pub timeout_ms: u64,
    pub openings: Option<PathBuf>,
    /// Plies taken from each PGN/GIB opening game.
    pub opening_plies: usize,
    pub random_plies: usize,
    pub seed: u64,
    /// Pair `p` plays the opening that pair `opening_offset + p` would:
    /// shards of one long match with the same seed take disjoint runs of
    /// its openings.
    pub opening_offset: usize,
    pub sprt: Option<SprtSpec>,
    pub adjudicate_draw: Option<DrawAdj>,
    pub adjudicate_resign: Option<ResignAdj>,
    pub pgn: Option<PathBuf>,
    pub json: Option<PathBuf>,
    pub resume: bool,
    pub quiet: bool,
    /// `--check`: parse and check the arguments, then stop: nothing is
    /// started, read or written (scripts ask the binary this way).
    pub check: bool,
    /// Plies after which a game is stopped (as a safety net; the rules end
    /// games long before with their move limit).
    pub max_plies: usize,
}

impl MatchConfig {
    /// The limits engine `e` plays under.
    pub fn limits_of(&self, e: usize) -> &MatchLimits {
        self.engines[e].limits.as_ref().unwrap_or(&self.limits)
    }

    /// Whether every game is played the same way on every run (no search
    /// is bounded by time), so that only the openings tell games apart.
    pub fn deterministic(&self) -> bool {
        (0..self.engines.len()).all(|e| self.limits_of(e).deterministic())
    }
}

impl Default for MatchConfig {
    fn default() -> MatchConfig {
        MatchConfig {
            engines: Vec::new(),
            rules: RuleSet::Janggi,
            games: 32,
            concurrency: 1,
            limits: MatchLimits::default(),
            timemargin_ms: 100,
            timeout_ms: 30_000,
            openings: None,
            opening_plies: 8,
            random_plies: 0,
            seed: 1,
            opening_offset: 0,
            sprt: None,
            adjudicate_draw: None,
            adjudicate_resign: None,
            pgn: None,
            json: None,
            resume: false,
            quiet: false,
            check: false,
            max_plies: 1000,
        }
    }
}
