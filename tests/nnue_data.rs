//! `janggun datagen` end to end: deterministic files, valid records with
//! flags that match their positions, merge's header check, and reading a
//! file cut short.

use janggun::board::Color;
use janggun::search::score::WIN_BOUND;
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
    let recs = record::read_file(&a).unwrap();
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
    let more = record::read_file(&a).unwrap();
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
    let recs = record::read_file(&a).unwrap();
    assert_eq!(recs.len(), 40);

    // A file cut in the middle of a record: only whole records are read.
    let cut = temp("cut.bin");
    let bytes = std::fs::read(&a).unwrap();
    std::fs::write(&cut, &bytes[..HEADER_SIZE + 10 * RECORD_SIZE + 17]).unwrap();
    assert_eq!(record::read_file(&cut).unwrap(), recs[..10].to_vec());

    // Merge: two good inputs concatenate (the cut one's partial record dropped).
    let out = temp("merged.bin");
    assert_eq!(
        record::merge(&out, &[a.display().to_string(), cut.display().to_string()]).unwrap(),
        50
    );
    let merged = record::read_file(&out).unwrap();
    assert_eq!(&merged[..40], &recs[..]);
    assert_eq!(&merged[40..], &recs[..10]);

    // A bad header anywhere refuses the merge and leaves the output as it was.
    let bad = temp("bad.bin");
    let mut b = bytes.clone();
    b[0] = b'X';
    std::fs::write(&bad, &b).unwrap();
    let before = std::fs::read(&out).unwrap();
    let err = record::merge(&out, &[a.display().to_string(), bad.display().to_string()]);
    assert!(err.unwrap_err().contains("bad magic"));
    let mut v = bytes.clone();
    v[8] = 3;
    std::fs::write(&bad, &v).unwrap();
    assert!(record::merge(&out, &[bad.display().to_string()])
        .unwrap_err()
        .contains("version"));
    std::fs::write(&bad, &bytes[..20]).unwrap();
    assert!(record::merge(&out, &[bad.display().to_string()]).is_err());
    assert_eq!(std::fs::read(&out).unwrap(), before);
    // Appending to a file with a bad header is refused too.
    let mut o = options(bad.clone(), 1);
    o.games = Some(1);
    assert!(run(&o).is_err());
}
