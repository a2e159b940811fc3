//! `janggun spsa`: tunes the search's margins by simultaneous perturbation
//! stochastic approximation, as fishtest and OpenBench run it. Each
//! iteration perturbs every parameter by ±c_k at once, plays game pairs
//! between the engine at θ+c_k·Δ and at θ−c_k·Δ on the same openings
//! (through the match runner, so the rules core adjudicates), and moves θ
//! along Δ by a_k/c_k times the score difference. The schedule is
//! fishtest's: alpha 0.602, gamma 0.101, A = 10% of the iterations, and per
//! parameter c_end and r_end, from which c = c_end·N^gamma and
//! a = r_end·c_end²·(A+N)^alpha.
//!
//! Every iteration appends one line to the log (θ after the update, the
//! perturbed values and the result), flushed at once; a run started with
//! the same log resumes after its last complete line. The log is read back
//! strictly (a line this run would not have written stops the run, since
//! resuming from it would tune from values no iteration produced), and a
//! last line cut short by a kill is removed before the run appends. Every
//! setting, the match's included, is checked before the log is touched,
//! and the log's first line is written with the first iteration's, so a
//! run that cannot play leaves nothing behind.

use super::cli::{self, MatchConfig};
use crate::search::margins::{self, Tunable, TUNABLES};
use crate::util::file::{open_regular, regular_or_missing};
use crate::util::outfile::Files;
use crate::util::rng::Rng;
use clap::ArgAction;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;

const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;
const LOG_VERSION: &str = "janggun-spsa 1";
/// Longest line the log may hold: an iteration's line is about 40 bytes a
/// parameter, the first line as long as the command line made it.
const MAX_LOG_LINE: usize = 1 << 20;
/// Most iterations a run may ask for (a log line each).
const MAX_ITERATIONS: usize = 10_000_000;

// `janggun spsa`'s flags. Each is taken once (a second value would go
// unused: for --log or --engine, a run on something not asked for), so
// each is a list here, and [`SpsaArgs::repeated`] names one given twice.
#[derive(clap::Args, Debug)]
#[command(
    allow_negative_numbers = true,
    after_help = "Tunes the search margins (hidden options; `janggun spsa --list` shows \
                        them with their defaults, bounds, c_end and r_end). Each iteration \
                        plays P game pairs (default: one per --concurrency slot) between the \
                        perturbed engines; the log gets one line per iteration and a run \
                        resumes from it."
)]
pub struct SpsaOpts {
    /// The engine tuned, as key=value words: cmd=PATH [arg=ARG ...]
    /// [option.NAME=VALUE ...] (no name=: the sides are plus and minus).
    #[arg(long, value_name = "KEY=VALUE", num_args = 0.., action = ArgAction::Append)]
    // Read by occurrence into `SpsaArgs::engine`, not from here.
    #[allow(dead_code)]
    engine: Vec<String>,
    /// Iterations of the run.
    #[arg(long, value_name = "N", action = ArgAction::Append)]
    iterations: Vec<String>,
    /// Game pairs an iteration (default: --concurrency).
    #[arg(long, value_name = "P", action = ArgAction::Append)]
    pairs: Vec<String>,
    /// The margins tuned (default: all margins but the switches that are off).
    #[arg(long, value_name = "NAME,NAME,...", action = ArgAction::Append)]
    params: Vec<String>,
    /// Seed of the perturbations and of each iteration's openings.
    #[arg(long, value_name = "S", action = ArgAction::Append)]
    seed: Vec<String>,
    /// The log: a line an iteration, and what a run resumes from.
    #[arg(long, value_name = "FILE", action = ArgAction::Append)]
    log: Vec<PathBuf>,
    /// Show the margins that can be tuned and stop.
    #[arg(long)]
    list: bool,
    /// The match's (see janggun match --help): games at once.
    #[arg(long, value_name = "K", action = ArgAction::Append)]
    concurrency: Vec<String>,
    /// The match's: openings file.
    #[arg(long, value_name = "FILE", action = ArgAction::Append)]
    openings: Vec<String>,
    /// The match's: clock, BASE+INC seconds.
    #[arg(long, value_name = "BASE+INC", action = ArgAction::Append)]
    tc: Vec<String>,
    /// The match's: nodes a move.
    #[arg(long, value_name = "N", action = ArgAction::Append)]
    nodes: Vec<String>,
    /// The match's: depth a move.
    #[arg(long, value_name = "D", action = ArgAction::Append)]
    depth: Vec<String>,
    /// The match's: milliseconds a move.
    #[arg(long, value_name = "MS", action = ArgAction::Append)]
    movetime: Vec<String>,
    /// The match's: random plies after the opening (default 8 here).
    #[arg(long, value_name = "N", action = ArgAction::Append)]
    random_plies: Vec<String>,
    /// The match's: the rules.
    #[arg(long, value_name = "R", action = ArgAction::Append)]
    rules: Vec<String>,
    /// The match's: time margin, in milliseconds.
    #[arg(long, value_name = "MS", action = ArgAction::Append)]
    timemargin: Vec<String>,
    /// The match's: plies after which a game stops.
    #[arg(long, value_name = "N", action = ArgAction::Append)]
    max_plies: Vec<String>,
    /// The match's: plies of each opening game.
    #[arg(long, value_name = "N", action = ArgAction::Append)]
    opening_plies: Vec<String>,
}

