//! Data files of every format, for the tools that read, count, convert,
//! merge and write them: format versions 1 and 2 (fixed-size records,
//! `crate::train::record`) and 3 (the same records chained as games,
//! `crate::train::chain`). A reader opens any of them by its header and
//! yields the records the file holds (a version-1 one zero-padded), so no
//! consumer tells the formats apart itself; the header's count is held to
//! one rule in all three: a file may hold more whole records than it
//! counts (its writer counts now and then: a file being written, or one
//! whose writer was stopped), read with a note, but never fewer (cut
//! short or damaged: refused). The end of a file being written, a partial
//! record or a block not yet whole, is left unread.
//!
//! Datagen writes version 3 unless told otherwise: a block a game, so
//! that a file cut short loses no finished game and a resumed run cuts
//! back to a game's end.

use super::chain::{self, ChainReader, ChainWriter, CHAIN_VERSION};
use super::record::{
    self, header_for, record_size, Raw, RecordReader, RecordWriter, HEADER_SIZE, VERSION,
    VERSION_V1,
};
use crate::util::file::{file_id, open_for_append, open_regular, FileId};
use crate::util::outfile::{check_existing, Aside, Existing, Files};
use std::fs::File;
use std::io::{BufReader, BufWriter, Cursor, Read, Seek, SeekFrom, Write};
use std::path::Path;

/// The format `janggun datagen` writes unless told otherwise.
pub const DEFAULT_FORMAT: u32 = CHAIN_VERSION;

/// The version of the records a file of `format` holds (1, 2 or 3), or
/// `None` for a format this build does not write.
pub fn records_version(format: u32) -> Option<u32> {
    match format {
        VERSION_V1 | VERSION => Some(format),
        CHAIN_VERSION => Some(VERSION),
        _ => None,
    }
}

/// How a file's format reads in messages.
fn describe(format: u32, version: u32) -> String {
    if format == CHAIN_VERSION {
        format!("format version {format}, chained version-{version} records")
    } else {
        format!("format version {format}")
    }
}

type Input = BufReader<File>;
/// A chained file's reader, its header read once to tell the formats apart.
type ChainInput = std::io::Chain<Cursor<[u8; HEADER_SIZE]>, Input>;

enum Inner {
    Fixed(RecordReader),
    Chained(ChainReader<ChainInput>),
}

/// A data file of any format opened for reading: a regular file whose
/// header has been checked, its records streamed in order.
pub struct DataReader {
    inner: Inner,
    name: String,
    read: u64,
}

/// Opens `path` (a regular file), reads its header: the file, its length
/// and the header's bytes.
fn open_header(path: &Path) -> Result<(Input, u64, [u8; HEADER_SIZE]), String> {
    let name = path.display();
    let (file, len) = open_regular(path)?;
    let mut file = BufReader::with_capacity(1 << 16, file);
    let mut h = [0u8; HEADER_SIZE];
    file.read_exact(&mut h)
        .map_err(|_| format!("{name}: too short for a data header"))?;
    Ok((file, len, h))
}

impl DataReader {
    pub fn open(path: &Path) -> Result<DataReader, String> {
        let name = path.display().to_string();
        let (file, len, h) = open_header(path)?;
        let inner = if chain::is_chained(&h) {
            Inner::Chained(ChainReader::new(Cursor::new(h).chain(file), &name)?)
        } else {
            Inner::Fixed(RecordReader::after_header(file, &h, len, &name)?)
        };
        Ok(DataReader {
            inner,
            name,
            read: 0,
        })
    }

    /// The file's format version: 1 or 2 (fixed records), 3 (chained).
    pub fn format(&self) -> u32 {
        match &self.inner {
            Inner::Fixed(r) => r.version(),
            Inner::Chained(_) => CHAIN_VERSION,
        }
    }

    /// The version of the records it yields: 1 or 2.
    pub fn version(&self) -> u32 {
        match &self.inner {
            Inner::Fixed(r) => r.version(),
            Inner::Chained(r) => r.version(),
        }
    }

    pub fn is_chained(&self) -> bool {
        matches!(self.inner, Inner::Chained(_))
    }

    /// "format version 2", "format version 3, chained version-2 records".
    pub fn describe(&self) -> String {
        describe(self.format(), self.version())
    }

