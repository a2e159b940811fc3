//! `janggun datagen` end to end: deterministic files, valid records with
//! flags that match their positions, merge's header check, reading a file
//! cut short, and every reader checking the header's count against the
//! file, in the fixed-record format (`--format 2`) and the chained one
//! (3, the default).

use janggun::board::Color;
use janggun::search::score::WIN_BOUND;
use janggun::train::chain::{self, CHAIN_VERSION};
use janggun::train::datafile;
use janggun::train::datagen::{run, DatagenConfig};
use janggun::train::record::{self, Flags, Meta, Sample, HEADER_SIZE, RECORD_SIZE};
use std::path::PathBuf;
use std::time::Duration;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("janggun-data-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::remove_file(&p).ok();
    p
}

fn options(out: PathBuf, seed: u64) -> DatagenConfig {
    DatagenConfig {
        nodes: 300,
        verify_nodes: 300,
        seed,
        games: Some(3),
        progress: Duration::from_secs(3600),
        version: 2,
        ..DatagenConfig::new(out)
    }
}

#[test]
fn datagen_is_deterministic_and_writes_valid_records() {
    let (a, b) = (temp("a.bin"), temp("b.bin"));
    run(&options(a.clone(), 7)).unwrap();
    run(&options(b.clone(), 7)).unwrap();
    let (ba, bb) = (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert_eq!(ba, bb);
    let recs = datafile::read_file(&a).unwrap();
    assert!(recs.len() > 50, "only {} records", recs.len());
    assert_eq!(record::check_header(&ba, "a").unwrap(), recs.len() as u64);
    // Every searched position is written, its flags saying what the
    // search saw there.
    for r in &recs {
        let s = Sample::decode(r).unwrap();
        let meta = Meta::decode(r).unwrap();
        let pos = s.to_position().unwrap();
        assert_eq!(meta.flags.has(Flags::IN_CHECK), pos.in_check());
        assert_eq!(
            meta.flags.has(Flags::DECIDED),
            (s.score as i32).abs() >= WIN_BOUND
        );
        let best = meta.best.unwrap();
        assert_eq!(
            meta.flags.has(Flags::CAPTURE),
            !best.is_pass() && pos.piece_at(best.to()).is_some()
        );
        assert_eq!(meta.ply % 2 == 1, s.stm == Color::Han);
        assert!(meta.ply >= 8, "a random ply written: {}", meta.ply);
    }
    assert!(recs.iter().any(|r| r[32] & Flags::IN_CHECK != 0));
    // Some games were won (results are not all draws).
    assert!(recs.iter().any(|r| r[31] != 1));
    // Another seed plays other games; appending keeps the earlier records.
    run(&options(a.clone(), 8)).unwrap();
    let more = datafile::read_file(&a).unwrap();
    assert!(more.len() > recs.len());
    assert_eq!(&more[..recs.len()], &recs[..]);
    let n = (more.len() - recs.len()).min(recs.len());
    assert_ne!(&more[recs.len()..recs.len() + n], &recs[..n]);
}

#[test]
fn merge_checks_headers_and_truncated_files_read_whole_records() {
    let a = temp("m1.bin");
    let mut opts = options(a.clone(), 3);
    opts.games = None;
    opts.positions = Some(40);
    run(&opts).unwrap();
    let recs = datafile::read_file(&a).unwrap();
    assert_eq!(recs.len(), 40);

    // A file stopped in the middle of a record, its header counting no
    // more than it holds (a datagen killed as it wrote): only whole
    // records are read.
    let cut = temp("cut.bin");
    let bytes = std::fs::read(&a).unwrap();
    let mut part = bytes[..HEADER_SIZE + 10 * RECORD_SIZE + 17].to_vec();
    part[16..24].copy_from_slice(&8u64.to_le_bytes());
    std::fs::write(&cut, &part).unwrap();
    assert_eq!(datafile::read_file(&cut).unwrap(), recs[..10].to_vec());

    // Merge: two good inputs concatenate (the cut one's partial record dropped).
    let out = temp("merged.bin");
    assert_eq!(
        datafile::merge(&out, &[a.display().to_string(), cut.display().to_string()])
            .unwrap()
            .0,
        50
    );
    let merged = datafile::read_file(&out).unwrap();
    assert_eq!(&merged[..40], &recs[..]);
    assert_eq!(&merged[40..], &recs[..10]);

    // A bad header anywhere refuses the merge and leaves the output as it was.
    let bad = temp("bad.bin");
    let mut b = bytes.clone();
    b[0] = b'X';
    std::fs::write(&bad, &b).unwrap();
    let before = std::fs::read(&out).unwrap();
    let err = datafile::merge(&out, &[a.display().to_string(), bad.display().to_string()]);
    assert!(err.unwrap_err().contains("bad magic"));
    let mut v = bytes.clone();
    v[8] = 3;
    std::fs::write(&bad, &v).unwrap();
    assert!(datafile::merge(&out, &[bad.display().to_string()])
        .unwrap_err()
        .contains("version"));
    std::fs::write(&bad, &bytes[..20]).unwrap();
    assert!(datafile::merge(&out, &[bad.display().to_string()]).is_err());
    assert_eq!(std::fs::read(&out).unwrap(), before);
    // Appending to a file with a bad header is refused too.
    let mut o = options(bad.clone(), 1);
    o.games = Some(1);
    assert!(run(&o).is_err());
}

fn janggun(dir: &std::path::Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_janggun"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A data file whose header counts more records than it holds is damaged
/// (a writer counts only records it has written, so a copy cut short or a
/// file truncated by hand): every reader refuses it, by name, and nothing
/// is written. One that counts fewer is a file being written (datagen
/// rewrites the count now and then) and is read whole, with a note.
#[test]
fn every_reader_checks_the_header_count_against_the_file() {
    header_count_rules("2");
}

#[test]
fn every_reader_checks_a_chained_files_count_too() {
    header_count_rules("3");
}

fn header_count_rules(format: &str) {
    // A folder a format: the two tests run at once.
    let dir = temp(&format!("format-{format}"));
    std::fs::create_dir_all(&dir).unwrap();
    let good = dir.join("count-good.bin");
    let mut o = options(good.clone(), 5);
    o.games = None;
    o.positions = Some(30);
    o.version = format.parse().unwrap();
    let chained = o.version == CHAIN_VERSION;
    run(&o).unwrap();
    let bytes = std::fs::read(&good).unwrap();
    assert_eq!(datafile::count(&good).unwrap().header_count, 30);

    // Counts 100, holds 30.
    let damaged = dir.join("count-damaged.bin");
    let mut d = bytes.clone();
    d[16..24].copy_from_slice(&100u64.to_le_bytes());
    std::fs::write(&damaged, &d).unwrap();
    let e = datafile::read_file(&damaged).unwrap_err();
    assert!(e.contains("counts 100") && e.contains("holds 30"), "{e}");
    let e = datafile::count(&damaged).unwrap_err();
    assert!(e.contains("counts 100") && e.contains("holds 30"), "{e}");
    let out = dir.join("count-out.bin");
    std::fs::copy(&good, &out).unwrap();
    let out_before = std::fs::read(&out).unwrap();
    for args in [
        vec!["datagen", "stats", "count-damaged.bin"],
        vec!["datagen", "merge", "count-out.bin", "count-damaged.bin"],
        vec![
            "datagen",
            "merge",
            "count-new.bin",
            "count-good.bin",
            "count-damaged.bin",
        ],
        vec!["datagen", "merge", "count-damaged.bin", "count-good.bin"],
        vec![
            "datagen",
            "--out",
            "count-damaged.bin",
            "--games",
            "1",
            "--nodes",
            "100",
            "--format",
            format,
        ],
        vec!["datagen", "count", "count-good.bin", "count-damaged.bin"],
        vec!["datagen", "convert", "count-damaged.bin", "count-conv.bin"],
        vec![
            "train",
            "count-damaged.bin",
            "--out-dir",
            "count-t",
            "--hidden",
            "16",
            "--epochs",
            "1",
        ],
        vec![
            "train",
            "count-good.bin",
            "--val",
            "count-damaged.bin",
            "--out-dir",
            "count-t",
            "--epochs",
            "1",
        ],
    ] {
        let (code, _, err) = janggun(&dir, &args);
        assert!(code.is_some_and(|c| c != 0), "{args:?}: {err}");
        assert!(
            err.contains("count-damaged.bin") && err.contains("cut short or damaged"),
            "{args:?}: {err}"
        );
    }
    assert_eq!(std::fs::read(&damaged).unwrap(), d);
    assert_eq!(std::fs::read(&out).unwrap(), out_before);
    assert!(!dir.join("count-new.bin").exists());
    assert!(!dir.join("count-conv.bin").exists());
    assert!(
        !dir.join("count-t").exists()
            || std::fs::read_dir(dir.join("count-t"))
                .unwrap()
                .next()
                .is_none()
    );

    // Counts 12 of its 30, a partial record (or the start of a block)
    // after them: being written.
    let live = dir.join("count-live.bin");
    let mut l = bytes.clone();
    l[16..24].copy_from_slice(&12u64.to_le_bytes());
    if chained {
        l.extend_from_slice(&bytes[HEADER_SIZE..HEADER_SIZE + 7]);
    } else {
        l.extend_from_slice(&[0xAB; 7]);
    }
    std::fs::write(&live, &l).unwrap();
    assert_eq!(datafile::read_file(&live).unwrap().len(), 30);
    let (code, text, err) = janggun(&dir, &["datagen", "count", "count-live.bin"]);
    assert_eq!((code, text.as_str()), (Some(0), "30\n"), "{err}");
    let (code, text, err) = janggun(&dir, &["datagen", "stats", "count-live.bin"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        text.contains("30 records") && text.contains("header counts 12"),
        "{text}"
    );
    let merged = dir.join("count-merged.bin");
    let (code, _, err) = janggun(
        &dir,
        &["datagen", "merge", "count-merged.bin", "count-live.bin"],
    );
    assert_eq!(code, Some(0), "{err}");
    // A new output is chained: a chained input's blocks as they were, a
    // fixed one's records as blocks.
    let m = std::fs::read(&merged).unwrap();
    assert_eq!(chain::read_header(&m, "m").unwrap().count, 30);
    if chained {
        assert_eq!(&m[HEADER_SIZE..], &bytes[HEADER_SIZE..]);
    }
    assert_eq!(
        datafile::read_file(&merged).unwrap(),
        datafile::read_file(&good).unwrap()
    );
    // Converted, the 30 are counted.
    let (code, _, err) = janggun(
        &dir,
        &["datagen", "convert", "count-live.bin", "count-conv.bin"],
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("header counts 12"), "{err}");
    let c = datafile::count(&dir.join("count-conv.bin")).unwrap();
    assert_eq!((c.records, c.header_count), (30, 30));
    std::fs::remove_file(dir.join("count-conv.bin")).unwrap();
}
