//! Data format version 2 and what reads it: version-1 files still read,
//! the load filters and duplicate dropping of `janggun train`, datagen's
//! opening verification and adjudication end to end, `janggun datagen
//! stats`, and hostile files (cut short, garbage, another version) that
//! must give an error, never a panic.

use janggun::board::notation::setup_fen;
use janggun::board::{Position, RuleSet, Setup};
use janggun::train::chain::{self, CHAIN_VERSION};
use janggun::train::datafile;
use janggun::train::datagen::{run, DatagenConfig};
use janggun::train::load::{load_samples, Counts, Filter};
use janggun::train::record::{
    header, header_for, Flags, Meta, Raw, RecordWriter, Sample, HEADER_SIZE, RECORD_SIZE,
    RECORD_SIZE_V1, VERSION, VERSION_V1,
};
use janggun::train::stats;
use janggun::util::rng::Rng;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// A fresh directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("janggun-dgv2-{}-{name}", std::process::id()));
    std::fs::remove_dir_all(&d).ok();
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Setup pair `i` (16 distinct positions), Cho or Han to move.
fn setup(i: usize, han_to_move: bool) -> Position {
    let fen = setup_fen(Setup::ALL[i / 4 % 4], Setup::ALL[i % 4]);
    let fen = if han_to_move {
        fen.replace(" w ", " b ")
    } else {
        fen
    };
    Position::from_fen(&fen, RuleSet::Janggi).unwrap()
}

/// A version-2 record of setup `i` whose score is `id` (to tell records
/// apart after loading) and whose flags are `flags`.
fn rec(i: usize, han: bool, id: i16, flags: u8) -> Raw {
    let meta = Meta {
        flags: Flags(flags),
        ply: 10,
        halfmove: 2,
        best: None,
    };
    Sample::from_position(&setup(i, han), id, 1)
        .encode_with(&meta)
        .unwrap()
}

fn write_v2(path: &Path, recs: &[Raw]) {
    let mut b = header(recs.len() as u64).to_vec();
    for r in recs {
        b.extend_from_slice(r);
    }
    std::fs::write(path, b).unwrap();
}

fn write_v1(path: &Path, samples: &[Sample]) {
    let mut b = header_for(VERSION_V1, samples.len() as u64).to_vec();
    for s in samples {
        b.extend_from_slice(&s.encode_v1().unwrap());
    }
    std::fs::write(path, b).unwrap();
}

fn ids(path: &Path, filter: &Filter) -> (Vec<i16>, Counts) {
    let d = load_samples(&[path.to_path_buf()], filter).unwrap();
    (d.samples.iter().map(|s| s.score).collect(), d.counts)
}

#[test]
fn version_1_files_read_load_and_stat_as_before() {
    let dir = scratch("v1");
    // 16 setups, then the first four again.
    let samples: Vec<Sample> = (0..20)
        .map(|i| Sample::from_position(&setup(i % 16, false), i as i16, (i % 3) as u8))
        .collect();
    let v1 = dir.join("v1.bin");
    write_v1(&v1, &samples);
    assert_eq!(
        std::fs::metadata(&v1).unwrap().len() as usize,
        HEADER_SIZE + 20 * RECORD_SIZE_V1
    );
    let recs = datafile::read_file(&v1).unwrap();
    assert_eq!(recs.len(), 20);
    for (r, s) in recs.iter().zip(&samples) {
        assert_eq!(&Sample::decode(r).unwrap(), s);
        assert_eq!(Meta::decode(r).unwrap(), Meta::default());
    }
    // No flags, so no filter drops a thing; the four repeats are
    // duplicates.
    let (kept, counts) = ids(&v1, &Filter::default());
    assert_eq!(kept, (0..16).collect::<Vec<i16>>());
    assert_eq!(
        (counts.records, counts.kept, counts.duplicates),
        (20, 16, 4)
    );
    let st = stats::gather(std::slice::from_ref(&v1)).unwrap();
    assert_eq!(st.files[0].version, VERSION_V1);
    assert_eq!((st.records, st.flagged, st.duplicates), (20, 0, 4));

    // Merging version-1 files gives a version-1 file.
    let out = dir.join("out.bin");
    let other = dir.join("v1b.bin");
    write_v1(&other, &samples[..3]);
    let all = [v1.display().to_string(), other.display().to_string()];
    // (A new output is chained, its records version 1.)
    assert_eq!(datafile::merge(&out, &all).unwrap(), (23, CHAIN_VERSION));
    let h = chain::read_header(&std::fs::read(&out).unwrap(), "out").unwrap();
    assert_eq!((h.version, h.count), (VERSION_V1, 23));
    assert_eq!(datafile::read_file(&out).unwrap()[20..], recs[..3]);
    // Versions never mix: not among the inputs, not into an existing file.
    let v2 = dir.join("v2.bin");
    write_v2(&v2, &[rec(0, false, 0, 0)]);
    let before = std::fs::read(&out).unwrap();
    let e = datafile::merge(&out, &[v2.display().to_string()]).unwrap_err();
    assert!(e.contains("version 2") && e.contains("version 1"), "{e}");
    let fresh = dir.join("fresh.bin");
    let e = datafile::merge(
        &fresh,
        &[v1.display().to_string(), v2.display().to_string()],
    )
    .unwrap_err();
    assert!(e.contains("one version"), "{e}");
    assert!(!fresh.exists());
    assert_eq!(std::fs::read(&out).unwrap(), before);
    let e = RecordWriter::append(&v1, VERSION).err().unwrap();
    assert!(e.contains("version 1"), "{e}");
    // Datagen refuses to append version 2 to it, and appends version 1.
    let mut o = DatagenConfig {
        nodes: 200,
        verify_nodes: 200,
        games: Some(1),
        progress: Duration::from_secs(3600),
        ..DatagenConfig::new(v1.clone())
    };
    assert!(run(&o).unwrap_err().contains("version 1"));
    o.version = VERSION_V1;
    run(&o).unwrap();
    let more = datafile::read_file(&v1).unwrap();
    assert_eq!(more[..20], recs[..]);
    // Version 1 is written filtered, as it always was.
    for r in &more[20..] {
        let pos = Sample::decode(r).unwrap().to_position().unwrap();
        assert!(!pos.in_check());
        assert_eq!(&r[RECORD_SIZE_V1..], &[0u8; RECORD_SIZE - RECORD_SIZE_V1]);
    }
}

