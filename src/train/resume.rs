//! Where a `janggun datagen --resume` run stands, kept beside its output
//! as `OUT.resume`, so that a run cut short (a session's end, a machine
//! handed back, a timeout) goes on later and leaves the very file that an
//! uninterrupted run would have written. That is possible because each game
//! is a function of (seed, game number) alone, the engine is cleared
//! between games, and one thread writes the games in their order: the
//! records of games `0..next_game` are the file's first `records` records,
//! whatever of game `next_game` the killed run wrote after them.
//!
//! The point also says where the file ends, so that nothing else can be
//! mistaken for a game cut off: before a game's records are written it
//! says that up to that many may follow (`writing`), and after them it
//! moves past them. A file that holds more than that (records appended by
//! a merge or a plain run, a point copied from another file) or fewer, or
//! whose first records are not the ones the point was written after
//! (`data`, a hash of them), is refused rather than cut. A `check` line,
//! a hash of the others, refuses a point edited by hand: one set back to
//! game 0 would play the same games again after those already written.
//!
//! The point is only ever at a game's boundary. When the positions cap cuts
//! a game short, the point stays before that game, so that a later run with
//! a larger cap plays it whole and the longer file starts with the shorter
//! one.
//!
//! The point also records the settings that decide the games; a run with
//! other settings is refused rather than allowed to splice two kinds of
//! games into one file. The search itself is not in it: resume with the
//! build that began the file (a search change changes the games; the
//! version string catches releases, not every commit).

use crate::util::file::{open_regular, read_line_capped};
use crate::util::hash::fnv1a64;
use crate::util::outfile::{write_whole, Existing};
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

/// What every point's first line begins with, whatever its version.
const MAGIC_PREFIX: &str = "janggun datagen resume point ";
const MAGIC: &str = "janggun datagen resume point 2";
/// The first version: no `writing`, `data` or `check` line. Still read, but
/// only for a file that ends exactly at its point (that version could not
/// tell a game cut off from records appended later).
const MAGIC_V1: &str = "janggun datagen resume point 1";
/// Longest line a resume file may hold; real ones are well under 300 bytes.
const MAX_LINE: usize = 1024;
/// Where `data` starts: the hash of no records.
pub const DATA_START: u64 = 0xCBF2_9CE4_8422_2325;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ResumePoint {
    /// The number of the first game not in the file.
    pub next_game: u64,
    /// Records of games `0..next_game`.
    pub records: u64,
    /// Records of game `next_game` that may follow them: set while a game
    /// is being written (so that a run stopped halfway through the write,
    /// or by a full disk, is told apart from records appended later) and
    /// when the positions cap cut game `next_game` short.
    pub writing: u64,
    /// FNV-1a of the bytes of the first `records` records ([`hash_more`]
    /// from [`DATA_START`]); `None` for a version-1 point, which has none.
    pub data: Option<u64>,
}

impl ResumePoint {
    /// A point before any game.
    pub fn start() -> ResumePoint {
        ResumePoint {
            next_game: 0,
            records: 0,
            writing: 0,
            data: Some(DATA_START),
        }
    }
}

/// FNV-1a of `bytes` continued from `h`: the hash of records written one
/// at a time equals that of the file's bytes read at once.
pub fn hash_more(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// `OUT.resume`.
pub fn path_for(out: &Path) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".resume");
    PathBuf::from(s)
}

/// The point's lines before its `check` line.
fn body(settings: &str, point: &ResumePoint) -> String {
    format!(
        "{MAGIC}\nsettings {settings}\nnext_game {}\nrecords {}\nwriting {}\ndata {:016x}\n",
        point.next_game,
        point.records,
        point.writing,
        point.data.unwrap_or(DATA_START)
    )
}

/// The whole text of a point.
fn text(settings: &str, point: &ResumePoint) -> String {
    let body = body(settings, point);
    format!("{body}check {:016x}\n", fnv1a64(body.as_bytes()))
}

