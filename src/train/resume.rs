//! Where a `janggun datagen --resume` run stands, kept beside its output
//! as `OUT.resume`, so that a run cut short (a session's end, a machine
//! handed back, a timeout) goes on later and leaves the very file that an
//! uninterrupted run would have written. That is possible because each game
//! is a function of (seed, game number) alone, the engine is cleared
//! between games, and one thread writes the games in their order: the
//! records of games `0..next_game` are the file's first `records` records,
//! whatever the killed run wrote after them.
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
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};

const MAGIC: &str = "janggun datagen resume point 1";
/// Longest line a resume file may hold; real ones are well under 300 bytes.
const MAX_LINE: usize = 1024;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ResumePoint {
    /// The number of the first game not in the file.
    pub next_game: u64,
    /// Records of games `0..next_game`.
    pub records: u64,
}

/// `OUT.resume`.
pub fn path_for(out: &Path) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(".resume");
    PathBuf::from(s)
}

/// Reads the resume point at `path`: `None` when there is none; an error
/// when the file is not one, or was written with settings other than
/// `settings`.
pub fn read(path: &Path, settings: &str) -> Result<Option<ResumePoint>, String> {
    if !path.exists() {
        return Ok(None);
    }
    let name = path.display();
    let (file, _) = open_regular(path)?;
    let mut r = BufReader::new(file);
    let mut lines = Vec::new();
    for n in 1..=4 {
        match read_line_capped(&mut r, MAX_LINE, n).map_err(|e| format!("{name}: {e}"))? {
            Some(l) => lines.push(l),
            None => break,
        }
    }
    let bad = || format!("{name}: not a datagen resume point (delete it to start the file again)");
    let [magic, have, next, records] = lines.as_slice() else {
        return Err(bad());
    };
    if magic != MAGIC {
        return Err(bad());
    }
    let field = |line: &str, key: &str| -> Result<u64, String> {
        line.strip_prefix(key)
            .and_then(|v| v.parse().ok())
            .ok_or_else(bad)
    };
    let point = ResumePoint {
        next_game: field(next, "next_game ")?,
        records: field(records, "records ")?,
    };
    let have = have.strip_prefix("settings ").ok_or_else(bad)?;
    if have != settings {
        return Err(format!(
            "{name}: the file was begun with other settings ({have}); \
             these are {settings}: resume with the same ones, or write another file"
        ));
    }
    Ok(Some(point))
}

/// Writes the resume point at `path`, whole or not at all (a new file
/// renamed over the old).
pub fn write(path: &Path, settings: &str, point: ResumePoint) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    let text = format!(
        "{MAGIC}\nsettings {settings}\nnext_game {}\nrecords {}\n",
        point.next_game, point.records
    );
    let mut f = std::fs::File::create(&tmp).map_err(err)?;
    f.write_all(text.as_bytes()).map_err(err)?;
    drop(f);
    std::fs::rename(&tmp, path).map_err(err)
}

/// Removes a resume point that no longer describes its file (a plain
/// append); a missing one is fine.
pub fn remove(path: &Path) -> Result<(), String> {
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
        };
        write(&p, "seed=1 nodes=3000", point).unwrap();
        assert_eq!(read(&p, "seed=1 nodes=3000").unwrap(), Some(point));
        let e = read(&p, "seed=2 nodes=3000").unwrap_err();
        assert!(e.contains("other settings") && e.contains("seed=1"), "{e}");
        remove(&p).unwrap();
        remove(&p).unwrap();
        assert_eq!(read(&p, "seed=1").unwrap(), None);
    }

    #[test]
    fn anything_else_is_refused_with_a_clear_error() {
        let p = scratch("hostile");
        let cases: [&[u8]; 6] = [
            b"",
            b"hello\n",
            b"janggun datagen resume point 1\nsettings s\nnext_game x\nrecords 1\n",
            b"janggun datagen resume point 1\nsettings s\nnext_game 1\nrecords -1\n",
            b"janggun datagen resume point 1\nsettings s\nnext_game 1\n",
            &[0xff; 5000],
        ];
        for bytes in cases {
            std::fs::write(&p, bytes).unwrap();
            let e = read(&p, "s").unwrap_err();
            assert!(e.contains(&p.display().to_string()), "{e}");
        }
        // A directory in its place is refused, not read.
        std::fs::remove_file(&p).unwrap();
        std::fs::create_dir(&p).unwrap();
        assert!(read(&p, "s").unwrap_err().contains("not a regular file"));
        std::fs::remove_dir(&p).unwrap();
    }
}
