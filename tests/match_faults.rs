//! Engines that misbehave (tests/fault_engine.py) lose with the right
//! reason, a crashed or late engine is restarted for the next game, the
//! match goes on, and no engine process outlives the runner, Ctrl-C
//! included.

mod match_common;

use janggun::arena::record::totals;
use janggun::arena::EndKind;
use match_common::*;
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
        EndKind::Crash => f.crashes,
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