/// Reads the resume point at `path`: `None` when there is none; an error
/// when the file is not one, was altered since it was written, or was
/// written with settings other than `settings`.
pub fn read(path: &Path, settings: &str) -> Result<Option<ResumePoint>, String> {
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(None);
    }
    let name = path.display();
    let (file, _) = open_regular(path)?;
    let mut r = BufReader::new(file.take(8 * MAX_LINE as u64));
    let mut lines = Vec::new();
    for n in 1..=8 {
        match read_line_capped(&mut r, MAX_LINE, n).map_err(|e| format!("{name}: {e}"))? {
            Some(l) => lines.push(l),
            None => break,
        }
    }
    let bad = || format!("{name}: not a datagen resume point (delete it to start the file again)");
    let field = |line: &str, key: &str| -> Result<u64, String> {
        line.strip_prefix(key)
            .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|v| v.parse().ok())
            .ok_or_else(bad)
    };
    let hex = |line: &str, key: &str| -> Result<u64, String> {
        line.strip_prefix(key)
            .filter(|v| v.len() == 16 && v.bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|v| u64::from_str_radix(v, 16).ok())
            .ok_or_else(bad)
    };
    let (have, point) = match lines.as_slice() {
        [magic, have, next, records] if magic == MAGIC_V1 => (
            have,
            ResumePoint {
                next_game: field(next, "next_game ")?,
                records: field(records, "records ")?,
                writing: 0,
                data: None,
            },
        ),
        [magic, have, next, records, writing, data, check] if magic == MAGIC => {
            let point = ResumePoint {
                next_game: field(next, "next_game ")?,
                records: field(records, "records ")?,
                writing: field(writing, "writing ")?,
                data: Some(hex(data, "data ")?),
            };
            let have_settings = have.strip_prefix("settings ").ok_or_else(bad)?;
            // A point edited by hand (a game number set back, a count
            // changed) would replay games already in the file or cut
            // records off: it is refused, not trusted.
            if hex(check, "check ")? != fnv1a64(body(have_settings, &point).as_bytes()) {
                return Err(format!(
                    "{name}: the resume point was altered after it was written (its check line \
                     does not match): it cannot say where the file ends; delete it and write \
                     another file, or append without --resume"
                ));
            }
            (have, point)
        }
        _ => return Err(bad()),
    };
    let have = have.strip_prefix("settings ").ok_or_else(bad)?;
    if have != settings {
        return Err(format!(
            "{name}: the file was begun with other settings ({have}); \
             these are {settings}: resume with the same ones, or write another file"
        ));
    }
    if point.records.checked_add(point.writing).is_none() {
        return Err(bad());
    }
    Ok(Some(point))
}

/// Whether what stands at `path` is a resume point (of any version), read
/// from its first bytes only.
fn is_point(path: &Path) -> Result<(), String> {
    let (file, _) = open_regular(path)?;
    let mut head = Vec::new();
    file.take(MAGIC_PREFIX.len() as u64)
        .read_to_end(&mut head)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if head == MAGIC_PREFIX.as_bytes() {
        Ok(())
    } else {
        Err(format!(
            "{}: exists and is not a datagen resume point",
            path.display()
        ))
    }
}

/// Writes the resume point at `path`, whole or not at all (a new file
/// renamed over the old); what stands there must be a point already.
pub fn write(path: &Path, settings: &str, point: ResumePoint) -> Result<(), String> {
    write_whole(
        path,
        &Existing::Check(&is_point),
        text(settings, &point).as_bytes(),
    )
}

/// Refuses when something other than a resume point stands where one
/// goes: [`remove`] would refuse it.
pub fn check_removable(path: &Path) -> Result<(), String> {
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(());
    }
    is_point(path).map_err(|e| format!("{e}; not removed (remove it or give another --out)"))
}

