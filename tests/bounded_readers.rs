//! The match tools' readers under hostile input (issue 45): reports, the
//! PGN beside a shard, `--openings`, the `--resume` files and `tune`'s game
//! files are read only when they are regular files, and no more than a
//! cap; `match` ends at once on SIGTERM before its first game, even while
//! an open blocks; `perft` is bounded in depth as `go perft` is. Each case
//! runs the real binary with a time limit and a memory limit.
//! (FIFOs, devices, signals and `ulimit` make these Unix tests.)
#![cfg(unix)]

mod bounded_run;

use bounded_run::{finish, Run};
use janggun::arena::openings::MAX_OPENINGS_BYTES;
use janggun::arena::report::MAX_REPORT_BYTES;
use janggun::arena::resume_pgn::MAX_PGN_BYTES;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The binary under test: `JANGGUN_TEST_BIN` names another build (the one
/// before a fix, to see these tests fail on it).
fn bin() -> String {
    std::env::var("JANGGUN_TEST_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_janggun").into())
}

/// Far more than any refusal needs; a run still going then has hung.
const TIMEOUT: Duration = Duration::from_secs(20);
/// Virtual memory for each run, in KiB: enough to start, far less than an
/// endless read (or one of a file over its cap) would take.
const MEMORY_KB: u64 = 1_000_000;

/// Starts the binary with `args` in `dir` under the memory limit.
fn start(dir: &Path, args: &[&str]) -> Child {
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {MEMORY_KB}\nexec \"$0\" \"$@\""))
        .arg(bin())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start janggun")
}

fn run(dir: &Path, args: &[&str]) -> Run {
    finish(start(dir, args), TIMEOUT, Some(""))
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("janggun-bounded-{}-{name}", std::process::id()));
    std::fs::remove_dir_all(&d).ok();
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn mkfifo(path: &Path) {
    let st = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(st.success());
}

/// A sparse file of `len` bytes (no disk, no time).
fn sparse(path: &Path, len: u64) {
    std::fs::File::create(path).unwrap().set_len(len).unwrap();
}

