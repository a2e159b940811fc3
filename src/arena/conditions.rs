//! The conditions a match plays its games under: every setting that
//! decides how a game goes. Each PGN game carries them as tags and the
//! JSON report as fields, so that `--resume` takes back only games played
//! under the very conditions of the match it continues (a `--nodes 300`
//! game is no `--tc 1+0.01` game). `--games`, `--concurrency` and the
//! output flags are not among them: they say how many games are played,
//! how many at once and where they go, not how one goes.

use super::config::{EngineSpec, MatchConfig};
use super::openings::Opening;
use crate::board::{move_to_string, Notation};
use crate::util::hash::fnv1a64;
use std::fmt::Display;

/// One setting, as the files record it.
pub struct Condition {
    /// The command-line flag that sets it, for messages.
    pub flag: String,
    /// Its PGN tag.
    pub tag: &'static str,
    /// Its field in the JSON report.
    pub key: &'static str,
    pub value: String,
    /// What a file written before this setting was recorded implies (the
    /// setting did not exist then); `None`: such a file cannot be checked.
    pub implied: Option<&'static str>,
}

/// The value of a setting that is not given.
const NONE: &str = "none";

fn opt<T: Display>(v: Option<T>) -> String {
    v.map_or_else(|| NONE.to_string(), |x| x.to_string())
}

/// The PGN `TimeControl` value: base+increment in seconds, `-` without a
/// clock.
pub fn time_control(cfg: &MatchConfig) -> String {
    cfg.limits.clock.map_or_else(|| "-".into(), |c| c.text())
}

/// The book's size and an FNV-1a hash of its positions and moves (each
/// FEN and UCI move followed by a line feed): the same book read from
/// another path is the same, and another `--opening-plies` makes another
/// book. Reports and PGN tags store the value and `--resume` and `match
/// merge` compare it with files written by earlier runs, so the bytes
/// hashed must stay exactly these.
fn book(book: &[Opening]) -> String {
    let mut bytes = Vec::new();
    for op in book {
        let moves = op.moves.iter().map(|&m| move_to_string(m, Notation::Uci));
        for part in std::iter::once(op.fen.clone()).chain(moves) {
            bytes.extend_from_slice(part.as_bytes());
            bytes.push(b'\n');
        }
    }
    let h = fnv1a64(&bytes);
    let s = if book.len() == 1 { "" } else { "s" };
    format!("{} opening{s}, hash {h:016x}", book.len())
}

/// The JSON fields that differ between the shards of one match: each
/// shard draws its own openings.
pub const SEED: &str = "seed";
pub const OPENING_OFFSET: &str = "opening_offset";

/// What a file that lacks the field `key` implies for it (see
/// [`Condition::implied`]).
pub fn implied(key: &str) -> Option<&'static str> {
    (key == OPENING_OFFSET).then_some("0")
}

