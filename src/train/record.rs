//! The training-data format: one owner for how a position, its search
//! score and its game's result are stored, read and written.
//!
//! A data file is a 32-byte header followed by 32-byte records, all
//! little-endian.
//!
//! Header:
//!
//! | bytes | content |
//! |---|---|
//! | 0..8 | magic `JGNNDATA` |
//! | 8..12 | format version (u32, 1) |
//! | 12..16 | record size (u32, 32) |
//! | 16..24 | record count (u64; rewritten now and then and at the end) |
//! | 24..32 | zero |
//!
//! Record:
//!
//! | bytes | content |
//! |---|---|
//! | 0..12 | occupancy: bit `i` (byte `i / 8`, bit `i % 8`) set when square index `i` (a1 = 0, i10 = 89) holds a piece |
//! | 12..28 | piece codes, 4 bits each, in increasing square order, low nibble first; code = colour * 7 + kind (Cho 0, Han 1; general, guard, elephant, horse, chariot, cannon, soldier) |
//! | 28..30 | search score, i16, centipawns from the side to move's view |
//! | 30 | side to move: 0 Cho, 1 Han |
//! | 31 | game result from the side to move's view: 0 loss, 1 draw, 2 win |
//!
//! Readers trust the file length, not the count: a file cut short by
//! Ctrl-C holds whole records plus at most one partial one, which is
//! ignored.

use crate::board::{
    Color, Piece, PieceKind, Position, RuleSet, Square, NUM_KINDS, NUM_PIECES, NUM_SQUARES,
};
use crate::util::file::{file_id, open_regular, regular_or_missing, FileId};
use std::fs::{File, OpenOptions};
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::Path;

pub const MAGIC: &[u8; 8] = b"JGNNDATA";
pub const VERSION: u32 = 1;
pub const RECORD_SIZE: usize = 32;
pub const HEADER_SIZE: usize = 32;
/// Bytes 12..28 hold 32 four-bit piece codes.
pub const MAX_PIECES: usize = 32;
/// Bytes 0..12 hold the occupancy bits, more than the board's points.
const OCCUPANCY_BITS: usize = 12 * 8;

/// One training position, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Pieces in increasing square order.
    pub pieces: Vec<(Piece, Square)>,
    pub stm: Color,
    /// Centipawns, side to move's view.
    pub score: i16,
    /// 0 loss, 1 draw, 2 win, side to move's view.
    pub result: u8,
}

impl Sample {
    /// The position's pieces, side to move and a placeholder result.
    pub fn from_position(pos: &Position, score: i16, result: u8) -> Sample {
        let pieces = Square::all()
            .filter_map(|sq| pos.piece_at(sq).map(|p| (p, sq)))
            .collect();
        Sample {
            pieces,
            stm: pos.side_to_move(),
            score,
            result,
        }
    }

    /// `None` when there are more pieces than a record holds.
    pub fn encode(&self) -> Option<[u8; RECORD_SIZE]> {
        if self.pieces.len() > MAX_PIECES {
            return None;
        }
        let mut r = [0u8; RECORD_SIZE];
        let mut sorted = self.pieces.clone();
        sorted.sort_by_key(|&(_, sq)| sq);
        for (n, &(p, sq)) in sorted.iter().enumerate() {
            let i = sq.index();
            r[i / 8] |= 1 << (i % 8);
            r[12 + n / 2] |= (p.index() as u8) << (4 * (n % 2));
        }
        r[28..30].copy_from_slice(&self.score.to_le_bytes());
        r[30] = self.stm.index() as u8;
        r[31] = self.result;
        Some(r)
    }

