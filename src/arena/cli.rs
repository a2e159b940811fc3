//! The command line of `janggun match`, parsed by hand because engines take
//! free-form `key=value` groups that clap cannot express.

use crate::board::RuleSet;
use std::path::PathBuf;

/// One engine as given by `--engine name=.. cmd=.. [arg=..] [option.X=..]`.
#[derive(Clone, Debug, Default)]
pub struct EngineSpec {
    pub name: String,
    pub cmd: String,
    pub args: Vec<String>,
    pub options: Vec<(String, String)>,
}

/// Time control: base and increment in milliseconds, plus byoyomi.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Clock {
    pub base_ms: u64,
    pub inc_ms: u64,
    pub byoyomi_ms: u64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtSpec {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
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
    pub clock: Option<Clock>,
    pub movetime_ms: Option<u64>,
    pub nodes: Option<u64>,
    pub depth: Option<u32>,
    pub timemargin_ms: u64,
    /// How long a search without a clock may take before it counts as lost.
    pub timeout_ms: u64,
    pub openings: Option<PathBuf>,
    /// Plies taken from each PGN/GIB opening game.
    pub opening_plies: usize,
    pub random_plies: usize,
    pub seed: u64,
    pub sprt: Option<SprtSpec>,
    pub adjudicate_draw: Option<DrawAdj>,
    pub adjudicate_resign: Option<ResignAdj>,
    pub pgn: Option<PathBuf>,
    pub json: Option<PathBuf>,
    pub resume: bool,
    pub quiet: bool,
    /// Plies after which a game is stopped (as a safety net; the rules end
    /// games long before with their move limit).
    pub max_plies: usize,
}

impl Default for MatchConfig {
    fn default() -> MatchConfig {
        MatchConfig {
            engines: Vec::new(),
            rules: RuleSet::Janggi,
            games: 32,
            concurrency: 1,
            clock: None,
            movetime_ms: None,
            nodes: None,
            depth: None,
            timemargin_ms: 100,
            timeout_ms: 30_000,
            openings: None,
            opening_plies: 8,
            random_plies: 0,
            seed: 1,
            sprt: None,
            adjudicate_draw: None,
            adjudicate_resign: None,
            pgn: None,
            json: None,
            resume: false,
            quiet: false,
            max_plies: 1000,
        }
    }
}

pub const USAGE: &str =
    "usage: janggun match --engine name=NAME cmd=PATH [arg=ARG ...] [option.NAME=VALUE ...]
         --engine ... [--engine ...]
       [--rules janggi|janggitraditional|janggimodern|janggicasual|kja|kojf]
       [--games N | --rounds R] [--concurrency K]
       [--tc BASE+INC (seconds)] [--byoyomi SECONDS] [--movetime MS] [--nodes N] [--depth D]
       [--timemargin MS] [--timeout MS]
       [--openings FILE (EPD/FEN, PGN or GIB)] [--opening-plies N] [--random-plies N] [--seed S]
       [--sprt elo0=E0 elo1=E1 alpha=A beta=B]
       [--adjudicate-draw movenumber=M movecount=C score=CP]
       [--adjudicate-resign movecount=C score=CP]
       [--pgn FILE] [--json FILE] [--resume] [--quiet] [--max-plies N]";

fn num<T: std::str::FromStr>(flag: &str, v: &str) -> Result<T, String> {
    v.parse().map_err(|_| {
        format!(
            "{flag}: bad number '{}'",
            v.chars().take(32).collect::<String>()
        )
    })
}

fn seconds_to_ms(flag: &str, v: &str) -> Result<u64, String> {
    let s: f64 = num(flag, v)?;
    if !s.is_finite() || !(0.0..=1e7).contains(&s) {
        return Err(format!("{flag}: out of range '{v}'"));
    }
    Ok((s * 1000.0).round() as u64)
}

/// `key=value` pairs up to the next `--flag`.
fn take_pairs(args: &[String], i: &mut usize) -> Vec<(String, String)> {
    let mut out = Vec::new();
    while *i < args.len() && !args[*i].starts_with("--") {
        let a = &args[*i];
        match a.split_once('=') {
            Some((k, v)) => out.push((k.to_string(), v.to_string())),
            None => out.push((a.clone(), String::new())),
        }
        *i += 1;
    }
    out
}

