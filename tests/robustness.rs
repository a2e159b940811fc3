//! Regressions for inputs that once crashed, froze or silently overflowed
//! (issue 11). Each converses with the real binary.

mod protocol_support;

use janggun::board::Notation;
use protocol_support::*;
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_janggun");
const SHORT: Duration = Duration::from_secs(5);

/// Runs the binary with `args`, feeding `input`; (exit ok, stdout, stderr).
fn run(args: &[&str], input: &[u8]) -> (bool, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start janggun");
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A rank of `N4294967295r8` wrapped a 32-bit counter back to 0 files,
/// put two pieces on one point and aborted the engine at `go`.
const WRAPPING_FEN: &str = "9/4k4/9/9/9/9/9/9/3K5/N4294967295r8 w - - 0 1";

#[test]
fn wrapping_digit_run_is_refused_everywhere() {
    let mut e = Engine::start_uci();
    e.send(&format!("position fen {WRAPPING_FEN}"));
    let lines = e.sync();
    assert!(
        errors(&lines).iter().any(|l| l.contains("empty run")),
        "{lines:?}"
    );
    // The previous position (the start) is kept and searched.
    let lines = e.search("go depth 5");
    check_search(&position(None, &[], Notation::Uci), &lines, Notation::Uci);
    e.send("position fen 9/4k4/9/9/9/9/9/9/3K5/4294967305 w - - 0 1");
    assert!(!errors(&e.sync()).is_empty());

    let (ok, _, err) = run(&["perft", "2", "--fen", WRAPPING_FEN], b"");
    assert!(!ok && err.contains("empty run"), "{err}");
    let (ok, out, _) = run(
        &["rules", "--batch"],
        format!("janggi {WRAPPING_FEN}\n").as_bytes(),
    );
    assert!(ok);
    assert!(out.starts_with("error bad FEN"), "{out}");
}

#[test]
fn go_perft_stops_and_nothing_waits_behind_it() {
    let mut e = Engine::start_uci();
    e.send("position startpos");
    e.send("go perft 10");
    std::thread::sleep(Duration::from_millis(200));
    e.send("stop");
    let start = Instant::now();
    let lines = e.search("go depth 1");
    assert!(
        start.elapsed() < SHORT,
        "go waited {:?} for the perft",
        start.elapsed()
    );
    assert!(
        lines.iter().any(|l| l.contains("perft 10 stopped")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.starts_with("Nodes searched")));
    check_search(&position(None, &[], Notation::Uci), &lines, Notation::Uci);
    // A perft that `go` replaces without `stop` ends too.
    e.send("go perft 10");
    std::thread::sleep(Duration::from_millis(100));
    let lines = e.search("go depth 1");
    assert!(lines.iter().any(|l| l.contains("perft 10 stopped")));
    e.sync();
    // `quit` and end of input are not held up by a perft either.
    e.send("go perft 10");
    e.send("quit");
    assert!(e.wait_exit(SHORT).is_some(), "quit waited for perft");
    let mut e = Engine::start();
    e.send("go perft 10");
    e.close_stdin();
    assert!(e.wait_exit(SHORT).is_some(), "EOF waited for perft");
}

#[test]
fn hash_resize_frees_first_and_refuses_what_it_cannot_have() {
    // About 1 GB of address space: 400 MB and then 450 MB fit one at a
    // time, not both at once; 2000 MB never fits.
    let mut e = Engine::start_limited(1_000_000);
    e.send("uci");
    e.until(LONG, |l| l == "uciok");
    e.send("setoption name Hash value 400");
    assert!(errors(&e.sync()).is_empty());
    e.send("setoption name Hash value 450");
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    e.send("setoption name Hash value 2000");
    let lines = e.sync();
    let errs = errors(&lines);
    assert!(
        errs.iter()
            .any(|l| l.contains("cannot allocate") && l.contains("using")),
        "{lines:?}"
    );
    // Still alive, and it searches with whatever table it kept.
    e.send("position startpos");
    let lines = e.search("go depth 4");
    check_search(&position(None, &[], Notation::Uci), &lines, Notation::Uci);
}

#[test]
fn bench_with_a_table_too_large_is_an_error_exit() {
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v 2000000 && exec '{BIN}' bench 1 1 30000"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("cannot allocate a hash table of 30000 MB"),
        "{err}"
    );
    let (ok, _, err) = run(&["bench", "1", "1", "70000"], b"");
    assert!(!ok && err.contains("hash must be 1..65536"), "{err}");
}