    /// Checks every field; a bad record is an error, never a panic.
    pub fn decode(r: &[u8; RECORD_SIZE]) -> Result<Sample, String> {
        let mut pieces = Vec::with_capacity(32);
        let mut n = 0;
        for i in 0..OCCUPANCY_BITS {
            if r[i / 8] >> (i % 8) & 1 == 0 {
                continue;
            }
            if i >= NUM_SQUARES {
                return Err(format!("occupancy bit {i} is off the board"));
            }
            if n >= MAX_PIECES {
                return Err("more than 32 pieces".into());
            }
            let code = (r[12 + n / 2] >> (4 * (n % 2))) & 15;
            if code as usize >= NUM_PIECES {
                return Err(format!("piece code {code}"));
            }
            let color = if (code as usize) < NUM_KINDS {
                Color::Cho
            } else {
                Color::Han
            };
            let p = Piece::new(color, PieceKind::ALL[code as usize % NUM_KINDS]);
            pieces.push((p, Square::new(i as u8)));
            n += 1;
        }
        let stm = match r[30] {
            0 => Color::Cho,
            1 => Color::Han,
            s => return Err(format!("side to move {s}")),
        };
        if r[31] > 2 {
            return Err(format!("result {}", r[31]));
        }
        Ok(Sample {
            pieces,
            stm,
            score: i16::from_le_bytes([r[28], r[29]]),
            result: r[31],
        })
    }

    /// The pieces on a board with the side to move and no history, no
    /// rule checked: enough to evaluate, not to play.
    pub fn placement(&self) -> Position {
        let mut pos = Position::empty(RuleSet::Janggi);
        for &(p, sq) in &self.pieces {
            pos.put(p, sq);
        }
        pos.finish_setup(self.stm, 0, 1);
        pos
    }

    /// The position (no history), or why the record is not a legal one,
    /// by the checks a FEN gets (`Position::validate`): one general a
    /// side, generals and guards in their palaces, the side not to move
    /// not in check.
    pub fn to_position(&self) -> Result<Position, String> {
        let pos = self.placement();
        pos.validate().map_err(|e| e.to_string())?;
        Ok(pos)
    }
}

/// The 32-byte file header for `count` records.
pub fn header(count: u64) -> [u8; HEADER_SIZE] {
    let mut h = [0u8; HEADER_SIZE];
    h[0..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&(RECORD_SIZE as u32).to_le_bytes());
    h[16..24].copy_from_slice(&count.to_le_bytes());
    h
}

/// Checks magic, version and record size; returns the stored count.
pub fn check_header(h: &[u8], name: &str) -> Result<u64, String> {
    if h.len() < HEADER_SIZE {
        return Err(format!("{name}: too short for a data header"));
    }
    if &h[0..8] != MAGIC {
        return Err(format!("{name}: not a Janggun data file (bad magic)"));
    }
    let word = |a: usize| u32::from_le_bytes([h[a], h[a + 1], h[a + 2], h[a + 3]]);
    if word(8) != VERSION {
        return Err(format!(
            "{name}: data format version {}, this build reads {VERSION}",
            word(8)
        ));
    }
    if word(12) as usize != RECORD_SIZE {
        return Err(format!("{name}: record size {}", word(12)));
    }
    let mut c = [0u8; 8];
    c.copy_from_slice(&h[16..24]);
    Ok(u64::from_le_bytes(c))
}

/// A data file opened for reading: a regular file whose header has been
/// checked, its whole records streamed in order.
pub struct RecordReader {
    file: BufReader<File>,
    /// Whole records not yet read.
    left: u64,
    name: String,
}

impl RecordReader {
    pub fn open(path: &Path) -> Result<RecordReader, String> {
        let name = path.display().to_string();
        let (file, len) = open_regular(path)?;
        let mut file = BufReader::with_capacity(1 << 16, file);
        let mut h = [0u8; HEADER_SIZE];
        file.read_exact(&mut h)
            .map_err(|_| format!("{name}: too short for a data header"))?;
        check_header(&h, &name)?;
        let left = (len - HEADER_SIZE as u64) / RECORD_SIZE as u64;
        Ok(RecordReader { file, left, name })
    }

    /// Whole records left to read.
    pub fn remaining(&self) -> u64 {
        self.left
    }

    /// The next record, `None` after the last whole one.
    pub fn next_record(&mut self) -> Result<Option<[u8; RECORD_SIZE]>, String> {
        if self.left == 0 {
            return Ok(None);
        }
        let mut r = [0u8; RECORD_SIZE];
        self.file
            .read_exact(&mut r)
            .map_err(|e| format!("{}: {e} (did the file shrink?)", self.name))?;
        self.left -= 1;
        Ok(Some(r))
    }
}

