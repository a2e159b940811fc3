//! `--resume` continues a match only under the conditions its games were
//! played under: a `--movetime 2000` game is not a `--tc 1+0.01` game, nor
//! one with another engine option, opening book or adjudication. Any such
//! difference is refused, naming the flag and both values, and the file is
//! left as it was; what only says how many games to play, or how many at
//! once, may change. A file that does not record its conditions (one from
//! before they were written) is refused too: they cannot be checked.

mod match_common;

use janggun::arena::{cli, run, MatchSummary};
use match_common::*;
use std::path::Path;

const FULL: [&str; 4] = ["a1a2", "a10a9", "e2e2", "e9e9"];
const SHORT: [&str; 3] = ["a1a2", "a10a9", "e2e2"];

/// The base match: two scripted engines (see tests/match_resume.rs), one
/// with an engine option, under `--movetime`. `change` replaces or adds
/// flags as `(flag, value)`; an empty flag replaces the engines' moves.
fn match_args(games: usize, file: (&str, &Path), change: &[(&str, &str)]) -> Vec<String> {
    let mut full: Vec<&str> = FULL.to_vec();
    let mut hash = "option.Hash=8".to_string();
    let mut flags: Vec<(String, Vec<String>)> = vec![
        ("--movetime".into(), vec!["2000".into()]),
        ("--games".into(), vec![games.to_string()]),
        (file.0.into(), vec![file.1.to_str().unwrap().into()]),
        ("--quiet".into(), vec![]),
        ("--resume".into(), vec![]),
    ];
    for &(flag, value) in change {
        match flag {
            "option" => hash = value.to_string(),
            "moves" => full = value.split(' ').collect(),
            "--tc" => {
                flags.retain(|(f, _)| f != "--movetime");
                flags.push((flag.into(), vec![value.into()]));
            }
            _ => {
                flags.retain(|(f, _)| f != flag);
                let values = value.split(' ').filter(|v| !v.is_empty());
                flags.push((flag.into(), values.map(String::from).collect()));
            }
        }
    }
    let mut a = script_engine("full", &full);
    a.push(hash);
    a.extend(script_engine("short", &SHORT));
    for (flag, values) in flags {
        a.push(flag);
        a.extend(values);
    }
    a
}

fn try_match(a: &[String]) -> Result<MatchSummary, String> {
    run(&cli::parse(a)?)
}

/// A finished two-game match in `flag`'s format, as its file's bytes.
fn played(flag: &str, name: &str) -> (std::path::PathBuf, Vec<u8>) {
    let path = temp_path(name);
    let out = try_match(&match_args(2, (flag, &path), &[])).unwrap();
    assert_eq!(out.records.len(), 2);
    let bytes = std::fs::read(&path).unwrap();
    (path, bytes)
}

/// Resuming `bytes` with `change` must fail, with every one of `words` in
/// the message, and leave the file as it was.
fn refused(flag: &str, path: &Path, bytes: &[u8], change: &[(&str, &str)], words: &[&str]) {
    std::fs::write(path, bytes).unwrap();
    let case = format!("{flag} {change:?}");
    let err = match try_match(&match_args(4, (flag, path), change)) {
        Ok(out) => panic!("{case}: resumed, {} games in all", out.records.len()),
        Err(e) => e,
    };
    for w in words.iter().chain(&[path.to_str().unwrap()]) {
        assert!(err.contains(w), "{case}: '{err}' lacks '{w}'");
    }
    assert_eq!(std::fs::read(path).unwrap(), bytes, "{case}: file touched");
}

/// Flags changed on resuming, and words the refusal must hold.
type Case<'a> = (&'a [(&'a str, &'a str)], &'a [&'a str]);

#[test]
fn other_conditions_are_refused_naming_the_flag_and_both_values() {
    let book = temp_path("book.epd");
    std::fs::write(
        &book,
        "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1\n",
    )
    .unwrap();
    let book = book.to_str().unwrap();
    let cases: &[Case] = &[
        (
            &[("--tc", "1+0.01")],
            &["--tc", "1+0.01", "--movetime", "2000"],
        ),
        (&[("--nodes", "300")], &["--nodes", "none", "300"]),
        (&[("--depth", "5")], &["--depth", "none", "5"]),
        (&[("--movetime", "1000")], &["--movetime", "2000", "1000"]),
        (&[("--max-plies", "50")], &["--max-plies", "1000", "50"]),
        (&[("--random-plies", "2")], &["--random-plies", "0", "2"]),
        (&[("--seed", "7")], &["--seed", "1", "7"]),
        (&[("--timemargin", "50")], &["--timemargin", "100", "50"]),
        (
            &[("--rules", "janggimodern")],
            &["--rules", "janggi", "janggimodern"],
        ),
        (&[("--openings", book)], &["--openings", "16 openings"]),
        (
            &[("--sprt", "elo0=0 elo1=10")],
            &["--sprt", "none", "elo0=0 elo1=10 alpha=0.05 beta=0.05"],
        ),
        (
            &[("--adjudicate-draw", "")],
            &["--adjudicate-draw", "movenumber=40 movecount=8 score=10"],
        ),
        (
            &[("--adjudicate-resign", "score=500")],
            &["--adjudicate-resign", "movecount=3 score=500"],
        ),
        (
            &[("option", "option.Hash=16")],
            &["--engine name=full", "option.Hash=8", "option.Hash=16"],
        ),
        (
            &[("moves", "a1a2 a10a9 e2e2 e9e8")],
            &["--engine name=full", "arg=e9e9", "arg=e9e8"],
        ),
    ];
    for flag in ["--pgn", "--json"] {
        let (path, bytes) = played(flag, &format!("conditions{flag}"));
        for &(change, words) in cases {
            refused(flag, &path, &bytes, change, words);
        }
        let _ = std::fs::remove_file(&path);
    }
}

#[test]
fn more_games_or_more_at_once_still_resume() {
    for flag in ["--pgn", "--json"] {
        let (path, _) = played(flag, &format!("same{flag}"));
        // --timeout bounds only a search without a clock or a movetime:
        // under --movetime it decides nothing.
        let change = [("--concurrency", "2"), ("--timeout", "99")];
        let out = try_match(&match_args(4, (flag, &path), &change))
            .unwrap_or_else(|e| panic!("{flag}: {e}"));
        assert_eq!(out.records.len(), 4, "{flag}");
        let _ = std::fs::remove_file(&path);
    }
}

#[test]
fn a_file_that_does_not_record_its_conditions_is_refused() {
    // As an older runner wrote them: without the tags and fields that
    // record the limits.
    let (path, bytes) = played("--pgn", "old.pgn");
    let text = String::from_utf8(bytes).unwrap();
    let old: String = text
        .lines()
        .filter(|l| !l.starts_with("[Nodes "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(old, text);
    refused("--pgn", &path, old.as_bytes(), &[], &["[Nodes]", "older"]);
    // What such a file does record is still compared, and named first.
    let tc = [("--tc", "1+0.01")];
    refused(
        "--pgn",
        &path,
        old.as_bytes(),
        &tc,
        &["--tc was none, now 1+0.01"],
    );
    let _ = std::fs::remove_file(&path);

    let (path, bytes) = played("--json", "old.json");
    let text = String::from_utf8(bytes).unwrap();
    let old: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("\"nodes\":"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(old, text);
    refused(
        "--json",
        &path,
        old.as_bytes(),
        &[],
        &["\"nodes\"", "older"],
    );
    let _ = std::fs::remove_file(&path);
}
