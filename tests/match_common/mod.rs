//! Helpers shared by the match runner's integration tests.
#![allow(dead_code)]

use janggun::arena::{cli, run, MatchSummary};
use std::path::PathBuf;

pub fn fault_engine() -> String {
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fault_engine.py").to_string()
}

/// A fresh path in the temp directory, unique per process and name.
pub fn temp_path(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("janggun-match-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

pub fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

pub fn run_match(a: &[String]) -> MatchSummary {
    let cfg = cli::parse(a).unwrap_or_else(|e| panic!("bad arguments {a:?}: {e}"));
    run(&cfg).unwrap_or_else(|e| panic!("match failed: {e}"))
}

/// The system Python: a version-manager shim in PATH can take half a
/// second per start, which adds up over many short games.
pub fn python() -> String {
    if std::path::Path::new("/usr/bin/python3").exists() {
        "/usr/bin/python3".into()
    } else {
        "python3".into()
    }
}

/// `--engine` arguments for tests/fault_engine.py in `mode` with `extra` arguments.
pub fn fault_args(name: &str, mode: &str, extra: &[&str]) -> Vec<String> {
    let mut v = args(&[
        "--engine",
        &format!("name={name}"),
        &format!("cmd={}", python()),
    ]);
    v.push(format!("arg={}", fault_engine()));
    v.push(format!("arg={mode}"));
    v.extend(extra.iter().map(|m| format!("arg={m}")));
    v
}

/// `--engine` arguments for the scripted engine playing `moves`.
pub fn script_engine(name: &str, moves: &[&str]) -> Vec<String> {
    fault_args(name, "script", moves)
}