    /// The count the header gives: no more than the records the file
    /// holds (a reader refuses a file that holds fewer), fewer while a
    /// writer is still at work.
    pub fn header_count(&self) -> u64 {
        match &self.inner {
            Inner::Fixed(r) => r.header_count(),
            Inner::Chained(r) => r.positions(),
        }
    }

    /// The records it holds when that is known before reading them (the
    /// fixed formats: from the file's length), for a reserve.
    pub fn known_records(&self) -> Option<u64> {
        match &self.inner {
            Inner::Fixed(r) => Some(r.remaining() + self.read),
            Inner::Chained(_) => None,
        }
    }

    /// Records read so far.
    pub fn records_read(&self) -> u64 {
        self.read
    }

    /// Whether the records read so far end a block of a chained file
    /// (always, for fixed records): where a resumed writer may cut it.
    pub fn at_block_end(&self) -> bool {
        match &self.inner {
            Inner::Fixed(_) => true,
            Inner::Chained(r) => r.at_block_end(),
        }
    }

    /// Bytes of a last block left unread, being written (chained files;
    /// known once the last record was read).
    pub fn tail(&self) -> u64 {
        match &self.inner {
            Inner::Fixed(_) => 0,
            Inner::Chained(r) => r.tail(),
        }
    }

    /// The next record (a version-1 one zero-padded), `None` after the
    /// last whole one.
    pub fn next_record(&mut self) -> Result<Option<Raw>, String> {
        let r = match &mut self.inner {
            Inner::Fixed(r) => r.next_record()?,
            Inner::Chained(r) => r.next_record()?,
        };
        self.read += r.is_some() as u64;
        Ok(r)
    }

    /// Once every record has been read: what a reader is told about the
    /// file, when its header counts fewer records than it holds.
    pub fn note(&self) -> Option<String> {
        let (have, read) = (self.header_count(), self.read);
        (have < read).then(|| {
            format!(
                "{}: its header counts {have} of its {read} records: it is being written, \
                 or its writer stopped before the last count; the {read} are read",
                self.name
            )
        })
    }
}

impl Iterator for DataReader {
    type Item = Result<Raw, String>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_record().transpose()
    }
}

/// Reads a whole data file of any format: its records (version-1 ones
/// zero-padded) as raw bytes.
pub fn read_file(path: &Path) -> Result<Vec<Raw>, String> {
    let mut reader = DataReader::open(path)?;
    let mut out = Vec::with_capacity(reader.known_records().unwrap_or(0) as usize);
    while let Some(r) = reader.next_record()? {
        out.push(r);
    }
    Ok(out)
}

/// What `janggun datagen count` says of a file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Count {
    pub format: u32,
    pub version: u32,
    /// Whole records (of whole blocks, chained).
    pub records: u64,
    pub header_count: u64,
}

/// The records a data file holds, as a reader would read them, without
/// decoding them: from the length of a fixed-record file, from the block
/// lengths of a chained one ([`chain::skim`]). Held to the readers' rule
/// on the header's count.
pub fn count(path: &Path) -> Result<Count, String> {
    let name = path.display().to_string();
    let (file, len, h) = open_header(path)?;
    if chain::is_chained(&h) {
        let s = chain::skim(Cursor::new(h).chain(file), &name)?;
        return Ok(Count {
            format: CHAIN_VERSION,
            version: s.header.version,
            records: s.records,
            header_count: s.header.count,
        });
    }
    let r = RecordReader::after_header(file, &h, len, &name)?;
    Ok(Count {
        format: r.version(),
        version: r.version(),
        records: r.remaining(),
        header_count: r.header_count(),
    })
}

/// Refuses an output that is not a data file, checked by reading its
/// header (an empty file or none at all is fine).
fn data_file(path: &Path) -> Result<(), String> {
    open_header(path).and_then(|(_, _, h)| {
        if chain::is_chained(&h) {
            chain::read_header(&h, &path.display().to_string()).map(|_| ())
        } else {
            record::read_header(&h, &path.display().to_string()).map(|_| ())
        }
    })
}