/// Reads a whole data file: the records (whole ones only) as raw bytes.
pub fn read_file(path: &Path) -> Result<Vec<[u8; RECORD_SIZE]>, String> {
    let mut reader = RecordReader::open(path)?;
    let mut out = Vec::with_capacity(reader.remaining() as usize);
    while let Some(r) = reader.next_record()? {
        out.push(r);
    }
    Ok(out)
}

/// Appends records to a data file, keeping it valid after every record.
pub struct RecordWriter {
    file: File,
    count: u64,
    name: String,
}

impl RecordWriter {
    /// Opens `path` for appending: a new file gets a header; an existing
    /// one must have a valid header, and a partial last record is cut off.
    pub fn append(path: &Path) -> Result<RecordWriter, String> {
        let name = path.display().to_string();
        let err = |e: std::io::Error| format!("{name}: {e}");
        // Appending to a FIFO or a device would block or vanish.
        regular_or_missing(path)?;
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(err)?;
        let len = file.metadata().map_err(err)?.len();
        let count = if len == 0 {
            file.write_all(&header(0)).map_err(err)?;
            0
        } else {
            let mut h = [0u8; HEADER_SIZE];
            file.read_exact(&mut h)
                .map_err(|_| format!("{name}: too short for a data header"))?;
            check_header(&h, &name)?;
            let whole = (len - HEADER_SIZE as u64) / RECORD_SIZE as u64;
            file.set_len(HEADER_SIZE as u64 + whole * RECORD_SIZE as u64)
                .map_err(err)?;
            whole
        };
        file.seek(SeekFrom::End(0)).map_err(err)?;
        Ok(RecordWriter { file, count, name })
    }

    pub fn write(&mut self, r: &[u8; RECORD_SIZE]) -> Result<(), String> {
        self.file
            .write_all(r)
            .map_err(|e| format!("{}: {e}", self.name))?;
        self.count += 1;
        Ok(())
    }

    /// Appends whole records, `bytes.len()` a multiple of `RECORD_SIZE`.
    pub fn write_records(&mut self, bytes: &[u8]) -> Result<(), String> {
        if !bytes.len().is_multiple_of(RECORD_SIZE) {
            return Err(format!("{}: a partial record to write", self.name));
        }
        self.file
            .write_all(bytes)
            .map_err(|e| format!("{}: {e}", self.name))?;
        self.count += (bytes.len() / RECORD_SIZE) as u64;
        Ok(())
    }

    pub fn count(&self) -> u64 {
        self.count
    }

    /// Rewrites the header's count and waits until the file is on disk;
    /// returns the count.
    pub fn finish(mut self) -> Result<u64, String> {
        self.sync_count()?;
        self.file
            .sync_all()
            .map_err(|e| format!("{}: {e}", self.name))?;
        Ok(self.count)
    }

    /// Rewrites the header's count and flushes to disk.
    pub fn sync_count(&mut self) -> Result<(), String> {
        let err = |e: std::io::Error| format!("{}: {e}", self.name);
        self.file.seek(SeekFrom::Start(16)).map_err(err)?;
        self.file
            .write_all(&self.count.to_le_bytes())
            .map_err(err)?;
        self.file.seek(SeekFrom::End(0)).map_err(err)?;
        self.file.flush().map_err(err)
    }
}

