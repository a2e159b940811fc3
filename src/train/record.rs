//! The training-data format: one owner for how a position, its search
//! score, its game's result and (from version 2) what the search saw there
//! are stored, read and written.
//!
//! A data file is a 32-byte header followed by fixed-size records, all
//! little-endian.
//!
//! Header:
//!
//! | bytes | content |
//! |---|---|
//! | 0..8 | magic `JGNNDATA` |
//! | 8..12 | format version (u32, 1 or 2) |
//! | 12..16 | record size (u32: 32 for version 1, 40 for version 2) |
//! | 16..24 | record count (u64; rewritten now and then and at the end) |
//! | 24..32 | zero |
//!
//! Record (version 1 is bytes 0..32 alone):
//!
//! | bytes | content |
//! |---|---|
//! | 0..12 | occupancy: bit `i` (byte `i / 8`, bit `i % 8`) set when square index `i` (a1 = 0, i10 = 89) holds a piece |
//! | 12..28 | piece codes, 4 bits each, in increasing square order, low nibble first; code = colour * 7 + kind (Cho 0, Han 1; general, guard, elephant, horse, chariot, cannon, soldier) |
//! | 28..30 | search score, i16, centipawns from the side to move's view; a decided game is +/-(20000 - plies to its end) |
//! | 30 | side to move: 0 Cho, 1 Han |
//! | 31 | game result from the side to move's view: 0 loss, 1 draw, 2 win |
//! | 32 | flags ([`Flags`]): 1 side to move in check, 2 best move a capture, 4 a capture that does not lose material available, 8 decided score, 16 result adjudicated; bits 5..7 zero |
//! | 33 | zero |
//! | 34..36 | ply in the game (u16): 0 before Cho's first move, so even when Cho is to move |
//! | 36..38 | plies since the last capture, the move limit's clock (u16) |
//! | 38..40 | the search's best move: from + 128 * to (u16, the engine's move encoding without its tag bit), 0 for none |
//!
//! Version 2 is 40 bytes rather than 36 so that, besides the flags and
//! the ply the trainer filters on, the record keeps the move-limit clock
//! (the net cannot see the count term the search adds near the limit, so
//! a trainer may want to correct or drop those scores) and the best move
//! (for a policy target or a quiet-move filter), without a third version.
//!
//! Every record is read into a 40-byte buffer ([`Raw`]); a version-1
//! record fills its first 32 bytes and leaves the rest zero, which reads
//! as a version-2 record with no flag set: version-1 files were filtered
//! when they were written, so no load filter drops anything from them.
//!
//! Readers read the whole records the file's length says, not the count:
//! a writer rewrites the count now and then (`RecordWriter::sync_count`),
//! so a file being written, or one whose writer was killed, holds more
//! whole records than its header counts (and, after a kill halfway
//! through a record, one partial record, which is ignored). A header that
//! counts more records than the file holds is a file cut short or damaged
//! (a writer only ever counts records it has written) and is refused.

use crate::board::{
    Color, Move, Piece, PieceKind, Position, RuleSet, Square, NUM_KINDS, NUM_PIECES, NUM_SQUARES,
};
use crate::util::file::{open_for_append, open_regular};
use crate::util::hash::fnv1a64;
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::Path;

pub const MAGIC: &[u8; 8] = b"JGNNDATA";
/// The version `janggun datagen` writes unless told otherwise.
pub const VERSION: u32 = 2;
/// The first version: pieces, score, side and result only.
pub const VERSION_V1: u32 = 1;
/// Bytes of a version-2 record, and of the buffer any record is read into.
pub const RECORD_SIZE: usize = 40;
pub const RECORD_SIZE_V1: usize = 32;
pub const HEADER_SIZE: usize = 32;
/// Bytes 12..28 hold 32 four-bit piece codes.
pub const MAX_PIECES: usize = 32;
/// Bytes 0..12 hold the occupancy bits, more than the board's points.
const OCCUPANCY_BITS: usize = 12 * 8;
/// A decided score is stored as +/-(this - plies to the end).
pub const DECIDED_SCORE: i16 = 20000;

