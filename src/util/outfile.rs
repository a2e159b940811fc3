//! Writing the files a command was asked to write, and nothing else. Every
//! output of the binary (reports, HTML, PGN, JSON, data, logs) goes through
//! here so that three mistakes cannot happen whatever the command line:
//!
//! - an output replacing one of the command's inputs, or another output,
//!   named by a different path (`./a.json`, a link, `dir/../a.json`): files
//!   are compared by identity (device and inode), never by name;
//! - a half-written file where a whole one stood: a whole-file output is
//!   written aside and renamed over its name only when complete, and the
//!   file aside is removed on every error;
//! - an unrelated file replaced because its name was mistyped: an existing
//!   non-empty file is replaced only when it is of the kind being written.

use crate::util::file::{file_id, FileId};
use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// What a path about to be written names: the file itself when it exists,
/// else its directory and its name (two new outputs may still collide).
#[derive(Clone, Debug, PartialEq, Eq)]
enum Target {
    File(FileId),
    New(FileId, OsString),
}

fn dir_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

fn target_of(path: &Path) -> Result<Target, String> {
    match std::fs::metadata(path) {
        Ok(_) => file_id(path).map(Target::File),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let name = path
                .file_name()
                .ok_or_else(|| format!("{}: not a file name", path.display()))?;
            let dir = dir_of(path);
            let id = file_id(dir).map_err(|_| {
                format!(
                    "{}: the directory {} does not exist",
                    path.display(),
                    dir.display()
                )
            })?;
            if !std::fs::metadata(dir).is_ok_and(|m| m.is_dir()) {
                return Err(format!(
                    "{}: {} is not a directory",
                    path.display(),
                    dir.display()
                ));
            }
            Ok(Target::New(id, name.to_owned()))
        }
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// One command's files: what it reads and what it writes, each with the
/// name the user gave it (a flag, or "input"), checked against each other
/// before anything is written.
#[derive(Default)]
pub struct Files {
    inputs: Vec<(String, PathBuf)>,
    outputs: Vec<(String, PathBuf)>,
}

impl Files {
    pub fn new() -> Files {
        Files::default()
    }

    /// A file the command reads (or may read: a PGN beside a shard, a
    /// resume point), under the name the messages give it.
    pub fn input(&mut self, what: impl Into<String>, path: impl Into<PathBuf>) -> &mut Files {
        self.inputs.push((what.into(), path.into()));
        self
    }

    /// A file the command writes.
    pub fn output(&mut self, what: impl Into<String>, path: impl Into<PathBuf>) -> &mut Files {
        self.outputs.push((what.into(), path.into()));
        self
    }

    /// Refuses when an output is the same file as an input or as another
    /// output, by identity; an output in a missing directory is refused
    /// too. Inputs that do not exist are left to their readers.
    pub fn check(&self) -> Result<(), String> {
        let mut outs: Vec<(&str, &Path, Target)> = Vec::new();
        for (what, path) in &self.outputs {
            let t = target_of(path)?;
            if let Some((w, p, _)) = outs.iter().find(|(_, _, o)| *o == t) {
                return Err(format!(
                    "{} ({what}) and {} ({w}) are the same file: give each output its own",
                    path.display(),
                    p.display()
                ));
            }
            outs.push((what, path, t));
        }
        for (what, path) in &self.inputs {
            let Ok(Target::File(id)) = target_of(path) else {
                continue;
            };
            let t = Target::File(id);
            if let Some((w, p, _)) = outs.iter().find(|(_, _, o)| *o == t) {
                return Err(format!(
                    "{} ({w}) is the same file as {} ({what}): an output would replace an input",
                    p.display(),
                    path.display()
                ));
            }
        }
        Ok(())
    }
}

/// What may already stand where an output goes. An empty file may always
/// be replaced; a missing one is simply created.
pub enum Existing<'a> {
    /// A file that begins (after white space) with one of these, named
    /// as `what` in the message.
    Prefix(&'a [&'a [u8]], &'a str),
    /// A file the caller's check accepts (a merged report for merge).
    Check(&'a dyn Fn(&Path) -> Result<(), String>),
}

/// How many bytes of an existing file the prefix check reads.
const SNIFF: u64 = 4096;

/// Refuses to go on when `path` exists, is not empty and is not of the kind
/// `existing` names; a path that is not a regular file is refused too.
pub fn check_existing(path: &Path, existing: &Existing) -> Result<(), String> {
    let meta = match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
        Ok(m) => m,
    };
    if !meta.is_file() {
        return Err(format!(
            "{}: exists and is not a regular file ({}); not replaced",
            path.display(),
            crate::util::file::kind(&meta.file_type())
        ));
    }
    if meta.len() == 0 {
        return Ok(());
    }
    match existing {
        Existing::Prefix(prefixes, what) => {
            let (f, _) = crate::util::file::open_regular(path)?;
            let mut head = Vec::new();
            f.take(SNIFF)
                .read_to_end(&mut head)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            let start = head
                .iter()
                .position(|b| !b.is_ascii_whitespace())
                .unwrap_or(head.len());
            let head = &head[start..];
            if prefixes.iter().any(|p| head.starts_with(p)) {
                Ok(())
            } else {
                Err(format!(
                    "{}: exists and is not {what}; not replaced (remove it or give another name)",
                    path.display()
                ))
            }
        }
        Existing::Check(f) => {
            f(path).map_err(|e| format!("{e}; not replaced (remove it or give another name)"))
        }
    }
}