/// The flags (clap ids) handed on to every iteration's match as given.
const MATCH_FLAGS: [&str; 11] = [
    "concurrency",
    "openings",
    "tc",
    "nodes",
    "depth",
    "movetime",
    "random_plies",
    "rules",
    "timemargin",
    "max_plies",
    "opening_plies",
];

/// [`SpsaOpts`] and the match's flags in the order given: the log's first
/// line records them so, and a run resumes only a log whose first line
/// is its own.
#[derive(Debug)]
pub struct SpsaArgs {
    opts: SpsaOpts,
    /// The words of each `--engine`.
    engine: Vec<Vec<String>>,
    match_args: Vec<String>,
    /// A flag given more than once.
    repeated: Option<String>,
}

/// Spsa's own flags that take a value (clap ids).
const OWN_FLAGS: [&str; 6] = ["engine", "iterations", "pairs", "params", "seed", "log"];

fn flag_of(id: &str) -> String {
    format!("--{}", id.replace('_', "-"))
}

impl clap::FromArgMatches for SpsaArgs {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let mut given: Vec<(usize, String, String)> = Vec::new();
        for id in MATCH_FLAGS {
            let (Some(at), Some(raw)) = (m.indices_of(id), m.get_raw(id)) else {
                continue;
            };
            for (i, v) in at.zip(raw) {
                given.push((i, flag_of(id), v.to_string_lossy().into_owned()));
            }
        }
        given.sort_by_key(|g| g.0);
        let repeated = OWN_FLAGS
            .iter()
            .chain(&MATCH_FLAGS)
            .find(|id| m.get_raw_occurrences(id).is_some_and(|o| o.count() > 1))
            .map(|id| flag_of(id));
        Ok(SpsaArgs {
            opts: <SpsaOpts as clap::FromArgMatches>::from_arg_matches(m)?,
            engine: super::groups::occurrences(m, "engine"),
            match_args: given.into_iter().flat_map(|(_, f, v)| [f, v]).collect(),
            repeated,
        })
    }

    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = <Self as clap::FromArgMatches>::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for SpsaArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        <SpsaOpts as clap::Args>::augment_args(cmd)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        <SpsaOpts as clap::Args>::augment_args_for_update(cmd)
    }
}

/// The one value of a flag taken at most once (`SpsaArgs::repeated`
/// refuses it given twice).
fn single<T>(given: Vec<T>) -> Option<T> {
    given.into_iter().next()
}

struct Param {
    def: &'static Tunable,
    theta: f64,
    /// c and a of the schedule.
    c: f64,
    a: f64,
}

struct Spsa {
    engine: Vec<String>,
    match_args: Vec<String>,
    iterations: usize,
    pairs: usize,
    seed: u64,
    log: PathBuf,
    openings: Option<PathBuf>,
    params: Vec<Param>,
}

fn number<T: std::str::FromStr>(s: &str, flag: &str) -> Result<T, String> {
    s.parse()
        .map_err(|_| format!("{flag}: bad number '{}'", crate::util::text::clip(s)))
}