/// One record as read: a version-1 record is zero-padded.
pub type Raw = [u8; RECORD_SIZE];

/// The record size of a format version this build reads.
pub fn record_size(version: u32) -> Option<usize> {
    match version {
        VERSION_V1 => Some(RECORD_SIZE_V1),
        VERSION => Some(RECORD_SIZE),
        _ => None,
    }
}

/// What the search saw at a position (version 2's byte 32).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Flags(pub u8);

impl Flags {
    /// The side to move is in check.
    pub const IN_CHECK: u8 = 1;
    /// The search's best move is a capture.
    pub const CAPTURE: u8 = 2;
    /// Some legal capture does not lose material by exchange
    /// (`see_ge(.., 0)`): the score hangs on a tactic a static evaluation
    /// may not see.
    pub const WINNING_CAPTURE: u8 = 4;
    /// The score is a decided game (a mate or a win by the rules), not an
    /// evaluation.
    pub const DECIDED: u8 = 8;
    /// The game's result was adjudicated, not played out.
    pub const ADJUDICATED: u8 = 16;
    /// Every defined bit.
    pub const ALL: u8 = 31;
    /// Each flag with its name, for reports.
    pub const NAMES: [(u8, &'static str); 5] = [
        (Flags::IN_CHECK, "in check"),
        (Flags::CAPTURE, "best move a capture"),
        (Flags::WINNING_CAPTURE, "winning capture available"),
        (Flags::DECIDED, "decided score"),
        (Flags::ADJUDICATED, "result adjudicated"),
    ];

    pub fn has(self, bit: u8) -> bool {
        self.0 & bit != 0
    }

    pub fn set(&mut self, bit: u8, on: bool) {
        if on {
            self.0 |= bit;
        } else {
            self.0 &= !bit;
        }
    }
}

/// A version-2 record's fields beyond the position, score and result.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Meta {
    pub flags: Flags,
    /// Plies from the game's first position (Cho to move at 0).
    pub ply: u16,
    /// Plies since the last capture.
    pub halfmove: u16,
    pub best: Option<Move>,
}

impl Meta {
    /// Bytes 32..40 of a record; a bad field is an error, never a panic.
    pub fn decode(r: &Raw) -> Result<Meta, String> {
        let flags = r[32];
        if flags & !Flags::ALL != 0 {
            return Err(format!("flags {flags:#04x}"));
        }
        if r[33] != 0 {
            return Err(format!("reserved byte {}", r[33]));
        }
        let word = |a: usize| u16::from_le_bytes([r[a], r[a + 1]]);
        let best = match word(38) {
            0 => None,
            raw => Some(Move::from_raw(raw).ok_or_else(|| format!("best move {raw}"))?),
        };
        Ok(Meta {
            flags: Flags(flags),
            ply: word(34),
            halfmove: word(36),
            best,
        })
    }