/// Removes a resume point that no longer describes its file (a plain
/// append); a missing one is fine, and anything that is not a point is
/// left where it is and refused.
pub fn remove(path: &Path) -> Result<(), String> {
    if std::fs::symlink_metadata(path).is_err() {
        return Ok(());
    }
    check_removable(path)?;
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(format!("{}: {e}", path.display()))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("janggun-resume-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d.join("p.resume")
    }

    #[test]
    fn a_point_reads_back_only_with_its_settings() {
        let p = scratch("roundtrip");
        assert_eq!(read(&p, "seed=1").unwrap(), None);
        let point = ResumePoint {
            next_game: 17,
            records: 2345,
            writing: 12,
            data: Some(0x0123_4567_89ab_cdef),
        };
        write(&p, "seed=1 nodes=3000", point).unwrap();
        assert_eq!(read(&p, "seed=1 nodes=3000").unwrap(), Some(point));
        let e = read(&p, "seed=2 nodes=3000").unwrap_err();
        assert!(e.contains("other settings") && e.contains("seed=1"), "{e}");
        remove(&p).unwrap();
        remove(&p).unwrap();
        assert_eq!(read(&p, "seed=1").unwrap(), None);
        // A first-version point reads, with no data hash and nothing being
        // written.
        std::fs::write(
            &p,
            "janggun datagen resume point 1\nsettings s\nnext_game 3\nrecords 40\n",
        )
        .unwrap();
        let old = read(&p, "s").unwrap().unwrap();
        assert_eq!((old.next_game, old.records, old.writing), (3, 40, 0));
        assert_eq!(old.data, None);
    }

    #[test]
    fn a_point_edited_by_hand_is_refused() {
        let p = scratch("edited");
        let point = ResumePoint {
            next_game: 9,
            records: 900,
            writing: 0,
            data: Some(77),
        };
        write(&p, "s", point).unwrap();
        let text = std::fs::read_to_string(&p).unwrap();
        for (from, to) in [
            ("next_game 9", "next_game 0"),
            ("records 900", "records 0"),
            ("writing 0", "writing 5000"),
            ("data 000000000000004d", "data 000000000000004e"),
        ] {
            assert!(text.contains(from), "{text}");
            std::fs::write(&p, text.replace(from, to)).unwrap();
            let e = read(&p, "s").unwrap_err();
            assert!(e.contains("altered"), "{e}");
        }
    }

    #[test]
    fn anything_else_is_refused_with_a_clear_error() {
        let p = scratch("hostile");
        let cases: [&[u8]; 8] = [
            b"",
            b"hello\n",
            b"janggun datagen resume point 1\nsettings s\nnext_game x\nrecords 1\n",
            b"janggun datagen resume point 1\nsettings s\nnext_game 1\nrecords -1\n",
            b"janggun datagen resume point 1\nsettings s\nnext_game 1\nrecords +1\n",
            b"janggun datagen resume point 1\nsettings s\nnext_game 1\n",
            b"janggun datagen resume point 2\nsettings s\nnext_game 1\nrecords 1\n",
            &[0xff; 5000],
        ];
        for bytes in cases {
            std::fs::write(&p, bytes).unwrap();
            let e = read(&p, "s").unwrap_err();
            assert!(e.contains(&p.display().to_string()), "{e}");
        }
        // Something else in the point's place is neither removed nor
        // replaced.
        std::fs::write(&p, b"my notes").unwrap();
        assert!(remove(&p).unwrap_err().contains("not removed"));
        assert!(write(&p, "s", ResumePoint::start()).is_err());
        assert_eq!(std::fs::read(&p).unwrap(), b"my notes");
        // A directory in its place is refused, not read.
        std::fs::remove_file(&p).unwrap();
        std::fs::create_dir(&p).unwrap();
        assert!(read(&p, "s").unwrap_err().contains("not a regular file"));
        std::fs::remove_dir(&p).unwrap();
    }

    #[test]
    fn the_data_hash_runs_on_over_pieces() {
        let whole = hash_more(DATA_START, b"abcdef");
        assert_eq!(hash_more(hash_more(DATA_START, b"ab"), b"cdef"), whole);
        assert_eq!(whole, fnv1a64(b"abcdef"));
    }
}
