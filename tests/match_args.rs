//! Numbers on the command line and FENs in the files `janggun match`
//! reads are checked before anything is played: out of range is refused
//! with a message naming the flag (or the file and line), a non-zero exit,
//! and no game.

mod match_common;

use janggun::arena::openings;
use janggun::board::RuleSet;
use match_common::*;
use std::process::Command;

/// Runs `janggun match` with two scripted engines and `extra`; returns the
/// exit status's success, stdout and stderr.
fn janggun_match(extra: &[&str]) -> (bool, String, String) {
    let mut a = args(&["match"]);
    a.extend(script_engine("one", &["a1a2", "a10a9", "e2e2", "e9e9"]));
    a.extend(script_engine("two", &["a1a2", "a10a9", "e2e2", "e9e9"]));
    a.extend(args(extra));
    let out = Command::new(env!("CARGO_BIN_EXE_janggun"))
        .args(&a)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn assert_refused(extra: &[&str], flag: &str) {
    let (ok, stdout, stderr) = janggun_match(extra);
    assert!(!ok, "{extra:?} was accepted:\n{stdout}");
    assert!(
        stderr.starts_with("error: ") && stderr.contains(flag),
        "{extra:?}: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{extra:?}: {stderr}");
    assert!(!stdout.contains("game "), "{extra:?} played:\n{stdout}");
}

#[test]
fn overflowing_rounds_are_refused() {
    // 2 * 9223372036854775809 wraps to 2 in 64 bits.
    assert_refused(
        &["--rounds", "9223372036854775809", "--movetime", "500"],
        "--rounds",
    );
    assert_refused(&["--rounds", "500001", "--movetime", "500"], "--rounds");
    assert_refused(&["--games", "1000001", "--movetime", "500"], "--games");
}

#[test]
fn overflowing_times_are_refused() {
    // 18446744073709551615 + 100 wraps to 99 ms: every game lost on time.
    assert_refused(
        &["--movetime", "18446744073709551615", "--timemargin", "100"],
        "--movetime",
    );
    assert_refused(
        &["--movetime", "500", "--timemargin", "18446744073709551615"],
        "--timemargin",
    );
    assert_refused(&["--tc", "86401+0"], "--tc");
    assert_refused(&["--tc", "1+1", "--byoyomi", "1e7"], "--byoyomi");
    assert_refused(&["--nodes", "0"], "--nodes");
}

#[test]
fn sane_limits_still_play() {
    let (ok, stdout, stderr) = janggun_match(&[
        "--rounds",
        "1",
        "--movetime",
        "86400000",
        "--timemargin",
        "86400000",
    ]);
    assert!(ok, "{stdout}\n{stderr}");
    assert!(stdout.contains("game    2/2"), "{stdout}");
}

#[test]
fn a_long_digit_run_in_an_openings_fen_is_refused_with_its_line() {
    // 4294967305 is 2^32 + 9: in 32 bits, nine empty points.
    let long = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/4294967305/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
    let epd = temp_path("digits.epd");
    std::fs::write(
        &epd,
        format!("# openings\n{}\n{long}\n", janggun::board::START_FEN),
    )
    .unwrap();
    let err = openings::load(&epd, RuleSet::Janggi, 8).unwrap_err();
    assert!(err.contains(epd.to_str().unwrap()), "{err}");
    assert!(err.contains("line 3"), "{err}");
    assert!(err.contains("4294967305"), "{err}");
    // The command refuses it before any game.
    assert_refused(
        &["--movetime", "500", "--openings", epd.to_str().unwrap()],
        "line 3",
    );
    let _ = std::fs::remove_file(&epd);

    let pgn = temp_path("digits.pgn");
    std::fs::write(
        &pgn,
        format!(
            "[Event \"a\"]\n\n1. Hc3 *\n\n[Event \"b\"]\n[FEN \"{long}\"]\n[SetUp \"1\"]\n\n1. Hc3 *\n"
        ),
    )
    .unwrap();
    let err = openings::load(&pgn, RuleSet::Janggi, 8).unwrap_err();
    assert!(err.contains(pgn.to_str().unwrap()), "{err}");
    assert!(err.contains("game 2") && err.contains("line 5"), "{err}");
    assert!(err.contains("4294967305"), "{err}");
    let _ = std::fs::remove_file(&pgn);
}

#[test]
fn check_answers_for_the_arguments_and_plays_nothing() {
    let dir = std::env::temp_dir().join(format!("janggun-check-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let json = dir.join("m.json");
    let json = json.to_str().unwrap();
    let (ok, stdout, stderr) = janggun_match(&[
        "--nodes", "100", "--sprt", "elo0=0", "elo1=10", "--json", json, "--check",
    ]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("nothing played"), "{stdout}");
    assert!(!stdout.contains("game "), "{stdout}");
    assert!(!std::path::Path::new(json).exists(), "--check wrote {json}");
    // Bounds that can never decide are refused under --check as without it.
    assert_refused(
        &["--nodes", "100", "--sprt", "elo0=10", "elo1=0", "--check"],
        "--sprt",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