/// Refuses to rewrite `out` while a datagen resume point stands beside
/// it (beside the name given, or beside the file a link names): the point
/// would no longer say where the file ends, and a `datagen --resume` run
/// may still be writing it.
fn refuse_resume_point(out: &Path, what: &str) -> Result<(), String> {
    let mut points = vec![super::resume::path_for(out)];
    if let Ok(real) = std::fs::canonicalize(out) {
        points.push(super::resume::path_for(&real));
    }
    if let Some(p) = points.iter().find(|p| std::fs::symlink_metadata(p).is_ok()) {
        return Err(format!(
            "{what}: {} has a datagen resume point ({}): records written into it would \
             make the point untrue (and a datagen --resume run may still be writing the \
             file); finish that run and delete the point, or write another file",
            out.display(),
            p.display()
        ));
    }
    Ok(())
}

/// The format `datagen convert --to` asks for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// Format 3.
    Chained,
    /// The fixed records the input holds, of their own version.
    Fixed,
    /// Format 1 or 2 (the records' own version), or 3.
    Version(u32),
}

impl std::str::FromStr for Target {
    type Err = String;

    fn from_str(s: &str) -> Result<Target, String> {
        match s {
            "chained" => Ok(Target::Chained),
            "fixed" => Ok(Target::Fixed),
            _ => match s.parse::<u32>() {
                Ok(CHAIN_VERSION) => Ok(Target::Chained),
                Ok(v @ (VERSION_V1 | VERSION)) => Ok(Target::Version(v)),
                _ => Err(format!(
                    "must be {CHAIN_VERSION} or chained, or fixed or the records' own \
                     version ({VERSION_V1} or {VERSION})"
                )),
            },
        }
    }
}

/// What a conversion wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Converted {
    pub records: u64,
    /// The format written, and the version of its records.
    pub format: u32,
    pub version: u32,
    /// What the input's header or end said that the output does not keep
    /// (a file being written).
    pub note: Option<String>,
}

/// `janggun datagen convert`: the records of `input` (any format) written
/// to `out` as format `to`: 3 (chained), or the fixed records they are
/// (of the records' own version: a version-1 record has no flags, and a
/// version-2 one cannot lose them, so records never change version).
/// By default a fixed-record file becomes chained and a chained one the
/// fixed records it holds. Nothing is lost either way: a finished fixed
/// file converted to chained and back is the same bytes, and a chained
/// one made by convert converted to fixed and back too (one that datagen
/// wrote, a block a game, comes back as convert's blocks of the same
/// records). `out` is written aside and renamed over its name once whole;
/// an existing `out` is replaced only when it is a data file.
pub fn convert(input: &Path, out: &Path, to: Option<Target>) -> Result<Converted, String> {
    let mut files = Files::new();
    files.input("input", input).output("output", out);
    files.check().map_err(|e| format!("convert: {e}"))?;
    refuse_resume_point(out, "convert")?;
    let existing = Existing::Check(&data_file);
    check_existing(out, &existing)?;
    let mut reader = DataReader::open(input)?;
    let version = reader.version();
    let format = match to {
        None if reader.is_chained() => version,
        None | Some(Target::Chained) => CHAIN_VERSION,
        Some(Target::Fixed) => version,
        Some(Target::Version(v)) if v == version || v == CHAIN_VERSION => v,
        Some(Target::Version(v)) => {
            return Err(format!(
                "convert: {} holds version-{version} records; they are written as format \
                 {version} or {CHAIN_VERSION}, never as version {v} (version 1 has no \
                 flags: a version-1 record written as version 2 would claim none set)",
                input.display()
            ))
        }
    };
    let mut aside = Aside::create(out, &existing)?;
    let tmp = aside.tmp_path().display().to_string();
    let io = |e: std::io::Error| format!("{tmp}: {e}");
    let records = {
        let buffered = BufWriter::with_capacity(1 << 16, aside.file());
        let mut buffered = if format == CHAIN_VERSION {
            let mut w = ChainWriter::new(buffered, version)?;
            while let Some(r) = reader.next_record()? {
                w.push(&r)?;
            }
            w.finish()?.0
        } else {
            let size = record_size(version).unwrap_or(record::RECORD_SIZE);
            let mut w = buffered;
            w.write_all(&header_for(version, 0)).map_err(io)?;
            let mut n = 0u64;
            while let Some(r) = reader.next_record()? {
                w.write_all(&r[..size]).map_err(io)?;
                n += 1;
            }
            w.seek(SeekFrom::Start(16)).map_err(io)?;
            w.write_all(&n.to_le_bytes()).map_err(io)?;
            w
        };
        buffered.flush().map_err(io)?;
        reader.records_read()
    };
    let mut note = reader.note();
    if reader.tail() > 0 {
        let tail = format!(
            "{}: its last {} bytes, a block being written, are not converted",
            input.display(),
            reader.tail()
        );
        note = Some(note.map_or(tail.clone(), |n| format!("{n}; {tail}")));
    }
    aside
        .commit()
        .map_err(|e| format!("{e}; {} left as it was", out.display()))?;
    Ok(Converted {
        records,
        format,
        version,
        note,
    })
}