#[test]
fn load_filters_follow_the_flags() {
    let dir = scratch("filters");
    let path = dir.join("d.bin");
    let cases = [
        Flags::IN_CHECK,
        Flags::CAPTURE,
        Flags::DECIDED,
        Flags::WINNING_CAPTURE,
        Flags::ADJUDICATED,
        0,
        Flags::IN_CHECK | Flags::CAPTURE,
        Flags::CAPTURE | Flags::WINNING_CAPTURE,
    ];
    let recs: Vec<Raw> = cases
        .iter()
        .enumerate()
        .map(|(i, &f)| rec(i, false, i as i16, f))
        .collect();
    write_v2(&path, &recs);
    let (kept, c) = ids(&path, &Filter::default());
    assert_eq!(kept, vec![3, 4, 5]);
    // Each dropped record counted once, under the first reason.
    assert_eq!(
        (c.in_check, c.captures, c.decided, c.winning_captures),
        (2, 2, 1, 0)
    );
    let keep = |f: Filter| ids(&path, &f).0;
    let base = Filter::default();
    assert_eq!(
        keep(Filter {
            in_check: false,
            ..base.clone()
        }),
        vec![0, 3, 4, 5]
    );
    assert_eq!(
        keep(Filter {
            captures: false,
            ..base.clone()
        }),
        vec![1, 3, 4, 5, 7]
    );
    assert_eq!(
        keep(Filter {
            decided: false,
            ..base.clone()
        }),
        vec![2, 3, 4, 5]
    );
    assert_eq!(
        keep(Filter {
            winning_captures: true,
            ..base.clone()
        }),
        vec![4, 5]
    );
    let none = Filter {
        in_check: false,
        captures: false,
        decided: false,
        winning_captures: false,
        duplicates: false,
    };
    assert_eq!(keep(none), (0..8).collect::<Vec<i16>>());
}

#[test]
fn duplicates_are_dropped_at_load_and_counted() {
    let dir = scratch("dedup");
    let (a, b) = (dir.join("a.bin"), dir.join("b.bin"));
    // Four positions three times each; the first of each kept.
    let recs: Vec<Raw> = (0..12).map(|i| rec(i % 4, false, i as i16, 0)).collect();
    write_v2(&a, &recs);
    let (kept, c) = ids(&a, &Filter::default());
    assert_eq!(kept, vec![0, 1, 2, 3]);
    assert_eq!(c.duplicates, 8);
    // The other side to move is another position; a record a filter
    // dropped does not make a later one a duplicate; and duplicates count
    // across files.
    write_v2(
        &b,
        &[
            rec(5, false, 100, Flags::IN_CHECK),
            rec(5, false, 101, 0),
            rec(0, true, 102, 0),
            rec(0, false, 103, 0),
        ],
    );
    let d = load_samples(&[a.clone(), b.clone()], &Filter::default()).unwrap();
    let kept: Vec<i16> = d.samples.iter().map(|s| s.score).collect();
    assert_eq!(kept, vec![0, 1, 2, 3, 101, 102]);
    assert_eq!((d.counts.duplicates, d.counts.in_check), (9, 1));
    let all = Filter {
        duplicates: false,
        ..Filter::default()
    };
    assert_eq!(load_samples(&[a, b], &all).unwrap().samples.len(), 15);
}

