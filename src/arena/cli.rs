//! The command line of `janggun match`, parsed by hand because engines take
//! free-form `key=value` groups that clap cannot express.

use crate::board::RuleSet;
use std::path::PathBuf;

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
const SPRT_ELO: (f64, f64) = (-1000.0, 1000.0);
/// Bounds of the SPRT's error rates: at 0 or from 0.5 on, the LLR bounds
/// are infinite, cross or are not numbers.
const SPRT_P: (f64, f64) = (0.0, 0.5);

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

pub const USAGE: &str =
    "usage: janggun match --engine name=NAME cmd=PATH [arg=ARG ...] [option.NAME=VALUE ...]
                              [tc=BASE+INC] [movetime=MS] [nodes=N] [depth=D]
         --engine ... [--engine ...]
       [--rules janggi|janggitraditional|janggimodern|janggicasual|kja|kojf]
       [--games N | --rounds R] [--concurrency K]
       [--tc BASE+INC (seconds)] [--byoyomi SECONDS] [--movetime MS] [--nodes N] [--depth D]
       [--timemargin MS] [--timeout MS]
       [--openings FILE (EPD/FEN, PGN or GIB)] [--opening-plies N] [--random-plies N] [--seed S]
       [--opening-offset PAIRS]
       [--sprt elo0=E0 elo1=E1 alpha=A beta=B]
       [--adjudicate-draw movenumber=M movecount=C score=CP]
       [--adjudicate-resign movecount=C score=CP]
       [--pgn FILE] [--json FILE] [--resume] [--quiet] [--max-plies N] [--check]
       janggun match merge OUT.json IN.json... [--sprt ...] [--pgn OUT.pgn]
       janggun match report IN.json... --out REPORT.html [--sprt ...]
An engine's own tc=, movetime=, nodes= or depth= replace the match's limits for it.
--check: check the arguments and stop (exit 0 when they are good); plays nothing.";

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

fn shown(v: &str) -> String {
    v.chars().take(32).collect()
}

/// A whole number in `range`; anything else, overflow included, is
/// refused with the range in the message.
fn num<T>(flag: &str, v: &str, range: std::ops::RangeInclusive<T>) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    match v.parse::<T>() {
        Ok(x) if range.contains(&x) => Ok(x),
        _ => Err(format!(
            "{flag}: '{}' is not a whole number from {} to {}",
            shown(v),
            range.start(),
            range.end()
        )),
    }
}

fn seconds_to_ms(flag: &str, v: &str) -> Result<u64, String> {
    let max = (MAX_MS / 1000) as f64;
    match v.parse::<f64>() {
        Ok(s) if (0.0..=max).contains(&s) => Ok((s * 1000.0).round() as u64),
        _ => Err(format!(
            "{flag}: '{}' is not a number of seconds from 0 to {max}",
            shown(v)
        )),
    }
}

