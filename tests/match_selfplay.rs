//! A short match of a real engine against itself at fixed nodes: every
//! game finishes, the PGN reads back and replays legally with the rules
//! core (and the rules core agrees with each result it decided), the JSON
//! totals add up, and `--resume` continues without losing games.
//!
//! Janggun's own UCI loop lands on another branch; until then the engine is
//! Debian's Fairy-Stockfish. To switch, change `engine()` to return
//! `Some(env!("CARGO_BIN_EXE_janggun").to_string())`.

mod match_common;

use janggun::arena::pgn;
use janggun::board::rules::game_end;
use janggun::board::RuleSet;
use match_common::*;

fn engine() -> Option<String> {
    Some(env!("CARGO_BIN_EXE_janggun").to_string())
}

fn self_match(cmd: &str, extra: &[&str]) -> Vec<String> {
    let mut a = args(&[
        "--engine",
        "name=one",
        &format!("cmd={cmd}"),
        "option.Hash=8",
    ]);
    a.extend(args(&[
        "--engine",
        "name=two",
        &format!("cmd={cmd}"),
        "option.Hash=8",
    ]));
    a.extend(args(&[
        "--nodes",
        "400",
        "--quiet",
        "--seed",
        "5",
        "--random-plies",
        "2",
    ]));
    a.extend(args(extra));
    a
}

#[test]
fn self_match_pgn_and_json_are_consistent() {
    let Some(cmd) = engine() else { return };
    let pgn_path = temp_path("self.pgn");
    let json_path = temp_path("self.json");
    let a = self_match(
        &cmd,
        &[
            "--games",
            "4",
            "--concurrency",
            "2",
            "--pgn",
            pgn_path.to_str().unwrap(),
            "--json",
            json_path.to_str().unwrap(),
        ],
    );
    let out = run_match(&a);
    assert_eq!(out.records.len(), 4, "every game finishes");

    let text = std::fs::read_to_string(&pgn_path).unwrap();
    let games = pgn::read_games(&text);
    assert_eq!(games.len(), 4);
    for g in &games {
        assert_eq!(g.tag("Variant"), Some("Janggi"));
        assert_eq!(g.tag("SetUp"), Some("1"));
        let index: usize = g.tag("Round").unwrap().parse::<usize>().unwrap() - 1;
        let rec = &out.records[&index];
        let (root, moves) = g.replay(RuleSet::Janggi).expect("PGN replays legally");
        assert_eq!(moves, rec.moves, "PGN moves are the moves played");
        assert_eq!(g.tag("Result"), Some(rec.outcome.result_string()));
        let mut pos = root.clone();
        for m in &moves {
            pos.make(*m);
        }
        if rec.kind.by_rules() {
            let end = game_end(&pos).expect("the rules core sees the end");
            assert_eq!(end.outcome, rec.outcome);
        } else {
            assert!(!rec.kind.is_fault(), "a fault in self-play: {}", rec.detail);
        }
    }

    // Read as plain JSON, not through the runner's own types.
    let text = std::fs::read_to_string(&json_path).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let num = |v: &serde_json::Value, k: &str| v[k].as_u64().unwrap();
    assert_eq!(num(&v, "version"), 2);
    let played = num(&v, "games_played");
    assert_eq!(played, 4);
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len() as u64, played);
    let e = v["engines"].as_array().unwrap();
    for x in e {
        assert_eq!(num(x, "wins") + num(x, "draws") + num(x, "losses"), played);
        let penta = x["pentanomial"].as_array().unwrap();
        assert_eq!(
            penta.iter().map(|p| p.as_u64().unwrap()).sum::<u64>(),
            played / 2
        );
    }
    assert_eq!(num(&e[0], "wins"), num(&e[1], "losses"));
    assert_eq!(num(&e[0], "draws"), num(&e[1], "draws"));
    let reasons = v["end_reasons"].as_object().unwrap();
    assert_eq!(
        reasons.values().map(|n| n.as_u64().unwrap()).sum::<u64>(),
        played
    );
    // A time and a depth for every move the engines chose.
    for (g, rec) in games.iter().zip(out.records.values()) {
        let plies = num(g, "plies") - num(g, "book_plies");
        assert_eq!(g["time_ms"].as_array().unwrap().len() as u64, plies);
        let depths = g["depth"].as_array().unwrap();
        assert_eq!(depths.len() as u64, plies);
        assert!(depths.iter().all(|d| d.as_u64().unwrap() >= 1), "{g}");
        assert_eq!(rec.stats.len() as u64, plies);
    }
    let _ = std::fs::remove_file(&pgn_path);
    let _ = std::fs::remove_file(&json_path);
}

#[test]
fn resume_continues_from_pgn_or_json_without_losing_games() {
    let Some(cmd) = engine() else { return };
    for via_pgn in [true, false] {
        let path = temp_path(if via_pgn { "resume.pgn" } else { "resume.json" });
        let flag = if via_pgn { "--pgn" } else { "--json" };
        let first = run_match(&self_match(
            &cmd,
            &["--games", "2", flag, path.to_str().unwrap()],
        ));
        assert_eq!(first.records.len(), 2);
        let resumed = run_match(&self_match(
            &cmd,
            &["--games", "4", flag, path.to_str().unwrap(), "--resume"],
        ));
        assert_eq!(
            resumed.records.len(),
            4,
            "resume plays only the missing games"
        );
        for (i, r) in &first.records {
            assert_eq!(resumed.records[i].moves, r.moves, "game {i} kept as played");
            assert_eq!(resumed.records[i].outcome, r.outcome);
        }
        if via_pgn {
            let text = std::fs::read_to_string(&path).unwrap();
            assert_eq!(
                pgn::read_games(&text).len(),
                4,
                "the PGN holds every game once"
            );
        }
        let _ = std::fs::remove_file(&path);
    }
}

#[test]
fn resume_refuses_a_file_from_another_match() {
    let Some(cmd) = engine() else { return };
    let path = temp_path("other.pgn");
    run_match(&self_match(
        &cmd,
        &["--games", "2", "--pgn", path.to_str().unwrap()],
    ));
    let mut a = self_match(
        &cmd,
        &["--games", "4", "--pgn", path.to_str().unwrap(), "--resume"],
    );
    for x in a.iter_mut() {
        if x == "name=one" {
            *x = "name=three".into();
        }
    }
    let cfg = janggun::arena::cli::parse(&a).unwrap();
    let err = janggun::arena::run(&cfg)
        .err()
        .expect("mismatched resume must fail");
    assert!(err.contains("schedules"), "{err}");
    let _ = std::fs::remove_file(&path);
}