/// `janggun datagen merge`: checks every input's header, then appends
/// their whole records to `out` (created if missing). An input that is the
/// output, or is named twice (by another path or a link), is refused: its
/// records would be counted twice. The merged file is written beside `out`
/// and renamed over it only once complete, so a merge that fails leaves
/// `out` as it was.
pub fn merge(out: &Path, inputs: &[String]) -> Result<u64, String> {
    if inputs.is_empty() {
        return Err("merge: no input files".into());
    }
    regular_or_missing(out)?;
    // Through a link, the file the link names is the one replaced.
    let out_id = match file_id(out) {
        Ok(id) => Some(id),
        Err(_) if !out.exists() => None,
        Err(e) => return Err(e),
    };
    let target = match out_id {
        Some(_) => std::fs::canonicalize(out).map_err(|e| format!("{}: {e}", out.display()))?,
        None => out.to_path_buf(),
    };
    // An empty output is a new file; any other must be data already.
    if out_id.is_some() && std::fs::metadata(out).is_ok_and(|m| m.len() > 0) {
        RecordReader::open(out)?;
    }
    // Every header is checked before anything is written.
    let mut seen: Vec<(FileId, &str)> = Vec::new();
    for i in inputs {
        RecordReader::open(Path::new(i))?;
        let id = file_id(Path::new(i))?;
        if out_id.as_ref() == Some(&id) {
            return Err(format!("merge: {i} is the output file {}", out.display()));
        }
        if let Some((_, first)) = seen.iter().find(|(s, _)| *s == id) {
            return Err(format!("merge: {i} and {first} are the same file"));
        }
        seen.push((id, i));
    }
    let tmp = aside(&target);
    let merged = (|| {
        if out_id.is_some() {
            std::fs::copy(&target, &tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
        }
        let mut w = RecordWriter::append(&tmp)?;
        let mut chunk = Vec::with_capacity(MERGE_CHUNK * RECORD_SIZE);
        for i in inputs {
            let mut r = RecordReader::open(Path::new(i))?;
            loop {
                chunk.clear();
                while chunk.len() < MERGE_CHUNK * RECORD_SIZE {
                    match r.next_record()? {
                        Some(rec) => chunk.extend_from_slice(&rec),
                        None => break,
                    }
                }
                if chunk.is_empty() {
                    break;
                }
                w.write_records(&chunk)?;
            }
        }
        w.finish()
    })();
    match merged {
        Ok(n) => {
            std::fs::rename(&tmp, &target).map_err(|e| {
                std::fs::remove_file(&tmp).ok();
                format!("{}: {e}", target.display())
            })?;
            Ok(n)
        }
        Err(e) => {
            std::fs::remove_file(&tmp).ok();
            Err(format!("{e}; {} left as it was", out.display()))
        }
    }
}

/// Records a merge reads and writes at once.
const MERGE_CHUNK: usize = 2048;

/// A name beside `path` for the file a merge writes before it is renamed.
fn aside(path: &Path) -> std::path::PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.merge-{}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::notation::setup_fen;
    use crate::board::Setup;

    #[test]
    fn records_round_trip() {
        for cho in Setup::ALL {
            for han in Setup::ALL {
                let pos = Position::from_fen(&setup_fen(cho, han), RuleSet::Janggi).unwrap();
                let s = Sample::from_position(&pos, -1234, 2);
                let r = s.encode().unwrap();
                let d = Sample::decode(&r).unwrap();
                assert_eq!(d, s);
                assert_eq!(d.pieces.len(), 32);
                let back = d.to_position().unwrap();
                assert_eq!(back.to_fen(), pos.to_fen());
            }
        }
        let fen = "4ka3/4a4/9/9/2c6/9/9/9/4A4/3AK4 b - - 0 1";
        let pos = Position::from_fen(fen, RuleSet::Janggi).unwrap();
        let s = Sample::from_position(&pos, 77, 0);
        let d = Sample::decode(&s.encode().unwrap()).unwrap();
        assert_eq!(d.stm, Color::Han);
        assert_eq!(d.score, 77);
        assert_eq!(d.to_position().unwrap().to_fen(), pos.to_fen());
    }

    #[test]
    fn bad_records_are_errors() {
        let mut r = [0u8; RECORD_SIZE];
        r[11] = 0x80; // bit 95
        assert!(Sample::decode(&r).is_err());
        let mut r = [0u8; RECORD_SIZE];
        r[0] = 1;
        r[12] = 15;
        assert!(Sample::decode(&r).is_err());
        let mut r = [0u8; RECORD_SIZE];
        r[30] = 2;
        assert!(Sample::decode(&r).is_err());
    }
}