/// A reader that copies what it reads, past its first `skip` bytes, to
/// `out`: a chained file's blocks are copied as they are decoded, so the
/// bytes merged are the bytes checked.
struct Tee<'a> {
    inner: File,
    out: &'a mut File,
    skip: u64,
}

impl Read for Tee<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let k = (self.skip.min(n as u64)) as usize;
        self.skip -= k as u64;
        self.out.write_all(&buf[k..n])?;
        Ok(n)
    }
}

/// Appends the whole blocks of the chained file `path` (every one decoded
/// and checked) to `out` at its end; returns its records.
fn append_blocks(path: &Path, out: &mut File, version: u32) -> Result<u64, String> {
    let name = path.display().to_string();
    let start = out.stream_position().map_err(|e| format!("merge: {e}"))?;
    let (file, _) = open_regular(path)?;
    let tee = Tee {
        inner: file,
        out: &mut *out,
        skip: HEADER_SIZE as u64,
    };
    let mut r = ChainReader::new(BufReader::with_capacity(1 << 16, tee), &name)?;
    if r.version() != version {
        return Err(format!("merge: {name} changed while merging"));
    }
    while r.next_record()?.is_some() {}
    let (n, whole) = (r.records_read(), r.offset());
    drop(r);
    // A block being written, read past its whole ones, is left out.
    let end = start + whole - HEADER_SIZE as u64;
    out.set_len(end)
        .and_then(|_| out.seek(SeekFrom::Start(end)).map(|_| ()))
        .map_err(|e| format!("merge: {e}"))?;
    Ok(n)
}

/// `janggun datagen merge`: checks every input's header, then appends
/// their records to `out` (created if missing); returns the records `out`
/// holds and its format. Inputs may be of any format; the records of all
/// of them, and of `out` if it holds data, must be of one version: a
/// version-1 record has no flags, and writing it as version 2 would claim
/// it had none set (the trainer reads files of both versions side by
/// side, so there is nothing to gain). A new `out`, or a chained one, is
/// written chained (a chained input's blocks are copied as they are, each
/// decoded and checked first); a fixed-record `out` keeps its format, the
/// records appended as fixed records. An input that is the output, or is
/// named twice (by another path or a link), is refused: its records would
/// be counted twice. An output with a datagen resume point beside it is
/// refused. The merged file is written beside `out` and renamed over it
/// only once complete, so a merge that fails leaves `out` as it was.
pub fn merge(out: &Path, inputs: &[String]) -> Result<(u64, u32), String> {
    if inputs.is_empty() {
        return Err("merge: no input files".into());
    }
    let mut files = Files::new();
    for i in inputs {
        files.input("input", i);
    }
    files.output("output", out);
    files.check().map_err(|e| format!("merge: {e}"))?;
    refuse_resume_point(out, "merge")?;
    // An empty output is a new file; any other must be data already.
    let existing = Existing::Check(&data_file);
    check_existing(out, &existing)?;
    let mut version: Option<(u32, String)> = None;
    let out_len = std::fs::metadata(out).map_or(0, |m| m.len());
    let mut out_chained = true;
    if out_len > 0 {
        let r = DataReader::open(out)?;
        out_chained = r.is_chained();
        version = Some((r.version(), out.display().to_string()));
    }
    // Every header is checked before anything is written.
    let mut seen: Vec<(FileId, &str)> = Vec::new();
    for i in inputs {
        let r = DataReader::open(Path::new(i))?;
        let v = r.version();
        match &version {
            Some((w, first)) if *w != v => {
                return Err(format!(
                    "merge: {i} holds records of version {v}, {first} of version {w}; \
                     merge files of one version (janggun train reads both side by side)"
                ))
            }
            Some(_) => {}
            None => version = Some((v, i.clone())),
        }
        let id = file_id(Path::new(i))?;
        if let Some((_, first)) = seen.iter().find(|(s, _)| *s == id) {
            return Err(format!("merge: {i} and {first} are the same file"));
        }
        seen.push((id, i));
    }
    let version = version.map_or(VERSION, |(v, _)| v);
    let mut aside = Aside::create(out, &existing)?;
    let tmp = aside.tmp_path().to_path_buf();
    let merged = if out_chained {
        merge_chained(aside.file(), out, out_len > 0, inputs, version).map(|n| (n, CHAIN_VERSION))
    } else {
        merge_fixed(aside.file(), &tmp, out, inputs, version).map(|n| (n, version))
    };
    match merged.and_then(|n| aside.commit().map(|_| n)) {
        Ok(n) => Ok(n),
        Err(e) => Err(format!("{e}; {} left as it was", out.display())),
    }
}