    fn encode_into(&self, r: &mut Raw) {
        r[32] = self.flags.0 & Flags::ALL;
        r[33] = 0;
        r[34..36].copy_from_slice(&self.ply.to_le_bytes());
        r[36..38].copy_from_slice(&self.halfmove.to_le_bytes());
        r[38..40].copy_from_slice(&self.best.map_or(0, Move::raw).to_le_bytes());
    }
}

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

    /// A version-2 record with no flags, ply 0 and no best move; `None`
    /// when there are more pieces than a record holds.
    pub fn encode(&self) -> Option<Raw> {
        self.encode_with(&Meta::default())
    }

    /// A version-2 record; `None` when there are more pieces than a record
    /// holds.
    pub fn encode_with(&self, meta: &Meta) -> Option<Raw> {
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
        meta.encode_into(&mut r);
        Some(r)
    }

    /// A version-1 record (no flags); `None` when there are more pieces
    /// than a record holds.
    pub fn encode_v1(&self) -> Option<[u8; RECORD_SIZE_V1]> {
        let r = self.encode()?;
        let mut out = [0u8; RECORD_SIZE_V1];
        out.copy_from_slice(&r[..RECORD_SIZE_V1]);
        Some(out)
    }

    /// The position, score and result of a record of either version
    /// (bytes 0..32); checks every one of those fields, and a bad one is an
    /// error, never a panic. [`Meta::decode`] reads the rest.
    pub fn decode(r: &Raw) -> Result<Sample, String> {
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

/// A key of a record's position and side to move (bytes 0..28 and 30),
/// the same for equal positions whatever the version, score or flags:
/// what "duplicate" means at load. 64 bits: among n records, two
/// different positions share a key with a chance of about n^2 / 2^65.
pub fn position_key(r: &Raw) -> u64 {
    let mut b = [0u8; 29];
    b[..28].copy_from_slice(&r[..28]);
    b[28] = r[30];
    fnv1a64(&b)
}

/// The 32-byte file header of a version-2 file of `count` records.
pub fn header(count: u64) -> [u8; HEADER_SIZE] {
    header_for(VERSION, count)
}

/// The 32-byte file header of a file of `version` (one this build reads)
/// and `count` records.
pub fn header_for(version: u32, count: u64) -> [u8; HEADER_SIZE] {
    let size = record_size(version).unwrap_or(RECORD_SIZE);
    let mut h = [0u8; HEADER_SIZE];
    h[0..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&version.to_le_bytes());
    h[12..16].copy_from_slice(&(size as u32).to_le_bytes());
    h[16..24].copy_from_slice(&count.to_le_bytes());
    h
}

/// What a valid header says.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RecordHeader {
    pub version: u32,
    /// Bytes a record, fixed by the version.
    pub record_size: usize,
    /// The stored count (readers go by the file's length instead).
    pub count: u64,
}

/// Whole records in a file of `len` bytes with this header, checked
/// against the header's count: more is a file still being written (or
/// whose writer stopped before its next count), fewer a damaged one.
fn whole_records(header: &RecordHeader, len: u64, name: &str) -> Result<u64, String> {
    let whole = len.saturating_sub(HEADER_SIZE as u64) / header.record_size as u64;
    if header.count > whole {
        return Err(format!(
            "{name}: the header counts {} records but the file holds {whole}: \
             it was cut short or damaged",
            header.count
        ));
    }
    Ok(whole)
}

/// Checks magic, version and record size.
pub fn read_header(h: &[u8], name: &str) -> Result<RecordHeader, String> {
    if h.len() < HEADER_SIZE {
        return Err(format!("{name}: too short for a data header"));
    }
    if &h[0..8] != MAGIC {
        return Err(format!("{name}: not a Janggun data file (bad magic)"));
    }
    let word = |a: usize| u32::from_le_bytes([h[a], h[a + 1], h[a + 2], h[a + 3]]);
    let version = word(8);
    let Some(size) = record_size(version) else {
        return Err(format!(
            "{name}: data format version {version}, this build reads {VERSION_V1} and {VERSION}"
        ));
    };
    if word(12) as usize != size {
        return Err(format!(
            "{name}: record size {} (version {version} has {size})",
            word(12)
        ));
    }
    let mut c = [0u8; 8];
    c.copy_from_slice(&h[16..24]);
    Ok(RecordHeader {
        version,
        record_size: size,
        count: u64::from_le_bytes(c),
    })
}

/// Checks magic, version and record size; returns the stored count.
pub fn check_header(h: &[u8], name: &str) -> Result<u64, String> {
    read_header(h, name).map(|h| h.count)
}