/// The run `a` asks for, every setting checked (the match's as `janggun
/// match` checks them), before anything is read or written.
fn from_args(a: SpsaArgs) -> Result<Spsa, String> {
    let SpsaArgs {
        opts: o,
        engine,
        match_args,
        repeated,
    } = a;
    if let Some(flag) = repeated {
        return Err(format!("{flag} is given twice"));
    }
    let engine = single(engine).unwrap_or_default();
    let num = |flag: &str, v: Vec<String>| -> Result<Option<usize>, String> {
        single(v).map(|v| number(&v, flag)).transpose()
    };
    let iterations = num("--iterations", o.iterations)?;
    let pairs = num("--pairs", o.pairs)?;
    let concurrency = num("--concurrency", o.concurrency)?.unwrap_or(1);
    let names: Option<Vec<String>> =
        single(o.params).map(|v| v.split(',').map(str::to_string).collect());
    let seed: u64 = single(o.seed)
        .map(|v| number(&v, "--seed"))
        .transpose()?
        .unwrap_or(1);
    let log = single(o.log);
    let openings = single(o.openings).map(PathBuf::from);
    if engine.iter().any(|e| e.starts_with("name=")) {
        return Err("--engine: no name= here (the two sides are named plus and minus)".into());
    }
    if !engine.iter().any(|e| e.starts_with("cmd=")) {
        return Err("--engine cmd=PATH is required".into());
    }
    let iterations = iterations.ok_or("--iterations N is required")?;
    if !(1..=MAX_ITERATIONS).contains(&iterations) {
        return Err(format!("--iterations: 1 to {MAX_ITERATIONS}"));
    }
    let pairs = pairs.unwrap_or(concurrency.max(1));
    let most = cli::MAX_GAMES / 2;
    if !(1..=most).contains(&pairs) {
        return Err(format!("--pairs: 1 to {most}"));
    }
    let log = log.ok_or("--log FILE is required (it is also what a run resumes from)")?;
    let chosen: Vec<&'static Tunable> = match names {
        None => (0..TUNABLES.len())
            .filter(|&i| margins::tuned_by_default(i))
            .map(|i| &TUNABLES[i])
            .collect(),
        Some(list) => {
            let mut chosen: Vec<&'static Tunable> = Vec::new();
            for n in &list {
                let def = margins::index_of(n).map(|i| &TUNABLES[i]).ok_or_else(|| {
                    format!(
                        "--params: no margin '{}' (janggun spsa --list)",
                        crate::util::text::clip(n)
                    )
                })?;
                // Named twice, it would be perturbed twice in one
                // iteration and its two values sent to one option.
                if chosen.iter().any(|c| c.name == def.name) {
                    return Err(format!("--params: {} is named twice", def.name));
                }
                chosen.push(def);
            }
            chosen
        }
    };
    // The engine's own value for a tuned margin would fight the one each
    // side is given.
    for e in &engine {
        if let Some((key, _)) = e.split_once('=') {
            let opt = key.strip_prefix("option.").unwrap_or("");
            if let Some(def) = chosen.iter().find(|d| d.name.eq_ignore_ascii_case(opt)) {
                return Err(format!(
                    "--engine: option.{} is tuned here; leave it out of --engine (or out of \
                     --params)",
                    def.name
                ));
            }
        }
    }
    let n = iterations as f64;
    let big_a = 0.1 * n;
    let params = chosen
        .into_iter()
        .map(|def| Param {
            def,
            theta: f64::from(def.default),
            c: def.c_end * n.powf(GAMMA),
            a: def.r_end * def.c_end * def.c_end * (big_a + n).powf(ALPHA),
        })
        .collect();
    let spsa = Spsa {
        engine,
        match_args,
        iterations,
        pairs,
        seed,
        log,
        openings,
        params,
    };
    // The match every iteration plays, checked as `janggun match` checks
    // its command line, before anything is written.
    let start: Vec<i32> = spsa.params.iter().map(|p| p.def.default).collect();
    cli::parse(&spsa.match_args(0, &start, &start)).map_err(|e| format!("the match: {e}"))?;
    Ok(spsa)
}

/// Where a log stands: the next iteration, θ as the last complete line
/// left it, and where that line ends when a cut line follows it.
#[derive(Debug)]
struct LogState {
    next: usize,
    theta: Vec<f64>,
    /// The log's length in bytes when read.
    len: u64,
    /// The end of its last complete line, when a cut line follows.
    cut_at: Option<u64>,
}