fn small_run(out: PathBuf, seed: u64) -> DatagenConfig {
    DatagenConfig {
        nodes: 200,
        verify_nodes: 200,
        seed,
        games: Some(6),
        progress: Duration::from_secs(3600),
        ..DatagenConfig::new(out)
    }
}

/// The records of a datagen file split into games: a game's first
/// searched position is the one after the random plies.
fn games_of(recs: &[Raw], random_plies: u16) -> Vec<Vec<(Sample, Meta)>> {
    let mut games: Vec<Vec<(Sample, Meta)>> = Vec::new();
    for r in recs {
        let (s, m) = (Sample::decode(r).unwrap(), Meta::decode(r).unwrap());
        if m.ply == random_plies {
            games.push(Vec::new());
        }
        games.last_mut().unwrap().push((s, m));
    }
    games
}

#[test]
fn verification_drops_openings_and_writes_nothing_of_them() {
    let dir = scratch("verify");
    // A limit of 0 cp drops nearly every opening.
    let strict = dir.join("strict.bin");
    let mut o = small_run(strict.clone(), 5);
    o.verify_limit = 0;
    let sum = run(&o).unwrap();
    assert!(sum.dropped_openings > 0, "{sum:?}");
    assert_eq!(sum.games, 6);
    let games = games_of(&datafile::read_file(&strict).unwrap(), 8);
    assert_eq!(
        games.len() as u64,
        sum.games - sum.dropped_openings - sum.unfinished,
        "{sum:?}"
    );
    // No verification search: nothing dropped, whatever the limit.
    let none = dir.join("none.bin");
    let mut o = small_run(none.clone(), 5);
    o.verify_limit = 0;
    o.verify_nodes = 0;
    let sum = run(&o).unwrap();
    assert_eq!(sum.dropped_openings, 0);
    assert_eq!(
        games_of(&datafile::read_file(&none).unwrap(), 8).len() as u64,
        sum.games - sum.unfinished
    );
}

#[test]
fn adjudicated_games_go_to_the_side_ahead() {
    let dir = scratch("adjudicate");
    let path = dir.join("a.bin");
    let mut o = small_run(path.clone(), 9);
    o.adjudicate_cp = 600;
    o.adjudicate_plies = 1;
    let sum = run(&o).unwrap();
    assert!(sum.adjudicated > 0, "{sum:?}");
    let games = games_of(&datafile::read_file(&path).unwrap(), 8);
    let adjudicated: Vec<_> = games
        .iter()
        .filter(|g| g[0].1.flags.has(Flags::ADJUDICATED))
        .collect();
    assert_eq!(adjudicated.len() as u64, sum.adjudicated);
    for g in adjudicated {
        // One game, one label.
        assert!(g.iter().all(|(_, m)| m.flags.has(Flags::ADJUDICATED)));
        // The last two searches (one a side) both saw the winner past the
        // threshold, and the result says so.
        for (s, m) in &g[g.len() - 2..] {
            assert!(!m.flags.has(Flags::DECIDED));
            let want = if s.score >= 600 { 2 } else { 0 };
            assert!((s.score as i32).abs() >= 600, "{}", s.score);
            assert_eq!(s.result, want);
        }
    }
    // Threshold 0: never.
    let never = dir.join("never.bin");
    let mut o = small_run(never.clone(), 9);
    o.adjudicate_cp = 0;
    assert_eq!(run(&o).unwrap().adjudicated, 0);
    let recs = datafile::read_file(&never).unwrap();
    assert!(recs.iter().all(|r| r[32] & Flags::ADJUDICATED == 0));
}