/// A merge into a chained file (new when `old` is false): its header, the
/// blocks of `out` and of each chained input, and each fixed input's
/// records as new blocks.
fn merge_chained(
    file: &mut File,
    out: &Path,
    old: bool,
    inputs: &[String],
    version: u32,
) -> Result<u64, String> {
    let io = |e: std::io::Error| format!("merge: {e}");
    file.write_all(&chain::header(version, 0)).map_err(io)?;
    let mut count = 0u64;
    let sources = old
        .then_some(out)
        .into_iter()
        .chain(inputs.iter().map(Path::new));
    for src in sources {
        let mut r = DataReader::open(src)?;
        if r.version() != version {
            return Err(format!("merge: {} changed while merging", src.display()));
        }
        if r.is_chained() {
            count += append_blocks(src, file, version)?;
            continue;
        }
        let mut w = ChainWriter::after(
            BufWriter::with_capacity(1 << 16, &mut *file),
            version,
            count,
        )?;
        while let Some(rec) = r.next_record()? {
            w.push(&rec)?;
        }
        let (mut buffered, n) = w.finish()?;
        buffered.flush().map_err(io)?;
        count = n;
    }
    file.seek(SeekFrom::Start(0)).map_err(io)?;
    file.write_all(&chain::header(version, count)).map_err(io)?;
    Ok(count)
}

/// Records a fixed-record merge reads and writes at once.
const MERGE_CHUNK: usize = 2048;