impl Spsa {
    fn header(&self) -> String {
        let names: Vec<&str> = self.params.iter().map(|p| p.def.name).collect();
        format!(
            "# {LOG_VERSION} iterations={} pairs={} seed={} params={} match={}",
            self.iterations,
            self.pairs,
            self.seed,
            names.join(","),
            self.match_args.join(" ")
        )
    }

    /// The arguments of iteration `k`'s match.
    fn match_args(&self, k: usize, plus: &[i32], minus: &[i32]) -> Vec<String> {
        let side = |name: &str, vals: &[i32]| {
            let mut v = vec!["--engine".to_string(), format!("name={name}")];
            v.extend(self.engine.iter().cloned());
            for (p, x) in self.params.iter().zip(vals) {
                v.push(format!("option.{}={x}", p.def.name));
            }
            v
        };
        let mut args = side("plus", plus);
        args.extend(side("minus", minus));
        args.extend(self.match_args.iter().cloned());
        if !self.match_args.iter().any(|a| a == "--random-plies") {
            args.extend(["--random-plies".to_string(), "8".to_string()]);
        }
        args.extend([
            "--games".to_string(),
            (2 * self.pairs).to_string(),
            "--seed".to_string(),
            // Each iteration its own openings, the same for both sides.
            (self.seed.wrapping_mul(1_000_003).wrapping_add(k as u64)).to_string(),
            "--quiet".to_string(),
        ]);
        args
    }

    /// Checks one complete line of iteration `k` as this run would have
    /// written it; returns θ after it.
    fn check_line(&self, line: &str, k: usize) -> Result<Vec<f64>, String> {
        let mut fields = line.split(' ');
        let mut next = |key: &str| -> Result<&str, String> {
            let f = fields.next().unwrap_or("");
            f.strip_prefix(key)
                .and_then(|f| f.strip_prefix('='))
                .ok_or_else(|| format!("'{}' where {key}= belongs", crate::util::text::clip(f)))
        };
        let iter = next("iter")?;
        if iter != k.to_string() {
            let past = iter.parse::<usize>().is_ok_and(|i| i >= self.iterations);
            return Err(if past {
                format!("iteration {iter}, past the {} of this run", self.iterations)
            } else {
                format!(
                    "iteration '{}' where {k} comes next",
                    crate::util::text::clip(iter)
                )
            });
        }
        if k >= self.iterations {
            return Err(format!(
                "iteration {k}, past the {} of this run",
                self.iterations
            ));
        }
        let result = next("result")?;
        let most = 2.0 * self.pairs as f64;
        if !result
            .parse::<f64>()
            .is_ok_and(|r| r.is_finite() && r.abs() <= most)
        {
            return Err(format!(
                "result '{}' (a score difference from -{most} to {most})",
                crate::util::text::clip(result)
            ));
        }
        let mut theta = Vec::with_capacity(self.params.len());
        for p in &self.params {
            let v = next(p.def.name)?;
            let (lo, hi) = (f64::from(p.def.min), f64::from(p.def.max));
            match v.parse::<f64>() {
                Ok(x) if x.is_finite() && (lo..=hi).contains(&x) => theta.push(x),
                _ => {
                    return Err(format!(
                        "{}={} (from {lo} to {hi})",
                        p.def.name,
                        crate::util::text::clip(v)
                    ))
                }
            }
        }
        for side in ["plus", "minus"] {
            let list = next(side)?;
            let vals: Vec<&str> = list.split(',').collect();
            let ok = vals.len() == self.params.len()
                && vals.iter().zip(&self.params).all(|(v, p)| {
                    v.parse::<i32>()
                        .is_ok_and(|x| (p.def.min..=p.def.max).contains(&x))
                });
            if !ok {
                return Err(format!(
                    "{side}={} (one value for each parameter, within its bounds)",
                    crate::util::text::clip(list)
                ));
            }
        }
        if let Some(extra) = fields.next() {
            return Err(format!(
                "'{}' after the last field",
                crate::util::text::clip(extra)
            ));
        }
        Ok(theta)
    }