/// The engines of a quick match: the binary itself at a few nodes.
fn engines() -> Vec<String> {
    let b = bin();
    [
        "--engine",
        "name=a",
        &format!("cmd={b}"),
        "--engine",
        "name=b",
        &format!("cmd={b}"),
        "--nodes",
        "50",
        "--games",
        "2",
        "--quiet",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn with<'a>(base: &'a [String], more: &[&'a str]) -> Vec<&'a str> {
    let mut v: Vec<&str> = vec!["match"];
    v.extend(base.iter().map(String::as_str));
    v.extend(more);
    v
}

/// Plays shard `name` (its seed `seed`) in `dir`: `name.json`, `name.pgn`.
fn shard(dir: &Path, name: &str, seed: &str) {
    let e = engines();
    let json = format!("{name}.json");
    let pgn = format!("{name}.pgn");
    let r = run(
        dir,
        &with(&e, &["--seed", seed, "--json", &json, "--pgn", &pgn]),
    );
    assert_eq!(r.code, Some(0), "{r:?}");
}

/// Every reader of the match tools refuses `path` with `why`, at once.
fn all_readers_refuse(dir: &Path, path: &str, why: &str) {
    let e = engines();
    let runs = [
        vec!["match", "report", path, "--out", "r.html"],
        vec!["match", "report", "s1.json", path, "--out", "r.html"],
        vec!["match", "merge", "m.json", "s1.json", path],
        with(&e, &["--openings", path]),
        with(&e, &["--resume", "--pgn", path]),
        with(&e, &["--resume", "--json", path]),
        vec!["tune", path],
    ];
    for a in runs {
        let r = run(dir, &a);
        assert!(r.failed_with(why), "{a:?}: {r:?}");
    }
    for out in ["r.html", "m.json"] {
        assert!(!dir.join(out).exists(), "{path}: {out} written");
    }
}

#[test]
fn arena_readers_refuse_what_is_not_a_regular_file() {
    let dir = scratch("kinds");
    shard(&dir, "s1", "1");
    shard(&dir, "s2", "2");
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    let not_regular = [
        (fifo.display().to_string(), "a FIFO"),
        ("/dev/zero".into(), "a device"),
        ("/dev/urandom".into(), "a device"),
        (dir.display().to_string(), "a directory"),
    ];
    for (path, kind) in &not_regular {
        all_readers_refuse(&dir, path, &format!("not a regular file ({kind})"));
        // The PGN beside a shard, which `merge --pgn` joins.
        let beside = dir.join("s2.pgn");
        std::fs::rename(&beside, dir.join("s2.pgn.real")).unwrap();
        std::os::unix::fs::symlink(path, &beside).unwrap();
        let r = run(
            &dir,
            &[
                "match", "merge", "m.json", "s1.json", "s2.json", "--pgn", "m.pgn",
            ],
        );
        assert!(r.failed_with("not a regular file"), "{path}: {r:?}");
        assert!(!dir.join("m.pgn").exists() && !dir.join("m.json").exists());
        std::fs::remove_file(&beside).unwrap();
        std::fs::rename(dir.join("s2.pgn.real"), &beside).unwrap();
    }
    // The same merge from regular files works.
    let r = run(
        &dir,
        &[
            "match", "merge", "m.json", "s1.json", "s2.json", "--pgn", "m.pgn",
        ],
    );
    assert_eq!(r.code, Some(0), "{r:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn arena_readers_refuse_files_over_their_caps() {
    let dir = scratch("caps");
    shard(&dir, "s1", "1");
    sparse(&dir.join("big.json"), MAX_REPORT_BYTES + 1);
    sparse(&dir.join("big.pgn"), MAX_PGN_BYTES + 1);
    sparse(&dir.join("big.txt"), MAX_OPENINGS_BYTES + 1);
    let e = engines();
    let runs = [
        run(&dir, &["match", "report", "big.json", "--out", "r.html"]),
        run(&dir, &["match", "merge", "m.json", "s1.json", "big.json"]),
        run(&dir, &with(&e, &["--resume", "--json", "big.json"])),
        run(&dir, &with(&e, &["--resume", "--pgn", "big.pgn"])),
        run(&dir, &with(&e, &["--openings", "big.txt"])),
    ];
    for r in runs {
        assert!(r.failed_with("larger than"), "{r:?}");
    }
    // The PGN beside a shard, for `merge --pgn`.
    shard(&dir, "s2", "2");
    sparse(&dir.join("s2.pgn"), MAX_PGN_BYTES + 1);
    let r = run(
        &dir,
        &[
            "match", "merge", "m.json", "s1.json", "s2.json", "--pgn", "m.pgn",
        ],
    );
    assert!(r.failed_with("larger than"), "{r:?}");
    assert!(!dir.join("m.json").exists() && !dir.join("m.pgn").exists());
    // A game line without end, for `tune`: refused at its cap.
    std::fs::write(dir.join("games.txt"), vec![b'1'; 4 << 20]).unwrap();
    let r = run(&dir, &["tune", "games.txt"]);
    assert!(r.failed_with("line 1 is longer than"), "{r:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn sigterm_before_the_first_game_ends_the_match_at_once() {
    // The PGN output is a FIFO no one reads: opening it blocks (if it is
    // not refused outright). A signal then must end the match, not wait
    // for a reader that never comes.
    let dir = scratch("sigterm");
    mkfifo(&dir.join("out.pgn"));
    let e = engines();
    let child = start(&dir, &with(&e, &["--pgn", "out.pgn", "--json", "out.json"]));
    std::thread::sleep(Duration::from_millis(1500));
    let st = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(st.success());
    let r = finish(child, Duration::from_secs(5), Some(""));
    assert!(r.code.is_some(), "SIGTERM did not end the match: {r:?}");
    assert_ne!(r.code, Some(0), "{r:?}");
    assert!(
        r.stderr.contains("interrupted before the first game")
            || r.stderr.contains("not a regular file"),
        "{r:?}"
    );
    assert!(!dir.join("out.json").exists(), "{r:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn perft_depth_is_bounded_as_go_perft_is() {
    let dir = scratch("perft");
    for depth in ["10000", "21", "4294967295"] {
        let r = run(&dir, &["perft", depth]);
        assert!(r.failed_with("above the limit 20"), "{depth}: {r:?}");
    }
    let r = run(&dir, &["perft", "2"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(r.stdout.contains("Nodes searched: "), "{r:?}");
    // The protocol's `go perft` refuses the same depths with the same words.
    let r = finish(start(&dir, &[]), TIMEOUT, Some("go perft 21\nquit\n"));
    assert!(r.stdout.contains("above the limit 20"), "{r:?}");
    std::fs::remove_dir_all(&dir).ok();
}