/// `key=value` pairs up to the next `--flag`.
pub fn take_pairs(args: &[String], i: &mut usize) -> Vec<(String, String)> {
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

/// `BASE+INC` in seconds (`--tc` and an engine's `tc=`).
fn parse_tc(flag: &str, v: &str) -> Result<(u64, u64), String> {
    let (base, inc) = v.split_once('+').unwrap_or((v, "0"));
    Ok((seconds_to_ms(flag, base)?, seconds_to_ms(flag, inc)?))
}

fn parse_engine(pairs: Vec<(String, String)>) -> Result<EngineSpec, String> {
    let mut e = EngineSpec::default();
    let mut limits = MatchLimits::default();
    let mut given = Vec::new();
    for (k, v) in pairs {
        // The name goes into PGN tag lines and the rest into UCI lines: a
        // line break there would end the line early.
        if k.chars().chain(v.chars()).any(char::is_control) {
            return Err("--engine: a field holds a control character".into());
        }
        let flag = format!("--engine {k}");
        if ["tc", "movetime", "nodes", "depth"].contains(&k.as_str()) {
            if given.contains(&k) {
                return Err(format!("{flag} given twice"));
            }
            given.push(k.clone());
        }
        match k.as_str() {
            "name" => e.name = v,
            "cmd" => e.cmd = v,
            "arg" => e.args.push(v),
            "tc" => {
                let (base_ms, inc_ms) = parse_tc(&flag, &v)?;
                limits.clock = Some(Clock {
                    base_ms,
                    inc_ms,
                    byoyomi_ms: 0,
                });
            }
            "movetime" => limits.movetime_ms = Some(num(&flag, &v, 1..=MAX_MS)?),
            "nodes" => limits.nodes = Some(num(&flag, &v, 1..=MAX_NODES)?),
            "depth" => limits.depth = Some(num(&flag, &v, 1..=1000)?),
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
    e.limits = (!limits.is_empty()).then_some(limits);
    Ok(e)
}

/// The values of `key=value` fields, each key at most once.
fn parse_fields<'a, const N: usize>(
    flag: &str,
    pairs: &'a [(String, String)],
    keys: [&str; N],
) -> Result<[Option<&'a str>; N], String> {
    let mut out = [None; N];
    for (k, v) in pairs {
        let idx = keys
            .iter()
            .position(|x| x == k)
            .ok_or_else(|| format!("{flag}: unknown field '{k}' (expected {})", keys.join(", ")))?;
        if out[idx].replace(v.as_str()).is_some() {
            return Err(format!("{flag}: {k} given twice"));
        }
    }
    Ok(out)
}

/// A real number in `range` for field `key` of `flag`.
fn real(
    flag: &str,
    key: &str,
    v: Option<&str>,
    default: f64,
    (lo, hi): (f64, f64),
) -> Result<f64, String> {
    let Some(v) = v else {
        return Ok(default);
    };
    match v.parse::<f64>() {
        Ok(x) if (lo..=hi).contains(&x) => Ok(x),
        _ => Err(format!(
            "{flag}: {key} '{}' is not a number from {lo} to {hi}",
            shown(v)
        )),
    }
}

/// A whole number in `range` for field `key` of `flag`.
fn whole<T>(
    flag: &str,
    key: &str,
    v: Option<&str>,
    default: T,
    range: std::ops::RangeInclusive<T>,
) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    v.map_or(Ok(default), |v| num(&format!("{flag}: {key}"), v, range))
}

/// `--sprt elo0=E0 elo1=E1 alpha=A beta=B` (each with a default).
pub fn parse_sprt(pairs: &[(String, String)]) -> Result<SprtSpec, String> {
    let flag = "--sprt";
    let [e0, e1, a, b] = parse_fields(flag, pairs, ["elo0", "elo1", "alpha", "beta"])?;
    let s = SprtSpec {
        elo0: real(flag, "elo0", e0, 0.0, SPRT_ELO)?,
        elo1: real(flag, "elo1", e1, 5.0, SPRT_ELO)?,
        alpha: real(flag, "alpha", a, 0.05, SPRT_P)?,
        beta: real(flag, "beta", b, 0.05, SPRT_P)?,
    };
    s.check().map_err(|e| format!("{flag} {e}"))?;
    Ok(s)
}

/// A path flag takes one file: given twice, one of the two would be
/// dropped without a word (an output never written, an input never read).
pub fn once(flag: &str, slot: &mut Option<PathBuf>, value: String) -> Result<(), String> {
    if let Some(before) = slot {
        return Err(format!(
            "{flag} given twice ('{}' and '{}'): give it once",
            shown(&before.to_string_lossy()),
            shown(&value)
        ));
    }
    *slot = Some(PathBuf::from(value));
    Ok(())
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
                c.games = num(flag, &value()?, 1..=MAX_GAMES)?;
                games_set = true;
            }
            "--rounds" => {
                c.games = 2 * num(flag, &value()?, 1..=MAX_GAMES / 2)?;
                games_set = true;
            }
            "--concurrency" => c.concurrency = num(flag, &value()?, 1..=256)?,
            "--tc" => {
                let (base_ms, inc_ms) = parse_tc(flag, &value()?)?;
                let clock = c.limits.clock.get_or_insert_with(Clock::default);
                clock.base_ms = base_ms;
                clock.inc_ms = inc_ms;
            }
            "--byoyomi" => {
                let ms = seconds_to_ms(flag, &value()?)?;
                c.limits.clock.get_or_insert_with(Clock::default).byoyomi_ms = ms;
            }
            "--movetime" => c.limits.movetime_ms = Some(num(flag, &value()?, 1..=MAX_MS)?),
            "--nodes" => c.limits.nodes = Some(num(flag, &value()?, 1..=MAX_NODES)?),
            "--depth" => c.limits.depth = Some(num(flag, &value()?, 1..=1000)?),
            "--timemargin" => c.timemargin_ms = num(flag, &value()?, 0..=MAX_MS)?,
            "--timeout" => c.timeout_ms = num(flag, &value()?, 1..=MAX_MS)?,
            "--openings" => once(flag, &mut c.openings, value()?)?,
            "--opening-plies" => c.opening_plies = num(flag, &value()?, 0..=10_000)?,
            "--random-plies" => c.random_plies = num(flag, &value()?, 0..=1000)?,
            "--seed" => c.seed = num(flag, &value()?, 0..=u64::MAX)?,
            "--opening-offset" => c.opening_offset = num(flag, &value()?, 0..=MAX_GAMES)?,
            "--max-plies" => c.max_plies = num(flag, &value()?, 1..=100_000)?,
            "--pgn" => once(flag, &mut c.pgn, value()?)?,
            "--json" => once(flag, &mut c.json, value()?)?,
            "--resume" => c.resume = true,
            "--quiet" => c.quiet = true,
            "--check" => c.check = true,
            "--sprt" => c.sprt = Some(parse_sprt(&take_pairs(args, &mut i))?),
            "--adjudicate-draw" => {
                let pairs = take_pairs(args, &mut i);
                let [m, n, s] = parse_fields(flag, &pairs, ["movenumber", "movecount", "score"])?;
                c.adjudicate_draw = Some(DrawAdj {
                    from_move: whole(flag, "movenumber", m, 40, 0..=10_000)?,
                    count: whole(flag, "movecount", n, 8, 1..=10_000)?,
                    score: whole(flag, "score", s, 10, 0..=MAX_SCORE)?,
                });
            }
            "--adjudicate-resign" => {
                let pairs = take_pairs(args, &mut i);
                let [n, s] = parse_fields(flag, &pairs, ["movecount", "score"])?;
                c.adjudicate_resign = Some(ResignAdj {
                    count: whole(flag, "movecount", n, 3, 1..=10_000)?,
                    score: whole(flag, "score", s, 1000, 0..=MAX_SCORE)?,
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
    if !games_set && c.sprt.is_some() {
        c.games = MAX_GAMES;
    }
    c.games += c.games % 2;
    let n = c.engines.len();
    let total = (n * (n - 1) / 2).checked_mul(c.games);
    if total.is_none_or(|t| t > MAX_GAMES) {
        return Err(format!(
            "--games: {n} engines playing {} games per pairing is more than {MAX_GAMES} games",
            c.games
        ));
    }
    if c.limits.is_empty() && c.engines.iter().any(|e| e.limits.is_none()) {
        return Err(
            "give a limit: --tc, --byoyomi, --movetime, --nodes or --depth \
                    (or tc=, movetime=, nodes=, depth= on every --engine)"
                .into(),
        );
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
        assert_eq!(c.limits.clock.unwrap().base_ms, 2000);
        assert_eq!(c.limits.clock.unwrap().inc_ms, 20);
        assert_eq!(c.games, 6);
        assert!(c.sprt.is_some());
    }

    #[test]
    fn an_engine_s_own_limits_replace_the_match_s() {
        let c = parse(&args(
            "--engine name=a cmd=a tc=5+0.05 --engine name=b cmd=b --tc 20+0.2 --timemargin 50",
        ))
        .unwrap();
        let a = c.limits_of(0).clock.unwrap();
        let b = c.limits_of(1).clock.unwrap();
        assert_eq!((a.base_ms, a.inc_ms), (5000, 50));
        assert_eq!((b.base_ms, b.inc_ms), (20000, 200));
        assert_eq!(c.limits_of(0).fields(), vec!["tc=5+0.05"]);
        assert!(!c.deterministic());
        // Every engine with its own limits: the match needs none.
        let c = parse(&args(
            "--engine cmd=a nodes=300 depth=7 --engine cmd=b movetime=100 nodes=10",
        ))
        .unwrap();
        assert_eq!(c.limits_of(0).fields(), vec!["nodes=300", "depth=7"]);
        assert_eq!(c.limits_of(1).fields(), vec!["movetime=100", "nodes=10"]);
        let c = parse(&args("--engine cmd=a nodes=300 --engine cmd=b --depth 3")).unwrap();
        assert!(c.deterministic());
        for (bad, why) in [
            ("--engine cmd=a nodes=300 --engine cmd=b", "give a limit"),
            ("--engine cmd=a nodes=0 --engine cmd=b --tc 1", "nodes"),
            ("--engine cmd=a tc=1+x --engine cmd=b --tc 1", "tc"),
            (
                "--engine cmd=a depth=3 depth=4 --engine cmd=b --tc 1",
                "twice",
            ),
            (
                "--engine cmd=a movetime=86400001 --engine cmd=b --tc 1",
                "movetime",
            ),
        ] {
            let err = parse(&args(bad)).unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
        }
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

    #[test]
    fn numbers_out_of_range_are_refused_by_flag() {
        let two = "--engine cmd=a --engine cmd=b";
        for (bad, flag) in [
            ("--rounds 9223372036854775809 --tc 1", "--rounds"),
            ("--rounds 500001 --tc 1", "--rounds"),
            ("--games 0 --tc 1", "--games"),
            ("--games 1000001 --tc 1", "--games"),
            ("--games 99999999999999999999999 --tc 1", "--games"),
            (
                "--movetime 18446744073709551615 --timemargin 100",
                "--movetime",
            ),
            ("--movetime 86400001", "--movetime"),
            ("--movetime 0", "--movetime"),
            ("--movetime 100 --timemargin 86400001", "--timemargin"),
            ("--movetime 100 --timemargin -1", "--timemargin"),
            ("--tc 1 --timeout 0", "--timeout"),
            ("--tc 86401", "--tc"),
            ("--tc 1+86401", "--tc"),
            ("--tc inf", "--tc"),
            ("--tc NaN", "--tc"),
            ("--tc 1 --byoyomi 86401", "--byoyomi"),
            ("--nodes 0", "--nodes"),
            ("--nodes 1000000000001", "--nodes"),
            ("--depth 0", "--depth"),
            ("--depth 4294967296", "--depth"),
            ("--tc 1 --max-plies 0", "--max-plies"),
            ("--tc 1 --random-plies 1001", "--random-plies"),
            ("--tc 1 --opening-plies 10001", "--opening-plies"),
            ("--tc 1 --seed 18446744073709551616", "--seed"),
            ("--tc 1 --concurrency 0", "--concurrency"),
            ("--tc 1 --concurrency 257", "--concurrency"),
            ("--tc 1 --adjudicate-draw score=-5", "score"),
            ("--tc 1 --adjudicate-draw movecount=0", "movecount"),
            ("--tc 1 --adjudicate-draw movenumber=1.5", "movenumber"),
            ("--tc 1 --adjudicate-draw movecount=1 movecount=2", "twice"),
            ("--tc 1 --adjudicate-resign score=100001", "score"),
            (
                "--tc 1 --adjudicate-resign movecount=4294967296",
                "movecount",
            ),
            ("--tc 1 --sprt elo1=1e9", "elo1"),
            ("--tc 1 --sprt alpha=NaN", "alpha"),
        ] {
            let err = parse(&args(&format!("{two} {bad}"))).unwrap_err();
            assert!(err.starts_with(flag) || err.contains(flag), "{bad}: {err}");
        }
    }

    #[test]
    fn the_bounds_themselves_are_accepted() {
        let c = parse(&args(
            "--engine cmd=a --engine cmd=b --games 1000000 --movetime 86400000 \
             --timemargin 86400000 --timeout 86400000 --tc 86400+86400 --byoyomi 86400 \
             --nodes 1000000000000 --depth 1000 --max-plies 100000 --seed 18446744073709551615 \
             --adjudicate-resign movecount=10000 score=100000",
        ))
        .unwrap();
        assert_eq!(c.games, MAX_GAMES);
        assert_eq!(c.limits.movetime_ms, Some(MAX_MS));
        assert_eq!(c.limits.clock.unwrap().inc_ms, MAX_MS);
        assert_eq!(c.adjudicate_resign.unwrap().score, MAX_SCORE);
        // An SPRT without --games runs up to the bound.
        let c = parse(&args("--engine cmd=a --engine cmd=b --tc 1 --sprt")).unwrap();
        assert_eq!(c.games, MAX_GAMES);
    }

    #[test]
    fn the_whole_match_is_bounded_not_each_pairing() {
        let three = "--engine cmd=a --engine cmd=b --engine cmd=c --tc 1";
        assert!(parse(&args(&format!("{three} --games 333332"))).is_ok());
        let err = parse(&args(&format!("{three} --games 333334"))).unwrap_err();
        assert!(err.contains("1000000"), "{err}");
        let err = parse(&args("--engine cmd=a\u{7}b --engine cmd=b --tc 1")).unwrap_err();
        assert!(err.contains("control"), "{err}");
    }
}
