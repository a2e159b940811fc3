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
//! the same log resumes after its last complete line.

use super::cli::{self, MatchConfig};
use crate::search::margins::{self, Tunable, TUNABLES};
use crate::util::rng::Rng;
use std::io::Write;
use std::path::PathBuf;

const ALPHA: f64 = 0.602;
const GAMMA: f64 = 0.101;
const LOG_VERSION: &str = "janggun-spsa 1";

pub const USAGE: &str =
    "usage: janggun spsa --engine cmd=PATH [arg=ARG ...] [option.NAME=VALUE ...]
       --iterations N [--pairs P] [--params NAME,NAME,... (default: all margins)]
       [--tc BASE+INC | --nodes N | --depth D | --movetime MS] [--concurrency K]
       [--random-plies N] [--seed S] [--rules R] --log FILE

Tunes the search margins (hidden options; `janggun spsa --list` shows them
with their defaults, bounds, c_end and r_end). Each iteration plays P game
pairs (default: one per --concurrency slot) between the perturbed engines;
the log gets one line per iteration and a run resumes from it.";

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
    params: Vec<Param>,
}

fn value<'a>(args: &'a [String], i: &mut usize, flag: &str) -> Result<&'a str, String> {
    *i += 1;
    args.get(*i)
        .map(String::as_str)
        .ok_or_else(|| format!("{flag}: the value is missing"))
}

fn number<T: std::str::FromStr>(s: &str, flag: &str) -> Result<T, String> {
    s.parse()
        .map_err(|_| format!("{flag}: bad number '{}'", crate::util::text::clip(s)))
}

