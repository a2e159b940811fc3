//! The files of `janggun match`, `match merge` and `match report` (issue
//! 45): no output replaces an input or another output, whatever the
//! spelling of its path; a path flag is given once; an existing file is
//! replaced only by one of its kind, and whole or not at all; a report's
//! SPRT obeys `--sprt`'s rule; and every game merged or reported is
//! replayed through the rules core, its end and result the ones the runner
//! can have recorded.
//!
//! The shards are played by two scripted engines (tests/fault_engine.py),
//! so that their games are short and the same on every run: game 1 ends
//! with an illegal move by Han, game 2 with a double pass (Han wins the
//! count). Everything runs the binary, so that `JANGGUN_TEST_BIN` can
//! point these tests at another build (the one before the fix fails them).
#![cfg(unix)]

mod match_common;

use janggun::arena::cli::EngineSpec;
use janggun::arena::record::{totals, Record, Slot};
use janggun::arena::report::{self, GameEntry, MatchReport};
use janggun::arena::{output, EndKind};
use janggun::board::{Color, Outcome};
use match_common::{fault_engine, python};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn bin() -> String {
    std::env::var("JANGGUN_TEST_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_janggun").into())
}

struct Run {
    ok: bool,
    stdout: String,
    stderr: String,
}

impl std::fmt::Debug for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "ok {}\nstdout: {}\nstderr: {}",
            self.ok, self.stdout, self.stderr
        )
    }
}

impl Run {
    fn refused(&self, words: &[&str]) -> bool {
        !self.ok && words.iter().all(|w| self.stderr.contains(w))
    }
}

/// The binary with `args`, run in `dir`.
fn janggun(dir: &Path, args: &[&str]) -> Run {
    let out = Command::new(bin())
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    Run {
        ok: out.status.success(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("janggun-outputs-{}-{name}", std::process::id()));
    std::fs::remove_dir_all(&d).ok();
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The two scripted engines: "full" passes after its chariot move and
/// so does "short", which then has no move left.
fn engines() -> Vec<String> {
    let script = |name: &str, moves: &[&str]| {
        let mut v = vec![
            "--engine".to_string(),
            format!("name={name}"),
            format!("cmd={}", python()),
            format!("arg={}", fault_engine()),
            "arg=script".into(),
        ];
        v.extend(moves.iter().map(|m| format!("arg={m}")));
        v
    };
    let mut a = script("full", &["a1a2", "a10a9", "e2e2", "e9e9"]);
    a.extend(script("short", &["a1a2", "a10a9", "e2e2"]));
    a
}

/// `janggun match` with the scripted engines, 2 games, and `extra`.
fn play(dir: &Path, extra: &[&str]) -> Run {
    let mut a: Vec<String> = vec!["match".into()];
    a.extend(engines());
    a.extend(
        ["--games", "2", "--movetime", "2000", "--quiet"]
            .iter()
            .map(|s| s.to_string()),
    );
    a.extend(extra.iter().map(|s| s.to_string()));
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    janggun(dir, &a)
}

/// Shards of seeds 1 and 2 (`s1.json`, `s1.pgn`, ...), played once for
/// all the tests and copied into each test's directory.
fn shards() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = scratch("shards");
        for seed in ["1", "2"] {
            let r = play(
                &dir,
                &[
                    "--seed",
                    seed,
                    "--json",
                    &format!("s{seed}.json"),
                    "--pgn",
                    &format!("s{seed}.pgn"),
                ],
            );
            assert!(r.ok, "{r:?}");
        }
        dir
    })
}

/// A directory for one test holding copies of the shards.
fn with_shards(name: &str) -> PathBuf {
    let dir = scratch(name);
    for f in ["s1.json", "s1.pgn", "s2.json", "s2.pgn"] {
        std::fs::copy(shards().join(f), dir.join(f)).unwrap();
    }
    dir
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The names in `dir` that look like a file written aside.
fn aside(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("tmp"))
        .collect()
}

