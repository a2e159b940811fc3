//! `janggun spsa` against hostile logs and command lines: a log whose last
//! line was cut is mended before the run appends; the log is read only if
//! it is a regular file; every setting, the match's included, and every
//! line of the log are checked before anything is written; the log is no
//! input of the run by another name.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_janggun");

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("janggun-spsa-{}-{name}", std::process::id()));
    std::fs::remove_dir_all(&d).ok();
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `janggun spsa` in `dir`, killed after `secs`: the exit code (none
/// when killed) and stderr.
fn spsa(dir: &Path, args: &[&str], secs: u64) -> (Option<i32>, String) {
    let mut child = Command::new(BIN)
        .current_dir(dir)
        .arg("spsa")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            use std::io::Read;
            child.stderr.take().unwrap().read_to_string(&mut err).ok();
            return (status.code(), err);
        }
        if t.elapsed() > Duration::from_secs(secs) {
            child.kill().ok();
            child.wait().ok();
            return (None, "killed: still running".into());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A real run's arguments: Janggun against itself at a few nodes, one
/// pair an iteration.
fn real<'a>(log: &'a str, iterations: &'a str) -> Vec<&'a str> {
    vec![
        "--engine",
        BIN,
        "option.Hash=8",
        "--iterations",
        iterations,
        "--pairs",
        "1",
        "--params",
        "RfpMargin,QsDelta",
        "--nodes",
        "50",
        "--log",
        log,
    ]
}

fn cmd_bin() -> String {
    format!("cmd={BIN}")
}

#[test]
fn a_cut_last_line_is_removed_before_the_run_appends() {
    let dir = scratch("cut");
    let cmd = cmd_bin();
    let mut args = real("s.log", "2");
    args[1] = &cmd;
    let r = spsa(&dir, &args, 120);
    assert_eq!(r.0, Some(0), "{}", r.1);
    let whole = std::fs::read_to_string(dir.join("s.log")).unwrap();
    assert_eq!(whole.lines().count(), 3, "{whole}");
    // Killed while the last line was written.
    let cut = &whole[..whole.len() - 15];
    std::fs::write(dir.join("s.log"), cut).unwrap();
    let r = spsa(&dir, &args, 120);
    assert_eq!(r.0, Some(0), "{}", r.1);
    assert!(r.1.contains("cut short"), "{}", r.1);
    let mended = std::fs::read_to_string(dir.join("s.log")).unwrap();
    let lines: Vec<&str> = mended.lines().collect();
    assert_eq!(lines.len(), 3, "{mended}");
    assert_eq!(lines[..2], whole.lines().take(2).collect::<Vec<_>>()[..]);
    assert!(lines[2].starts_with("iter=1 result="), "{mended}");
    assert!(mended.ends_with('\n'));
    // And it reads again: the run is complete, nothing is added.
    let r = spsa(&dir, &args, 120);
    assert_eq!(r.0, Some(0), "{}", r.1);
    assert_eq!(std::fs::read_to_string(dir.join("s.log")).unwrap(), mended);
    // Cut inside its first line: the run starts again.
    std::fs::write(dir.join("s.log"), &whole[..12]).unwrap();
    let mut one = args.clone();
    one[4] = "1";
    let r = spsa(&dir, &one, 120);
    // Another run's log (one iteration, not two) cut that early is still
    // the start of this run's first line.
    assert_eq!(r.0, Some(0), "{}", r.1);
    let log = std::fs::read_to_string(dir.join("s.log")).unwrap();
    assert_eq!(log.lines().count(), 2, "{log}");
    assert!(log.starts_with("# janggun-spsa 1 iterations=1 "), "{log}");
}

#[test]
fn the_log_is_read_only_if_a_regular_file() {
    let dir = scratch("devices");
    let fifo = dir.join("fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let cmd = cmd_bin();
    for log in ["/dev/zero", "fifo", "."] {
        let mut args = real(log, "2");
        args[1] = &cmd;
        let r = spsa(&dir, &args, 20);
        assert!(
            r.0.is_some_and(|c| c != 0) && r.1.contains("not a regular file"),
            "{log}: {r:?}"
        );
    }
}

/// A log, or a command line, the run refuses before it writes anything:
/// the engine cannot even start, so anything written is the refusal's
/// fault.
#[test]
fn everything_is_checked_before_the_log_is_written() {
    let dir = scratch("checks");
    let base = |log: &'static str| -> Vec<&'static str> {
        vec![
            "--engine",
            "cmd=/nonexistent/engine",
            "--iterations",
            "10",
            "--pairs",
            "1",
            "--params",
            "RfpMargin,QsDelta",
            "--nodes",
            "50",
            "--log",
            log,
        ]
    };
    // Command lines.
    let swap = |from: &'static str, to: &'static str| -> Vec<&'static str> {
        base("new.log")
            .into_iter()
            .map(|a| if a == from { to } else { a })
            .collect()
    };
    for (args, why) in [
        (
            swap("RfpMargin,QsDelta", "RfpMargin,QsDelta,RfpMargin"),
            "named twice",
        ),
        (
            swap("RfpMargin,QsDelta", "RfpMargin,rfpmargin"),
            "named twice",
        ),
        (swap("50", "0"), "--nodes"),
        (swap("--pairs", "--log"), "twice"),
    ] {
        let r = spsa(&dir, &args, 20);
        assert!(
            r.0.is_some_and(|c| c != 0) && r.1.contains(why),
            "{args:?}: {r:?}"
        );
        assert!(!dir.join("new.log").exists(), "{args:?}");
    }
    // The match's settings, as `janggun match` checks them.
    for extra in [["--rules", "chess"], ["--max-plies", "0"], ["--tc", "1+x"]] {
        let mut args = base("new.log");
        args.extend(extra);
        let r = spsa(&dir, &args, 20);
        assert!(
            r.0.is_some_and(|c| c != 0) && r.1.contains("the match"),
            "{args:?}: {r:?}"
        );
        assert!(!dir.join("new.log").exists(), "{args:?}");
    }
    // An engine that does not start leaves no log behind.
    let r = spsa(&dir, &base("new.log"), 20);
    assert!(r.0.is_some_and(|c| c != 0), "{r:?}");
    assert!(!dir.join("new.log").exists(), "{r:?}");

    // Logs: this run's first line, then a line it would not have written.
    let header =
        "# janggun-spsa 1 iterations=10 pairs=1 seed=1 params=RfpMargin,QsDelta match=--nodes 50";
    let line = |k: u32, rfp: &str| {
        format!("iter={k} result=+1 RfpMargin={rfp} QsDelta=199.000 plus=140,215 minus=120,185\n")
    };
    for (body, why) in [
        (line(0, "9999.000"), "RfpMargin=9999"),
        (line(0, "-inf"), "RfpMargin=-inf"),
        (format!("{}hello world\n", line(0, "131.000")), "line 3"),
        (format!("{}\n", line(0, "131.000")), "line 3"),
        (line(1, "131.000"), "line 2"),
        (line(12, "131.000"), "past the 10"),
        (
            (0..11).map(|k| line(k, "131.000")).collect::<String>(),
            "past the 10",
        ),
        (
            format!("{}{}", line(0, "131.000"), "garbage, no line end"),
            "no line end",
        ),
    ] {
        let text = format!("{header}\n{body}");
        std::fs::write(dir.join("bad.log"), &text).unwrap();
        let r = spsa(&dir, &base("bad.log"), 20);
        assert!(
            r.0.is_some_and(|c| c != 0) && r.1.contains(why) && r.1.contains("bad.log"),
            "{body:?}: {r:?}"
        );
        assert_eq!(std::fs::read_to_string(dir.join("bad.log")).unwrap(), text);
    }
}

#[test]
fn the_log_is_no_input_by_another_name() {
    let dir = scratch("identity");
    let book = format!("{}\n", janggun::board::START_FEN);
    std::fs::write(dir.join("book.fen"), &book).unwrap();
    std::fs::write(dir.join("engine.sh"), "").unwrap();
    for (extra, log) in [
        (vec!["--openings", "book.fen"], "./book.fen"),
        (vec![], "engine.sh"),
    ] {
        let mut args = vec![
            "--engine",
            "cmd=engine.sh",
            "--iterations",
            "2",
            "--nodes",
            "50",
            "--log",
            log,
        ];
        args.extend(extra);
        let r = spsa(&dir, &args, 20);
        assert!(
            r.0.is_some_and(|c| c != 0) && r.1.contains("same file"),
            "{args:?}: {r:?}"
        );
    }
    assert_eq!(std::fs::read_to_string(dir.join("book.fen")).unwrap(), book);
    assert_eq!(std::fs::read(dir.join("engine.sh")).unwrap(), b"");
}