fn parse(args: &[String]) -> Result<Spsa, String> {
    let mut engine = Vec::new();
    let mut match_args = Vec::new();
    let mut iterations = None;
    let mut pairs = None;
    let mut concurrency = 1usize;
    let mut names: Option<Vec<String>> = None;
    let mut seed = 1u64;
    let mut log = None;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "--engine" => {
                while i + 1 < args.len() && !args[i + 1].starts_with("--") {
                    i += 1;
                    engine.push(args[i].clone());
                }
            }
            "--iterations" => iterations = Some(number::<usize>(value(args, &mut i, a)?, a)?),
            "--pairs" => pairs = Some(number::<usize>(value(args, &mut i, a)?, a)?),
            "--params" => {
                names = Some(
                    value(args, &mut i, a)?
                        .split(',')
                        .map(str::to_string)
                        .collect(),
                )
            }
            "--seed" => seed = number(value(args, &mut i, a)?, a)?,
            "--log" => log = Some(PathBuf::from(value(args, &mut i, a)?)),
            "--concurrency" => {
                let v = value(args, &mut i, a)?;
                concurrency = number(v, a)?;
                match_args.extend([a.to_string(), v.to_string()]);
            }
            "--tc" | "--nodes" | "--depth" | "--movetime" | "--random-plies" | "--rules"
            | "--timemargin" | "--max-plies" => {
                let v = value(args, &mut i, a)?;
                match_args.extend([a.to_string(), v.to_string()]);
            }
            _ => return Err(format!("unknown argument '{}'", crate::util::text::clip(a))),
        }
        i += 1;
    }
    if engine.iter().any(|e| e.starts_with("name=")) {
        return Err("--engine: no name= here (the two sides are named plus and minus)".into());
    }
    if !engine.iter().any(|e| e.starts_with("cmd=")) {
        return Err("--engine cmd=PATH is required".into());
    }
    let iterations = iterations.ok_or("--iterations N is required")?;
    if iterations == 0 {
        return Err("--iterations: at least 1".into());
    }
    let pairs = pairs.unwrap_or(concurrency.max(1));
    if pairs == 0 {
        return Err("--pairs: at least 1".into());
    }
    let log = log.ok_or("--log FILE is required (it is also what a run resumes from)")?;
    let chosen: Vec<&'static Tunable> = match names {
        None => (0..TUNABLES.len())
            .filter(|i| !margins::SWITCHES.contains(i))
            .map(|i| &TUNABLES[i])
            .collect(),
        Some(list) => list
            .iter()
            .map(|n| {
                margins::index_of(n).map(|i| &TUNABLES[i]).ok_or_else(|| {
                    format!(
                        "--params: no margin '{}' (janggun spsa --list)",
                        crate::util::text::clip(n)
                    )
                })
            })
            .collect::<Result<_, _>>()?,
    };
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
    Ok(Spsa {
        engine,
        match_args,
        iterations,
        pairs,
        seed,
        log,
        params,
    })
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

    /// Reads the log: checks its header and returns the next iteration,
    /// with θ as the last complete line left it.
    fn resume(&mut self) -> Result<usize, String> {
        let text = match std::fs::read_to_string(&self.log) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
            Err(e) => return Err(format!("{}: {e}", self.log.display())),
        };
        let mut lines = text.split_inclusive('\n');
        let Some(first) = lines.next() else {
            return Ok(0);
        };
        if first.trim_end() != self.header() {
            return Err(format!(
                "{}: written by another tuning run ({}); use another --log",
                self.log.display(),
                crate::util::text::clip(first.trim_end())
            ));
        }
        let mut next = 0;
        for line in lines.filter(|l| l.ends_with('\n')) {
            let mut k = None;
            for field in line.split_whitespace() {
                let Some((key, v)) = field.split_once('=') else {
                    continue;
                };
                if key == "iter" {
                    k = v.parse::<usize>().ok();
                } else if let Some(p) = self.params.iter_mut().find(|p| p.def.name == key) {
                    p.theta = v
                        .parse::<f64>()
                        .ok()
                        .filter(|x| x.is_finite())
                        .ok_or_else(|| format!("{}: bad value in '{field}'", self.log.display()))?;
                }
            }
            next = k.map_or(next, |k| k + 1);
        }
        Ok(next)
    }

    /// Plays `pairs` game pairs between the two engines; the score of
    /// `plus` minus that of `minus`, in games.
    fn play(&self, k: usize, plus: &[i32], minus: &[i32]) -> Result<f64, String> {
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
        let cfg: MatchConfig = cli::parse(&args)?;
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

    fn run(&mut self) -> Result<(), String> {
        let start = self.resume()?;
        let mut log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .map_err(|e| format!("{}: {e}", self.log.display()))?;
        if start == 0 && log.metadata().map_or(0, |m| m.len()) == 0 {
            writeln!(log, "{}", self.header()).map_err(|e| e.to_string())?;
        }
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
            writeln!(log, "{line}").map_err(|e| format!("{}: {e}", self.log.display()))?;
            log.flush().map_err(|e| e.to_string())?;
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
pub fn main(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        crate::outln!("{USAGE}");
        return Ok(());
    }
    if args.iter().any(|a| a == "--list") {
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
    parse(args)?.run()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn the_schedule_is_fishtests() {
        let s = parse(&args(
            "--engine cmd=x --iterations 1000 --params RfpMargin --log /nonexistent/l",
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
        let s = parse(&args("--engine cmd=x --iterations 10 --log l")).unwrap();
        let names: Vec<&str> = s.params.iter().map(|p| p.def.name).collect();
        assert!(!names.contains(&"SingularDepth"), "{names:?}");
        // On by default, so its weight is a margin like the others.
        assert!(names.contains(&"CorrWeight"), "{names:?}");
        assert!(names.contains(&"RfpMargin"), "{names:?}");
    }

    #[test]
    fn bad_command_lines_are_refused() {
        for bad in [
            "--iterations 10 --log l",
            "--engine cmd=x --log l",
            "--engine cmd=x --iterations 0 --log l",
            "--engine cmd=x --iterations 10",
            "--engine cmd=x --iterations 10 --log l --params Nope",
            "--engine name=a cmd=x --iterations 10 --log l",
            "--engine cmd=x --iterations ten --log l",
        ] {
            assert!(parse(&args(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_log_resumes_after_its_last_complete_line() {
        let dir = std::env::temp_dir().join(format!("janggun-spsa-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("log");
        let line = format!(
            "--engine cmd=x --iterations 10 --params RfpMargin,QsDelta --log {}",
            log.display()
        );
        let mut s = parse(&args(&line)).unwrap();
        let text = format!(
            "{}\niter=0 result=+1 RfpMargin=131.500 QsDelta=199.000 plus=1,2 minus=3,4\n\
             iter=1 result=-1 RfpMargin=129.250 QsDelta=201.000 plus=1,2 minus=3,4\n\
             iter=2 result=+2 RfpMargin=1",
            s.header()
        );
        std::fs::write(&log, text).unwrap();
        assert_eq!(s.resume().unwrap(), 2);
        assert_eq!(s.params[0].theta, 129.25);
        assert_eq!(s.params[1].theta, 201.0);
        // Another run's log is not taken.
        let mut other = parse(&args(&line.replace("QsDelta", "AspirationDelta"))).unwrap();
        assert!(other.resume().is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
