//! The tuning pipeline end to end: `janggun selfplay` writes games, `janggun
//! tune` fits a table to them and prints it as Rust source for `tuned.rs`.

use janggun::search::params::{param_name, NUM_PARAMS};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_janggun");

fn selfplay(dir: &std::path::Path, games: usize) -> String {
    let out = Command::new(BIN)
        .args(["selfplay", "--games", &games.to_string(), "--nodes", "300"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), games);
    let path = dir.join(format!("games{games}.txt"));
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn tune_prints_a_full_table_from_selfplay_games() {
    let dir = std::env::temp_dir().join(format!("janggun-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let games = selfplay(&dir, 20);
    let out = Command::new(BIN)
        .args(["tune", &games, "--epochs", "50"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.contains("pub static TUNED: Params = ["));
    let rows: Vec<&str> = table.lines().filter(|l| l.contains("], //")).collect();
    assert_eq!(rows.len(), NUM_PARAMS);
    for (i, row) in rows.iter().enumerate() {
        assert!(row.ends_with(&param_name(i)), "{row}");
    }
    // The held-out error of the kept table is the lowest seen, so never
    // above the starting one.
    let log = String::from_utf8(out.stderr).unwrap();
    let number_after = |s: &str, tag: &str| -> f64 {
        let rest = s.split(tag).nth(1).unwrap();
        rest.trim_start()
            .split(|c: char| c != '.' && !c.is_ascii_digit())
            .next()
            .unwrap()
            .parse()
            .unwrap()
    };
    let first = log.lines().next().unwrap();
    let start = number_after(first, "held-out");
    let kept = number_after(log.lines().last().unwrap(), "held-out error");
    assert!(kept <= start, "{log}");

    // Too few games to hold one out: a clear error, not a table.
    let few = selfplay(&dir, 3);
    let out = Command::new(BIN).args(["tune", &few]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("error:"));
    std::fs::remove_dir_all(&dir).ok();
}