/// The settings of the whole match (the engines are per game: see
/// [`engine`]).
pub fn of(cfg: &MatchConfig, openings: &[Opening]) -> Vec<Condition> {
    let c = |flag: &str, tag, key, value: String| Condition {
        flag: flag.to_string(),
        tag,
        key,
        value,
        implied: None,
    };
    // --timeout bounds only a search that has neither a clock nor a
    // movetime; elsewhere it decides nothing.
    let timed = (0..cfg.engines.len()).all(|e| cfg.limits_of(e).timed());
    let timeout = if timed {
        "unused".into()
    } else {
        cfg.timeout_ms.to_string()
    };
    let limits = &cfg.limits;
    let sprt = cfg.sprt.map(|s| {
        format!(
            "elo0={} elo1={} alpha={} beta={}",
            s.elo0, s.elo1, s.alpha, s.beta
        )
    });
    let draw = cfg.adjudicate_draw.map(|d| {
        format!(
            "movenumber={} movecount={} score={}",
            d.from_move, d.count, d.score
        )
    });
    let resign = cfg
        .adjudicate_resign
        .map(|r| format!("movecount={} score={}", r.count, r.score));
    vec![
        c("--rules", "Rules", "rules", cfg.rules.name().to_string()),
        c("--tc", "TimeControl", "time_control", time_control(cfg)),
        c(
            "--movetime",
            "MoveTime",
            "movetime",
            opt(limits.movetime_ms),
        ),
        c("--nodes", "Nodes", "nodes", opt(limits.nodes)),
        c("--depth", "Depth", "depth", opt(limits.depth)),
        c(
            "--timemargin",
            "TimeMargin",
            "timemargin",
            cfg.timemargin_ms.to_string(),
        ),
        c("--timeout", "Timeout", "timeout", timeout),
        c(
            "--max-plies",
            "MaxPlies",
            "max_plies",
            cfg.max_plies.to_string(),
        ),
        c("--openings", "Openings", "openings", book(openings)),
        c(
            "--random-plies",
            "RandomPlies",
            "random_plies",
            cfg.random_plies.to_string(),
        ),
        c("--seed", "Seed", "seed", cfg.seed.to_string()),
        Condition {
            implied: Some("0"),
            ..c(
                "--opening-offset",
                "OpeningOffset",
                OPENING_OFFSET,
                cfg.opening_offset.to_string(),
            )
        },
        c(
            "--adjudicate-draw",
            "AdjudicateDraw",
            "adjudicate_draw",
            opt(draw),
        ),
        c(
            "--adjudicate-resign",
            "AdjudicateResign",
            "adjudicate_resign",
            opt(resign),
        ),
        c("--sprt", "Sprt", "sprt_test", opt(sprt)),
    ]
}

/// An engine as `--engine` gives it, less its name: `cmd=..`, its own
/// limits (`tc=.. nodes=..`), `arg=.. option.K=V`, in order. A field with
/// a space, quote or backslash is quoted, so that no two engines read the
/// same.
pub fn engine_line(e: &EngineSpec) -> String {
    let limits = e.limits.map(|l| l.fields()).unwrap_or_default();
    line_of(&e.cmd, &limits, &e.args, &e.options)
}

/// [`engine_line`] from its parts (`limits` as `MatchLimits::fields` gives them).
pub fn line_of(
    cmd: &str,
    limits: &[String],
    args: &[String],
    options: &[(String, String)],
) -> String {
    let fields = std::iter::once(format!("cmd={cmd}"))
        .chain(limits.iter().cloned())
        .chain(args.iter().map(|a| format!("arg={a}")))
        .chain(options.iter().map(|(k, v)| format!("option.{k}={v}")));
    let quoted: Vec<String> = fields
        .map(|f| {
            if f.contains(|c: char| c.is_whitespace() || c == '"' || c == '\\') {
                format!("{f:?}")
            } else {
                f
            }
        })
        .collect();
    quoted.join(" ")
}

/// The engine that played one side of a game, under the PGN tag `tag`.
pub fn engine(tag: &'static str, e: &EngineSpec) -> Condition {
    Condition {
        flag: format!("--engine name={}", e.name),
        tag,
        key: "",
        value: engine_line(e),
        implied: None,
    }
}

/// Checks what a file records against `expected`: `found` reads one
/// condition from the file, `missing` names where it would have been.
/// Every difference is named, with both values.
pub fn check<'a>(
    expected: &[Condition],
    found: impl Fn(&Condition) -> Option<&'a str>,
    missing: impl Fn(&Condition) -> String,
) -> Result<(), String> {
    let mut differ = Vec::new();
    let mut lacks = None;
    for c in expected {
        match found(c).or(c.implied) {
            Some(was) if was != c.value => differ.push(format!(
                "{} was {}, now {}",
                c.flag,
                shown(was),
                shown(&c.value)
            )),
            Some(_) => {}
            None => {
                lacks.get_or_insert(c);
            }
        }
    }
    // A difference the file does show says more than what it lacks.
    if !differ.is_empty() {
        return Err(format!(
            "played under other conditions than this match: {}",
            differ.join("; ")
        ));
    }
    match lacks {
        Some(c) => Err(format!(
            "{}: written by an older janggun match, which did not record {} and the \
             other conditions of its games, so they cannot be checked against this \
             match; finish it with the janggun that started it, or start a new one",
            missing(c),
            c.flag
        )),
        None => Ok(()),
    }
}

