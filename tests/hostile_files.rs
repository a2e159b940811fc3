//! Files named from outside, under hostile input (issue 20, causes 2, 3,
//! 4, 9 and 10): FIFOs, endless devices and wrong sizes as nets, openings,
//! data and checkpoints; a merge that names a file twice or fails part-way;
//! training settings and records that make no sense. Each case runs the
//! real binary with a time limit, and where memory matters, a memory limit.
//! (FIFOs, devices, links and `ulimit` make these Unix tests.)
#![cfg(unix)]

mod bounded_run;

use bounded_run::{finish, Run};
use janggun::board::notation::setup_fen;
use janggun::board::{Position, RuleSet, Setup};
use janggun::train::record::{header, Sample, HEADER_SIZE, RECORD_SIZE};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_janggun");
/// Far more than any refusal needs; a run still going then has hung.
const TIMEOUT: Duration = Duration::from_secs(20);
/// Virtual memory for runs that might read without end, in KiB: enough to
/// start, far less than an endless read would take.
const MEMORY_KB: u64 = 1_000_000;

/// Runs the binary with `args` in `dir` through `sh -c`, after the shell
/// commands `limits` (`ulimit`s, `trap`s), feeding `input`; kills it after
/// `TIMEOUT`.
fn run_in(dir: &Path, limits: &str, args: &[&str], input: &str) -> Run {
    let script = format!("{limits}\nexec \"$0\" \"$@\"");
    let child = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start janggun");
    finish(child, TIMEOUT, Some(input))
}

fn run(dir: &Path, args: &[&str]) -> Run {
    run_in(dir, &format!("ulimit -v {MEMORY_KB}"), args, "")
}

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("janggun-hostile-{}-{name}", std::process::id()));
    std::fs::remove_dir_all(&d).ok();
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn mkfifo(path: &Path) {
    let st = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(st.success());
}

/// `n` records of the 16 setups in turn, as a data file's bytes.
fn records(n: usize) -> Vec<[u8; RECORD_SIZE]> {
    (0..n)
        .map(|i| {
            let fen = setup_fen(Setup::ALL[i / 4 % 4], Setup::ALL[i % 4]);
            let pos = Position::from_fen(&fen, RuleSet::Janggi).unwrap();
            let score = (i as i16 % 41 - 20) * 5;
            Sample::from_position(&pos, score, (i % 3) as u8)
                .encode()
                .unwrap()
        })
        .collect()
}

fn data_file(path: &Path, recs: &[[u8; RECORD_SIZE]]) {
    let mut b = header(recs.len() as u64).to_vec();
    for r in recs {
        b.extend_from_slice(r);
    }
    std::fs::write(path, b).unwrap();
}

fn count_of(path: &Path) -> (u64, usize) {
    let b = std::fs::read(path).unwrap();
    let mut c = [0u8; 8];
    c.copy_from_slice(&b[16..24]);
    (u64::from_le_bytes(c), (b.len() - HEADER_SIZE) / RECORD_SIZE)
}

/// Paths no reader may open: a FIFO (opening it blocks), endless devices,
/// a directory.
fn not_regular(dir: &Path) -> Vec<String> {
    let fifo = dir.join("fifo");
    mkfifo(&fifo);
    vec![
        fifo.display().to_string(),
        "/dev/zero".into(),
        "/dev/urandom".into(),
        dir.display().to_string(),
    ]
}

#[test]
fn eval_file_is_refused_unless_a_regular_file_of_its_header_size() {
    let dir = scratch("evalfile");
    let mut cases: Vec<(String, &str)> = not_regular(&dir)
        .into_iter()
        .map(|p| (p, "not a regular file"))
        .collect();
    // A header that claims the largest net, on a file of a few bytes more:
    // refused from the header, before the body is read.
    let mut big = b"JANGNNUE".to_vec();
    for w in [1u32, 1260, 2048, 255, 64, 400] {
        big.extend_from_slice(&w.to_le_bytes());
    }
    big.resize(100_000, 7);
    std::fs::write(dir.join("big.jnn"), &big).unwrap();
    cases.push(("big.jnn".into(), "its header needs"));
    for (path, why) in cases {
        let input = format!("uci\nsetoption name EvalFile value {path}\nisready\nquit\n");
        let r = run_in(&dir, &format!("ulimit -v {MEMORY_KB}"), &[], &input);
        assert_eq!(r.code, Some(0), "{path}: {r:?}");
        assert!(r.stdout.contains("readyok"), "{path}: {r:?}");
        assert!(r.stdout.contains(why), "{path}: {r:?}");
    }
}

