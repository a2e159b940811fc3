//! Engines that misbehave (tests/fault_engine.py) lose with the right
//! reason, a crashed or late engine is restarted for the next game, the
//! match goes on, and no engine process outlives the runner, Ctrl-C
//! included. An engine that writes without end loses too, and the runner
//! keeps its memory; an engine started by a wrapper script is ended with
//! the script.

mod bounded_run;
mod match_common;

use bounded_run::{finish, Run};
use janggun::arena::record::totals;
use janggun::arena::{report, EndKind};
use match_common::*;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Fault-engine processes whose command line contains `marker` (the
/// runner's own command line names them too, so it is left out).
fn processes_with(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(cmd) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
        let runner = cmd.split(' ').nth(1) == Some("match");
        if cmd.contains(marker) && cmd.contains("fault_engine.py") && !runner {
            found.push(cmd);
        }
    }
    found
}

fn fault_match(mode: &str, extra: &[&str], kind: EndKind, detail: &str) {
    let marker = format!("marker-{mode}-{}", std::process::id());
    let mut extra: Vec<&str> = extra.to_vec();
    extra.push(&marker);
    let mut a = fault_args("faulty", mode, &extra);
    a.extend(script_engine("steady", &["a1a2"]));
    a.extend(args(&[
        "--games",
        "4",
        "--movetime",
        "200",
        "--timemargin",
        "100",
        "--quiet",
    ]));
    let out = run_match(&a);
    assert_eq!(
        out.records.len(),
        4,
        "{mode}: the match goes on after each fault"
    );
    for r in out.records.values() {
        assert_eq!(r.kind, kind, "{mode}: {}", r.detail);
        assert_eq!(
            r.faulty_engine(),
            Some(0),
            "{mode}: the faulty engine loses"
        );
        assert!(
            r.detail.contains(detail),
            "{mode}: detail '{}' lacks '{detail}'",
            r.detail
        );
        // Cho's fault comes on ply 1; as Han it answers the steady a1a2.
        assert_eq!(r.moves.len(), usize::from(r.slot.han == 0), "{mode}");
    }
    let t = totals(2, &out.records);
    let f = &t.engines[0];
    assert_eq!((f.wins, f.draws, f.losses), (0, 0, 4), "{mode}");
    let counted = match kind {
        EndKind::IllegalMove => f.illegal,
        EndKind::Crash | EndKind::OutputOverflow => f.crashes,
        EndKind::TimeForfeit => f.time_losses,
        EndKind::NoMove => f.no_move,
        _ => unreachable!(),
    };
    assert_eq!(counted, 4, "{mode}");
    assert_eq!(t.engines[1].wins, 4);
    assert_eq!(
        t.engines[1].illegal + t.engines[1].crashes + t.engines[1].time_losses,
        0
    );
    assert!(
        processes_with(&marker).is_empty(),
        "{mode}: engines outlived the match"
    );
}

#[test]
fn illegal_move_loses() {
    fault_match("illegal", &[], EndKind::IllegalMove, "illegal move 'a1a9'");
}

#[test]
fn unparsable_move_loses() {
    fault_match("garbage", &[], EndKind::IllegalMove, "unparsable move 'zz'");
}

#[test]
fn late_move_loses_on_time_and_the_engine_is_restarted() {
    let start = Instant::now();
    fault_match("late", &["5"], EndKind::TimeForfeit, "no move in 300 ms");
    // Each late engine was killed rather than waited for.
    assert!(start.elapsed() < Duration::from_secs(15));
}

#[test]
fn crash_loses_and_the_engine_is_restarted() {
    fault_match("die", &[], EndKind::Crash, "exited");
}

#[test]
fn bestmove_none_with_legal_moves_loses() {
    fault_match("none", &[], EndKind::NoMove, "(none)");
}

#[test]
fn ctrl_c_ends_every_engine_and_prints_the_table() {
    let marker = format!("marker-sigint-{}", std::process::id());
    let mut a = vec!["match".to_string()];
    a.extend(fault_args("slow", "late", &["30", &marker]));
    a.extend(fault_args("slower", "late", &["30", &marker]));
    a.extend(args(&[
        "--games",
        "8",
        "--concurrency",
        "2",
        "--movetime",
        "60000",
    ]));
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_janggun"))
        .args(&a)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Wait until all four engines run, then interrupt.
    let deadline = Instant::now() + Duration::from_secs(20);
    while processes_with(&marker).len() < 4 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(processes_with(&marker).len(), 4, "engines did not start");
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("interrupted after 0 of 8 games"), "{text}");
    assert!(
        text.contains("engine") && text.contains("slower"),
        "no table: {text}"
    );
    assert!(
        processes_with(&marker).is_empty(),
        "engines outlived the runner"
    );
}

/// The binary these tests run: `JANGGUN_TEST_BIN` names another build (the
/// one before a fix, to see the tests fail on it).
fn bin() -> String {
    std::env::var("JANGGUN_TEST_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_janggun").into())
}

/// Virtual memory for the runner and its engines, in KiB: enough to play,
/// far less than reading an endless output would take.
const MEMORY_KB: u64 = 1_000_000;

