//! `janggun datagen --resume`: a run cut short (by its cap, or killed in
//! the middle of a game) and resumed writes byte for byte the file of one
//! uninterrupted run; a resume point that does not belong to the file, or
//! to these settings, is refused with the file left as it was. The tests
//! that reckon in bytes write fixed records (`--format 2`); the chained
//! format (3, the default) has its own below.

use janggun::train::chain::{ChainReader, CHAIN_VERSION};
use janggun::train::datafile;
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
        version: 2,
        ..DatagenConfig::new(out.to_path_buf())
    }
}

/// [`opts`] writing the chained format.
fn chained(out: &Path, positions: u64) -> DatagenConfig {
    DatagenConfig {
        version: CHAIN_VERSION,
        ..opts(out, positions)
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
    assert_eq!(datafile::read_file(&whole).unwrap().len(), 400);

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
    // The writer rewrites the header's count after each game, so a kill
    // leaves the count of the games before the point; the complete file's
    // count could exceed what is left here, depending on where its games
    // ended.
    bytes[16..24].copy_from_slice(&point.records.to_le_bytes());
    bytes.extend(std::iter::repeat_n(0xAB, 30 * RECORD_SIZE + 17));
    std::fs::write(&f, &bytes).unwrap();
    run(&opts(&f, 300)).unwrap();
    assert_eq!(std::fs::read(&f).unwrap(), want);
}

/// Runs `janggun datagen` to `positions` records of `format`, killed
/// once its file is longer than `kill_at` bytes, then resumed: the file of
/// one whole run.
fn killed_and_resumed(dir: &Path, format: &str, positions: &str, kill_at: u64) {
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
            "--format",
            format,
        ])
        .args([
            "--positions",
            positions,
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
        if len > kill_at {
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
fn a_killed_process_resumes_to_the_same_file() {
    let dir = scratch("process");
    killed_and_resumed(&dir, "2", "600", (HEADER_SIZE + 150 * RECORD_SIZE) as u64);
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
    assert_eq!(datafile::read_file(&f).unwrap().len(), 150);
    assert!(!resume::path_for(&f).exists());
}

const BIN: &str = env!("CARGO_BIN_EXE_janggun");

/// `janggun datagen` at the settings of these tests, run in `dir` (`shell`
/// runs first, in `sh`: a limit); its exit code and stderr.
fn datagen_in(dir: &Path, shell: &str, args: &[&str]) -> (Option<i32>, String) {
    datagen_as(dir, shell, "2", args)
}

/// [`datagen_in`] writing data format `format`.
fn datagen_as(dir: &Path, shell: &str, format: &str, args: &[&str]) -> (Option<i32>, String) {
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
        "--format",
        format,
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
    // (Past the two games' length, which follows the search.)
    let target = (a.len() - HEADER_SIZE) / RECORD_SIZE + 100;
    let r = datagen(
        &dir,
        &[
            "--positions",
            &target.to_string(),
            "--resume",
            "--out",
            "a.bin",
        ],
    );
    assert_eq!(r.0, Some(0), "{}", r.1);
    let longer = std::fs::read(dir.join("a.bin")).unwrap();
    assert_eq!(longer.len(), HEADER_SIZE + target * RECORD_SIZE);
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

/// Records and bytes (from the header's start) at the end of each block
/// of a chained file.
fn block_ends(bytes: &[u8]) -> Vec<(u64, u64)> {
    let mut r = ChainReader::new(bytes, "f").unwrap();
    let mut ends = vec![(0, HEADER_SIZE as u64)];
    while r.next_record().unwrap().is_some() {
        if r.at_block_end() {
            ends.push((r.records_read(), r.offset()));
        }
    }
    ends
}

fn point_of(f: &Path) -> (String, ResumePoint) {
    let text = std::fs::read_to_string(resume::path_for(f)).unwrap();
    let settings = text.lines().nth(1).unwrap()["settings ".len()..].to_string();
    let point = resume::read(&resume::path_for(f), &settings)
        .unwrap()
        .unwrap();
    (settings, point)
}

#[test]
fn a_chained_run_cut_by_its_cap_and_resumed_is_the_uninterrupted_file() {
    let dir = scratch("chain-cap");
    let whole = dir.join("whole.bin");
    run(&chained(&whole, 400)).unwrap();
    let want = std::fs::read(&whole).unwrap();
    let records = datafile::read_file(&whole).unwrap();
    assert_eq!(records.len(), 400);
    // The records of the fixed format, in a tenth of the bytes.
    let fixed = dir.join("fixed.bin");
    run(&opts(&fixed, 400)).unwrap();
    assert_eq!(datafile::read_file(&fixed).unwrap(), records);
    assert!(want.len() < 400 * 5, "{} bytes", want.len());

    let part = dir.join("part.bin");
    run(&chained(&part, 150)).unwrap();
    assert_eq!(datafile::read_file(&part).unwrap(), records[..150]);
    let (_, point) = point_of(&part);
    assert!(point.records < 150 && point.next_game > 0, "{point:?}");
    run(&chained(&part, 400)).unwrap();
    assert_eq!(std::fs::read(&part).unwrap(), want);
    let sum = run(&chained(&part, 400)).unwrap();
    assert_eq!((sum.games, sum.positions), (0, 0));
    assert_eq!(std::fs::read(&part).unwrap(), want);
    // The other format is refused, the file kept.
    let e = run(&opts(&part, 500)).unwrap_err();
    assert!(
        e.contains("other settings") && e.contains("format=3"),
        "{e}"
    );
    assert_eq!(std::fs::read(&part).unwrap(), want);
}

#[test]
fn a_chained_block_cut_short_after_the_point_is_cut_off_and_garbage_refused() {
    let dir = scratch("chain-killed");
    let whole = dir.join("whole.bin");
    run(&chained(&whole, 300)).unwrap();
    let want = std::fs::read(&whole).unwrap();
    let ends = block_ends(&want);
    let f = dir.join("f.bin");
    run(&chained(&f, 100)).unwrap();
    let (settings, mut point) = point_of(&f);
    let &(_, at) = ends.iter().find(|e| e.0 == point.records).unwrap();
    let &(next, next_at) = ends.iter().find(|e| e.0 > point.records).unwrap();
    // What a kill while a game's block goes down leaves: a point that
    // allows the game, part of its block, the count before it.
    point.writing = next - point.records;
    resume::write(&resume::path_for(&f), &settings, point).unwrap();
    let cut_at = |end: u64| {
        let mut b = want[..end as usize].to_vec();
        b[16..24].copy_from_slice(&point.records.to_le_bytes());
        b
    };
    let good_point = std::fs::read(resume::path_for(&f)).unwrap();
    for end in [(at + next_at) / 2, at + 1, next_at] {
        std::fs::write(&f, cut_at(end)).unwrap();
        std::fs::write(resume::path_for(&f), &good_point).unwrap();
        run(&chained(&f, 300)).unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), want, "cut at {end}");
    }
    // Bytes after the point that are no block, or a block more than the
    // point allows, are someone's data: refused, nothing cut.
    let mut garbage = cut_at(at);
    garbage.extend(std::iter::repeat_n(0xAB, 50));
    let mut more = cut_at(next_at);
    more.extend_from_slice(&want[next_at as usize..]);
    let mut small = point;
    small.writing = 3;
    for (bytes, p, why) in [
        (garbage, point, "past 32 bits"),
        (more.clone(), point, "follow its resume point"),
        (more, small, "follow its resume point"),
    ] {
        std::fs::write(&f, &bytes).unwrap();
        resume::write(&resume::path_for(&f), &settings, p).unwrap();
        let e = run(&chained(&f, 300)).unwrap_err();
        assert!(e.contains(why), "{e}");
        assert_eq!(std::fs::read(&f).unwrap(), bytes);
    }
    // A point inside a block (its hash right): not this file's.
    let recs = datafile::read_file(&whole).unwrap();
    let inside = point.records + 1;
    let data = recs[..inside as usize]
        .iter()
        .fold(resume::DATA_START, |h, r| resume::hash_more(h, r));
    let p = ResumePoint {
        next_game: point.next_game,
        records: inside,
        writing: 0,
        data: Some(data),
    };
    std::fs::write(&f, &want).unwrap();
    resume::write(&resume::path_for(&f), &settings, p).unwrap();
    let e = run(&chained(&f, 300)).unwrap_err();
    assert!(e.contains("inside a block"), "{e}");
    assert_eq!(std::fs::read(&f).unwrap(), want);
}

#[test]
fn a_killed_chained_process_resumes_to_the_same_file() {
    let dir = scratch("chain-process");
    killed_and_resumed(&dir, "3", "400", 200);
}

#[test]
fn a_full_disk_leaves_whole_blocks_and_the_chained_run_resumes() {
    let dir = scratch("chain-full");
    let args = ["--positions", "400", "--resume", "--out"];
    let r = datagen_as(&dir, "", "3", &[&args[..], &["whole.bin"]].concat());
    assert_eq!(r.0, Some(0), "{}", r.1);
    let want = datafile::read_file(&dir.join("whole.bin")).unwrap();
    // Two blocks of 512 bytes: the game whose block crosses them (the
    // third) fails halfway.
    let limited = "trap '' XFSZ\nulimit -f 2";
    let r = datagen_as(&dir, limited, "3", &[&args[..], &["f.bin"]].concat());
    assert!(r.0.is_some_and(|c| c != 0), "{r:?}");
    let f = dir.join("f.bin");
    let got = datafile::read_file(&f).unwrap();
    assert!(!got.is_empty() && got.len() < 400, "{r:?}");
    assert_eq!(got, want[..got.len()]);
    let bytes = std::fs::read(&f).unwrap();
    assert_eq!(block_ends(&bytes).last().unwrap().1, bytes.len() as u64);
    let c = datafile::count(&f).unwrap();
    assert_eq!(
        (c.records, c.header_count),
        (got.len() as u64, got.len() as u64)
    );
    // Room again: the run goes on to the file of one uninterrupted run.
    let r = datagen_as(&dir, "", "3", &[&args[..], &["f.bin"]].concat());
    assert_eq!(r.0, Some(0), "{}", r.1);
    assert_eq!(
        std::fs::read(&f).unwrap(),
        std::fs::read(dir.join("whole.bin")).unwrap()
    );
}

#[test]
fn a_plain_run_appends_games_to_a_chained_file() {
    let dir = scratch("chain-append");
    let f = dir.join("f.bin");
    run(&chained(&f, 100)).unwrap();
    let first = datafile::read_file(&f).unwrap();
    let mut plain = chained(&f, 50);
    plain.resume = false;
    plain.seed = 10;
    run(&plain).unwrap();
    let all = datafile::read_file(&f).unwrap();
    assert_eq!(all.len(), 150);
    assert_eq!(all[..100], first[..]);
    assert!(!resume::path_for(&f).exists());
    // A fixed-record file is not appended to as chained, nor the reverse.
    let fixed = dir.join("fixed.bin");
    run(&opts(&fixed, 30)).unwrap();
    let before = std::fs::read(&fixed).unwrap();
    let mut c = chained(&fixed, 60);
    c.resume = false;
    let e = run(&c).unwrap_err();
    assert!(e.contains("format version 2, not 3"), "{e}");
    assert_eq!(std::fs::read(&fixed).unwrap(), before);
}