/// PGN writes "no time control" as `-`.
fn shown(v: &str) -> &str {
    if v == "-" {
        NONE
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::cli;

    fn cfg(a: &str) -> MatchConfig {
        let a: Vec<String> = a.split_whitespace().map(String::from).collect();
        cli::parse(&a).unwrap()
    }

    /// What a file written under `old` holds, less the tag `lost`.
    fn file<'a>(old: &'a [Condition], lost: &'a str) -> impl Fn(&Condition) -> Option<&'a str> {
        move |c| {
            old.iter()
                .find(|o| o.tag == c.tag && o.tag != lost)
                .map(|o| o.value.as_str())
        }
    }

    #[test]
    fn every_difference_is_named_with_both_values() {
        let book = crate::arena::openings::default_openings();
        let old = of(&cfg("--engine cmd=a --engine cmd=b --nodes 300"), &book);
        let new = of(&cfg("--engine cmd=a --engine cmd=b --tc 1+0.01"), &book);
        let err = check(&new, file(&old, ""), |c| c.tag.to_string()).unwrap_err();
        assert!(
            err.ends_with(
                "--tc was none, now 1+0.01; --nodes was 300, now none; \
                 --timeout was 30000, now unused"
            ),
            "{err}"
        );
        assert!(check(&old, file(&old, ""), |_| String::new()).is_ok());
        let err = check(&old, file(&old, "Seed"), |c| format!("no [{}] tag", c.tag)).unwrap_err();
        assert!(
            err.starts_with("no [Seed] tag: written by an older"),
            "{err}"
        );
        // What the file does record is still compared.
        let err = check(&new, file(&old, "Seed"), |c| c.tag.to_string()).unwrap_err();
        assert!(err.contains("--tc was none, now 1+0.01"), "{err}");
    }

    #[test]
    fn the_book_hash_is_the_one_earlier_reports_hold() {
        // Written by the hand-rolled FNV-1a this replaced: files from
        // earlier runs must still compare equal.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let default = crate::arena::openings::default_openings();
        for op in &default {
            let moves = op.moves.iter().map(|&m| move_to_string(m, Notation::Uci));
            for part in std::iter::once(op.fen.clone()).chain(moves) {
                for b in part.bytes().chain([b'\n']) {
                    h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
                }
            }
        }
        assert!(book(&default).ends_with(&format!("hash {h:016x}")));
    }

    #[test]
    fn engine_lines_do_not_run_into_each_other() {
        let e = |opts: &[(&str, &str)]| EngineSpec {
            name: "x".into(),
            cmd: "/bin/x".into(),
            args: vec![],
            limits: None,
            options: opts
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        };
        let one = engine_line(&e(&[("A", "1 option.B=2")]));
        let two = engine_line(&e(&[("A", "1"), ("B", "2")]));
        assert_eq!(two, "cmd=/bin/x option.A=1 option.B=2");
        assert_ne!(one, two);

        // Read back from a PGN tag and a JSON string as written.
        let odd = e(&[("Debug Log File", "C:\\a \"b\\\"")]);
        let line = engine_line(&odd);
        let root = crate::board::Position::startpos(crate::board::RuleSet::Janggi);
        let tags = [("Event", "janggun match".to_string()), ("X", line.clone())];
        let pgn = crate::arena::pgn::write_game(&tags, &root, &[], "1-0", "");
        let scan = crate::arena::resume_pgn::scan(pgn.as_bytes()).unwrap();
        assert_eq!(scan.games[0].tag("X"), Some(line.as_str()));
        let json: String = serde_json::from_str(&serde_json::to_string(&line).unwrap()).unwrap();
        assert_eq!(json, line);
    }
}