#[test]
fn stats_count_what_the_file_holds() {
    let dir = scratch("stats");
    let path = dir.join("s.bin");
    run(&small_run(path.clone(), 3)).unwrap();
    let recs = datafile::read_file(&path).unwrap();
    let st = stats::gather(std::slice::from_ref(&path)).unwrap();
    assert_eq!(st.records, recs.len() as u64);
    assert_eq!((st.invalid, st.flagged), (0, recs.len() as u64));
    for (n, &(bit, _)) in Flags::NAMES.iter().enumerate() {
        let want = recs.iter().filter(|r| r[32] & bit != 0).count() as u64;
        assert_eq!(st.flags[n], want, "flag {bit}");
    }
    let mut seen = std::collections::HashSet::new();
    let dups = recs
        .iter()
        .filter(|r| !seen.insert((r[..28].to_vec(), r[30])))
        .count() as u64;
    assert_eq!(st.duplicates, dups);
    let wins = recs.iter().filter(|r| r[31] == 2).count() as u64;
    assert_eq!(st.results_stm[2], wins);
    assert_eq!(st.results_cho.iter().sum::<u64>(), st.records);
    for side in 0..2 {
        let total: u64 = st.palace[side].iter().flatten().sum();
        assert_eq!(total, st.records);
    }
    // A file of start positions: every general on its palace's centre.
    let starts = dir.join("starts.bin");
    let samples: Vec<Sample> = (0..16)
        .map(|i| Sample::from_position(&setup(i, i % 2 == 1), 0, 1))
        .collect();
    write_v1(&starts, &samples);
    let both = stats::gather(&[path.clone(), starts.clone()]).unwrap();
    assert_eq!(both.records, st.records + 16);
    let st = stats::gather(&[starts]).unwrap();
    for side in 0..2 {
        assert_eq!(st.palace[side][1][1], 16);
    }
    // The command prints it.
    let out = Command::new(env!("CARGO_BIN_EXE_janggun"))
        .args(["datagen", "stats"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    // (datagen's default: chained.)
    for want in [
        "format version 3, chained version-2 records",
        "duplicates",
        "winning capture available",
        "Cho wins",
        "general's palace point",
    ] {
        assert!(text.contains(want), "{want}: {text}");
    }
}

#[test]
fn hostile_files_give_clear_errors() {
    let dir = scratch("hostile");
    let mut rng = Rng::new(17);
    let garbage: Vec<u8> = (0..5000).map(|_| rng.next_u64() as u8).collect();
    let mut wrong_version = header(0).to_vec();
    wrong_version[8] = 7;
    let mut wrong_size = header(0).to_vec();
    wrong_size[12] = 32;
    let cases: [(&str, Vec<u8>, &str); 5] = [
        ("garbage", garbage.clone(), "bad magic"),
        ("empty", Vec::new(), "too short"),
        ("cut header", header(3)[..20].to_vec(), "too short"),
        ("version", wrong_version, "version 7"),
        ("size", wrong_size, "record size 32"),
    ];
    let bin = env!("CARGO_BIN_EXE_janggun");
    for (name, bytes, want) in cases {
        let p = dir.join(format!("{}.bin", name.replace(' ', "-")));
        std::fs::write(&p, &bytes).unwrap();
        let mut errs = vec![
            load_samples(std::slice::from_ref(&p), &Filter::default())
                .err()
                .unwrap(),
            stats::gather(std::slice::from_ref(&p)).err().unwrap(),
            datafile::merge(&dir.join("m.bin"), &[p.display().to_string()])
                .err()
                .unwrap(),
        ];
        // An empty file is a new one to an appender.
        if !bytes.is_empty() {
            errs.push(RecordWriter::append(&p, VERSION).err().unwrap());
        }
        for e in errs {
            assert!(e.contains(want) && e.contains(".bin"), "{name}: {e}");
        }
        let out = Command::new(bin)
            .args(["datagen", "stats"])
            .arg(&p)
            .output()
            .unwrap();
        assert!(!out.status.success(), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(want) && !err.contains("panicked"),
            "{name}: {err}"
        );
        // Nothing was written by the refused append.
        assert_eq!(std::fs::read(&p).unwrap(), bytes, "{name}");
    }
    // A good header over garbage: records that do not decode are skipped
    // and counted, never a panic; a cut record is not read.
    let p = dir.join("noise.bin");
    let mut b = header(100).to_vec();
    b.extend_from_slice(&garbage[..100 * RECORD_SIZE + 7]);
    std::fs::write(&p, &b).unwrap();
    let d = load_samples(std::slice::from_ref(&p), &Filter::default()).unwrap();
    assert_eq!((d.counts.records, d.skipped), (100, 100));
    let st = stats::gather(std::slice::from_ref(&p)).unwrap();
    assert_eq!(st.records, 100);
    assert_eq!(st.invalid, d.skipped);
    // A good position with an undefined flag bit is skipped with the reason.
    let mut r = rec(0, false, 0, 0);
    r[32] = 0x80;
    write_v2(&p, &[r, rec(1, false, 1, 0)]);
    let d = load_samples(std::slice::from_ref(&p), &Filter::default()).unwrap();
    assert_eq!((d.skipped, d.samples.len()), (1, 1));
    assert!(d.first_reason.unwrap().contains("flags"));
}
