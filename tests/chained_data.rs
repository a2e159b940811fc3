//! The chained data format (version 3) through the tools: `datagen`
//! writes it by default and its records are those of `--format 2`;
//! `datagen convert` goes both ways byte for byte; `count`, `stats`,
//! `merge`, `train` and `net loss` read every format alike, a net trained
//! on a chained file being the very net trained on its fixed records.

use janggun::train::chain;
use janggun::train::datafile;
use janggun::train::record::{self, HEADER_SIZE};
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_janggun");

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("janggun-chained-{}-{name}", std::process::id()));
    std::fs::remove_dir_all(&d).ok();
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs the binary in `dir`: exit code, stdout, stderr.
fn janggun(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(BIN)
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

fn ok(dir: &Path, args: &[&str]) -> String {
    let (code, out, err) = janggun(dir, args);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    out
}

fn refused(dir: &Path, args: &[&str], why: &str) {
    let (code, _, err) = janggun(dir, args);
    assert!(
        code.is_some_and(|c| c != 0) && err.contains(why) && !err.contains("panicked"),
        "{args:?}: {err}"
    );
}

/// A shard of `positions` records of `format`, seed `seed`.
fn datagen(dir: &Path, out: &str, format: &str, seed: &str, positions: &str) {
    ok(
        dir,
        &[
            "datagen",
            "--nodes",
            "200",
            "--verify-nodes",
            "200",
            "--progress",
            "3600",
            "--seed",
            seed,
            "--format",
            format,
            "--positions",
            positions,
            "--out",
            out,
        ],
    );
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap()
}

#[test]
fn convert_goes_both_ways_byte_for_byte() {
    let dir = scratch("convert");
    datagen(&dir, "v2.bin", "2", "5", "300");
    datagen(&dir, "v3.bin", "3", "5", "300");
    datagen(&dir, "v1.bin", "1", "5", "300");
    // Datagen's chained file holds the very records of its fixed one.
    ok(&dir, &["datagen", "convert", "v3.bin", "v3-fixed.bin"]);
    assert_eq!(read(&dir, "v3-fixed.bin"), read(&dir, "v2.bin"));
    assert!(read(&dir, "v3.bin").len() * 8 < read(&dir, "v2.bin").len());
    // Fixed -> chained -> fixed, for both record versions; and a chained
    // file convert made comes back to the same bytes too.
    for v in ["v1", "v2"] {
        let (f, c, back, again) = (
            format!("{v}.bin"),
            format!("{v}.jgc"),
            format!("{v}-back.bin"),
            format!("{v}-again.jgc"),
        );
        ok(&dir, &["datagen", "convert", &f, &c]);
        assert!(chain::is_chained(&read(&dir, &c)));
        ok(&dir, &["datagen", "convert", &c, &back]);
        assert_eq!(read(&dir, &back), read(&dir, &f), "{v}");
        ok(&dir, &["datagen", "convert", &back, &again]);
        assert_eq!(read(&dir, &again), read(&dir, &c), "{v}");
        // --to names the format; a chained file re-blocked keeps its records.
        ok(&dir, &["datagen", "convert", &c, &again, "--to", "3"]);
        assert_eq!(read(&dir, &again), read(&dir, &c), "{v}");
    }
    ok(
        &dir,
        &["datagen", "convert", "v3.bin", "v3-again.jgc", "--to", "3"],
    );
    assert_eq!(read(&dir, "v3-again.jgc"), read(&dir, "v2.jgc"));
    // Records never change version, and the output is checked first.
    refused(
        &dir,
        &["datagen", "convert", "v2.bin", "x.bin", "--to", "1"],
        "never as version 1",
    );
    refused(
        &dir,
        &["datagen", "convert", "v1.jgc", "x.bin", "--to", "2"],
        "never as version 2",
    );
    refused(
        &dir,
        &["datagen", "convert", "v2.bin", "x.bin", "--to", "7"],
        "'7' for '--to",
    );
    // "fixed" is the records' own version, whatever the input.
    ok(
        &dir,
        &["datagen", "convert", "v2.bin", "x.bin", "--to", "fixed"],
    );
    assert_eq!(read(&dir, "x.bin"), read(&dir, "v2.bin"));
    ok(
        &dir,
        &["datagen", "convert", "v1.jgc", "x.bin", "--to", "fixed"],
    );
    assert_eq!(read(&dir, "x.bin"), read(&dir, "v1.bin"));
    refused(
        &dir,
        &["datagen", "convert", "v2.bin", "./v2.bin"],
        "same file",
    );
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    refused(
        &dir,
        &["datagen", "convert", "v2.bin", "notes.txt"],
        "not replaced",
    );
    assert_eq!(read(&dir, "notes.txt"), b"mine");
    std::fs::write(dir.join("v2.jgc.resume"), "a point").unwrap();
    let before = read(&dir, "v2.jgc");
    refused(
        &dir,
        &["datagen", "convert", "v1.bin", "v2.jgc"],
        "resume point",
    );
    assert_eq!(read(&dir, "v2.jgc"), before);
    // A damaged chained input writes nothing, and leaves nothing aside.
    let mut bad = read(&dir, "v2.jgc");
    let mid = bad.len() / 2;
    bad[mid] ^= 0x55;
    std::fs::write(dir.join("bad.jgc"), &bad).unwrap();
    refused(
        &dir,
        &["datagen", "convert", "bad.jgc", "bad.bin"],
        "bad.jgc",
    );
    assert!(!dir.join("bad.bin").exists());
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn every_reader_reads_every_format_alike() {
    let dir = scratch("readers");
    datagen(&dir, "f.bin", "2", "8", "250");
    datagen(&dir, "c.bin", "3", "8", "250");
    datagen(&dir, "g1.bin", "1", "8", "120");
    ok(&dir, &["datagen", "convert", "g1.bin", "g1.jgc"]);
    assert_eq!(
        ok(&dir, &["datagen", "count", "f.bin", "c.bin", "g1.jgc"]),
        "250\n250\n120\n"
    );
    refused(
        &dir,
        &["datagen", "count", "f.bin", "missing.bin"],
        "missing.bin",
    );
    // Stats: the same report but for the format line.
    let body = |s: String| s.lines().skip(1).collect::<Vec<_>>().join("\n");
    let (f, c) = (
        ok(&dir, &["datagen", "stats", "f.bin"]),
        ok(&dir, &["datagen", "stats", "c.bin"]),
    );
    assert!(
        c.starts_with("c.bin: format version 3, chained version-2 records, 250 records"),
        "{c}"
    );
    assert_eq!(body(f), body(c));
    // Merge: inputs of any format; a new output is chained, a fixed one
    // stays fixed; record versions never mix.
    ok(&dir, &["datagen", "merge", "m.bin", "c.bin", "f.bin"]);
    let m = datafile::read_file(&dir.join("m.bin")).unwrap();
    let f = datafile::read_file(&dir.join("f.bin")).unwrap();
    assert_eq!(m, [f.clone(), f.clone()].concat());
    assert_eq!(
        chain::read_header(&read(&dir, "m.bin"), "m").unwrap().count,
        500
    );
    // The chained input's blocks were copied as they were.
    let c_bytes = read(&dir, "c.bin");
    assert_eq!(
        &read(&dir, "m.bin")[HEADER_SIZE..c_bytes.len()],
        &c_bytes[HEADER_SIZE..]
    );
    std::fs::copy(dir.join("f.bin"), dir.join("fixed-out.bin")).unwrap();
    ok(&dir, &["datagen", "merge", "fixed-out.bin", "c.bin"]);
    let h = record::read_header(&read(&dir, "fixed-out.bin"), "o").unwrap();
    assert_eq!((h.version, h.count), (2, 500));
    ok(&dir, &["datagen", "merge", "m.bin", "c.bin"]);
    assert_eq!(datafile::count(&dir.join("m.bin")).unwrap().records, 750);
    let before = read(&dir, "m.bin");
    refused(
        &dir,
        &["datagen", "merge", "m.bin", "g1.jgc"],
        "one version",
    );
    refused(
        &dir,
        &["datagen", "merge", "n.bin", "c.bin", "g1.jgc"],
        "one version",
    );
    assert_eq!(read(&dir, "m.bin"), before);
    assert!(!dir.join("n.bin").exists());
    // The gate metric reads both alike.
    let net = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/nn-27f44730272b.jnn");
    assert_eq!(
        ok(&dir, &["net", "loss", net, "f.bin"]),
        ok(&dir, &["net", "loss", net, "c.bin"])
    );
}

#[test]
fn a_net_trained_on_a_chained_file_is_the_net_of_its_fixed_records() {
    let dir = scratch("train");
    datagen(&dir, "f.bin", "2", "11", "600");
    datagen(&dir, "c.bin", "3", "11", "600");
    let train = |data: &str, out: &str| {
        let text = ok(
            &dir,
            &[
                "train",
                data,
                "--out-dir",
                out,
                "--hidden",
                "16",
                "--epochs",
                "2",
                "--threads",
                "1",
                "--seed",
                "3",
            ],
        );
        std::fs::read(dir.join(text.lines().last().unwrap())).unwrap()
    };
    let (a, b) = (train("f.bin", "tf"), train("c.bin", "tc"));
    assert!(!a.is_empty());
    assert_eq!(a, b);
}