#[test]
fn no_output_replaces_an_input_or_another_output() {
    let dir = with_shards("same");
    std::os::unix::fs::symlink("s1.json", dir.join("link.json")).unwrap();
    std::fs::hard_link(dir.join("s2.json"), dir.join("hard.json")).unwrap();
    let openings = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1\n";
    std::fs::write(dir.join("book.epd"), openings).unwrap();
    let before: Vec<(&str, Vec<u8>)> = ["s1.json", "s1.pgn", "s2.json", "s2.pgn", "book.epd"]
        .into_iter()
        .map(|f| (f, read(&dir.join(f))))
        .collect();
    let cases: [&[&str]; 10] = [
        &["match", "report", "s1.json", "--out", "s1.json"],
        &["match", "report", "s1.json", "--out", "./link.json"],
        &[
            "match",
            "report",
            "s1.json",
            "s2.json",
            "--out",
            "hard.json",
        ],
        &[
            "match", "merge", "m.json", "s1.json", "s2.json", "--pgn", "s1.json",
        ],
        &[
            "match", "merge", "m.json", "s1.json", "s2.json", "--pgn", "s1.pgn",
        ],
        &[
            "match", "merge", "m.json", "s1.json", "s2.json", "--pgn", "./s2.pgn",
        ],
        &["match", "merge", "m.json", "s1.json", "--pgn", "m.json"],
        &["match", "merge", "hard.json", "s2.json"],
        &[
            "match",
            "merge",
            "m.json",
            "s1.json",
            "sub/../s2.json",
            "--pgn",
            "sub/../m.json",
        ],
        &["match", "merge", "m.json", "./s1.json", "link.json"],
    ];
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    for args in cases {
        let r = janggun(&dir, args);
        assert!(
            r.refused(&["same file"]) || r.refused(&["listed twice"]),
            "{args:?}: {r:?}"
        );
        assert!(!dir.join("m.json").exists(), "{args:?}");
    }
    // The match's own outputs and inputs.
    let matches: [&[&str]; 4] = [
        &["--json", "x.out", "--pgn", "./x.out"],
        &["--json", "x.json", "--pgn", "sub/../x.json"],
        &["--openings", "book.epd", "--pgn", "./book.epd"],
        &["--openings", "book.epd", "--json", "book.epd"],
    ];
    for extra in matches {
        let r = play(&dir, extra);
        assert!(r.refused(&["same file"]), "{extra:?}: {r:?}");
        assert!(!dir.join("x.out").exists() && !dir.join("x.json").exists());
    }
    for (f, bytes) in before {
        assert_eq!(read(&dir.join(f)), bytes, "{f} changed");
    }
    assert!(aside(&dir).is_empty(), "{:?}", aside(&dir));
}

#[test]
fn a_path_flag_given_twice_is_refused() {
    let dir = with_shards("twice");
    let cases: [&[&str]; 3] = [
        &[
            "match", "merge", "m.json", "s1.json", "--pgn", "a.pgn", "--pgn", "b.pgn",
        ],
        &[
            "match", "report", "s1.json", "--out", "a.html", "--out", "b.html",
        ],
        &[
            "match", "merge", "m.json", "s1.json", "--sprt", "elo1=5", "--sprt", "elo1=9",
        ],
    ];
    for args in cases {
        let r = janggun(&dir, args);
        assert!(r.refused(&["given twice"]), "{args:?}: {r:?}");
    }
    for extra in [
        ["--json", "a.json", "--json", "b.json"],
        ["--pgn", "a.pgn", "--pgn", "b.pgn"],
        ["--openings", "s1.pgn", "--openings", "s2.pgn"],
    ] {
        let r = play(&dir, &extra);
        assert!(r.refused(&["given twice", extra[0]]), "{extra:?}: {r:?}");
    }
    for f in [
        "m.json", "a.pgn", "b.pgn", "a.html", "b.html", "a.json", "b.json",
    ] {
        assert!(!dir.join(f).exists(), "{f} written");
    }
}

