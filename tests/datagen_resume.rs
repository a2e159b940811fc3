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
    // What a kill in the middle of writing a game leaves: a point that
    // says the game's records may follow, some of them, and a record half
    // written.
    let point_path = resume::path_for(&f);
    let text = std::fs::read_to_string(&point_path).unwrap();
    let settings = text.lines().nth(1).unwrap()["settings ".len()..].to_string();
    let mut point = resume::read(&point_path, &settings).unwrap().unwrap();
    point.writing = 40;
    resume::write(&point_path, &settings, point).unwrap();
    let mut bytes = std::fs::read(&f).unwrap();
    bytes.truncate(HEADER_SIZE + point.records as usize * RECORD_SIZE);
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
            writing: 0,
            data: Some(0),
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

const BIN: &str = env!("CARGO_BIN_EXE_janggun");

/// `janggun datagen` at the settings of these tests, run in `dir` (`shell`
/// runs first, in `sh`: a limit); its exit code and stderr.
fn datagen_in(dir: &Path, shell: &str, args: &[&str]) -> (Option<i32>, String) {
    let mut all = vec![
        "datagen",
        "--nodes",
        "200",
        "--verify-nodes",
        "200",
        "--seed",
        "6",
        "--progress",
        "3600",
    ];
    all.extend_from_slice(args);
    let out = Command::new("sh")
        .current_dir(dir)
        .arg("-c")
        .arg(format!("{shell}\nexec \"$0\" \"$@\""))
        .arg(BIN)
        .args(&all)
        .stdout(Stdio::null())
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn datagen(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    datagen_in(dir, "", args)
}

fn janggun(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(BIN)
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn failed(r: &(Option<i32>, String), why: &str) -> bool {
    r.0.is_some_and(|c| c != 0) && r.1.contains(why)
}

/// A file with a resume point and the files that test against it: `a.bin`
/// of two games with its point, `b.bin` other data.
fn with_point(dir: &Path) -> (Vec<u8>, Vec<u8>) {
    let r = datagen(dir, &["--games", "2", "--resume", "--out", "a.bin"]);
    assert_eq!(r.0, Some(0), "{}", r.1);
    let r = datagen(
        dir,
        &["--random-plies", "6", "--positions", "60", "--out", "b.bin"],
    );
    assert_eq!(r.0, Some(0), "{}", r.1);
    (
        std::fs::read(dir.join("a.bin")).unwrap(),
        std::fs::read(dir.join("a.bin.resume")).unwrap(),
    )
}

#[test]
fn a_merge_into_a_file_with_a_resume_point_is_refused() {
    let dir = scratch("merge-point");
    let (a, point) = with_point(&dir);
    for out in ["a.bin", "./a.bin"] {
        let r = janggun(&dir, &["datagen", "merge", out, "b.bin"]);
        assert!(failed(&r, "resume point"), "{r:?}");
        assert_eq!(std::fs::read(dir.join("a.bin")).unwrap(), a);
        assert_eq!(std::fs::read(dir.join("a.bin.resume")).unwrap(), point);
    }
    // Through a link, the point beside the linked file counts.
    std::os::unix::fs::symlink("a.bin", dir.join("link.bin")).unwrap();
    let r = janggun(&dir, &["datagen", "merge", "link.bin", "b.bin"]);
    assert!(failed(&r, "resume point"), "{r:?}");
    assert_eq!(std::fs::read(dir.join("a.bin")).unwrap(), a);
    // So the point still says where the file ends, and the run goes on.
    let r = datagen(&dir, &["--positions", "300", "--resume", "--out", "a.bin"]);
    assert_eq!(r.0, Some(0), "{}", r.1);
    let longer = std::fs::read(dir.join("a.bin")).unwrap();
    assert_eq!(longer.len(), HEADER_SIZE + 300 * RECORD_SIZE);
    assert_eq!(&longer[HEADER_SIZE..a.len()], &a[HEADER_SIZE..]);
}

#[test]
fn records_added_after_the_point_are_refused_not_cut() {
    let dir = scratch("added");
    let (a, point) = with_point(&dir);
    // What a merge by an earlier build, or `cat`, made of the file: whole
    // records of other data after it, counted.
    let b = std::fs::read(dir.join("b.bin")).unwrap();
    let mut merged = a.clone();
    merged.extend_from_slice(&b[HEADER_SIZE..]);
    let n = ((merged.len() - HEADER_SIZE) / RECORD_SIZE) as u64;
    merged[16..24].copy_from_slice(&n.to_le_bytes());
    std::fs::write(dir.join("a.bin"), &merged).unwrap();
    let r = datagen(&dir, &["--positions", "400", "--resume", "--out", "a.bin"]);
    assert!(failed(&r, "follow its resume point"), "{r:?}");
    assert!(r.1.contains("a.bin"), "{r:?}");
    assert_eq!(std::fs::read(dir.join("a.bin")).unwrap(), merged);
    assert_eq!(std::fs::read(dir.join("a.bin.resume")).unwrap(), point);
}

#[test]
fn a_point_edited_back_replays_nothing() {
    let dir = scratch("edited");
    let (a, point) = with_point(&dir);
    let text = String::from_utf8(point.clone()).unwrap();
    let next = text.lines().find(|l| l.starts_with("next_game ")).unwrap();
    let records = text.lines().find(|l| l.starts_with("records ")).unwrap();
    assert_ne!(next, "next_game 0", "{text}");
    for edited in [
        text.replace(next, "next_game 0"),
        text.replace(next, "next_game 0")
            .replace(records, "records 0"),
    ] {
        std::fs::write(dir.join("a.bin.resume"), &edited).unwrap();
        let r = datagen(&dir, &["--positions", "400", "--resume", "--out", "a.bin"]);
        assert!(r.0.is_some_and(|c| c != 0), "{r:?}");
        assert!(r.1.contains("a.bin.resume"), "{r:?}");
        assert_eq!(std::fs::read(dir.join("a.bin")).unwrap(), a);
        assert_eq!(
            std::fs::read(dir.join("a.bin.resume")).unwrap(),
            edited.as_bytes()
        );
    }
    // A point written whole at game 0 (by this build, its check right):
    // the file does not end where it says.
    let settings = text.lines().nth(1).unwrap()["settings ".len()..].to_string();
    resume::write(
        &resume::path_for(&dir.join("a.bin")),
        &settings,
        ResumePoint::start(),
    )
    .unwrap();
    let r = datagen(&dir, &["--positions", "400", "--resume", "--out", "a.bin"]);
    assert!(failed(&r, "follow its resume point"), "{r:?}");
    assert_eq!(std::fs::read(dir.join("a.bin")).unwrap(), a);
    // The point of another file of the same settings and length: its first
    // records are not these.
    let other = dir.join("other.bin");
    let mut o = a.clone();
    let last = o.len() - 1;
    o[last] ^= 1;
    std::fs::write(&other, &o).unwrap();
    std::fs::write(resume::path_for(&other), &point).unwrap();
    let r = datagen(
        &dir,
        &["--positions", "400", "--resume", "--out", "other.bin"],
    );
    assert!(r.0.is_some_and(|c| c != 0), "{r:?}");
    assert_eq!(std::fs::read(&other).unwrap(), o);
}

#[test]
fn a_full_disk_leaves_whole_records_and_the_run_resumes() {
    let dir = scratch("full");
    let r = datagen(
        &dir,
        &["--positions", "400", "--resume", "--out", "whole.bin"],
    );
    assert_eq!(r.0, Some(0), "{}", r.1);
    // A file size limit (7 blocks of 512 or 1024 bytes, neither a whole
    // number of records past the header) stands in for a full disk: the
    // write that crosses it puts down part of a record, then fails.
    let limited = "trap '' XFSZ\nulimit -f 7";
    let r = datagen_in(
        &dir,
        limited,
        &["--positions", "400", "--resume", "--out", "f.bin"],
    );
    assert!(r.0.is_some_and(|c| c != 0), "{r:?}");
    let bytes = std::fs::read(dir.join("f.bin")).unwrap();
    let held = (bytes.len() - HEADER_SIZE) / RECORD_SIZE;
    assert!(held > 0, "{r:?}");
    assert_eq!((bytes.len() - HEADER_SIZE) % RECORD_SIZE, 0, "{r:?}");
    assert_eq!(record::check_header(&bytes, "f").unwrap(), held as u64);
    // Room again: the run goes on to the file of one uninterrupted run.
    let r = datagen(&dir, &["--positions", "400", "--resume", "--out", "f.bin"]);
    assert_eq!(r.0, Some(0), "{}", r.1);
    assert_eq!(
        std::fs::read(dir.join("f.bin")).unwrap(),
        std::fs::read(dir.join("whole.bin")).unwrap()
    );
}

#[test]
fn no_output_is_an_input() {
    let dir = scratch("identity");
    let book = format!("{}\n", janggun::board::START_FEN);
    // The point beside the output is one of datagen's outputs: a plain run
    // removes it, a resumed one rewrites it.
    std::fs::write(dir.join("a.bin.resume"), &book).unwrap();
    std::fs::write(dir.join("book.txt"), &book).unwrap();
    std::os::unix::fs::symlink("book.txt", dir.join("link.txt")).unwrap();
    for args in [
        vec![
            "--games",
            "1",
            "--openings",
            "a.bin.resume",
            "--out",
            "a.bin",
        ],
        vec![
            "--games",
            "1",
            "--resume",
            "--openings",
            "./a.bin.resume",
            "--out",
            "a.bin",
        ],
        vec![
            "--games",
            "1",
            "--openings",
            "book.txt",
            "--out",
            "./book.txt",
        ],
        vec![
            "--games",
            "1",
            "--openings",
            "link.txt",
            "--out",
            "book.txt",
        ],
    ] {
        let r = datagen(&dir, &args);
        assert!(failed(&r, "same file"), "{args:?}: {r:?}");
        assert_eq!(
            std::fs::read_to_string(dir.join("a.bin.resume")).unwrap(),
            book
        );
        assert_eq!(std::fs::read_to_string(dir.join("book.txt")).unwrap(), book);
        assert!(!dir.join("a.bin").exists(), "{args:?}");
    }
    // Something else where the point goes is not removed by a plain run.
    let r = datagen(&dir, &["--games", "1", "--out", "a.bin"]);
    assert!(failed(&r, "not a datagen resume point"), "{r:?}");
    assert_eq!(
        std::fs::read_to_string(dir.join("a.bin.resume")).unwrap(),
        book
    );
}