fn parse_engine(pairs: Vec<(String, String)>) -> Result<EngineSpec, String> {
    let mut e = EngineSpec::default();
    for (k, v) in pairs {
        match k.as_str() {
            "name" => e.name = v,
            "cmd" => e.cmd = v,
            "arg" => e.args.push(v),
            _ => match k.strip_prefix("option.") {
                Some(opt) if !opt.is_empty() => e.options.push((opt.to_string(), v)),
                _ => return Err(format!("--engine: unknown field '{k}'")),
            },
        }
    }
    if e.cmd.is_empty() {
        return Err("--engine needs cmd=PATH".into());
    }
    if e.name.is_empty() {
        e.name = e.cmd.rsplit('/').next().unwrap_or(&e.cmd).to_string();
    }
    Ok(e)
}

fn parse_fields<const N: usize>(
    flag: &str,
    pairs: &[(String, String)],
    keys: [&str; N],
) -> Result<[Option<f64>; N], String> {
    let mut out = [None; N];
    for (k, v) in pairs {
        let idx = keys
            .iter()
            .position(|x| x == k)
            .ok_or_else(|| format!("{flag}: unknown field '{k}' (expected {})", keys.join(", ")))?;
        let x: f64 = num(flag, v)?;
        if !x.is_finite() {
            return Err(format!("{flag}: {k} must be finite"));
        }
        out[idx] = Some(x);
    }
    Ok(out)
}

pub fn parse(args: &[String]) -> Result<MatchConfig, String> {
    let mut c = MatchConfig::default();
    let mut games_set = false;
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        i += 1;
        let mut value = || -> Result<String, String> {
            let v = args.get(i).ok_or_else(|| format!("{flag} needs a value"))?;
            i += 1;
            Ok(v.clone())
        };
        match flag {
            "--engine" => {
                let pairs = take_pairs(args, &mut i);
                c.engines.push(parse_engine(pairs)?);
            }
            "--rules" | "--variant" => c.rules = value()?.parse()?,
            "--games" => {
                c.games = num(flag, &value()?)?;
                games_set = true;
            }
            "--rounds" => {
                c.games = 2 * num::<usize>(flag, &value()?)?;
                games_set = true;
            }
            "--concurrency" => c.concurrency = num(flag, &value()?)?,
            "--tc" => {
                let v = value()?;
                let (base, inc) = v.split_once('+').unwrap_or((&v, "0"));
                let clock = c.clock.get_or_insert_with(Clock::default);
                clock.base_ms = seconds_to_ms(flag, base)?;
                clock.inc_ms = seconds_to_ms(flag, inc)?;
            }
            "--byoyomi" => {
                let ms = seconds_to_ms(flag, &value()?)?;
                c.clock.get_or_insert_with(Clock::default).byoyomi_ms = ms;
            }
            "--movetime" => c.movetime_ms = Some(num(flag, &value()?)?),
            "--nodes" => c.nodes = Some(num(flag, &value()?)?),
            "--depth" => c.depth = Some(num(flag, &value()?)?),
            "--timemargin" => c.timemargin_ms = num(flag, &value()?)?,
            "--timeout" => c.timeout_ms = num(flag, &value()?)?,
            "--openings" => c.openings = Some(PathBuf::from(value()?)),
            "--opening-plies" => c.opening_plies = num(flag, &value()?)?,
            "--random-plies" => c.random_plies = num(flag, &value()?)?,
            "--seed" => c.seed = num(flag, &value()?)?,
            "--max-plies" => c.max_plies = num(flag, &value()?)?,
            "--pgn" => c.pgn = Some(PathBuf::from(value()?)),
            "--json" => c.json = Some(PathBuf::from(value()?)),
            "--resume" => c.resume = true,
            "--quiet" => c.quiet = true,
            "--sprt" => {
                let pairs = take_pairs(args, &mut i);
                let [e0, e1, a, b] = parse_fields(flag, &pairs, ["elo0", "elo1", "alpha", "beta"])?;
                let s = SprtSpec {
                    elo0: e0.unwrap_or(0.0),
                    elo1: e1.unwrap_or(5.0),
                    alpha: a.unwrap_or(0.05),
                    beta: b.unwrap_or(0.05),
                };
                let ok_p = |p: f64| p > 0.0 && p < 0.5;
                if s.elo1 <= s.elo0 || !ok_p(s.alpha) || !ok_p(s.beta) {
                    return Err("--sprt needs elo0 < elo1 and 0 < alpha, beta < 0.5".into());
                }
                c.sprt = Some(s);
            }
            "--adjudicate-draw" => {
                let pairs = take_pairs(args, &mut i);
                let [m, n, s] = parse_fields(flag, &pairs, ["movenumber", "movecount", "score"])?;
                c.adjudicate_draw = Some(DrawAdj {
                    from_move: m.unwrap_or(40.0).max(0.0) as u32,
                    count: n.unwrap_or(8.0).max(1.0) as u32,
                    score: s.unwrap_or(10.0).abs() as i32,
                });
            }
            "--adjudicate-resign" => {
                let pairs = take_pairs(args, &mut i);
                let [n, s] = parse_fields(flag, &pairs, ["movecount", "score"])?;
                c.adjudicate_resign = Some(ResignAdj {
                    count: n.unwrap_or(3.0).max(1.0) as u32,
                    score: s.unwrap_or(1000.0).abs() as i32,
                });
            }
            other => {
                return Err(format!(
                    "unknown argument '{}'\n{USAGE}",
                    other.chars().take(40).collect::<String>()
                ))
            }
        }
    }
    validate(&mut c, games_set)?;
    Ok(c)
}

