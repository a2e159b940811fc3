//! The command line of `janggun match`, read by clap. Only the values of
//! the flags that take `key=value` groups (`--engine`, `--sprt`,
//! `--adjudicate-draw`, `--adjudicate-resign`) are read here by hand:
//! clap hands each occurrence over as its list of words.

pub use super::config::{
    Clock, DrawAdj, EngineSpec, MatchConfig, MatchLimits, ResignAdj, SprtSpec, MAX_GAMES, MAX_MS,
    MAX_NODES, MAX_SCORE,
};
use super::config::{SPRT_ELO, SPRT_P};
use super::groups::{GroupIds, Grouped};
use crate::board::RuleSet;
use clap::{ArgAction, Parser, Subcommand};
use std::fmt::Display;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::str::FromStr;

// `janggun match`: a match, or one of the tools on match reports.
#[derive(clap::Args, Debug)]
#[command(
    args_conflicts_with_subcommands = true,
    after_help = "An engine's own tc=, movetime=, nodes= or depth= replace the match's \
                  limits for it. Shards of one match (other --seed or --opening-offset) \
                  are joined by `janggun match merge`."
)]
pub struct MatchArgs {
    #[command(subcommand)]
    pub tool: Option<MatchTool>,
    #[command(flatten)]
    pub play: PlayArgs,
}

// The tools on match reports.
#[derive(Subcommand, Debug)]
pub enum MatchTool {
    /// Merge the JSON reports of shards of one match into one report.
    Merge(super::merge::MergeArgs),
    /// Draw one self-contained HTML page of a match (its inputs merged first).
    Report(super::html::ReportArgs),
}

/// The flags of a match, the groups by occurrence.
pub type PlayArgs = Grouped<PlayFlags>;

