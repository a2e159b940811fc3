//! `janggun bench [depth] [threads] [hash]`: searches a fixed list of
//! positions to a fixed depth and prints the node count, a signature of the
//! search (identical on every run with one thread: the table and histories
//! are cleared before each position and nothing depends on the clock).

use crate::board::{Position, RuleSet};
use crate::nnue::{Evaluator, NetChoice};
use crate::search::margins::{self, Margins, TUNABLES};
use crate::search::{check_hash_mb, check_threads, Control, Engine, Limits, Settings};
use std::time::Instant;

pub const POSITIONS: &str = include_str!("bench_positions.txt");
pub const DEFAULT_DEPTH: u32 = 11;

pub struct BenchLine {
    pub fen: String,
    pub best: String,
    pub nodes: u64,
    pub depth: u32,
}

pub struct BenchResult {
    pub lines: Vec<BenchLine>,
    pub nodes: u64,
    pub millis: u64,
}

pub fn fens() -> Vec<&'static str> {
    POSITIONS
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// Runs the bench; `each` sees every line as it is done.
pub fn run_with(
    depth: u32,
    threads: usize,
    hash_mb: usize,
    each: impl FnMut(usize, &BenchLine),
) -> Result<BenchResult, String> {
    let settings = Settings {
        threads,
        hash_mb,
        ..Settings::default()
    };
    run_with_settings(depth, settings, each)
}

/// The bench with any engine settings (the evaluation among them).
pub fn run_with_settings(
    depth: u32,
    settings: Settings,
    mut each: impl FnMut(usize, &BenchLine),
) -> Result<BenchResult, String> {
    // A table that cannot be had is an error here, not a smaller table:
    // the node count would differ from the one asked for.
    let mut engine = Engine::try_new(settings)?;
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let control = Control::new();
    let mut lines = Vec::new();
    let mut total = 0;
    let start = Instant::now();
    for (i, fen) in fens().into_iter().enumerate() {
        let pos = Position::from_fen(fen, RuleSet::Janggi)
            .map_err(|e| format!("bench position {}: {e}", i + 1))?;
        engine.clear();
        control.reset();
        let r = engine.search(&pos, &limits, &control, &mut |_| {});
        total += r.nodes;
        let line = BenchLine {
            fen: fen.to_string(),
            best: r.best.map_or("(none)".into(), |m| m.to_string()),
            nodes: r.nodes,
            depth: r.depth,
        };
        each(i, &line);
        lines.push(line);
    }
    Ok(BenchResult {
        lines,
        nodes: total,
        millis: start.elapsed().as_millis() as u64,
    })
}

/// The default margins with `NAME=VALUE` overrides, each checked against
/// its name and bounds in `search::margins::TUNABLES`.
pub fn parse_margins(overrides: &[String]) -> Result<Margins, String> {
    let mut m = Margins::default();
    for o in overrides {
        let (name, value) = o
            .split_once('=')
            .ok_or_else(|| format!("--margin wants NAME=VALUE, got '{o}'"))?;
        let i = margins::index_of(name)
            .ok_or_else(|| format!("unknown margin '{}'", crate::util::text::clip(name)))?;
        let t = &TUNABLES[i];
        let v: i32 = value
            .trim()
            .parse()
            .map_err(|_| format!("margin {}: '{value}' is not a whole number", t.name))?;
        if !(t.min..=t.max).contains(&v) {
            return Err(format!(
                "margin {} must be {}..{}, got {v}",
                t.name, t.min, t.max
            ));
        }
        m.0[i] = v;
    }
    Ok(m)
}

/// `janggun bench`: with the evaluation `choice` names (the embedded net
/// by default).
pub fn run_eval(
    depth: u32,
    threads: usize,
    hash_mb: usize,
    choice: &NetChoice,
    margins: &[String],
) -> Result<(), String> {
    check_threads(threads)?;
    check_hash_mb(hash_mb)?;
    if depth == 0 || depth > 64 {
        return Err(format!("depth must be 1..64, got {depth}"));
    }
    let n = fens().len();
    let settings = Settings {
        threads,
        hash_mb,
        eval: Evaluator::load(choice)?,
        margins: parse_margins(margins)?,
        ..Settings::default()
    };
    let r = run_with_settings(depth, settings, |i, l| {
        crate::outln!(
            "Position {:>2}/{n}: {} bestmove {} depth {} nodes {}",
            i + 1,
            l.fen,
            l.best,
            l.depth,
            l.nodes
        );
    })?;
    crate::outln!("===========================");
    crate::outln!("Total time (ms) : {}", r.millis);
    crate::outln!("Nodes searched: {}", r.nodes);
    crate::outln!("Nodes/second: {}", r.nodes * 1000 / r.millis.max(1));
    crate::outln!("Bench: {}", r.nodes);
    Ok(())
}