#[test]
fn datagen_and_train_inputs_are_refused_unless_regular_files() {
    let dir = scratch("inputs");
    data_file(&dir.join("ok.bin"), &records(20));
    for path in not_regular(&dir) {
        let runs = [
            run(
                &dir,
                &["datagen", "--out", "o.bin", "--games", "1", "--nnue", &path],
            ),
            run(
                &dir,
                &[
                    "datagen",
                    "--out",
                    "o.bin",
                    "--games",
                    "1",
                    "--openings",
                    &path,
                ],
            ),
            run(&dir, &["datagen", "merge", "o.bin", "ok.bin", &path]),
            run(&dir, &["datagen", "--out", &path, "--games", "1"]),
            run(&dir, &["train", &path, "--out-dir", "t", "--hidden", "16"]),
            run(&dir, &["train", "ok.bin", "--val", &path, "--out-dir", "t"]),
            run(
                &dir,
                &["train", "ok.bin", "--resume", &path, "--out-dir", "t"],
            ),
        ];
        for r in runs {
            assert!(r.failed_with("not a regular file"), "{path}: {r:?}");
        }
        assert!(!dir.join("o.bin").exists());
    }
}

#[test]
fn openings_are_read_a_line_at_a_time_with_a_cap() {
    let dir = scratch("openings");
    // One endless line: refused at the cap, not read whole.
    std::fs::write(dir.join("long.txt"), vec![b'9'; 4 << 20]).unwrap();
    let r = run(
        &dir,
        &[
            "datagen",
            "--out",
            "o.bin",
            "--games",
            "1",
            "--openings",
            "long.txt",
        ],
    );
    assert!(r.failed_with("line 1 is longer than"), "{r:?}");
    assert!(!dir.join("o.bin").exists());
}