/// Runs `janggun match args` under `MEMORY_KB`, killed after `limit`.
fn run_binary(a: &[String], limit: Duration) -> Run {
    let child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {MEMORY_KB}\nexec \"$0\" match \"$@\""))
        .arg(bin())
        .args(a)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start janggun");
    finish(child, limit, None)
}

/// Plays two games of `faulty` against `steady` in the binary; each must
/// end with `faulty` losing by "output over the limit" for `detail`, the
/// match must finish and write its JSON, and no engine may be left.
fn overflow_match(faulty: Vec<String>, steady: Vec<String>, marker: &str, detail: &str) {
    let json = temp_path(&format!("{marker}.json"));
    let mut a = faulty;
    a.extend(steady);
    a.extend(args(&["--games", "2", "--movetime", "5000", "--quiet"]));
    a.extend(["--json".to_string(), json.display().to_string()]);
    let run = run_binary(&a, Duration::from_secs(40));
    assert_eq!(run.code, Some(0), "{marker}: {run:?}");
    let r = report::read(&json)
        .unwrap_or_else(|e| panic!("{marker}: {e}"))
        .unwrap_or_else(|| panic!("{marker}: no JSON written: {run:?}"));
    assert_eq!(r.games.len(), 2, "{marker}: the match goes on");
    for g in &r.games {
        assert_eq!(g.end, "output over the limit", "{marker}: {g:?}");
        assert!(g.detail.contains(detail), "{marker}: {g:?}");
        let loser = if g.result == "1-0" { &g.han } else { &g.cho };
        assert_eq!(loser, "faulty", "{marker}: {g:?}");
    }
    assert!(
        processes_with(marker).is_empty(),
        "{marker}: engines outlived the match"
    );
    std::fs::remove_file(&json).ok();
}

#[test]
fn an_endless_line_loses_and_the_match_writes_its_json() {
    let marker = format!("marker-endless-{}", std::process::id());
    overflow_match(
        fault_args("faulty", "endless", &[&marker]),
        script_engine("steady", &["a1a2", &marker]),
        &marker,
        "wrote a line longer than",
    );
}

#[test]
fn chattering_while_the_opponent_thinks_loses_and_the_match_writes_its_json() {
    // The opponent takes a second a move, while the chatterer writes on.
    let marker = format!("marker-chatter-{}", std::process::id());
    overflow_match(
        fault_args("faulty", "chatter", &["a1a2", "a10a9", &marker]),
        fault_args(
            "steady",
            "script",
            &["a1a2", "a10a9", "a2a1", "a9a10", "delay=1", &marker],
        ),
        &marker,
        "MiB",
    );
}

/// Whether process `pid` runs (a zombie, dead and waiting for its parent
/// to reap it, does not).
fn alive(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let state = stat.rsplit(')').next().unwrap_or("").trim_start();
        !state.starts_with('Z') && !state.starts_with('X')
    })
}

#[test]
fn an_engine_started_by_a_wrapper_script_is_ended_with_it() {
    // The script runs the engine as its child (no exec), as a script that
    // sets up an environment does: ending the script alone leaves the
    // engine, here asleep in a 30-second search, running on.
    let dir = temp_path("wrapper");
    std::fs::create_dir_all(&dir).unwrap();
    let wrapper = dir.join("engine.sh");
    let pids = dir.join("pids");
    std::fs::write(
        &wrapper,
        format!(
            "#!/bin/sh\n\"{}\" \"{}\" \"$@\"\nstatus=$?\nexit $status\n",
            python(),
            fault_engine()
        ),
    )
    .unwrap();
    let st = Command::new("chmod").arg("+x").arg(&wrapper).status();
    assert!(st.unwrap().success());
    let mut a = args(&["--engine", "name=late"]);
    a.push(format!("cmd={}", wrapper.display()));
    a.extend(args(&["arg=late", "arg=30"]));
    a.push(format!("arg=pidfile={}", pids.display()));
    a.extend(script_engine("steady", &["a1a2"]));
    a.extend(args(&[
        "--games",
        "2",
        "--movetime",
        "200",
        "--timemargin",
        "100",
        "--quiet",
    ]));
    let run = run_binary(&a, Duration::from_secs(40));
    assert_eq!(run.code, Some(0), "{run:?}");
    assert!(run.stdout.contains("late"), "{run:?}");
    let pids = std::fs::read_to_string(&pids).unwrap();
    // One start to check the engine, one for each game it lost on time.
    assert_eq!(pids.lines().count(), 3, "{pids}");
    // The group is killed before the runner reaps the script: give the
    // engine a moment to be gone.
    let deadline = Instant::now() + Duration::from_secs(2);
    while pids.lines().any(alive) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let left: Vec<&str> = pids.lines().filter(|p| alive(p)).collect();
    for p in &left {
        Command::new("kill").args(["-KILL", p]).status().ok();
    }
    assert!(left.is_empty(), "engines outlived their wrapper: {left:?}");
    std::fs::remove_dir_all(Path::new(&dir)).ok();
}