/// A merge into a fixed-record file: its bytes, then every input's
/// records in its version.
fn merge_fixed(
    file: &mut File,
    tmp: &Path,
    out: &Path,
    inputs: &[String],
    version: u32,
) -> Result<u64, String> {
    let (mut from, _) = open_regular(out)?;
    std::io::copy(&mut from, file).map_err(|e| format!("{}: {e}", tmp.display()))?;
    let mut w = RecordWriter::append(tmp, version)?;
    let size = record_size(version).unwrap_or(record::RECORD_SIZE);
    let mut chunk = Vec::with_capacity(MERGE_CHUNK * size);
    for i in inputs {
        let mut r = DataReader::open(Path::new(i))?;
        if r.version() != version {
            return Err(format!("merge: {i} changed while merging"));
        }
        loop {
            chunk.clear();
            while chunk.len() < MERGE_CHUNK * size {
                match r.next_record()? {
                    Some(rec) => chunk.extend_from_slice(&rec[..size]),
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
}

/// A chained file opened for appending a game at a time: its whole blocks
/// kept, a block cut short by a killed writer cut off, and every block
/// written whole or cut back off (a full disk).
pub struct ChainAppender {
    /// `None` only while being cut back.
    w: Option<ChainWriter<File>>,
    /// Set once a write failed: the file was cut back to its whole
    /// blocks, and only its count may still be written.
    failed: bool,
    version: u32,
    /// Records and bytes (from the header's start) at the end of each
    /// whole block, the header's end first: where the file may be cut.
    ends: Vec<(u64, u64)>,
    name: String,
}

impl ChainAppender {
    /// Opens `path` for appending chained records of `version`: a new
    /// (or empty) file gets a header; an existing one must be a chained
    /// file of that version, is read through (every block checked), and
    /// a block its writer left cut short is cut off.
    pub fn append(path: &Path, version: u32) -> Result<ChainAppender, String> {
        let name = path.display().to_string();
        let err = |e: std::io::Error| format!("{name}: {e}");
        let (mut file, len) = open_for_append(path)?;
        let mut ends = vec![(0, HEADER_SIZE as u64)];
        if len == 0 {
            if let Err(e) = file.write_all(&chain::header(version, 0)) {
                let _ = file.set_len(0);
                return Err(err(e));
            }
        } else {
            let mut h = [0u8; HEADER_SIZE];
            file.read_exact(&mut h)
                .map_err(|_| format!("{name}: too short for a data header"))?;
            if !chain::is_chained(&h) {
                let have = record::read_header(&h, &name)?;
                return Err(format!(
                    "{name} holds data format version {}, not {CHAIN_VERSION}: \
                     write version {CHAIN_VERSION} to another file",
                    have.version
                ));
            }
            let whole = {
                let input = BufReader::with_capacity(1 << 16, &file);
                let mut r = ChainReader::new(Cursor::new(h).chain(input), &name)?;
                if r.version() != version {
                    return Err(format!(
                        "{name} holds chained version-{} records, not version {version}: \
                         write them to another file",
                        r.version()
                    ));
                }
                while r.next_record()?.is_some() {
                    if r.at_block_end() {
                        ends.push((r.records_read(), r.offset()));
                    }
                }
                r.offset()
            };
            if whole < len {
                file.set_len(whole).map_err(err)?;
            }
        }
        let &(count, end) = ends.last().expect("the header's end is listed");
        file.seek(SeekFrom::Start(end)).map_err(err)?;
        Ok(ChainAppender {
            w: Some(ChainWriter::after(file, version, count)?),
            failed: false,
            version,
            ends,
            name,
        })
    }

    fn writer(&mut self) -> Result<&mut ChainWriter<File>, String> {
        let name = &self.name;
        match self.w.as_mut() {
            Some(w) if !self.failed => Ok(w),
            _ => Err(format!("{name}: a write failed before")),
        }
    }

    /// Notes the block just ended, or, when writing it failed, cuts the
    /// part written back off and stops the writer.
    fn after_write(&mut self, wrote: Result<(), String>, before: u64) -> Result<(), String> {
        let w = self.w.as_mut().expect("a writer wrote");
        let e = match wrote {
            Ok(()) if w.written() == before => return Ok(()),
            Ok(()) => match w.get_mut().stream_position() {
                Ok(at) => {
                    self.ends.push((w.written(), at));
                    return Ok(());
                }
                Err(e) => format!("{}: {e}", self.name),
            },
            Err(e) => e,
        };
        let &(count, end) = self.ends.last().expect("the header's end is listed");
        let file = w.get_mut();
        let cut = file
            .set_len(end)
            .and_then(|_| file.seek(SeekFrom::Start(end)).map(|_| ()));
        self.failed = true;
        match cut {
            Ok(()) => Err(format!(
                "{}: {e} (the file ends at its last whole block, {count} records)",
                self.name
            )),
            Err(e2) => Err(format!(
                "{}: {e}; and cutting off the part of a block written failed: {e2}",
                self.name
            )),
        }
    }

    /// Adds a record to the block being filled (written when full).
    pub fn push(&mut self, r: &Raw) -> Result<(), String> {
        let w = self.writer()?;
        let before = w.written();
        let wrote = w.push(r);
        self.after_write(wrote, before)
    }

    /// Writes the records pushed since the last block as a block.
    pub fn end_block(&mut self) -> Result<(), String> {
        let w = self.writer()?;
        let before = w.written();
        let wrote = w.end_block();
        self.after_write(wrote, before)
    }

    /// Records in the blocks written.
    pub fn count(&self) -> u64 {
        self.w.as_ref().map_or(0, |w| w.written())
    }

    /// Rewrites the header's count (to the records of the blocks written,
    /// a block a failed write cut back off not among them) and flushes.
    pub fn sync_count(&mut self) -> Result<(), String> {
        let name = &self.name;
        self.w
            .as_mut()
            .ok_or_else(|| format!("{name}: a write failed before"))?
            .sync_count()
            .map_err(|e| format!("{name}: {e}"))
    }

    /// Cuts the file back to its first `records` records, which must end
    /// a block; records pushed and not yet written are dropped.
    pub fn truncate(&mut self, records: u64) -> Result<(), String> {
        let Some(&(_, end)) = self.ends.iter().find(|e| e.0 == records) else {
            return Err(format!(
                "{}: cannot cut {} records back to {records}: no block ends there",
                self.name,
                self.count()
            ));
        };
        self.writer()?;
        let w = self.w.take().expect("writer() checked it");
        let mut file = w.into_inner();
        let err = |e: std::io::Error| format!("{}: {e}", self.name);
        // The count first: stopped in between, the file holds more records
        // than it counts (a file being written), never fewer (damaged).
        file.seek(SeekFrom::Start(16)).map_err(err)?;
        file.write_all(&records.to_le_bytes()).map_err(err)?;
        file.set_len(end).map_err(err)?;
        file.seek(SeekFrom::Start(end)).map_err(err)?;
        self.ends.retain(|e| e.0 <= records);
        self.w = Some(ChainWriter::after(file, self.version, records)?);
        Ok(())
    }

    /// Rewrites the count and waits until the file is on disk.
    pub fn finish(mut self) -> Result<u64, String> {
        self.sync_count()?;
        let count = self.count();
        let name = self.name.clone();
        let w = self.w.take().expect("sync_count checked the writer");
        w.into_inner()
            .sync_all()
            .map_err(|e| format!("{name}: {e}"))?;
        Ok(count)
    }
}

/// Datagen's output, of any format it writes.
pub enum DataWriter {
    Fixed(RecordWriter),
    /// Boxed: a block's encoder is large.
    Chained(Box<ChainAppender>),
}

impl DataWriter {
    /// Opens `path` for appending records as format `format` (1 or 2:
    /// fixed records; 3: chained version-2 records). An existing file must
    /// be of that format.
    pub fn append(path: &Path, format: u32) -> Result<DataWriter, String> {
        let version =
            records_version(format).ok_or_else(|| format!("data format version {format}"))?;
        // An existing file of the other kind is named as such (the fixed
        // writer would call a chained file an unknown version).
        if std::fs::metadata(path).is_ok_and(|m| m.len() > 0) {
            let (_, _, h) = open_header(path)?;
            if chain::is_chained(&h) != (format == CHAIN_VERSION) {
                let have = if chain::is_chained(&h) {
                    CHAIN_VERSION
                } else {
                    record::read_header(&h, &path.display().to_string())?.version
                };
                return Err(format!(
                    "{} holds data format version {have}, not {format}: write version \
                     {format} to another file (or resume it with --format {have})",
                    path.display()
                ));
            }
        }
        if format == CHAIN_VERSION {
            ChainAppender::append(path, version).map(|w| DataWriter::Chained(Box::new(w)))
        } else {
            RecordWriter::append(path, version).map(DataWriter::Fixed)
        }
    }

    /// Adds a record: written at once as a fixed record, or into the
    /// chained block being filled.
    pub fn write(&mut self, r: &Raw) -> Result<(), String> {
        match self {
            DataWriter::Fixed(w) => w.write(r),
            DataWriter::Chained(w) => w.push(r),
        }
    }

    /// A game's records are all written: a chained block ends with them.
    pub fn end_game(&mut self) -> Result<(), String> {
        match self {
            DataWriter::Fixed(_) => Ok(()),
            DataWriter::Chained(w) => w.end_block(),
        }
    }

    /// Records in the file (a chained one's whole blocks).
    pub fn count(&self) -> u64 {
        match self {
            DataWriter::Fixed(w) => w.count(),
            DataWriter::Chained(w) => w.count(),
        }
    }

    pub fn sync_count(&mut self) -> Result<(), String> {
        match self {
            DataWriter::Fixed(w) => w.sync_count(),
            DataWriter::Chained(w) => w.sync_count(),
        }
    }

    /// Cuts the file back to its first `records` records (for a chained
    /// file, the end of a block).
    pub fn truncate(&mut self, records: u64) -> Result<(), String> {
        match self {
            DataWriter::Fixed(w) => w.truncate(records),
            DataWriter::Chained(w) => w.truncate(records),
        }
    }

    /// Rewrites the count and waits until the file is on disk.
    pub fn finish(self) -> Result<u64, String> {
        match self {
            DataWriter::Fixed(w) => w.finish(),
            DataWriter::Chained(w) => w.finish(),
        }
    }
}
