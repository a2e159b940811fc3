//! `--resume` believes nothing it cannot check: a PGN cut short by an
//! interruption loses only its cut last game (which is played again, on a
//! clean line), and a file that is not whole games of this very match is
//! refused without being written to.
//!
//! Two scripted engines make every game short and the same on each run:
//! with "full" as Cho both sides pass after a chariot move each (a double
//! pass, decided by the rules core); with "short" as Cho, "short" runs out
//! of script on its second move (an illegal-move loss, with a comment).

mod match_common;

use janggun::arena::{cli, pgn, run, MatchSummary};
use janggun::board::RuleSet;
use match_common::*;
use std::path::Path;

fn engines() -> Vec<String> {
    let mut a = script_engine("full", &["a1a2", "a10a9", "e2e2", "e9e9"]);
    a.extend(script_engine("short", &["a1a2", "a10a9", "e2e2"]));
    a
}

fn match_args(games: usize, flag: &str, path: &Path, resume: bool) -> Vec<String> {
    let mut a = engines();
    a.extend(args(&[
        "--games",
        &games.to_string(),
        "--movetime",
        "2000",
        "--quiet",
        flag,
        path.to_str().unwrap(),
    ]));
    if resume {
        a.push("--resume".into());
    }
    a
}

fn try_match(a: &[String]) -> Result<MatchSummary, String> {
    run(&cli::parse(a)?)
}

/// The PGN text without its `Date` tags (a run may cross midnight).
fn undated(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("[Date "))
        .collect::<Vec<_>>()
        .join("\n")
}

fn reference_pgn(name: &str, games: usize) -> String {
    let path = temp_path(&format!("reference-{games}-{name}"));
    run_match(&match_args(games, "--pgn", &path, false));
    let text = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    text
}