#[test]
fn only_a_file_of_the_output_s_kind_is_replaced() {
    let dir = with_shards("kind");
    let notes = b"my notes\n";
    let page = b"<!DOCTYPE html>\n<html><title>my page</title></html>\n";
    std::fs::write(dir.join("notes.txt"), notes).unwrap();
    std::fs::write(dir.join("page.html"), page).unwrap();
    let shard = read(&dir.join("s1.json"));
    // Kept: a file of another kind where the output goes.
    let merges: [&[&str]; 4] = [
        &["match", "merge", "notes.txt", "s1.json"],
        &["match", "merge", "page.html", "s2.json"],
        &["match", "merge", "s1.json", "s2.json"],
        &["match", "merge", "m.json", "s1.json", "--pgn", "notes.txt"],
    ];
    for args in merges {
        let r = janggun(&dir, args);
        assert!(r.refused(&["not replaced"]), "{args:?}: {r:?}");
    }
    let r = janggun(&dir, &["match", "report", "s1.json", "--out", "page.html"]);
    assert!(r.refused(&["not replaced"]), "{r:?}");
    let r = janggun(&dir, &["match", "report", "s1.json", "--out", "notes.txt"]);
    assert!(r.refused(&["not replaced"]), "{r:?}");
    for extra in [["--pgn", "notes.txt"], ["--json", "notes.txt"]] {
        let r = play(&dir, &extra);
        assert!(r.refused(&["not replaced"]), "{extra:?}: {r:?}");
    }
    assert_eq!(read(&dir.join("notes.txt")), notes);
    assert_eq!(read(&dir.join("page.html")), page);
    assert_eq!(read(&dir.join("s1.json")), shard);
    assert!(!dir.join("m.json").exists());

    // Replaced: a file of the kind, or an empty one.
    std::fs::write(dir.join("m.json"), "").unwrap();
    std::fs::write(dir.join("m.pgn"), "").unwrap();
    for _ in 0..2 {
        let r = janggun(
            &dir,
            &[
                "match", "merge", "m.json", "s1.json", "s2.json", "--pgn", "m.pgn",
            ],
        );
        assert!(r.ok, "{r:?}");
    }
    let r = janggun(&dir, &["match", "merge", "m.json", "s1.json", "s2.json"]);
    assert!(r.ok, "{r:?}");
    // A merged report is no match's own.
    let merged = read(&dir.join("m.json"));
    let r = play(&dir, &["--json", "m.json"]);
    assert!(r.refused(&["merged report", "not replaced"]), "{r:?}");
    assert_eq!(read(&dir.join("m.json")), merged);
    for _ in 0..2 {
        let r = janggun(&dir, &["match", "report", "m.json", "--out", "r.html"]);
        assert!(r.ok, "{r:?}");
        let r = play(&dir, &["--json", "own.json", "--pgn", "own.pgn"]);
        assert!(r.ok, "{r:?}");
    }
    assert!(aside(&dir).is_empty(), "{:?}", aside(&dir));
}

