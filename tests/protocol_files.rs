//! Files named by a GUI (`EvalFile`, `Debug Log File`, in UCI and CECP)
//! never block the command loop or eat the machine's memory: a FIFO, an
//! endless device or a directory is refused with a clear error, the old
//! value is kept, and `isready`/`ping` are answered at once.

mod protocol_support;

use protocol_support::*;
use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

/// A short wait: the answer must come at once, not after a timeout.
const SOON: Duration = Duration::from_secs(10);

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("janggun-files-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn fifo(dir: &std::path::Path) -> PathBuf {
    let f = dir.join("fifo");
    let ok = Command::new("mkfifo").arg(&f).status().unwrap().success();
    assert!(ok, "mkfifo");
    f
}

/// Sets `option` to `value` over UCI and checks the refusal, that the old
/// value stays, and that the engine answers and plays on.
fn uci_refuses(option: &str, value: &str, old: &str) {
    let mut e = Engine::start_uci();
    e.send(&format!("setoption name {option} value {value}"));
    e.send("isready");
    let lines = e.until(SOON, |l| l == "readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error:")
                && (l.contains(option) || l.contains(value))),
        "{option}={value}: {lines:?}"
    );
    e.send("uci");
    let hello = e.until(SOON, |l| l == "uciok");
    assert!(
        hello
            .iter()
            .any(|l| l.starts_with(&format!("option name {option} ")) && l.contains(old)),
        "{hello:?}"
    );
    let out = e.search("go depth 2");
    assert!(out.last().unwrap().starts_with("bestmove "), "{out:?}");
    e.send("quit");
}

#[test]
fn a_fifo_is_refused_not_waited_on() {
    let dir = scratch("fifo");
    let f = fifo(&dir);
    let f = f.to_str().unwrap();
    uci_refuses("EvalFile", f, "nn-");
    uci_refuses("Debug Log File", f, "<empty>");
}

#[test]
fn endless_devices_and_directories_are_refused() {
    let dir = scratch("dev");
    for path in ["/dev/zero", "/dev/urandom", dir.to_str().unwrap()] {
        uci_refuses("EvalFile", path, "nn-");
    }
    uci_refuses("Debug Log File", dir.to_str().unwrap(), "<empty>");
}

#[test]
fn endless_device_under_a_memory_limit() {
    // 2 GB of address space: reading /dev/zero whole would fail here.
    let mut e = Engine::start_limited(2_000_000);
    e.send("uci");
    e.until(SOON, |l| l == "uciok");
    e.send("setoption name EvalFile value /dev/zero");
    e.send("isready");
    let lines = e.until(SOON, |l| l == "readyok");
    assert!(
        lines.iter().any(|l| l.contains("info string error:")),
        "{lines:?}"
    );
}

#[test]
fn cecp_refuses_a_fifo_and_keeps_answering() {
    let dir = scratch("cecp");
    let f = fifo(&dir);
    let mut e = Engine::start();
    for line in [
        "xboard",
        "protover 2",
        &format!("option EvalFile={}", f.display()),
        &format!("option Debug Log File={}", f.display()),
        "ping 9",
    ] {
        e.send(line);
    }
    let lines = e.until(SOON, |l| l == "pong 9");
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("Error (")).collect();
    assert_eq!(errors.len(), 2, "{lines:?}");
    e.send("quit");
}

#[test]
fn a_log_file_that_is_a_plain_file_works() {
    let dir = scratch("log");
    let log = dir.join("janggun.log");
    let mut e = Engine::start_uci();
    e.send(&format!(
        "setoption name Debug Log File value {}",
        log.display()
    ));
    let lines = e.sync();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    e.send("quit");
    std::thread::sleep(Duration::from_millis(200));
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        text.contains("<< isready") && text.contains(">> readyok"),
        "{text}"
    );
}