// The flags of a match. Numbers are checked by their parsers; what
// depends on several flags by [`PlayArgs::config`]. The group flags'
// words are read by occurrence through [`Grouped`], not from here.
#[derive(clap::Args, Debug)]
// As before clap: a flag given twice takes its last value (but a path,
// see `once`), and a negative number is a flag's value (refused by its
// parser, which names the flag).
#[command(args_override_self = true, allow_negative_numbers = true)]
pub struct PlayFlags {
    /// An engine, as key=value words: name=NAME cmd=PATH [arg=ARG ...]
    /// [option.NAME=VALUE ...] and its own limits [tc=BASE+INC] [movetime=MS]
    /// [nodes=N] [depth=D]; once for each engine (at least two).
    #[arg(long = "engine", value_name = "KEY=VALUE", num_args = 0.., action = ArgAction::Append)]
    pub engines: Vec<String>,
    /// The rules: janggi, janggitraditional, janggimodern, janggicasual, kja or kojf.
    #[arg(long, visible_alias = "variant", default_value = "janggi")]
    pub rules: RuleSet,
    /// Games per pairing of engines (rounded up to pairs).
    #[arg(long, value_name = "N", value_parser = whole(1..=MAX_GAMES), overrides_with = "rounds")]
    pub games: Option<usize>,
    /// Pairs of games per pairing (--games 2R).
    #[arg(long, value_name = "R", value_parser = whole(1..=MAX_GAMES / 2), overrides_with = "games")]
    pub rounds: Option<usize>,
    /// Games played at once.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = whole(1..=256usize))]
    pub concurrency: usize,
    /// Clock: base and increment in seconds.
    #[arg(long, value_name = "BASE+INC", value_parser = time_control)]
    pub tc: Option<(u64, u64)>,
    /// Byoyomi, in seconds.
    #[arg(long, value_name = "SECONDS", value_parser = seconds)]
    pub byoyomi: Option<u64>,
    /// Time for each move, in milliseconds.
    #[arg(long, value_name = "MS", value_parser = whole(1..=MAX_MS))]
    pub movetime: Option<u64>,
    /// Nodes for each move.
    #[arg(long, value_name = "N", value_parser = whole(1..=MAX_NODES))]
    pub nodes: Option<u64>,
    /// Depth of each search.
    #[arg(long, value_name = "D", value_parser = whole(1..=1000u32))]
    pub depth: Option<u32>,
    /// Milliseconds an engine may go past its clock before it loses on time.
    #[arg(long, value_name = "MS", default_value_t = 100, value_parser = whole(0..=MAX_MS))]
    pub timemargin: u64,
    /// Milliseconds a search without a clock or movetime may take.
    #[arg(long, value_name = "MS", default_value_t = 30_000, value_parser = whole(1..=MAX_MS))]
    pub timeout: u64,
    /// Openings: EPD/FEN lines, PGN or GIB games (default: the 16 setups).
    #[arg(long, value_name = "FILE", action = ArgAction::Append)]
    pub openings: Vec<PathBuf>,
    /// Plies taken from each PGN or GIB opening game.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = whole(0..=10_000usize))]
    pub opening_plies: usize,
    /// Random plies played after the opening.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = whole(0..=1000usize))]
    pub random_plies: usize,
    /// Seed of the openings' order and random plies.
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = whole(0..=u64::MAX))]
    pub seed: u64,
    /// Pair p plays the opening of pair p+PAIRS (shards of one long match).
    #[arg(long, value_name = "PAIRS", default_value_t = 0, value_parser = whole(0..=MAX_GAMES))]
    pub opening_offset: usize,
    /// Stop when the test decides: elo0=E0 elo1=E1 alpha=A beta=B (defaults 0, 5, 0.05, 0.05).
    #[arg(long, value_name = "KEY=VALUE", num_args = 0.., action = ArgAction::Append)]
    pub sprt: Vec<String>,
    /// Draw when both scores stay small: movenumber=M movecount=C score=CP (defaults 40, 8, 10).
    #[arg(long, value_name = "KEY=VALUE", num_args = 0.., action = ArgAction::Append)]
    pub adjudicate_draw: Vec<String>,
    /// Resign when both engines agree: movecount=C score=CP (defaults 3, 1000).
    #[arg(long, value_name = "KEY=VALUE", num_args = 0.., action = ArgAction::Append)]
    pub adjudicate_resign: Vec<String>,
    /// Plies after which a game is stopped (a safety net).
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = whole(1..=100_000usize))]
    pub max_plies: usize,
    /// The games as PGN.
    #[arg(long, value_name = "FILE", action = ArgAction::Append)]
    pub pgn: Vec<PathBuf>,
    /// The JSON report.
    #[arg(long, value_name = "FILE", action = ArgAction::Append)]
    pub json: Vec<PathBuf>,
    /// Continue the interrupted match of --pgn or --json.
    #[arg(long)]
    pub resume: bool,
    /// Print no line for each game.
    #[arg(long)]
    pub quiet: bool,
    /// Check the arguments and stop (exit 0 when they are good); plays nothing.
    #[arg(long)]
    pub check: bool,
}

impl GroupIds for PlayFlags {
    const GROUPS: &'static [&'static str] =
        &["engines", "sprt", "adjudicate_draw", "adjudicate_resign"];
}

// A match's flags read on their own (spsa's iterations, tests).
#[derive(Parser, Debug)]
#[command(name = "janggun match", no_binary_name = true)]
struct PlayLine {
    #[command(flatten)]
    play: PlayArgs,
}

/// Reads a match's flags (without `match`) as `janggun match` does.
pub fn parse(args: &[String]) -> Result<MatchConfig, String> {
    let line = PlayLine::try_parse_from(args).map_err(|e| clap_message(&e))?;
    line.play.config()
}

/// A clap error as one line, without its `error: ` (the caller's
/// messages add their own).
pub fn clap_message(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let text = text.strip_prefix("error: ").unwrap_or(&text);
    text.lines().next().unwrap_or("").to_string()
}

fn shown(v: &str) -> String {
    v.chars().take(32).collect()
}