#[test]
fn a_write_that_fails_leaves_the_output_as_it_was_and_nothing_aside() {
    let dir = with_shards("partial");
    let r = janggun(&dir, &["match", "merge", "m.json", "s1.json", "s2.json"]);
    assert!(r.ok, "{r:?}");
    let r = janggun(&dir, &["match", "report", "s1.json", "--out", "r.html"]);
    assert!(r.ok, "{r:?}");
    let (merged, html) = (read(&dir.join("m.json")), read(&dir.join("r.html")));
    // One block of 512 bytes: every output here is larger. The signal
    // ignored, the write fails with an error instead of a kill.
    let limited = |args: &[&str]| {
        let out = Command::new("sh")
            .arg("-c")
            .arg("trap '' XFSZ; ulimit -f 1; exec \"$0\" \"$@\"")
            .arg(bin())
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    for args in [
        &["match", "merge", "m.json", "s2.json", "s1.json"][..],
        &[
            "match", "merge", "m2.json", "s1.json", "s2.json", "--pgn", "m.pgn",
        ],
        &["match", "report", "s2.json", "--out", "r.html"],
    ] {
        let (ok, stderr) = limited(args);
        assert!(!ok, "{args:?}: {stderr}");
        assert_eq!(read(&dir.join("m.json")), merged, "{args:?}");
        assert_eq!(read(&dir.join("r.html")), html, "{args:?}");
        assert!(!dir.join("m.pgn").exists() && !dir.join("m2.json").exists());
        assert!(aside(&dir).is_empty(), "{args:?}: {:?}", aside(&dir));
    }
}

#[test]
fn a_report_s_sprt_obeys_the_rule_of_sprt() {
    let dir = with_shards("sprt");
    let r = janggun(
        &dir,
        &[
            "match", "merge", "m.json", "s1.json", "s2.json", "--sprt", "elo0=0", "elo1=5",
        ],
    );
    assert!(r.ok, "{r:?}");
    let text = String::from_utf8(read(&dir.join("m.json"))).unwrap();
    for (from, to) in [
        ("\"alpha\": 0.05", "\"alpha\": 1.5"),
        ("\"alpha\": 0.05", "\"alpha\": 0.0"),
        ("\"beta\": 0.05", "\"beta\": -0.1"),
        ("\"elo1\": 5.0", "\"elo1\": -5.0"),
        ("\"elo0\": 0.0", "\"elo0\": -1e300"),
    ] {
        assert!(text.contains(from), "{from}");
        std::fs::write(dir.join("bad.json"), text.replacen(from, to, 1)).unwrap();
        let r = janggun(&dir, &["match", "merge", "out.json", "bad.json"]);
        assert!(r.refused(&["bad.json", "sprt"]), "{to}: {r:?}");
        assert!(!r.stdout.contains("NaN"), "{to}: {r:?}");
        let r = janggun(&dir, &["match", "report", "bad.json", "--out", "r.html"]);
        assert!(r.refused(&["bad.json", "sprt"]), "{to}: {r:?}");
        assert!(!dir.join("out.json").exists() && !dir.join("r.html").exists());
    }
    // Where the test stands is recounted, not believed.
    assert!(text.contains("\"state\": \"continue\""), "{text}");
    let decided = text.replacen("\"state\": \"continue\"", "\"state\": \"H1 accepted\"", 1);
    std::fs::write(dir.join("bad.json"), decided).unwrap();
    let r = janggun(&dir, &["match", "merge", "out.json", "bad.json"]);
    assert!(r.refused(&["bad.json", "SPRT"]), "{r:?}");
    // Merges under two tests are not merged under one of them.
    for (out, shard, elo1) in [
        ("h1.json", "s1.json", "elo1=5"),
        ("h2.json", "s2.json", "elo1=10"),
    ] {
        let r = janggun(&dir, &["match", "merge", out, shard, "--sprt", elo1]);
        assert!(r.ok, "{r:?}");
    }
    let r = janggun(&dir, &["match", "merge", "out.json", "h1.json", "h2.json"]);
    assert!(
        r.refused(&["h2.json", "SPRT", "elo1=10", "elo1=5"]),
        "{r:?}"
    );
    assert!(!dir.join("out.json").exists());
}

/// The report at `path` with `edit` applied to its games, its totals
/// restated from them as the runner states them: only the games are wrong.
fn restated(path: &Path, out: &Path, edit: impl Fn(&mut Vec<GameEntry>)) {
    let mut r: MatchReport = report::read(path).unwrap().unwrap();
    edit(&mut r.games);
    let names: Vec<String> = r.engines.iter().map(|e| e.name.clone()).collect();
    let mut records = BTreeMap::new();
    for g in &r.games {
        let index = g.game as usize - 1;
        let engine = |n: &str| names.iter().position(|x| x == n).unwrap();
        let outcome = match g.result.as_str() {
            "1-0" => Outcome::Win(Color::Cho),
            "0-1" => Outcome::Win(Color::Han),
            _ => Outcome::Draw,
        };
        let rec = Record {
            slot: Slot {
                index,
                pairing: g.pairing as usize,
                pair: index / 2,
                cho: engine(&g.cho),
                han: engine(&g.han),
            },
            fen: g.fen.clone(),
            moves: Vec::new(),
            book_plies: 0,
            stats: Vec::new(),
            outcome,
            kind: EndKind::from_name(&g.end).unwrap(),
            detail: String::new(),
        };
        records.insert(index, rec);
    }
    let t = totals(names.len(), &records);
    for (e, et) in r.engines.iter_mut().zip(&t.engines) {
        let spec = EngineSpec {
            name: e.name.clone(),
            cmd: e.cmd.clone(),
            ..Default::default()
        };
        let counted = output::engine_entry(&spec, et);
        *e = report::EngineEntry {
            args: e.args.clone(),
            options: e.options.clone(),
            limits: e.limits.clone(),
            ..counted
        };
    }
    r.end_reasons = output::end_reasons(&t);
    std::fs::write(out, report::to_text(&r).unwrap()).unwrap();
}

#[test]
fn every_game_is_replayed_through_the_rules() {
    let dir = with_shards("replay");
    let src = dir.join("s1.json");
    // The shard restated unchanged is merged: the check is of the games.
    restated(&src, &dir.join("same.json"), |_| {});
    let r = janggun(&dir, &["match", "merge", "m.json", "same.json"]);
    assert!(r.ok, "{r:?}");
    std::fs::remove_file(dir.join("m.json")).unwrap();

    type Edit = fn(&mut GameEntry);
    // Game 1 (index 0): Han's illegal move, 1-0. Game 2: a double pass, 0-1.
    let cases: [(usize, Edit, &str); 13] = [
        (
            0,
            |g| std::mem::swap(&mut g.cho, &mut g.han),
            "colours reversed",
        ),
        (
            0,
            |g| g.fen = g.fen.replacen("rnba1anbr", "rbna1abnr", 1),
            "same opening",
        ),
        (
            0,
            |g| g.moves = g.moves.replacen("a10a9", "a10a1", 1),
            "illegal move",
        ),
        (
            0,
            |g| g.moves = g.moves.replacen("a10a9", "a10a9x", 1),
            "ply 2",
        ),
        (0, |g| g.result = "0-1".into(), "the side whose move it was"),
        (0, |g| g.result = "1/2-1/2".into(), "as a draw"),
        (
            0,
            |g| {
                g.end = "adjudicated draw".into();
                g.termination = "adjudication".into();
                g.result = "1/2-1/2".into();
            },
            "without --adjudicate-draw",
        ),
        (
            0,
            |g| {
                g.end = "max plies".into();
                g.termination = "adjudication".into();
            },
            "max plies",
        ),
        (0, |g| g.termination = "normal".into(), "termination"),
        (
            1,
            |g| {
                g.moves = "a1a2 a10a9 e2e2".into();
                g.plies = 3;
                g.time_ms.pop();
                g.depth.pop();
            },
            "the rules do not end it",
        ),
        (1, |g| g.result = "1-0".into(), "the rules end it 0-1"),
        (
            1,
            |g| {
                g.end = "checkmate".into();
            },
            "not 0-1 checkmate",
        ),
        (1, |g| g.plies = 7, "\"plies\""),
    ];
    // More games than the match planned.
    let text = String::from_utf8(read(&src)).unwrap();
    let more = text.replacen("\"games_planned\": 2", "\"games_planned\": 1", 1);
    assert_ne!(more, text);
    std::fs::write(dir.join("more.json"), more).unwrap();
    let r = janggun(&dir, &["match", "merge", "m.json", "more.json"]);
    assert!(
        r.refused(&["more.json", "2 games played of 1 planned"]),
        "{r:?}"
    );
    for (k, (game, edit, why)) in cases.into_iter().enumerate() {
        let bad = dir.join(format!("bad{k}.json"));
        restated(&src, &bad, |games| edit(&mut games[game]));
        let name = bad.file_name().unwrap().to_str().unwrap();
        let r = janggun(&dir, &["match", "merge", "m.json", name]);
        assert!(r.refused(&[name, "game", why]), "case {k}: {r:?}");
        let r = janggun(&dir, &["match", "report", name, "--out", "r.html"]);
        assert!(r.refused(&[name, why]), "case {k}: {r:?}");
        assert!(!dir.join("m.json").exists() && !dir.join("r.html").exists());
    }
}

#[test]
fn the_pgn_beside_a_shard_holds_its_games() {
    let dir = with_shards("pgn");
    let pgn = String::from_utf8(read(&dir.join("s1.pgn"))).unwrap();
    // The games' count is right, one game's end is not its JSON's.
    let other = pgn.replacen("[EndReason \"illegal move\"]", "[EndReason \"crash\"]", 1);
    assert_ne!(other, pgn);
    std::fs::write(dir.join("s1.pgn"), other).unwrap();
    let r = janggun(
        &dir,
        &[
            "match", "merge", "m.json", "s1.json", "s2.json", "--pgn", "m.pgn",
        ],
    );
    assert!(
        r.refused(&["s1.pgn", "not one of its JSON report's games"]),
        "{r:?}"
    );
    assert!(!dir.join("m.json").exists() && !dir.join("m.pgn").exists());
    // Whole, the shards' PGN merge, and the merged PGN merges again.
    std::fs::write(dir.join("s1.pgn"), pgn).unwrap();
    let r = janggun(
        &dir,
        &[
            "match", "merge", "m.json", "s1.json", "s2.json", "--pgn", "m.pgn",
        ],
    );
    assert!(r.ok, "{r:?}");
    let r = janggun(
        &dir,
        &["match", "merge", "mm.json", "m.json", "--pgn", "mm.pgn"],
    );
    assert!(r.ok, "{r:?}");
    assert_eq!(read(&dir.join("mm.pgn")), read(&dir.join("m.pgn")));
}