/// A data file opened for reading: a regular file whose header has been
/// checked, its whole records streamed in order.
pub struct RecordReader {
    file: BufReader<File>,
    header: RecordHeader,
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
        RecordReader::after_header(file, &h, len, &name)
    }

    /// A reader of a file whose first `HEADER_SIZE` bytes, `h`, were read
    /// from `file` already; `len` is the file's length.
    pub fn after_header(
        file: BufReader<File>,
        h: &[u8],
        len: u64,
        name: &str,
    ) -> Result<RecordReader, String> {
        let header = read_header(h, name)?;
        let left = whole_records(&header, len, name)?;
        Ok(RecordReader {
            file,
            header,
            left,
            name: name.to_string(),
        })
    }

    /// The file's format version.
    pub fn version(&self) -> u32 {
        self.header.version
    }

    /// Whole records left to read.
    pub fn remaining(&self) -> u64 {
        self.left
    }

    /// The count the header gives: no more than the whole records the file
    /// held when opened, fewer while a writer is still at work.
    pub fn header_count(&self) -> u64 {
        self.header.count
    }

    /// The next record (a version-1 one zero-padded), `None` after the
    /// last whole one.
    pub fn next_record(&mut self) -> Result<Option<Raw>, String> {
        if self.left == 0 {
            return Ok(None);
        }
        let mut r = [0u8; RECORD_SIZE];
        self.file
            .read_exact(&mut r[..self.header.record_size])
            .map_err(|e| format!("{}: {e} (did the file shrink?)", self.name))?;
        self.left -= 1;
        Ok(Some(r))
    }
}

/// Appends records of one version to a data file, keeping it valid after
/// every record.
pub struct RecordWriter {
    file: File,
    count: u64,
    /// Bytes written of each record: its version's size.
    size: usize,
    name: String,
}

impl RecordWriter {
    /// Opens `path` for appending records of `version`: a new file gets a
    /// header; an existing one must have a valid header of that version,
    /// and a partial last record is cut off.
    pub fn append(path: &Path, version: u32) -> Result<RecordWriter, String> {
        let name = path.display().to_string();
        let size = record_size(version).ok_or_else(|| format!("data format version {version}"))?;
        let err = |e: std::io::Error| format!("{name}: {e}");
        let (mut file, len) = open_for_append(path)?;
        let count = if len == 0 {
            if let Err(e) = file.write_all(&header_for(version, 0)) {
                // No part of a header left behind (a full disk).
                let _ = file.set_len(0);
                return Err(err(e));
            }
            0
        } else {
            let mut h = [0u8; HEADER_SIZE];
            file.read_exact(&mut h)
                .map_err(|_| format!("{name}: too short for a data header"))?;
            let have = read_header(&h, &name)?;
            if have.version != version {
                return Err(format!(
                    "{name} holds data format version {}, not {version}: \
                     write version {version} to another file",
                    have.version
                ));
            }
            let whole = whole_records(&have, len, &name)?;
            file.set_len(HEADER_SIZE as u64 + whole * size as u64)
                .map_err(err)?;
            whole
        };
        file.seek(SeekFrom::End(0)).map_err(err)?;
        Ok(RecordWriter {
            file,
            count,
            size,
            name,
        })
    }

    /// Cuts the file back to its first `records` records (no more than it
    /// holds), the header's count with them.
    pub fn truncate(&mut self, records: u64) -> Result<(), String> {
        if records > self.count {
            return Err(format!(
                "{}: cannot cut {} records back to {records}",
                self.name, self.count
            ));
        }
        // The count first: stopped in between, the file holds more records
        // than it counts (a file being written), never fewer (damaged).
        self.count = records;
        self.sync_count()?;
        self.file
            .set_len(HEADER_SIZE as u64 + records * self.size as u64)
            .map_err(|e| format!("{}: {e}", self.name))?;
        self.file
            .seek(SeekFrom::End(0))
            .map_err(|e| format!("{}: {e}", self.name))?;
        Ok(())
    }

    /// Appends a record: the first bytes of `r`, as many as the file's
    /// version has.
    pub fn write(&mut self, r: &Raw) -> Result<(), String> {
        let size = self.size;
        self.write_whole(&r[..size])
    }