/// A file being written aside from its name: renamed over it by `commit`,
/// removed when dropped uncommitted (any error on the way).
pub struct Aside {
    tmp: PathBuf,
    path: PathBuf,
    file: Option<File>,
}

impl Aside {
    /// Starts writing `path`'s new content beside it, once `existing`
    /// accepts what stands there now.
    pub fn create(path: &Path, existing: &Existing) -> Result<Aside, String> {
        check_existing(path, existing)?;
        // Through a link, the file the link names is the one replaced.
        let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let name = path
            .file_name()
            .ok_or_else(|| format!("{}: not a file name", path.display()))?
            .to_string_lossy()
            .into_owned();
        let dir = dir_of(&path);
        for n in 0..100u32 {
            let tmp = dir.join(format!(".{name}.{}-{n}.tmp", std::process::id()));
            match OpenOptions::new().write(true).create_new(true).open(&tmp) {
                Ok(file) => {
                    return Ok(Aside {
                        tmp,
                        path,
                        file: Some(file),
                    })
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(format!("{}: {e}", tmp.display())),
            }
        }
        Err(format!(
            "{}: no free temporary name beside it",
            path.display()
        ))
    }

    /// The file aside, to write into.
    pub fn file(&mut self) -> &mut File {
        self.file
            .as_mut()
            .expect("an Aside holds its file until commit")
    }

    /// The name of the file aside (for messages).
    pub fn tmp_path(&self) -> &Path {
        &self.tmp
    }

    /// Flushes the file aside to disk and renames it over the output.
    pub fn commit(mut self) -> Result<(), String> {
        let file = self.file.take().expect("an Aside commits once");
        let err = |e: std::io::Error| format!("{}: {e}", self.path.display());
        file.sync_all().map_err(err)?;
        drop(file);
        std::fs::rename(&self.tmp, &self.path).map_err(err)?;
        self.tmp = PathBuf::new();
        Ok(())
    }
}

impl Drop for Aside {
    fn drop(&mut self) {
        if !self.tmp.as_os_str().is_empty() {
            self.file = None;
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Writes `bytes` as the whole of `path`, or leaves `path` as it was.
pub fn write_whole(path: &Path, existing: &Existing, bytes: &[u8]) -> Result<(), String> {
    let mut a = Aside::create(path, existing)?;
    a.file()
        .write_all(bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    a.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("janggun-outfile-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn outputs_are_told_apart_by_identity() {
        let d = dir("id");
        let a = d.join("a.json");
        std::fs::write(&a, "{}").unwrap();
        let dotted = d.join(".").join("a.json");
        let mut f = Files::new();
        f.input("input", &a).output("--out", &dotted);
        assert!(f.check().unwrap_err().contains("same file"));
        #[cfg(unix)]
        {
            let link = d.join("link.json");
            std::os::unix::fs::symlink(&a, &link).unwrap();
            let mut f = Files::new();
            f.input("input", &a).output("--out", &link);
            assert!(f.check().is_err());
        }
        // Two new outputs under different spellings of one name.
        let mut f = Files::new();
        f.output("--json", d.join("x.out"))
            .output("--pgn", d.join("sub/../x.out"));
        std::fs::create_dir_all(d.join("sub")).unwrap();
        assert!(f.check().unwrap_err().contains("same file"));
        let mut f = Files::new();
        f.input("input", &a).output("--out", d.join("b.json"));
        assert!(f.check().is_ok());
        let mut f = Files::new();
        f.output("--out", d.join("missing/b.json"));
        assert!(f.check().unwrap_err().contains("does not exist"));
    }

    #[test]
    fn whole_writes_replace_only_their_kind_and_leave_nothing_aside() {
        let d = dir("whole");
        let p = d.join("r.html");
        let html = Existing::Prefix(&[b"<!DOCTYPE html"], "an HTML report");
        write_whole(&p, &html, b"<!DOCTYPE html>one").unwrap();
        write_whole(&p, &html, b"<!DOCTYPE html>two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"<!DOCTYPE html>two");
        let notes = d.join("notes.txt");
        std::fs::write(&notes, "my notes").unwrap();
        assert!(write_whole(&notes, &html, b"x")
            .unwrap_err()
            .contains("not replaced"));
        assert_eq!(std::fs::read(&notes).unwrap(), b"my notes");
        assert!(write_whole(Path::new("/dev/null"), &html, b"x").is_err());
        // An error halfway removes the file aside.
        {
            let mut a = Aside::create(&p, &html).unwrap();
            a.file().write_all(b"half").unwrap();
            assert!(a.tmp_path().exists());
        }
        let left: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(left.len(), 2, "{left:?}");
        assert_eq!(std::fs::read(&p).unwrap(), b"<!DOCTYPE html>two");
    }
}