fn validate(c: &mut MatchConfig, games_set: bool) -> Result<(), String> {
    if c.engines.len() < 2 {
        return Err(format!("need at least two --engine\n{USAGE}"));
    }
    for (i, e) in c.engines.iter().enumerate() {
        if c.engines[..i].iter().any(|o| o.name == e.name) {
            return Err(format!("two engines are named '{}': give name=", e.name));
        }
    }
    if c.sprt.is_some() && c.engines.len() != 2 {
        return Err("--sprt needs exactly two engines".into());
    }
    if c.games == 0 || c.games > 10_000_000 {
        return Err("--games must be 1..10000000".into());
    }
    if !games_set && c.sprt.is_some() {
        c.games = 1_000_000;
    }
    c.games += c.games % 2;
    if c.concurrency == 0 || c.concurrency > 256 {
        return Err("--concurrency must be 1..256".into());
    }
    if c.clock.is_none() && c.movetime_ms.is_none() && c.nodes.is_none() && c.depth.is_none() {
        return Err("give a limit: --tc, --byoyomi, --movetime, --nodes or --depth".into());
    }
    if c.resume && c.pgn.is_none() && c.json.is_none() {
        return Err("--resume needs the --pgn or --json file of the interrupted match".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn parses_engines_and_limits() {
        let c = parse(&args(
            "--engine name=a cmd=/bin/a arg=-x option.Hash=64 --engine cmd=/usr/bin/b \
             --tc 2+0.02 --games 5 --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05",
        ))
        .unwrap();
        assert_eq!(c.engines[0].args, vec!["-x"]);
        assert_eq!(c.engines[0].options, vec![("Hash".into(), "64".into())]);
        assert_eq!(c.engines[1].name, "b");
        assert_eq!(c.clock.unwrap().base_ms, 2000);
        assert_eq!(c.clock.unwrap().inc_ms, 20);
        assert_eq!(c.games, 6);
        assert!(c.sprt.is_some());
    }

    #[test]
    fn rejects_bad_input() {
        for bad in [
            "--engine cmd=a --tc 1",
            "--engine cmd=a --engine cmd=a --tc 1",
            "--engine cmd=a --engine name=b cmd=b",
            "--engine cmd=a --engine cmd=b --tc x",
            "--engine cmd=a --engine cmd=b --tc 1 --sprt elo0=5 elo1=0",
            "--engine cmd=a --engine cmd=b --tc 1 --bogus",
            "--engine name=x --engine cmd=b --tc 1",
            "--engine cmd=a --engine cmd=b --tc 1 --rules chess",
        ] {
            assert!(parse(&args(bad)).is_err(), "{bad}");
        }
    }
}