/// A whole number in `range`; anything else, overflow included, is
/// refused with the range in the message.
fn in_range<T>(v: &str, range: &RangeInclusive<T>) -> Result<T, String>
where
    T: FromStr + PartialOrd + Display,
{
    match v.parse::<T>() {
        Ok(x) if range.contains(&x) => Ok(x),
        _ => Err(format!(
            "not a whole number from {} to {}",
            range.start(),
            range.end()
        )),
    }
}

/// The value parser of a flag that takes a whole number in `range`.
fn whole<T>(range: RangeInclusive<T>) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync
where
    T: FromStr + PartialOrd + Display + Clone + Send + Sync,
{
    move |v: &str| in_range(v, &range)
}

/// [`in_range`] for a field of a `key=value` group, named `flag`.
fn num<T>(flag: &str, v: &str, range: RangeInclusive<T>) -> Result<T, String>
where
    T: FromStr + PartialOrd + Display,
{
    in_range(v, &range).map_err(|e| format!("{flag}: '{}' is {e}", shown(v)))
}

/// Seconds, as milliseconds, at most [`MAX_MS`].
fn seconds(v: &str) -> Result<u64, String> {
    let max = (MAX_MS / 1000) as f64;
    match v.parse::<f64>() {
        Ok(s) if (0.0..=max).contains(&s) => Ok((s * 1000.0).round() as u64),
        _ => Err(format!(
            "'{}' is not a number of seconds from 0 to {max}",
            shown(v)
        )),
    }
}

/// `BASE+INC` in seconds (`--tc` and an engine's `tc=`), as milliseconds.
fn time_control(v: &str) -> Result<(u64, u64), String> {
    let (base, inc) = v.split_once('+').unwrap_or((v, "0"));
    Ok((seconds(base)?, seconds(inc)?))
}

/// The words of one `--engine`, `--sprt` ... occurrence as `key=value`
/// pairs (a word without `=` is a key with an empty value).
pub fn pairs(words: &[String]) -> Vec<(String, String)> {
    words
        .iter()
        .map(|a| match a.split_once('=') {
            Some((k, v)) => (k.to_string(), v.to_string()),
            None => (a.clone(), String::new()),
        })
        .collect()
}

/// One `--engine` group.
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
                let (base_ms, inc_ms) = time_control(&v).map_err(|e| format!("{flag}: {e}"))?;
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
fn field<T>(
    flag: &str,
    key: &str,
    v: Option<&str>,
    default: T,
    range: RangeInclusive<T>,
) -> Result<T, String>
where
    T: FromStr + PartialOrd + Display,
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

fn parse_draw(words: &[String]) -> Result<DrawAdj, String> {
    let flag = "--adjudicate-draw";
    let pairs = pairs(words);
    let [m, n, s] = parse_fields(flag, &pairs, ["movenumber", "movecount", "score"])?;
    Ok(DrawAdj {
        from_move: field(flag, "movenumber", m, 40, 0..=10_000)?,
        count: field(flag, "movecount", n, 8, 1..=10_000)?,
        score: field(flag, "score", s, 10, 0..=MAX_SCORE)?,
    })
}

fn parse_resign(words: &[String]) -> Result<ResignAdj, String> {
    let flag = "--adjudicate-resign";
    let pairs = pairs(words);
    let [n, s] = parse_fields(flag, &pairs, ["movecount", "score"])?;
    Ok(ResignAdj {
        count: field(flag, "movecount", n, 3, 1..=10_000)?,
        score: field(flag, "score", s, 1000, 0..=MAX_SCORE)?,
    })
}

/// A path flag takes one file: given twice, one of the two would be
/// dropped without a word (an output never written, an input never read).
pub fn once(flag: &str, given: Vec<PathBuf>) -> Result<Option<PathBuf>, String> {
    if let [first, second, ..] = &given[..] {
        return Err(format!(
            "{flag} given twice ('{}' and '{}'): give it once",
            shown(&first.to_string_lossy()),
            shown(&second.to_string_lossy())
        ));
    }
    Ok(given.into_iter().next())
}