#[test]
fn merge_refuses_a_file_named_twice_or_the_output_as_input() {
    let dir = scratch("twice");
    let recs = records(20);
    data_file(&dir.join("a.bin"), &recs);
    data_file(&dir.join("b.bin"), &records(3));
    std::os::unix::fs::symlink("a.bin", dir.join("link.bin")).unwrap();
    let a_before = std::fs::read(dir.join("a.bin")).unwrap();
    let cases: [&[&str]; 6] = [
        &["out.bin", "a.bin", "a.bin"],
        &["out.bin", "a.bin", "./a.bin"],
        &["out.bin", "a.bin", "b.bin", "link.bin"],
        &["a.bin", "a.bin"],
        &["a.bin", "b.bin", "./a.bin"],
        &["link.bin", "a.bin"],
    ];
    for args in cases {
        let mut all = vec!["datagen", "merge"];
        all.extend_from_slice(args);
        let r = run(&dir, &all);
        assert!(
            r.failed_with("same file") || r.failed_with("is the output"),
            "{args:?}: {r:?}"
        );
        assert!(!dir.join("out.bin").exists(), "{args:?}");
        assert_eq!(
            std::fs::read(dir.join("a.bin")).unwrap(),
            a_before,
            "{args:?}"
        );
    }
    // Distinct files merge, and through a link the linked file grows.
    let r = run(&dir, &["datagen", "merge", "link.bin", "b.bin"]);
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(std::fs::symlink_metadata(dir.join("link.bin"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(count_of(&dir.join("a.bin")), (23, 23));
}

#[test]
fn a_merge_that_fails_leaves_the_output_as_it_was() {
    let dir = scratch("partial");
    let old = records(10);
    let new = records(300);
    data_file(&dir.join("in.bin"), &new);
    // A file size limit of 6 blocks (3 KiB) stops the merge part-way; the
    // signal ignored, the write fails with an error instead of a kill.
    let limited = "trap '' XFSZ\nulimit -f 6";
    for existing in [false, true] {
        let out = dir.join("out.bin");
        std::fs::remove_file(&out).ok();
        if existing {
            data_file(&out, &old);
        }
        let before = std::fs::read(&out).ok();
        let r = run_in(
            &dir,
            limited,
            &["datagen", "merge", "out.bin", "in.bin"],
            "",
        );
        assert!(r.code.is_some_and(|c| c != 0), "{r:?}");
        assert_eq!(std::fs::read(&out).ok(), before, "{r:?}");
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("tmp"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
        // The retry without the limit gives every record once.
        let r = run(&dir, &["datagen", "merge", "out.bin", "in.bin"]);
        assert_eq!(r.code, Some(0), "{r:?}");
        // (A new output is chained; a fixed-record one stays fixed.)
        let want = if existing { 310 } else { 300 };
        let c = janggun::train::datafile::count(&out).unwrap();
        assert_eq!((c.header_count, c.records), (want, want));
        assert_eq!(c.format, if existing { 2 } else { 3 });
        let got = janggun::train::datafile::read_file(&out).unwrap();
        assert_eq!(got[want as usize - 300..], new[..]);
    }
}

#[test]
fn train_refuses_settings_out_of_range_by_name() {
    let dir = scratch("settings");
    data_file(&dir.join("d.bin"), &records(64));
    let cases: [(&[&str], &str); 12] = [
        (&["--lr", "NaN"], "--lr"),
        (&["--lr", "inf"], "--lr"),
        (&["--lr=-1"], "--lr"),
        (&["--lr", "0"], "--lr"),
        (&["--scale", "0"], "--scale"),
        (&["--scale", "1e9"], "--scale"),
        (&["--scale", "NaN"], "--scale"),
        (&["--weight-decay", "NaN"], "--weight-decay"),
        (&["--weight-decay=-0.5"], "--weight-decay"),
        (&["--wdl", "1.5"], "--wdl"),
        (&["--batch", "0"], "--batch"),
        (&["--epochs", "0"], "--epochs"),
    ];
    for (extra, name) in cases {
        let mut args = vec!["train", "d.bin", "--hidden", "16", "--epochs", "1"];
        args.extend_from_slice(&["--threads", "1", "--out-dir", "t"]);
        args.extend_from_slice(extra);
        let r = run(&dir, &args);
        assert!(r.failed_with(name), "{extra:?}: {r:?}");
        let nets = std::fs::read_dir(dir.join("t"))
            .map(|d| d.count())
            .unwrap_or(0);
        assert_eq!(nets, 0, "{extra:?} wrote files");
    }
}

#[test]
fn train_refuses_a_checkpoint_with_a_nan_and_never_writes_a_bad_net() {
    let dir = scratch("resume");
    data_file(&dir.join("d.bin"), &records(64));
    let base = ["train", "d.bin", "--hidden", "16", "--threads", "1"];
    let mut args = base.to_vec();
    args.extend_from_slice(&["--epochs", "1", "--out-dir", "first"]);
    let r = run(&dir, &args);
    assert_eq!(r.code, Some(0), "{r:?}");
    // The net it wrote loads.
    let net = r.stdout.trim().to_string();
    let load = run_in(
        &dir,
        "",
        &[],
        &format!("uci\nsetoption name EvalFile value {net}\nisready\nquit\n"),
    );
    assert!(!load.stdout.contains("error"), "{load:?}");
    let ckpt = std::fs::read(dir.join("first/epoch-1.ckpt")).unwrap();
    // The scale (bytes 20..24), then the first parameter (from byte 40,
    // after checkpoint version 2's header).
    for (at, what) in [(20, "scale"), (40, "not finite")] {
        let mut bad = ckpt.clone();
        bad[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
        std::fs::write(dir.join("bad.ckpt"), &bad).unwrap();
        let mut args = base.to_vec();
        args.extend_from_slice(&[
            "--epochs",
            "2",
            "--out-dir",
            "second",
            "--resume",
            "bad.ckpt",
        ]);
        let r = run(&dir, &args);
        assert!(r.failed_with(what), "{what}: {r:?}");
        let jnn = std::fs::read_dir(dir.join("second"))
            .map(|d| {
                d.filter(|e| {
                    e.as_ref()
                        .unwrap()
                        .path()
                        .extension()
                        .is_some_and(|x| x == "jnn")
                })
                .count()
            })
            .unwrap_or(0);
        assert_eq!(jnn, 0, "{what}");
    }
}

#[test]
fn train_skips_and_counts_records_that_are_not_positions() {
    let dir = scratch("records");
    let mut recs = records(40);
    // No piece at all.
    recs.push([0u8; RECORD_SIZE]);
    // 32 Cho generals on the first 32 points (piece code 0 everywhere).
    let mut generals = [0u8; RECORD_SIZE];
    generals[0..4].copy_from_slice(&[0xFF; 4]);
    recs.push(generals);
    // A Cho guard outside its palace, from a real position.
    let pos = Position::from_fen(&setup_fen(Setup::Inner, Setup::Inner), RuleSet::Janggi).unwrap();
    let mut s = Sample::from_position(&pos, 0, 1);
    let guard = s
        .pieces
        .iter()
        .position(|(p, _)| p.kind() == janggun::board::PieceKind::Guard)
        .unwrap();
    s.pieces[guard].1 = janggun::board::Square::new(40);
    recs.push(s.encode().unwrap());
    data_file(&dir.join("d.bin"), &recs);
    // The 40 positions are the 16 setups in turn: kept, repeats and all.
    let r = run(
        &dir,
        &[
            "train",
            "d.bin",
            "--hidden",
            "16",
            "--epochs",
            "1",
            "--threads",
            "1",
            "--out-dir",
            "t",
            "--keep-duplicates",
        ],
    );
    assert_eq!(r.code, Some(0), "{r:?}");
    assert!(
        r.stderr.contains("3 records skipped, not legal positions"),
        "{r:?}"
    );
    // What is left is the 40 real positions, split between training and
    // held out.
    let summary = r.stderr.lines().find(|l| l.starts_with("train:")).unwrap();
    let nums: Vec<usize> = summary
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    assert_eq!(nums[0] + nums[2], 40, "{summary}");
    assert_eq!(nums[3], 3, "{summary}");
}