    /// Reads the log, a regular file read a line at a time, and checks
    /// every line of it.
    fn read_log(&self) -> Result<LogState, String> {
        let name = self.log.display().to_string();
        let mut state = LogState {
            next: 0,
            theta: self.params.iter().map(|p| p.theta).collect(),
            len: 0,
            cut_at: None,
        };
        if std::fs::symlink_metadata(&self.log).is_err() {
            return Ok(state);
        }
        let (file, len) = open_regular(&self.log)?;
        state.len = len;
        let header = self.header();
        let mut r = BufReader::new(file);
        let mut at = 0u64;
        for n in 1.. {
            let mut raw = Vec::new();
            r.by_ref()
                .take(MAX_LOG_LINE as u64 + 1)
                .read_until(b'\n', &mut raw)
                .map_err(|e| format!("{name}: {e}"))?;
            if raw.is_empty() {
                break;
            }
            let start = at;
            at += raw.len() as u64;
            let complete = raw.last() == Some(&b'\n');
            if complete {
                raw.pop();
            } else if raw.len() > MAX_LOG_LINE {
                return Err(format!(
                    "{name}: line {n} is longer than {MAX_LOG_LINE} bytes: not a log of this \
                     run; use another --log"
                ));
            }
            let line = String::from_utf8_lossy(&raw);
            if !complete {
                // The last line, cut by a kill while it was written: only
                // the start of a line this run writes next is taken as one.
                let want = if n == 1 {
                    header.clone()
                } else {
                    format!("iter={} ", state.next)
                };
                let plausible = state.next < self.iterations || n == 1;
                if !(plausible && (want.starts_with(&*line) || line.starts_with(&want))) {
                    return Err(format!(
                        "{name}: line {n} has no line end and is not the start of a line this \
                         run writes: not a log of this run; use another --log"
                    ));
                }
                state.cut_at = Some(start);
                break;
            }
            if n == 1 {
                if line != header {
                    return Err(format!(
                        "{name}: written by another tuning run ({}); use another --log",
                        crate::util::text::clip(&line)
                    ));
                }
                continue;
            }
            state.theta = self.check_line(&line, state.next).map_err(|e| {
                format!(
                    "{name}: line {n}: {e}: not a line this run would have written (a damaged \
                     or edited log); use another --log"
                )
            })?;
            state.next += 1;
        }
        Ok(state)
    }

    /// Plays `pairs` game pairs between the two engines; the score of
    /// `plus` minus that of `minus`, in games.
    fn play(&self, k: usize, plus: &[i32], minus: &[i32]) -> Result<f64, String> {
        let cfg: MatchConfig = cli::parse(&self.match_args(k, plus, minus))?;
        let summary = super::run(&cfg)?;
        if summary.interrupted {
            return Err("interrupted".into());
        }
        let mut diff = 0.0;
        for r in summary.records.values() {
            let (p, m) = (r.half_points(0), r.half_points(1));
            if let (Some(p), Some(m)) = (p, m) {
                diff += (f64::from(p) - f64::from(m)) / 2.0;
            }
        }
        Ok(diff)
    }

    /// Every check that needs no game: the files (the log is no input of
    /// the match, by identity), the openings as the match reads them, and
    /// the log as it stands. Nothing is written.
    fn check(&self) -> Result<LogState, String> {
        let mut files = Files::new();
        for e in &self.engine {
            if let Some(cmd) = e.strip_prefix("cmd=") {
                files.input("--engine cmd", cmd);
            }
        }
        if let Some(p) = &self.openings {
            files.input("--openings", p);
        }
        files.output("--log", &self.log);
        files.check()?;
        regular_or_missing(&self.log)?;
        let start: Vec<i32> = self.params.iter().map(|p| p.def.default).collect();
        let cfg = cli::parse(&self.match_args(0, &start, &start))?;
        if let Some(p) = &cfg.openings {
            super::openings::load(p, cfg.rules, cfg.opening_plies)?;
        }
        self.read_log()
    }

