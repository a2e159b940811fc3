//! Opening files named from outside. Only regular files are read: opening
//! a FIFO for reading blocks until some writer appears, and a device such
//! as `/dev/zero` or `/dev/urandom` never ends, so a reader that trusts the
//! name can hang or fill the memory. Readers open through here, then read
//! no more than a header says (or a cap allows).

use std::fs::File;
use std::io::{BufRead, Read};
use std::path::Path;

/// What a file is, from its name alone (links followed); nothing is opened.
fn check_regular(path: &Path) -> Result<std::fs::Metadata, String> {
    let meta = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
    if !meta.file_type().is_file() {
        return Err(format!(
            "{}: not a regular file ({})",
            path.display(),
            kind(&meta.file_type())
        ));
    }
    Ok(meta)
}

/// What a file that is not a regular file is, for messages.
pub fn kind(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "not a plain file"
    }
}

/// Opens `path` for reading if it is a regular file, checked before it is
/// opened (so a FIFO never blocks) and again on the open handle (in case
/// the name changed in between). Returns the file and its length.
pub fn open_regular(path: &Path) -> Result<(File, u64), String> {
    check_regular(path)?;
    let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let meta = file
        .metadata()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if !meta.file_type().is_file() {
        return Err(format!("{}: not a regular file", path.display()));
    }
    Ok((file, meta.len()))
}

/// The whole of a regular file of at most `cap` bytes; a larger file, or
/// one that grows past the cap while it is read, is an error, as is
/// anything but a regular file (so a FIFO or `/dev/zero` cannot hang the
/// reader or fill the memory).
pub fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>, String> {
    let (file, len) = open_regular(path)?;
    let too_big = || {
        format!(
            "{}: larger than the {cap} bytes this reads; is it the right file?",
            path.display()
        )
    };
    if len > cap {
        return Err(too_big());
    }
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if bytes.len() as u64 > cap {
        return Err(too_big());
    }
    Ok(bytes)
}

/// `read_capped` as UTF-8 text.
pub fn read_text_capped(path: &Path, cap: u64) -> Result<String, String> {
    String::from_utf8(read_capped(path, cap)?)
        .map_err(|_| format!("{}: not UTF-8 text", path.display()))
}

/// `read_capped`, with a missing file as `None` rather than an error.
pub fn read_capped_if_exists(path: &Path, cap: u64) -> Result<Option<Vec<u8>>, String> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        _ => read_capped(path, cap).map(Some),
    }
}

/// Refuses a path that exists and is not a regular file (an output about to
/// be created or appended to); a missing path is fine.
pub fn regular_or_missing(path: &Path) -> Result<(), String> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        _ => check_regular(path).map(|_| ()),
    }
}

/// What makes two names the same file: device and inode on Unix, the
/// canonical path elsewhere.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileId(
    #[cfg(unix)] (u64, u64),
    #[cfg(not(unix))] std::path::PathBuf,
);

/// Opens `path` to read and append (created if missing, never cut), after
/// refusing anything but a regular file: appending to a FIFO or a device
/// would block or vanish. Returns the file and its length.
pub fn open_for_append(path: &Path) -> Result<(File, u64), String> {
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    regular_or_missing(path)?;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(err)?;
    // Two writers appending to one file interleave their records into a
    // file neither can resume: the second is turned away while the first
    // holds the file (the lock goes with it when the writer is dropped or
    // its process ends, however it ends). A file system that cannot lock
    // (some network mounts) is written as before.
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            return Err(format!(
                "{}: another process is writing it (two runs on one file?); nothing written",
                path.display()
            ))
        }
        Err(std::fs::TryLockError::Error(e)) => {
            log::warn!("{}: not locked ({e}); written unlocked", path.display());
        }
    }
    let len = file.metadata().map_err(err)?.len();
    Ok((file, len))
}

/// The identity of the file `path` names (links followed).
pub fn file_id(path: &Path) -> Result<FileId, String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(FileId((m.dev(), m.ino())))
    }
    #[cfg(not(unix))]
    {
        std::fs::canonicalize(path)
            .map(FileId)
            .map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// The next line of `r` without its line ending, `None` at the end; a line
/// longer than `max` bytes is an error, and no more than `max + 1` bytes of
/// it are read. `line` counts lines for the message.
pub fn read_line_capped(
    r: &mut impl BufRead,
    max: usize,
    line: usize,
) -> Result<Option<String>, String> {
    let mut buf = Vec::new();
    r.by_ref()
        .take(max as u64 + 1)
        .read_until(b'\n', &mut buf)
        .map_err(|e| format!("line {line}: {e}"))?;
    if buf.is_empty() {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
    } else if buf.len() > max {
        return Err(format!("line {line} is longer than {max} bytes"));
    }
    String::from_utf8(buf)
        .map(Some)
        .map_err(|_| format!("line {line} is not UTF-8 text"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_capped() {
        let text = b"short\r\nexactly8\n123456789\n";
        let mut r = std::io::BufReader::new(&text[..]);
        assert_eq!(read_line_capped(&mut r, 8, 1), Ok(Some("short".into())));
        assert_eq!(read_line_capped(&mut r, 8, 2), Ok(Some("exactly8".into())));
        assert!(read_line_capped(&mut r, 8, 3)
            .unwrap_err()
            .contains("line 3"));
        let mut r = std::io::BufReader::new(&b"last"[..]);
        assert_eq!(read_line_capped(&mut r, 8, 1), Ok(Some("last".into())));
        assert_eq!(read_line_capped(&mut r, 8, 2), Ok(None));
    }

    #[test]
    fn only_regular_files_open() {
        assert!(open_regular(Path::new("/dev/zero"))
            .unwrap_err()
            .contains("not a regular file"));
        assert!(open_regular(&std::env::temp_dir())
            .unwrap_err()
            .contains("directory"));
        assert!(regular_or_missing(Path::new("/nonexistent/x")).is_ok());
        assert!(regular_or_missing(Path::new("/dev/null")).is_err());
    }

    #[test]
    fn reads_are_capped() {
        let p = std::env::temp_dir().join(format!("janggun-capped-{}", std::process::id()));
        std::fs::write(&p, b"0123456789").unwrap();
        assert_eq!(read_capped(&p, 10).unwrap(), b"0123456789");
        assert!(read_capped(&p, 9).unwrap_err().contains("larger than"));
        assert!(read_capped(Path::new("/dev/zero"), 1 << 20).is_err());
        assert_eq!(
            read_capped_if_exists(&p.with_extension("none"), 9),
            Ok(None)
        );
        std::fs::remove_file(&p).unwrap();
    }
}
