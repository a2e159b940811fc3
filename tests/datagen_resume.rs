//! `janggun datagen --resume`: a run cut short (by its cap, or killed in
//! the middle of a game) and resumed writes byte for byte the file of one
//! uninterrupted run; a resume point that does not belong to the file, or
//! to these settings, is refused with the file left as it was.

use janggun::train::datagen::{run, DatagenConfig};
use janggun::train::record::{self, HEADER_SIZE, RECORD_SIZE};
use janggun::train::resume::{self, ResumePoint};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("janggun-resume-{}-{name}", std::process::id()));
    std::fs::remove_dir_all(&d).ok();
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn opts(out: &Path, positions: u64) -> DatagenConfig {
    DatagenConfig {
        nodes: 200,
        verify_nodes: 200,
        seed: 9,
        positions: Some(positions),
        resume: true,
        progress: Duration::from_secs(3600),
        ..DatagenConfig::new(out.to_path_buf())
    }
}

fn records(bytes: &[u8]) -> &[u8] {
    &bytes[HEADER_SIZE..]
}

#[test]
fn a_run_cut_by_its_cap_and_resumed_is_the_uninterrupted_file() {
    let dir = scratch("cap");
    let whole = dir.join("whole.bin");
    run(&opts(&whole, 400)).unwrap();
    let want = std::fs::read(&whole).unwrap();
    assert_eq!(record::read_file(&whole).unwrap().len(), 400);

    let part = dir.join("part.bin");
    run(&opts(&part, 150)).unwrap();
    let short = std::fs::read(&part).unwrap();
    assert_eq!(records(&short), &records(&want)[..150 * RECORD_SIZE]);
    // The cap cut a game: the point stays before it.
    let settings = std::fs::read_to_string(resume::path_for(&part)).unwrap();
    let settings = settings
        .lines()
        .nth(1)
        .unwrap()
        .strip_prefix("settings ")
        .unwrap();
    let point = resume::read(&resume::path_for(&part), settings)
        .unwrap()
        .unwrap();
    assert!(point.records < 150 && point.next_game > 0, "{point:?}");

    run(&opts(&part, 400)).unwrap();
    assert_eq!(std::fs::read(&part).unwrap(), want);
    // Resuming a complete file changes nothing.
    let sum = run(&opts(&part, 400)).unwrap();
    assert_eq!((sum.games, sum.positions), (0, 0));
    assert_eq!(std::fs::read(&part).unwrap(), want);
}

#[test]
fn records_past_the_point_are_a_cut_off_game_and_are_replaced() {
    let dir = scratch("killed");
    let whole = dir.join("whole.bin");
    run(&opts(&whole, 300)).unwrap();
    let want = std::fs::read(&whole).unwrap();
    let f = dir.join("f.bin");
    run(&opts(&f, 100)).unwrap();
    // What a kill in the middle of a game leaves: records of a game the
    // point does not count, and a record half written.
    let mut bytes = std::fs::read(&f).unwrap();
    bytes.extend(std::iter::repeat_n(0xAB, 30 * RECORD_SIZE + 17));
    std::fs::write(&f, &bytes).unwrap();
    run(&opts(&f, 300)).unwrap();
    assert_eq!(std::fs::read(&f).unwrap(), want);
}

#[test]
fn a_killed_process_resumes_to_the_same_file() {
    let dir = scratch("process");
    let bin = env!("CARGO_BIN_EXE_janggun");
    let datagen = |out: &Path| {
        let mut c = Command::new(bin);
        c.args([
            "datagen",
            "--nodes",
            "200",
            "--verify-nodes",
            "200",
            "--seed",
            "4",
        ])
        .args([
            "--positions",
            "600",
            "--resume",
            "--progress",
            "3600",
            "--out",
        ])
        .arg(out)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
        c
    };
    let whole = dir.join("whole.bin");
    assert!(datagen(&whole).status().unwrap().success());
    let f = dir.join("f.bin");
    let mut child = datagen(&f).spawn().unwrap();
    // Killed once some records are out (or at once if it finishes first:
    // the resumed file must be the same either way).
    let t = Instant::now();
    while t.elapsed() < Duration::from_secs(60) {
        let len = std::fs::metadata(&f).map_or(0, |m| m.len());
        if len > (HEADER_SIZE + 150 * RECORD_SIZE) as u64 {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().ok();
    child.wait().unwrap();
    assert!(datagen(&f).status().unwrap().success());
    assert_eq!(std::fs::read(&f).unwrap(), std::fs::read(&whole).unwrap());
}

#[test]
fn a_point_that_is_not_the_files_is_refused_and_the_file_kept() {
    let dir = scratch("refused");
    let f = dir.join("f.bin");
    run(&opts(&f, 120)).unwrap();
    let before = std::fs::read(&f).unwrap();
    let point_path = resume::path_for(&f);

    // Other settings.
    let mut other = opts(&f, 300);
    other.seed = 10;
    let e = run(&other).unwrap_err();
    assert!(e.contains("other settings") && e.contains("seed=9"), "{e}");
    assert_eq!(std::fs::read(&f).unwrap(), before);

    // A point past the records the file holds.
    let text = std::fs::read_to_string(&point_path).unwrap();
    let settings = text.lines().nth(1).unwrap()["settings ".len()..].to_string();
    resume::write(
        &point_path,
        &settings,
        ResumePoint {
            next_game: 3,
            records: 5000,
        },
    )
    .unwrap();
    let e = run(&opts(&f, 300)).unwrap_err();
    assert!(e.contains("not this file's"), "{e}");
    assert_eq!(std::fs::read(&f).unwrap(), before);

    // A point whose file is gone: refused, and no file is made.
    let gone = dir.join("gone.bin");
    std::fs::copy(&point_path, resume::path_for(&gone)).unwrap();
    let e = run(&opts(&gone, 300)).unwrap_err();
    assert!(e.contains("not this file's"), "{e}");
    assert!(!gone.exists());

    // Garbage in the point's place.
    std::fs::write(&point_path, b"\x00\x01 not a point").unwrap();
    let e = run(&opts(&f, 300)).unwrap_err();
    assert!(e.contains("not a datagen resume point"), "{e}");
    assert_eq!(std::fs::read(&f).unwrap(), before);

    // Records and no point at all: they cannot be continued exactly.
    std::fs::remove_file(&point_path).unwrap();
    let e = run(&opts(&f, 300)).unwrap_err();
    assert!(e.contains("no resume point"), "{e}");
    assert_eq!(std::fs::read(&f).unwrap(), before);

    // More than one thread.
    let mut threads = opts(&f, 300);
    threads.threads = 2;
    assert!(run(&threads).unwrap_err().contains("--threads 1"));
}

#[test]
fn a_plain_append_removes_the_point_it_makes_untrue() {
    let dir = scratch("append");
    let f = dir.join("f.bin");
    run(&opts(&f, 100)).unwrap();
    assert!(resume::path_for(&f).exists());
    let mut plain = opts(&f, 50);
    plain.resume = false;
    run(&plain).unwrap();
    assert_eq!(record::read_file(&f).unwrap().len(), 150);
    assert!(!resume::path_for(&f).exists());
}