#[test]
fn tune_refuses_non_finite_results_with_the_line() {
    let dir = std::env::temp_dir().join(format!("janggun-tune-nan-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for bad in ["NaN", "inf", "-inf", "1.5"] {
        let path = dir.join(format!("games-{bad}.txt"));
        let mut text = String::new();
        for i in 0..12 {
            let r = if i == 7 { bad } else { "0.5" };
            text.push_str(&format!(
                "{} | {r} | h1g3 h10g8\n",
                janggun::board::START_FEN
            ));
        }
        std::fs::write(&path, text).unwrap();
        let (ok, out, err) = run(&["tune", path.to_str().unwrap(), "--epochs", "2"], b"");
        assert!(!ok, "{bad}: {out}");
        assert!(err.contains(":8: bad result"), "{bad}: {err}");
    }
    // A FEN whose digit run wraps is refused with its line, not played.
    let path = dir.join("games-fen.txt");
    let mut text = String::new();
    for i in 0..12 {
        let fen = if i == 4 {
            WRAPPING_FEN
        } else {
            janggun::board::START_FEN
        };
        text.push_str(&format!("{fen} | 0.5 | h1g3\n"));
    }
    std::fs::write(&path, text).unwrap();
    let (ok, _, err) = run(&["tune", path.to_str().unwrap(), "--epochs", "2"], b"");
    assert!(
        !ok && err.contains(":5:") && err.contains("empty run"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rules_batch_answers_every_line_blank_ones_too() {
    let (ok, out, _) = run(
        &["rules", "--batch"],
        b"\njanggi startpos\n   \njanggi startpos moves h1g3\n",
    );
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with("error empty line"));
    assert!(lines[1].starts_with("legal "));
    assert!(lines[2].starts_with("error empty line"));
    assert!(lines[3].starts_with("legal "));
}

#[test]
fn drawn_end_at_the_root_scores_zero_decided_ones_mate_zero() {
    let mut e = Engine::start_uci();
    e.send("setoption name UCI_Variant value janggicasual");
    e.send("position startpos moves e2e2 e9e9");
    let lines = e.search("go depth 3");
    assert!(
        lines.iter().any(|l| l == "info depth 0 score cp 0"),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l.contains("result 1/2-1/2")));
    assert_eq!(lines.last().unwrap(), "bestmove (none)");
    // Under counting the same two passes decide the game: Han wins on count.
    e.send("setoption name UCI_Variant value janggi");
    e.send("position startpos moves e2e2 e9e9");
    let lines = e.search("go depth 3");
    assert!(lines.iter().any(|l| l == "info depth 0 score mate 0"));
    assert!(lines.iter().any(|l| l.contains("result 0-1")));
    let mut e = Engine::start_ucci();
    e.send("setoption UCI_Variant janggicasual");
    e.send("position startpos moves e1e1 e8e8");
    let lines = e.search("go depth 3");
    assert!(
        lines.iter().any(|l| l == "info depth 0 score 0"),
        "{lines:?}"
    );
}

#[test]
fn control_bytes_in_errors_are_escaped() {
    let mut e = Engine::start_uci();
    e.send_bytes(b"position fen 9/4k4/9/9/9/9/9/9/4K4/8\x00 w - - 0 1\n");
    e.send_bytes(b"setoption name Hash value 1\x1b[2J\n");
    e.send_bytes(b"\x1b[31mfoo\n");
    let lines = e.sync();
    let errs = errors(&lines);
    assert_eq!(errs.len(), 3, "{lines:?}");
    for l in &errs {
        assert!(
            !l.chars().any(|c| c.is_control()),
            "raw control byte in {l:?}"
        );
    }
    assert!(errs[0].contains("'\\0'"), "{}", errs[0]);
    assert!(errs[1].contains("\\u{1b}[2J"), "{}", errs[1]);
    assert!(errs[2].contains("\\u{1b}[31mfoo"), "{}", errs[2]);
    // The command line escapes too.
    let (ok, _, err) = run(&["perft", "1", "--variant", "x\u{1b}y"], b"");
    assert!(!ok && err.contains("x\\u{1b}y"), "{err}");
}

#[test]
fn extra_pieces_are_accepted_and_played() {
    // A third chariot; its depth-2 count (1307) is in tests/data/extra_pieces.epd.
    let fen = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/R8/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
    let mut e = Engine::start_uci();
    e.send(&format!("position fen {fen}"));
    assert!(errors(&e.sync()).is_empty());
    let lines = e.search("go depth 5");
    check_search(
        &position(Some(fen), &[], Notation::Uci),
        &lines,
        Notation::Uci,
    );
    e.send("go perft 2");
    let lines = e.until(LONG, |l| l.starts_with("Nodes searched"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 1307");
}

#[test]
fn banned_move_is_never_played_even_when_searchmoves_names_it() {
    let mut e = Engine::start_ucci();
    // h0g2 (UCI h1g3) is the usual first choice at depth 1.
    e.send("position startpos");
    e.send("banmoves h0g2");
    let lines = e.search("go depth 3 searchmoves h0g2");
    let (best, _) = bestmove_of(lines.last().unwrap());
    assert_ne!(best.as_deref(), Some("h0g2"), "{lines:?}");
    check_search(&position(None, &[], Notation::Uci), &lines, Notation::Ucci);
    // searchmoves alone is obeyed.
    e.send("position startpos");
    let lines = e.search("go depth 3 searchmoves a0a1");
    assert_eq!(
        bestmove_of(lines.last().unwrap()).0.as_deref(),
        Some("a0a1")
    );
}

#[test]
fn debug_log_file_records_both_directions() {
    let path = std::env::temp_dir().join(format!("janggun-log-{}.txt", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let mut e = Engine::start_uci();
    e.send(&format!(
        "setoption name Debug Log File value {}",
        path.display()
    ));
    e.sync();
    e.send("setoption name Debug Log File value <empty>");
    e.sync();
    let log = std::fs::read_to_string(&path).expect("log written");
    let _ = std::fs::remove_file(&path);
    let lines: Vec<&str> = log.lines().collect();
    assert!(lines.iter().any(|l| l.ends_with("<< isready")), "{log}");
    assert!(lines.iter().any(|l| l.ends_with(">> readyok")), "{log}");
    // Each line starts with a timestamp (seconds.millis).
    for l in &lines {
        let t = l.split(' ').next().unwrap();
        assert!(
            t.contains('.') && t.replace('.', "").parse::<u64>().is_ok(),
            "{l}"
        );
    }
    // Logging stopped after `<empty>`: the second readyok is not there.
    assert_eq!(
        lines.iter().filter(|l| l.ends_with(">> readyok")).count(),
        1
    );
    let mut e = Engine::start();
    e.send("setoption name Debug Log File value /nonexistent-dir/x.log");
    let lines = e.sync();
    assert!(errors(&lines)
        .iter()
        .any(|l| l.contains("Debug Log File: cannot open")));
}

/// `janggun net info x | grep -q ...` once aborted with "failed printing to
/// stdout: Broken pipe" when grep left before the last line: a tool whose
/// reader has gone stops quietly, with status 0 and no panic.
#[test]
fn tools_stop_quietly_when_stdout_is_closed() {
    let net = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/nn-abc4e3e48b16.jnn");
    let cases: [&[&str]; 2] = [&["perft", "3", "--divide"], &["net", "info", net]];
    for args in cases {
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start janggun");
        // The reader leaves before the first line is written.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert!(out.status.success(), "{args:?}: {:?} {stderr}", out.status);
    }
}