    fn run(&mut self) -> Result<(), String> {
        let state = self.check()?;
        for (p, &t) in self.params.iter_mut().zip(&state.theta) {
            p.theta = t;
        }
        let start = state.next;
        let name = self.log.display().to_string();
        // The log is opened, mended and given its first line only when the
        // first iteration's line is ready, so a run that cannot play
        // leaves the log as it found it.
        let mut log: Option<std::fs::File> = None;
        let path = self.log.clone();
        let open = || -> Result<std::fs::File, String> {
            let log = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .map_err(|e| format!("{name}: {e}"))?;
            let len = log.metadata().map_err(|e| format!("{name}: {e}"))?.len();
            if len != state.len {
                return Err(format!(
                    "{name}: changed while this run played ({} bytes, now {len}): is another \
                     run writing it?",
                    state.len
                ));
            }
            if let Some(keep) = state.cut_at {
                // Appending after a cut line would join the next line to
                // it, and the log could not be read again.
                log.set_len(keep).map_err(|e| format!("{name}: {e}"))?;
                eprintln!(
                    "spsa: {name}: its last line was cut short ({} bytes, no line end); \
                     removed, iteration {start} is played again",
                    state.len - keep
                );
            }
            Ok(log)
        };
        // A new log's first line goes with the first iteration's.
        let header_first = state.cut_at.unwrap_or(state.len) == 0;
        let n = self.iterations as f64;
        let big_a = 0.1 * n;
        for k in start..self.iterations {
            let mut rng = Rng::stream(self.seed, k as u64);
            let kf = k as f64;
            let mut plus = Vec::new();
            let mut minus = Vec::new();
            let mut steps = Vec::new();
            for p in &self.params {
                let ck = p.c / (kf + 1.0).powf(GAMMA);
                let ak = p.a / (big_a + kf + 1.0).powf(ALPHA);
                let flip = if rng.next_u64() & 1 == 0 { 1.0 } else { -1.0 };
                let clip = |x: f64| x.round().clamp(f64::from(p.def.min), f64::from(p.def.max));
                plus.push(clip(p.theta + ck * flip) as i32);
                minus.push(clip(p.theta - ck * flip) as i32);
                steps.push((ck, ak, flip));
            }
            let result = self.play(k, &plus, &minus)?;
            let mut line = format!("iter={k} result={result:+}");
            for (p, (ck, ak, flip)) in self.params.iter_mut().zip(steps) {
                p.theta = (p.theta + ak / ck * result * flip)
                    .clamp(f64::from(p.def.min), f64::from(p.def.max));
                line.push_str(&format!(" {}={:.3}", p.def.name, p.theta));
            }
            let values = |v: &[i32]| v.iter().map(i32::to_string).collect::<Vec<_>>().join(",");
            line.push_str(&format!(" plus={} minus={}", values(&plus), values(&minus)));
            let mut text = String::new();
            if log.is_none() {
                log = Some(open()?);
                if header_first {
                    text = format!("{}\n", self.header());
                }
            }
            text.push_str(&line);
            text.push('\n');
            let file = log.as_mut().expect("opened above");
            file.write_all(text.as_bytes())
                .and_then(|_| file.flush())
                .map_err(|e| format!("{name}: {e}"))?;
            crate::outln!("{line}");
        }
        let tuned: Vec<String> = self
            .params
            .iter()
            .map(|p| format!("option.{}={}", p.def.name, p.theta.round() as i64))
            .collect();
        crate::outln!("tuned: {}", tuned.join(" "));
        Ok(())
    }
}

