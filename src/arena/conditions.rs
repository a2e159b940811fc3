//! The conditions a match plays its games under: every setting that
//! decides how a game goes. Each PGN game carries them as tags and the
//! JSON report as fields, so that `--resume` takes back only games played
//! under the very conditions of the match it continues (a `--nodes 300`
//! game is no `--tc 1+0.01` game). `--games`, `--concurrency` and the
//! output flags are not among them: they say how many games are played,
//! how many at once and where they go, not how one goes.

use super::cli::{EngineSpec, MatchConfig};
use super::openings::Opening;
use crate::board::{move_to_string, Notation};
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
}

/// The value of a setting that is not given.
const NONE: &str = "none";

fn opt<T: Display>(v: Option<T>) -> String {
    v.map_or_else(|| NONE.to_string(), |x| x.to_string())
}

/// The PGN `TimeControl` value: base+increment in seconds, `-` without a
/// clock.
pub fn time_control(cfg: &MatchConfig) -> String {
    match cfg.clock {
        Some(c) if c.byoyomi_ms > 0 => format!(
            "{}+{}+byo{}",
            c.base_ms as f64 / 1000.0,
            c.inc_ms as f64 / 1000.0,
            c.byoyomi_ms as f64 / 1000.0
        ),
        Some(c) => format!("{}+{}", c.base_ms as f64 / 1000.0, c.inc_ms as f64 / 1000.0),
        None => "-".into(),
    }
}

/// The book's size and an FNV-1a hash of its positions and moves: the
/// same book read from another path is the same, and another
/// `--opening-plies` makes another book.
fn book(book: &[Opening]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for op in book {
        let moves = op.moves.iter().map(|&m| move_to_string(m, Notation::Uci));
        for part in std::iter::once(op.fen.clone()).chain(moves) {
            for b in part.bytes().chain([b'\n']) {
                h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
    }
    let s = if book.len() == 1 { "" } else { "s" };
    format!("{} opening{s}, hash {h:016x}", book.len())
}

/// The settings of the whole match (the engines are per game: see
/// [`engine`]).
pub fn of(cfg: &MatchConfig, openings: &[Opening]) -> Vec<Condition> {
    let c = |flag: &str, tag, key, value: String| Condition {
        flag: flag.to_string(),
        tag,
        key,
        value,
    };
    // --timeout bounds only a search that has neither a clock nor a
    // movetime; elsewhere it decides nothing.
    let timeout = if cfg.clock.is_none() && cfg.movetime_ms.is_none() {
        cfg.timeout_ms.to_string()
    } else {
        "unused".into()
    };
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
        c("--movetime", "MoveTime", "movetime", opt(cfg.movetime_ms)),
        c("--nodes", "Nodes", "nodes", opt(cfg.nodes)),
        c("--depth", "Depth", "depth", opt(cfg.depth)),
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

/// An engine as `--engine` gives it, less its name: `cmd=.. arg=..
/// option.K=V`, in order. A field with a space, quote or backslash is
/// quoted, so that no two engines read the same.
pub fn engine_line(e: &EngineSpec) -> String {
    let fields = std::iter::once(format!("cmd={}", e.cmd))
        .chain(e.args.iter().map(|a| format!("arg={a}")))
        .chain(e.options.iter().map(|(k, v)| format!("option.{k}={v}")));
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
        match found(c) {
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
    fn engine_lines_do_not_run_into_each_other() {
        let e = |opts: &[(&str, &str)]| EngineSpec {
            name: "x".into(),
            cmd: "/bin/x".into(),
            args: vec![],
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
        let json = crate::arena::json::parse(&crate::arena::json::string(&line)).unwrap();
        assert_eq!(json.as_str(), Some(line.as_str()));
    }
}
