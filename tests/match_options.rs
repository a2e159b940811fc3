//! An engine option the engine refuses stops the match before its first
//! game, with the engine's own words: a net-against-classical match whose
//! net path is mistyped must not quietly measure the default net. Janggun
//! refuses with `info string error: ...`, Stockfish and its forks with
//! `No such option: ...` (tests/fault_engine.py answers that way too).

mod match_common;

use match_common::*;
use std::io::Write;
use std::process::{Command, Stdio};

fn janggun() -> String {
    env!("CARGO_BIN_EXE_janggun").to_string()
}

/// What the engine at `cmd` prints between `uciok` and `readyok` when it is
/// given `name` = `value`: its own refusal, which the runner must pass on.
fn engine_answer(cmd: &str, name: &str, value: &str) -> Vec<String> {
    let mut child = Command::new(cmd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let script = format!("uci\nsetoption name {name} value {value}\nisready\nquit\n");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let after = text.split_once("uciok\n").map_or("", |(_, rest)| rest);
    let before = after.split_once("readyok").map_or("", |(b, _)| b);
    before.lines().map(str::to_string).collect()
}

/// Runs `janggun match` with `engines`, two games at fixed nodes, writing
/// a PGN and a JSON; returns success, stdout, stderr, and whether either
/// file was written.
fn janggun_match(engines: &[String], name: &str) -> (bool, String, String, bool) {
    let pgn = temp_path(&format!("{name}.pgn"));
    let json = temp_path(&format!("{name}.json"));
    let mut a = args(&["match"]);
    a.extend(engines.iter().cloned());
    a.extend(args(&[
        "--nodes",
        "300",
        "--games",
        "2",
        "--pgn",
        pgn.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]));
    let out = Command::new(janggun()).args(&a).output().unwrap();
    let written = pgn.exists() || json.exists();
    let _ = std::fs::remove_file(&pgn);
    let _ = std::fs::remove_file(&json);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        written,
    )
}

/// The match must stop before any game, naming the engine, the option and
/// (each of) the engine's own lines about it.
fn assert_stopped(engines: &[String], case: &str, who: &str, option: &str, answer: &[String]) {
    let (ok, stdout, stderr, written) = janggun_match(engines, case);
    assert!(!ok, "{case}: the match ran:\n{stdout}");
    assert!(
        !stdout.contains("game "),
        "{case}: games were played:\n{stdout}"
    );
    assert!(!written, "{case}: a PGN or JSON was written");
    assert!(stderr.starts_with("error: "), "{case}: {stderr}");
    assert!(!stderr.contains("panicked"), "{case}: {stderr}");
    assert!(
        stderr.contains(who),
        "{case}: the engine is not named: {stderr}"
    );
    assert!(
        stderr.contains(option),
        "{case}: the option is not named: {stderr}"
    );
    assert!(!answer.is_empty(), "{case}: the engine said nothing");
    for line in answer {
        assert!(
            stderr.contains(line.as_str()),
            "{case}: the engine's line '{line}' is not passed on: {stderr}"
        );
    }
}

#[test]
fn janggun_refusing_an_option_stops_the_match() {
    let cmd = janggun();
    for (case, name, value) in [
        ("evalfile", "EvalFile", "/nonexistent/net.jnn"),
        ("unknown", "Banana", "1"),
        ("range", "Hash", "0"),
    ] {
        let answer = engine_answer(&cmd, name, value);
        assert!(
            answer.iter().any(|l| l.starts_with("info string error")),
            "{case}: Janggun itself no longer refuses {name}={value}: {answer:?}"
        );
        // The refusing engine second, so that the first starting cleanly
        // is no excuse to play.
        let engines = args(&[
            "--engine",
            "name=plain",
            &format!("cmd={cmd}"),
            "--engine",
            "name=net",
            &format!("cmd={cmd}"),
            &format!("option.{name}={value}"),
        ]);
        assert_stopped(
            &engines,
            case,
            "net",
            &format!("setoption name {name} value {value}"),
            &answer,
        );
    }
}

#[test]
fn no_such_option_stops_the_match() {
    let moves = ["a1a2", "a10a9", "e2e2", "e9e9"];
    let mut engines = script_engine("one", &moves);
    engines.push("option.Hash=8".into());
    engines.extend(script_engine("two", &moves));
    engines.push("option.Banana=1".into());
    // In a round robin the third engine plays only from the second game
    // on: its refusal must still come before the first.
    engines.extend(script_engine("three", &moves));
    engines.push("option.Debug Log File=x".into());
    let (ok, stdout, stderr, written) = janggun_match(&engines, "no-such-option");
    assert!(!ok && !written, "the match ran:\n{stdout}");
    assert!(stderr.contains("two"), "{stderr}");
    assert!(stderr.contains("No such option: Banana"), "{stderr}");

    // Only the third engine refuses.
    engines.retain(|a| a != "option.Banana=1");
    assert_stopped(
        &engines,
        "third-engine",
        "three",
        "setoption name Debug Log File value x",
        &["No such option: Debug Log File".to_string()],
    );

    // Options the engines know are no reason to stop.
    engines.retain(|a| a != "option.Debug Log File=x");
    let (ok, stdout, stderr, _) = janggun_match(&engines, "known-options");
    assert!(ok, "{stdout}\n{stderr}");
    let played = stdout.lines().filter(|l| l.starts_with("game ")).count();
    assert_eq!(played, 6, "{stdout}");
}

#[test]
fn fairy_stockfish_refusing_an_option_stops_the_match() {
    // CI installs Debian's fairy-stockfish before the tests; elsewhere the
    // fault engine's imitation of its answer above stands in for it.
    let fsf = "/usr/games/fairy-stockfish";
    if !std::path::Path::new(fsf).exists() {
        eprintln!("{fsf} is not installed: not checked against it");
        return;
    }
    let answer = engine_answer(fsf, "Banana", "1");
    let engines = args(&[
        "--engine",
        "name=janggun",
        &format!("cmd={}", janggun()),
        "--engine",
        "name=fsf",
        &format!("cmd={fsf}"),
        "option.Banana=1",
    ]);
    assert_stopped(
        &engines,
        "fsf",
        "fsf",
        "setoption name Banana value 1",
        &answer,
    );
}