/// The last of a flag's `key=value` groups, read by `parse` (each one is
/// checked: a bad one is refused even where a later one replaces it).
fn last_group<T>(
    groups: &[Vec<String>],
    parse: impl Fn(&[String]) -> Result<T, String>,
) -> Result<Option<T>, String> {
    let mut last = None;
    for g in groups {
        last = Some(parse(g)?);
    }
    Ok(last)
}

impl PlayArgs {
    /// The match these flags describe, checked as a whole.
    pub fn config(self) -> Result<MatchConfig, String> {
        let engines = self
            .groups("engines")
            .iter()
            .map(|words| parse_engine(pairs(words)))
            .collect::<Result<_, _>>()?;
        let sprt = last_group(self.groups("sprt"), |w| parse_sprt(&pairs(w)))?;
        let adjudicate_draw = last_group(self.groups("adjudicate_draw"), parse_draw)?;
        let adjudicate_resign = last_group(self.groups("adjudicate_resign"), parse_resign)?;
        let f = self.flags;
        let mut limits = MatchLimits {
            movetime_ms: f.movetime,
            nodes: f.nodes,
            depth: f.depth,
            ..MatchLimits::default()
        };
        if f.tc.is_some() || f.byoyomi.is_some() {
            let (base_ms, inc_ms) = f.tc.unwrap_or((0, 0));
            limits.clock = Some(Clock {
                base_ms,
                inc_ms,
                byoyomi_ms: f.byoyomi.unwrap_or(0),
            });
        }
        let games_set = f.games.is_some() || f.rounds.is_some();
        let mut c = MatchConfig {
            engines,
            rules: f.rules,
            games: f
                .games
                .or(f.rounds.map(|r| 2 * r))
                .unwrap_or(MatchConfig::default().games),
            concurrency: f.concurrency,
            limits,
            timemargin_ms: f.timemargin,
            timeout_ms: f.timeout,
            openings: once("--openings", f.openings)?,
            opening_plies: f.opening_plies,
            random_plies: f.random_plies,
            seed: f.seed,
            opening_offset: f.opening_offset,
            sprt,
            adjudicate_draw,
            adjudicate_resign,
            pgn: once("--pgn", f.pgn)?,
            json: once("--json", f.json)?,
            resume: f.resume,
            quiet: f.quiet,
            check: f.check,
            max_plies: f.max_plies,
        };
        validate(&mut c, games_set)?;
        Ok(c)
    }
}

/// What `janggun match --help` is asked for in the messages below.
const SEE_HELP: &str = "see janggun match --help";

fn validate(c: &mut MatchConfig, games_set: bool) -> Result<(), String> {
    if c.engines.len() < 2 {
        return Err(format!("need at least two --engine ({SEE_HELP})"));
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
    fn the_command_line_is_well_formed() {
        use clap::Args;
        MatchArgs::augment_args(clap::Command::new("match")).debug_assert();
    }

    #[test]
    fn a_flag_given_twice_takes_its_last_value_but_a_path() {
        let two = "--engine cmd=a --engine cmd=b";
        let c = parse(&args(&format!(
            "{two} --tc 1 --tc 2 --games 4 --rounds 3 --quiet --quiet"
        )))
        .unwrap();
        assert_eq!(c.limits.clock.unwrap().base_ms, 2000);
        assert_eq!(c.games, 6);
        let c = parse(&args(&format!(
            "{two} --nodes 5 --rounds 3 --games 4 --variant kja"
        )))
        .unwrap();
        assert_eq!((c.games, c.rules), (4, RuleSet::Kja));
        let c = parse(&args(&format!("{two} --tc 1 --byoyomi 2.5"))).unwrap();
        let clock = c.limits.clock.unwrap();
        assert_eq!((clock.base_ms, clock.byoyomi_ms), (1000, 2500));
        let err = parse(&args(&format!("{two} --tc 1 --json a --json b"))).unwrap_err();
        assert_eq!(err, "--json given twice ('a' and 'b'): give it once");
        let err = parse(&args(&format!("{two} --tc 1 --sprt elo1=x --sprt"))).unwrap_err();
        assert!(err.contains("elo1"), "{err}");
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