    /// Appends whole records of the file's version, `bytes.len()` a
    /// multiple of its record size.
    pub fn write_records(&mut self, bytes: &[u8]) -> Result<(), String> {
        if !bytes.len().is_multiple_of(self.size) {
            return Err(format!("{}: a partial record to write", self.name));
        }
        self.write_whole(bytes)
    }

    /// Writes whole records, or leaves the file ending at its last whole
    /// record: a write that fails partway (a full disk, a file size limit)
    /// may have put part of a record down, and it is cut off again.
    fn write_whole(&mut self, bytes: &[u8]) -> Result<(), String> {
        let written = self.file.write_all(bytes);
        let Err(e) = written else {
            self.count += (bytes.len() / self.size) as u64;
            return Ok(());
        };
        // Records of `bytes` written whole before the failure are kept and
        // counted; the rest is cut off.
        let end = HEADER_SIZE as u64 + self.count * self.size as u64;
        let len = self.file.metadata().map_or(end, |m| m.len());
        let kept =
            (len.saturating_sub(end) / self.size as u64).min((bytes.len() / self.size) as u64);
        let whole = end + kept * self.size as u64;
        let cut = self
            .file
            .set_len(whole)
            .and_then(|_| self.file.seek(SeekFrom::End(0)).map(|_| ()));
        match cut {
            Ok(()) => {
                self.count += kept;
                Err(format!(
                    "{}: {e} (the file ends at its last whole record, {})",
                    self.name, self.count
                ))
            }
            Err(e2) => Err(format!(
                "{}: {e}; and cutting off the part of a record written failed: {e2}",
                self.name
            )),
        }
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
    fn version_2_fields_round_trip() {
        let fen = "4ka3/4a4/9/9/2c6/9/9/9/4A4/3AK4 b - - 7 12";
        let pos = Position::from_fen(fen, RuleSet::Janggi).unwrap();
        let s = Sample::from_position(&pos, -DECIDED_SCORE + 3, 0);
        let best = Move::new(Square::new(83), Square::new(84));
        for flags in 0..=Flags::ALL {
            let meta = Meta {
                flags: Flags(flags),
                ply: 23 + flags as u16 * 1000,
                halfmove: 7 + flags as u16,
                best: (flags % 2 == 0).then_some(best),
            };
            let r = s.encode_with(&meta).unwrap();
            assert_eq!(Sample::decode(&r).unwrap(), s);
            assert_eq!(Meta::decode(&r).unwrap(), meta);
            // The first 32 bytes are the version-1 record.
            assert_eq!(&r[..RECORD_SIZE_V1], &s.encode_v1().unwrap()[..]);
        }
        // Undefined bits, the reserved byte and off-board moves are refused.
        let mut r = s.encode().unwrap();
        r[32] = 0x20;
        assert!(Meta::decode(&r).unwrap_err().contains("flags"));
        let mut r = s.encode().unwrap();
        r[33] = 1;
        assert!(Meta::decode(&r).is_err());
        let mut r = s.encode().unwrap();
        r[38..40].copy_from_slice(&(95u16 | 3 << 7).to_le_bytes());
        assert!(Meta::decode(&r).unwrap_err().contains("best move"));
    }

    #[test]
    fn headers_name_their_version_and_refuse_others() {
        let h = read_header(&header_for(VERSION_V1, 5), "f").unwrap();
        assert_eq!((h.version, h.record_size, h.count), (1, 32, 5));
        let h = read_header(&header(9), "f").unwrap();
        assert_eq!((h.version, h.record_size, h.count), (2, 40, 9));
        let mut h = header(0);
        h[8] = 3;
        let e = read_header(&h, "f").unwrap_err();
        assert!(
            e.contains("version 3") && e.contains("reads 1 and 2"),
            "{e}"
        );
        let mut h = header(0);
        h[12] = 32;
        assert!(read_header(&h, "f").unwrap_err().contains("record size 32"));
        assert!(read_header(&h[..20], "f")
            .unwrap_err()
            .contains("too short"));
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