/// Cuts a finished 4-game PGN at `cut(text, start of its last game)`,
/// resumes it to 6 games, and expects the file an uninterrupted 6-game
/// match writes.
fn resume_after_cut(name: &str, cut: impl Fn(&str, usize) -> usize) {
    let path = temp_path(name);
    run_match(&match_args(4, "--pgn", &path, false));
    let text = std::fs::read_to_string(&path).unwrap();
    let last = text.rfind("[Event ").unwrap();
    let at = cut(&text, last);
    assert!(at > last && at < text.len(), "{name}: cut {at}");
    std::fs::write(&path, &text.as_bytes()[..at]).unwrap();

    let out = try_match(&match_args(6, "--pgn", &path, true))
        .unwrap_or_else(|e| panic!("{name}: resume failed: {e}"));
    assert_eq!(out.records.len(), 6, "{name}");
    let resumed = std::fs::read_to_string(&path).unwrap();
    let games = pgn::read_games(&resumed);
    assert_eq!(games.len(), 6, "{name}: {resumed}");
    for g in &games {
        let (_, moves) = g
            .replay(RuleSet::Janggi)
            .unwrap_or_else(|e| panic!("{name}: {e}\n{resumed}"));
        assert_eq!(g.tag("PlyCount"), Some(moves.len().to_string().as_str()));
    }
    assert_eq!(
        undated(&resumed),
        undated(&reference_pgn(name, 6)),
        "{name}: the resumed file is the uninterrupted one"
    );
    // And it resumes again: nothing is left to play, nothing is lost.
    let again = try_match(&match_args(6, "--pgn", &path, true)).unwrap();
    assert_eq!(again.records.len(), 6, "{name}");
    assert_eq!(
        undated(&std::fs::read_to_string(&path).unwrap()),
        undated(&resumed)
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_game_cut_in_its_moves_is_played_again() {
    // Right after a whole move: every token left looks finished.
    resume_after_cut("cut-after-move.pgn", |t, last| {
        let moves = last + t[last..].find("\n\n").unwrap() + 2;
        moves + t[moves..].find("Ra2").unwrap() + 3
    });
    // In the middle of a move.
    resume_after_cut("cut-in-move.pgn", |t, last| {
        let moves = last + t[last..].find("\n\n").unwrap() + 2;
        moves + t[moves..].find("Ra2").unwrap() + 2
    });
}

#[test]
fn a_game_cut_in_its_tags_is_played_again() {
    resume_after_cut("cut-in-tags.pgn", |t, last| {
        last + t[last..].find("[White").unwrap() + 5
    });
    resume_after_cut("cut-after-tags.pgn", |t, last| {
        last + t[last..].find("\n\n").unwrap() + 1
    });
}

/// Resuming `content` must fail with a message holding `why`, and leave
/// the file exactly as it was.
fn refused(name: &str, flag: &str, content: &[u8], why: &str) {
    let path = temp_path(name);
    std::fs::write(&path, content).unwrap();
    let err = match try_match(&match_args(6, flag, &path, true)) {
        Ok(out) => panic!("{name}: resumed {} games", out.records.len()),
        Err(e) => e,
    };
    assert!(err.contains(why), "{name}: '{err}' lacks '{why}'");
    assert!(err.contains(path.to_str().unwrap()), "{name}: {err}");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        content,
        "{name}: file touched"
    );
    let _ = std::fs::remove_file(&path);
}

fn random_bytes(n: usize) -> Vec<u8> {
    let mut x = 0x1234_5678_9abc_def0_u64;
    (0..n)
        .map(|_| {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let z = (x ^ (x >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            (z >> 56) as u8
        })
        .collect()
}

#[test]
fn random_bytes_are_refused() {
    refused("random.pgn", "--pgn", &random_bytes(4096), "line 1");
    refused("random.json", "--json", &random_bytes(4096), "JSON");
    refused("text.pgn", "--pgn", b"hello world\n", "line 1");
    refused("bracket.pgn", "--pgn", b"[garbage", "line 1");
    refused("empty-object.json", "--json", b"{}\n", "not a JSON report");
}

/// A whole 4-game PGN, and its games as text.
fn four_games(name: &str) -> (String, Vec<String>) {
    let path = temp_path(name);
    run_match(&match_args(4, "--pgn", &path, false));
    let text = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    let games = text
        .split("[Event ")
        .skip(1)
        .map(|g| format!("[Event {g}"))
        .collect();
    (text, games)
}

#[test]
fn a_bad_game_in_the_middle_is_refused() {
    let (text, games) = four_games("middle.pgn");
    // "full" is Cho in games 1 and 3, where "short" runs out of moves as
    // Han; games 2 and 4 end by double pass, which Han wins on the count.
    assert!(
        games[0].contains("[EndReason \"illegal move\"]"),
        "{}",
        games[0]
    );
    assert!(
        games[1].contains("[EndReason \"double pass\"]"),
        "{}",
        games[1]
    );
    let with = |k: usize, edits: &[(&str, &str)]| {
        let mut g = games.clone();
        for (from, to) in edits {
            assert!(g[k].contains(from), "{from}: {}", g[k]);
            g[k] = g[k].replacen(from, to, 1);
        }
        g.concat()
    };
    let game2_line = games[0].lines().count() + 1;
    let cases = [
        (
            "no-result",
            with(0, &[("1-0\n\n", "\n\n")]),
            "without a result".to_string(),
        ),
        ("illegal", with(1, &[("1. Ra2", "1. Ra5")]), "ply 1".into()),
        (
            "rules",
            with(1, &[("[Rules \"janggi\"]", "[Rules \"kja\"]")]),
            "kja".into(),
        ),
        (
            "end",
            with(1, &[("\"double pass\"", "\"checkmate\"")]),
            "checkmate".into(),
        ),
        (
            "outcome",
            with(
                1,
                &[("[Result \"0-1\"]", "[Result \"1-0\"]"), ("0-1\n", "1-0\n")],
            ),
            "double pass".into(),
        ),
        (
            "round",
            with(2, &[("[Round \"3\"]", "[Round \"1\"]")]),
            "twice".into(),
        ),
        (
            "plies",
            with(0, &[("[PlyCount \"3\"]", "[PlyCount \"2\"]")]),
            "PlyCount".into(),
        ),
        (
            "result",
            with(1, &[("[Result \"0-1\"]", "[Result \"1-0\"]")]),
            "result".into(),
        ),
        (
            "digits",
            with(1, &[("/9/9/", "/9/4294967305/")]),
            format!("game at line {game2_line}: bad FEN"),
        ),
    ];
    for (name, content, why) in cases {
        assert_ne!(content, text, "{name}");
        refused(
            &format!("bad-{name}.pgn"),
            "--pgn",
            content.as_bytes(),
            &why,
        );
    }
}

#[test]
fn a_bad_json_game_is_refused() {
    let path = temp_path("whole.json");
    run_match(&match_args(2, "--json", &path, false));
    let text = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    let with = |from: &str, to: &str| {
        assert!(text.contains(from), "{from}: {text}");
        text.replacen(from, to, 1)
    };
    let cases = [
        (
            "illegal",
            with("\"moves\": \"a1a2", "\"moves\": \"a1a5"),
            "a1a5",
        ),
        ("number", with("\"game\": 2", "\"game\": 1.5"), "game"),
        ("no-games", with("\"games\": [", "\"gamez\": ["), "games"),
        (
            "rules",
            with("\"rules\": \"janggi\"", "\"rules\": \"kja\""),
            "kja",
        ),
        ("digits", with("/9/9/", "/9/4294967305/"), "4294967305"),
        ("cut", text[..text.len() / 2].to_string(), "JSON"),
    ];
    for (name, content, why) in cases {
        refused(
            &format!("bad-{name}.json"),
            "--json",
            content.as_bytes(),
            why,
        );
    }
}