/// The `spsa` subcommand.
pub fn main(args: SpsaArgs) -> Result<(), String> {
    if args.opts.list {
        for t in &TUNABLES {
            crate::outln!(
                "{:<16} default {:>5}  range {}..{}  c_end {}  r_end {}",
                t.name,
                t.default,
                t.min,
                t.max,
                t.c_end,
                t.r_end
            );
        }
        return Ok(());
    }
    from_args(args)?.run()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[derive(clap::Parser)]
    #[command(no_binary_name = true)]
    struct Line {
        #[command(flatten)]
        spsa: SpsaArgs,
    }

    /// Reads a command line as `janggun spsa` does.
    fn parse(args: &[String]) -> Result<Spsa, String> {
        use clap::Parser;
        let line = Line::try_parse_from(args).map_err(|e| cli::clap_message(&e))?;
        from_args(line.spsa)
    }

    #[test]
    fn the_command_line_is_well_formed() {
        use clap::Args;
        SpsaArgs::augment_args(clap::Command::new("spsa")).debug_assert();
    }

    #[test]
    fn the_match_flags_keep_their_order() {
        let s = parse(&args(
            "--nodes 9 --engine cmd=x --rules janggi --iterations 10 --tc 1 --log l",
        ))
        .unwrap();
        assert_eq!(s.match_args, args("--nodes 9 --rules janggi --tc 1"));
    }

    #[test]
    fn the_schedule_is_fishtests() {
        let s = parse(&args(
            "--engine cmd=x --iterations 1000 --params RfpMargin --nodes 100 --log /nonexistent/l",
        ))
        .unwrap();
        let p = &s.params[0];
        let n: f64 = 1000.0;
        // At the last iteration c_k is c_end and a_k/c_k^2 is r_end.
        let ck = p.c / n.powf(GAMMA);
        let ak = p.a / (0.1 * n + n).powf(ALPHA);
        assert!((ck - p.def.c_end).abs() < 1e-9);
        assert!((ak / (ck * ck) - p.def.r_end).abs() < 1e-12);
        assert_eq!(p.theta, f64::from(p.def.default));
    }

    #[test]
    fn the_default_set_leaves_out_the_switches_that_are_off() {
        let s = parse(&args("--engine cmd=x --iterations 10 --nodes 100 --log l")).unwrap();
        let names: Vec<&str> = s.params.iter().map(|p| p.def.name).collect();
        assert!(!names.contains(&"SingularDepth"), "{names:?}");
        // It scales the margins tuned beside it.
        assert!(!names.contains(&"MarginScale"), "{names:?}");
        // On by default, so its weight is a margin like the others.
        assert!(names.contains(&"CorrWeight"), "{names:?}");
        assert!(names.contains(&"RfpMargin"), "{names:?}");
    }

    #[test]
    fn bad_command_lines_are_refused() {
        for (bad, why) in [
            ("--iterations 10 --nodes 9 --log l", "cmd=PATH"),
            ("--engine cmd=x --nodes 9 --log l", "--iterations"),
            ("--engine cmd=x --iterations 0 --nodes 9 --log l", "--iterations"),
            ("--engine cmd=x --iterations 10 --nodes 9", "--log"),
            ("--engine cmd=x --iterations 10 --nodes 9 --log l --params Nope", "Nope"),
            ("--engine name=a cmd=x --iterations 10 --nodes 9 --log l", "name="),
            ("--engine cmd=x --iterations ten --nodes 9 --log l", "ten"),
            (
                "--engine cmd=x --iterations 10 --pairs 9223372036854775808 --nodes 9 --log l",
                "--pairs",
            ),
            ("--engine cmd=x --iterations 100000000 --nodes 9 --log l", "--iterations"),
            (
                "--engine cmd=x --iterations 10 --nodes 9 --log l --params RfpMargin,QsDelta,rfpmargin",
                "named twice",
            ),
            ("--engine cmd=x --iterations 10 --nodes 9 --log l --log m", "twice"),
            (
                "--engine cmd=x --iterations 10 --nodes 9 --log l --engine cmd=y",
                "twice",
            ),
            (
                "--engine cmd=x option.rfpmargin=99 --iterations 10 --nodes 9 --log l",
                "tuned here",
            ),
            // The match's own settings, as `janggun match` checks them.
            ("--engine cmd=x --iterations 10 --log l", "the match"),
            ("--engine cmd=x --iterations 10 --nodes 0 --log l", "--nodes"),
            ("--engine cmd=x --iterations 10 --tc 1+x --log l", "--tc"),
            ("--engine cmd=x --iterations 10 --nodes 9 --rules chess --log l", "the match"),
            ("--engine cmd=x bogus=1 --iterations 10 --nodes 9 --log l", "bogus"),
        ] {
            match parse(&args(bad)) {
                Ok(_) => panic!("{bad}: accepted"),
                Err(e) => assert!(e.contains(why), "{bad}: {e}"),
            }
        }
    }

    fn two(log: &std::path::Path) -> Spsa {
        let line = format!(
            "--engine cmd=x --iterations 10 --pairs 2 --nodes 9 --params RfpMargin,QsDelta --log {}",
            log.display()
        );
        parse(&args(&line)).unwrap()
    }

    fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("janggun-spsa-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("log")
    }

    const LINES: &str = "iter=0 result=+1 RfpMargin=131.500 QsDelta=199.000 plus=140,215 minus=120,185\n\
                         iter=1 result=-1 RfpMargin=129.250 QsDelta=201.000 plus=139,186 minus=121,214\n";

    #[test]
    fn a_log_resumes_after_its_last_complete_line() {
        let log = scratch("resume");
        let s = two(&log);
        let text = format!("{}\n{LINES}iter=2 result=+2 RfpMargin=1", s.header());
        std::fs::write(&log, &text).unwrap();
        let st = s.read_log().unwrap();
        assert_eq!(st.next, 2);
        assert_eq!(st.theta, [129.25, 201.0]);
        assert_eq!(
            st.cut_at,
            Some((text.len() - "iter=2 result=+2 RfpMargin=1".len()) as u64)
        );
        // Cut within the first line, or right after a line end.
        std::fs::write(&log, &s.header()[..10]).unwrap();
        assert_eq!(s.read_log().unwrap().cut_at, Some(0));
        std::fs::write(&log, format!("{}\n{LINES}", s.header())).unwrap();
        let st = s.read_log().unwrap();
        assert_eq!((st.next, st.cut_at), (2, None));
        // Another run's log is not taken.
        let line = format!(
            "--engine cmd=x --iterations 10 --pairs 2 --nodes 9 --params RfpMargin,AspirationDelta --log {}",
            log.display()
        );
        assert!(parse(&args(&line)).unwrap().read_log().is_err());
        std::fs::remove_dir_all(log.parent().unwrap()).unwrap();
    }

    #[test]
    fn a_log_line_this_run_would_not_write_is_refused() {
        let log = scratch("strict");
        let s = two(&log);
        let h = s.header();
        let cases = [
            ("iter=0 result=+1 RfpMargin=9999.000 QsDelta=199.000 plus=140,215 minus=120,185\n", "RfpMargin=9999"),
            ("iter=0 result=+1 RfpMargin=131.500 QsDelta=NaN plus=140,215 minus=120,185\n", "QsDelta=NaN"),
            ("iter=0 result=+9 RfpMargin=131.500 QsDelta=199.000 plus=140,215 minus=120,185\n", "result"),
            ("iter=0 result=+1 RfpMargin=131.500 QsDelta=199.000 plus=140,9999 minus=120,185\n", "plus"),
            ("iter=0 result=+1 RfpMargin=131.500 QsDelta=199.000 plus=140 minus=120,185\n", "plus"),
            ("iter=0 result=+1 RfpMargin=131.500 QsDelta=199.000 plus=140,215 minus=120,185 x=1\n", "after the last"),
            ("iter=0 result=+1 QsDelta=199.000 RfpMargin=131.500 plus=140,215 minus=120,185\n", "RfpMargin"),
            ("hello world\n", "iter="),
            ("\n", "iter="),
            ("# a comment\n", "iter="),
            ("iter=1 result=+1 RfpMargin=131.500 QsDelta=199.000 plus=140,215 minus=120,185\n", "where 0 comes next"),
            ("iter=10 result=+1 RfpMargin=131.500 QsDelta=199.000 plus=140,215 minus=120,185\n", "past the 10"),
            ("iter=0 result=+1 RfpMargin=131.500 QsDelta=199.000 plus=140,215 minus=120,185\r\n", "minus"),
            ("garbage without a line end", "no line end"),
        ];
        for (body, why) in cases {
            std::fs::write(&log, format!("{h}\n{body}")).unwrap();
            match s.read_log() {
                Ok(_) => panic!("{body:?} accepted"),
                Err(e) => assert!(e.contains(why), "{body:?}: {e}"),
            }
        }
        // Ten iterations and an eleventh line.
        let mut text = format!("{h}\n");
        for k in 0..11 {
            text.push_str(&format!(
                "iter={k} result=+1 RfpMargin=131.500 QsDelta=199.000 plus=140,215 minus=120,185\n"
            ));
        }
        std::fs::write(&log, &text).unwrap();
        assert!(s.read_log().unwrap_err().contains("past the 10"));
        // A device or a FIFO is refused, not read.
        let z = parse(&args(
            "--engine cmd=x --iterations 10 --nodes 9 --params RfpMargin --log /dev/zero",
        ))
        .unwrap();
        assert!(z.check().unwrap_err().contains("not a regular file"));
        std::fs::remove_dir_all(log.parent().unwrap()).unwrap();
    }
}
