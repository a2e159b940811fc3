//! Chained training data (format version 3): the records of a version-2
//! or version-1 data file (`crate::train::record`) kept as games, a start
//! position and then one short entry a position, and expanded back to the
//! very same bytes in the same order.
//!
//! Self-play writes every searched position of a game in order, and each
//! is the one before it with that one's best move made: the position, the
//! side to move, the ply, the move-limit clock, the result and most flags
//! follow from the previous record, leaving per position the best move
//! (its place among the legal moves, one byte), the score (a varint of
//! its difference from the negated previous score, mostly one byte) and
//! a tag byte (how the record follows and which flags differ from what
//! the codec derives). Version-1 files kept only some positions of each
//! game, so a record there follows by a short run of moves that the
//! encoder finds, or by the points that changed.
//!
//! Nothing is trusted to derivation: the encoder compares what the
//! decoder will derive with the stored bytes field by field and stores
//! whatever differs, decodes every block it writes and checks the result
//! against its input, and each block carries a hash of the records it
//! expands to, so a decoder whose rules or move order drifted refuses the
//! block rather than returning other bytes. Records that do not decode
//! (bad codes, stray bits) are kept verbatim.
//!
//! File: a 32-byte header, then blocks, each decodable alone (so files
//! concatenate block for block):
//!
//! | header bytes | content |
//! |---|---|
//! | 0..8 | `JGNNDATA` (the fixed-record formats' magic) |
//! | 8..12 | format version, u32: 3 (older readers refuse it by name) |
//! | 12..16 | the version of the records it expands to, u32: 2 or 1 |
//! | 16..24 | positions, u64 |
//! | 24..32 | zero |
//!
//! Block: varint `n` (records, 1 to [`MAX_BLOCK`]), varints of the sizes
//! of the move, score and extra streams, a u32 check (the low half of the
//! FNV-1a 64 of the `n` expanded records), then the streams: `n` tags, the
//! moves, the scores, the extras. The streams are apart so that xz finds
//! tags next to tags and moves next to moves. See `docs/FORMATS.md` for
//! the entries.

use super::record::{
    record_size, Flags, Meta, Raw, Sample, DECIDED_SCORE, HEADER_SIZE, MAGIC, RECORD_SIZE, VERSION,
    VERSION_V1,
};
use crate::board::{legal_moves, Color, Move, MoveList, Piece, PieceKind, Position, Square};
use crate::board::{NUM_KINDS, NUM_PIECES, NUM_SQUARES};
use crate::util::file::open_regular;
use crate::util::hash::fnv1a64;
use std::fs::File;
use std::io::{BufReader, ErrorKind, Read, Seek, SeekFrom, Write};
use std::path::Path;

/// The format version of a chained file.
pub const CHAIN_VERSION: u32 = 3;
/// Most records a block holds: what a decoder keeps in memory at once.
pub const MAX_BLOCK: usize = 4096;
/// Most plies a path entry spans (version-1 files skipped positions).
const MAX_PATH: usize = 8;
/// Most points a delta entry changes before a full record is cheaper
/// (1 + 2 bytes a point against 32 or 40).
const MAX_DELTA: usize = 15;
/// Nodes the encoder's path search may visit for one record.
const PATH_BUDGET: u32 = 20000;
/// Most bytes of stream a record may take: a delta of every point, an
/// escaped move and explicit fields.
const MAX_EXTRA_PER_RECORD: usize = 1 + 2 * NUM_SQUARES + 2 + 5;

/// Entry kinds, the tag's low two bits.
const STEP: u8 = 0;
const PATH: u8 = 1;
const DELTA: u8 = 2;
const FULL: u8 = 3;
/// Tag bit: ply, clock and result stored, not derived.
const EXPLICIT: u8 = 0x80;
/// Move codes below this are places in the sorted legal moves.
const NO_MOVE: u8 = 254;
const RAW_MOVE: u8 = 255;
/// The delta code of an empty point.
const EMPTY: u8 = NUM_PIECES as u8;

/// Most pieces of a kind one side has in a game (Janggi has no
/// promotion): a record with more is kept, but never played from, so no
/// hostile record reaches the move generator with more moves than a game.
const MOST_OF_KIND: [u8; NUM_KINDS] = [1, 2, 2, 2, 2, 2, 5];

/// Whether `header` (a file's first bytes) is a chained file's, whatever
/// its other fields say; [`read_header`] checks them.
pub fn is_chained(header: &[u8]) -> bool {
    header.len() >= 12 && &header[0..8] == MAGIC && header[8..12] == CHAIN_VERSION.to_le_bytes()
}

/// What a valid chained header says.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ChainHeader {
    /// The version of the records it expands to (1 or 2).
    pub version: u32,
    /// Positions it holds.
    pub count: u64,
}

/// The header of a chained file of `count` records of `version`.
pub fn header(version: u32, count: u64) -> [u8; HEADER_SIZE] {
    let mut h = [0u8; HEADER_SIZE];
    h[0..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&CHAIN_VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&version.to_le_bytes());
    h[16..24].copy_from_slice(&count.to_le_bytes());
    h
}

/// Checks a chained header: magic, version 3, the records' version, the
/// zero bytes.
pub fn read_header(h: &[u8], name: &str) -> Result<ChainHeader, String> {
    if h.len() < HEADER_SIZE {
        return Err(format!("{name}: too short for a data header"));
    }
    if !is_chained(h) {
        return Err(format!("{name}: not a chained Janggun data file"));
    }
    let version = u32::from_le_bytes([h[12], h[13], h[14], h[15]]);
    if record_size(version).is_none() {
        return Err(format!(
            "{name}: chained records of version {version}, this build reads {VERSION_V1} and {VERSION}"
        ));
    }
    if h[24..32].iter().any(|&b| b != 0) {
        return Err(format!("{name}: header bytes 24..32 are not zero"));
    }
    let mut c = [0u8; 8];
    c.copy_from_slice(&h[16..24]);
    Ok(ChainHeader {
        version,
        count: u64::from_le_bytes(c),
    })
}

/// Writes `records` of `version` (1 or 2; a version-1 record is bytes
/// 0..32 of a [`Raw`], the rest zero) as a chained file to `out`, from its
/// current place; returns how many. Every block is decoded again and
/// checked before it is written.
pub fn encode<W: Write + Seek>(
    records: impl IntoIterator<Item = Raw>,
    version: u32,
    out: &mut W,
) -> Result<u64, String> {
    let mut w = ChainWriter::new(out, version)?;
    for r in records {
        w.push(&r)?;
    }
    w.finish().map(|(_, n)| n)
}

/// Writes a chained file record by record. A block ends when it holds
/// [`MAX_BLOCK`] records or when [`ChainWriter::end_block`] says so: a
/// writer of whole games may end one after each game (or every few), so
/// that a file cut short loses no finished game; longer blocks compress
/// a little better.
pub struct ChainWriter<W: Write + Seek> {
    out: W,
    version: u32,
    size: usize,
    /// Where the header starts, for the count.
    start: u64,
    /// Records in finished blocks.
    written: u64,
    block: BlockEncoder,
}

impl<W: Write + Seek> ChainWriter<W> {
    /// Writes a header (count 0 until [`ChainWriter::finish`]) at `out`'s
    /// current place.
    pub fn new(mut out: W, version: u32) -> Result<ChainWriter<W>, String> {
        let size = record_size(version).ok_or_else(|| format!("data format version {version}"))?;
        let start = out.stream_position().map_err(io_err)?;
        out.write_all(&header(version, 0)).map_err(io_err)?;
        Ok(ChainWriter {
            out,
            version,
            size,
            start,
            written: 0,
            block: BlockEncoder::new(version),
        })
    }

    /// Goes on writing a chained file of `version` whose header is at byte
    /// 0 and whose first `count` records, in whole blocks, end at `out`'s
    /// current place (a resumed writer: [`ChainReader::offset`] says where
    /// the whole blocks end).
    pub fn after(out: W, version: u32, count: u64) -> Result<ChainWriter<W>, String> {
        let size = record_size(version).ok_or_else(|| format!("data format version {version}"))?;
        Ok(ChainWriter {
            out,
            version,
            size,
            start: 0,
            written: count,
            block: BlockEncoder::new(version),
        })
    }

    /// Adds a record (of the writer's version: a version-1 record's bytes
    /// 32..40 must be zero).
    pub fn push(&mut self, r: &Raw) -> Result<(), String> {
        if r[self.size..].iter().any(|&b| b != 0) {
            return Err(format!(
                "a version-{} record with bytes past {}",
                self.version, self.size
            ));
        }
        if !self.block.push(r) {
            self.end_block()?;
            if !self.block.push(r) {
                return Err("chained data: an empty block refused a record".into());
            }
        }
        Ok(())
    }

    /// Writes the records pushed since the last block as a block.
    pub fn end_block(&mut self) -> Result<(), String> {
        if self.block.raws.is_empty() {
            return Ok(());
        }
        let bytes = self.block.finish()?;
        self.out.write_all(&bytes).map_err(io_err)?;
        self.written += self.block.raws.len() as u64;
        self.block = BlockEncoder::new(self.version);
        Ok(())
    }

    /// Rewrites the header's count to the records of the blocks written
    /// so far (a writer that runs for hours does it now and then, so that
    /// the file read as it stands is whole).
    pub fn sync_count(&mut self) -> Result<(), String> {
        let end = self.out.stream_position().map_err(io_err)?;
        self.out
            .seek(SeekFrom::Start(self.start + 16))
            .map_err(io_err)?;
        self.out
            .write_all(&self.written.to_le_bytes())
            .map_err(io_err)?;
        self.out.seek(SeekFrom::Start(end)).map_err(io_err)?;
        self.out.flush().map_err(io_err)
    }

    /// Records pushed so far.
    pub fn count(&self) -> u64 {
        self.written + self.block.raws.len() as u64
    }

    /// Records of the blocks written so far (without the block being
    /// filled).
    pub fn written(&self) -> u64 {
        self.written
    }

    /// The output, to cut a block that failed halfway back off (a full
    /// disk): the writer is not to be used after such a failure.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// The output as it stands: records pushed since the last block are
    /// dropped, and the header's count is left as last written.
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Writes the last block and the header's count; returns the output
    /// (at its end) and the count.
    pub fn finish(mut self) -> Result<(W, u64), String> {
        self.end_block()?;
        self.sync_count()?;
        Ok((self.out, self.written))
    }
}

fn io_err(e: std::io::Error) -> String {
    format!("chained data: {e}")
}

/// Reads a chained file's records back, a block at a time (at most
/// [`MAX_BLOCK`] records in memory). Every length, index and code read is
/// checked: bad bytes are an error, never a panic or a large allocation.
pub struct ChainReader<R: Read> {
    input: R,
    header: ChainHeader,
    name: String,
    /// The current block's records, yielded from `next`.
    block: Vec<Raw>,
    next: usize,
    /// Records yielded, and bytes read (for messages).
    read: u64,
    consumed: u64,
    /// `consumed` after the last block that decoded.
    whole: u64,
    /// Bytes of a last block the file ends inside (being written).
    tail: u64,
    done: bool,
}

impl ChainReader<BufReader<File>> {
    /// Opens a chained file (a regular file) and checks its header.
    pub fn open(path: &Path) -> Result<ChainReader<BufReader<File>>, String> {
        let (file, _) = open_regular(path)?;
        ChainReader::new(
            BufReader::with_capacity(1 << 16, file),
            &path.display().to_string(),
        )
    }
}

impl<R: Read> ChainReader<R> {
    /// Reads and checks the header from `input` (buffered: the reader
    /// reads a byte at a time between blocks); `name` is for messages.
    pub fn new(mut input: R, name: &str) -> Result<ChainReader<R>, String> {
        let mut h = [0u8; HEADER_SIZE];
        input
            .read_exact(&mut h)
            .map_err(|_| format!("{name}: too short for a data header"))?;
        let header = read_header(&h, name)?;
        Ok(ChainReader {
            input,
            header,
            name: name.to_string(),
            block: Vec::new(),
            next: 0,
            read: 0,
            consumed: HEADER_SIZE as u64,
            whole: HEADER_SIZE as u64,
            tail: 0,
            done: false,
        })
    }

    /// The version of the records it yields (1 or 2).
    pub fn version(&self) -> u32 {
        self.header.version
    }

    /// The positions the header says the file holds.
    pub fn positions(&self) -> u64 {
        self.header.count
    }

    /// Bytes from the header's start to the end of the last block read
    /// whole: where a resumed writer cuts a file whose last block was cut
    /// short.
    pub fn offset(&self) -> u64 {
        self.whole
    }

    /// Records yielded so far.
    pub fn records_read(&self) -> u64 {
        self.read
    }

    /// Whether every record of the blocks read so far has been yielded:
    /// the records read end a block (or none were read).
    pub fn at_block_end(&self) -> bool {
        self.next == self.block.len()
    }

    /// Bytes of a last block that the file ends inside of, left unread
    /// (known once the last record has been read; 0 for none).
    pub fn tail(&self) -> u64 {
        self.tail
    }

    /// The next record (a version-1 one zero-padded), `None` after the
    /// last. The records of the file's whole blocks are read, and must be
    /// at least as many as the header counts, as in the fixed-record
    /// formats: more is a file being written (its writer counts now and
    /// then), whose last block may not be whole yet (it is left unread,
    /// [`ChainReader::tail`]); fewer is a file cut short or damaged, an
    /// error.
    pub fn next_record(&mut self) -> Result<Option<Raw>, String> {
        if self.next == self.block.len() {
            if self.done {
                return Ok(None);
            }
            let mut counted = Counted {
                inner: &mut self.input,
                n: 0,
            };
            let block = read_block(&mut counted, self.header.version);
            let at = self.consumed;
            self.consumed += counted.n;
            match block {
                Ok(Some(b)) => {
                    self.block = b;
                    self.next = 0;
                    self.whole = self.consumed;
                }
                Ok(None) => {
                    self.done = true;
                    self.block.clear();
                    self.next = 0;
                    if self.read < self.header.count {
                        return Err(cut_short(&self.name, self.header.count, self.read));
                    }
                    return Ok(None);
                }
                Err(e) if e == ENDS_INSIDE && self.read >= self.header.count => {
                    // A block being written (the count says nothing of it).
                    self.done = true;
                    self.block.clear();
                    self.next = 0;
                    self.tail = self.consumed - self.whole;
                    return Ok(None);
                }
                Err(e) => {
                    self.done = true;
                    self.block.clear();
                    self.next = 0;
                    return Err(format!(
                        "{}: block at byte {at}, after {} positions: {e}",
                        self.name, self.read
                    ));
                }
            }
        }
        let r = self.block[self.next];
        self.next += 1;
        self.read += 1;
        Ok(Some(r))
    }
}

impl<R: Read> Iterator for ChainReader<R> {
    type Item = Result<Raw, String>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_record().transpose()
    }
}

/// A reader that counts the bytes it gives.
struct Counted<'a, R: Read> {
    inner: &'a mut R,
    n: u64,
}

impl<R: Read> Read for Counted<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let k = self.inner.read(buf)?;
        self.n += k as u64;
        Ok(k)
    }
}

/// A board as piece codes a point, [`EMPTY`] for none.
type Board = [u8; NUM_SQUARES];

fn board_of(sample: &Sample) -> Board {
    let mut b = [EMPTY; NUM_SQUARES];
    for &(p, sq) in &sample.pieces {
        b[sq.index()] = p.index() as u8;
    }
    b
}

fn board_of_position(pos: &Position) -> Board {
    let mut b = [EMPTY; NUM_SQUARES];
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            b[sq.index()] = p.index() as u8;
        }
    }
    b
}

fn piece_of(code: u8) -> Piece {
    let c = code as usize;
    let color = if c < NUM_KINDS {
        Color::Cho
    } else {
        Color::Han
    };
    Piece::new(color, PieceKind::ALL[c % NUM_KINDS])
}

/// The pieces of a board, in increasing point order (as a record holds
/// them).
fn pieces_of(b: &Board) -> Vec<(Piece, Square)> {
    (0..NUM_SQUARES)
        .filter(|&i| b[i] != EMPTY)
        .map(|i| (piece_of(b[i]), Square::new(i as u8)))
        .collect()
}

/// The legal moves of a position in the codec's order: captures first,
/// of the most valuable piece first (a search's best move is often one,
/// and a skewed place compresses better), then by the move's encoding.
/// Not the generator's order, so that a change there leaves stored places
/// meaning the same moves.
fn sorted_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    list.as_mut_slice().sort_unstable_by_key(|&m| {
        let victim = match pos.piece_at(m.to()) {
            Some(p) if !m.is_pass() => exchange::VALUE[p.kind().index()],
            _ => 0,
        };
        (std::cmp::Reverse(victim), m.raw())
    });
    list
}

/// The position of a record, when it is one a game can reach and so one
/// the move generator may be given: [`Sample::to_position`]'s checks and
/// no more pieces of a kind than a side starts with.
fn playable(sample: &Sample) -> Option<Position> {
    let mut n = [0u8; NUM_PIECES];
    for &(p, _) in &sample.pieces {
        n[p.index()] += 1;
        if n[p.index()] > MOST_OF_KIND[p.index() % NUM_KINDS] {
            return None;
        }
    }
    // Each side's general, before the position is set up around them.
    let general = |c: Color| Piece::new(c, PieceKind::General).index();
    if n[general(Color::Cho)] != 1 || n[general(Color::Han)] != 1 {
        return None;
    }
    sample.to_position().ok()
}

/// A record the codec can rebuild from its fields: what the next record
/// is derived from.
#[derive(Clone)]
struct Known {
    raw: Raw,
    board: Board,
    sample: Sample,
    /// Zero for version 1.
    meta: Meta,
    pos: Option<Position>,
    /// The best move's place among `pos`'s sorted legal moves.
    best_index: Option<usize>,
}

impl Known {
    /// A record's fields, when re-encoding them gives back its bytes; the
    /// same function on both sides, so both agree on which records
    /// anything may follow.
    fn of_raw(raw: &Raw, version: u32) -> Option<Known> {
        let sample = Sample::decode(raw).ok()?;
        let meta = if version == VERSION {
            Meta::decode(raw).ok()?
        } else {
            Meta::default()
        };
        if sample.encode_with(&meta)? != *raw {
            return None;
        }
        let pos = playable(&sample);
        let moves = match (&pos, meta.best) {
            (Some(p), Some(_)) => Some(sorted_moves(p)),
            _ => None,
        };
        Some(Known::new(*raw, sample, meta, pos, moves.as_ref()))
    }

    fn new(
        raw: Raw,
        sample: Sample,
        meta: Meta,
        pos: Option<Position>,
        moves: Option<&MoveList>,
    ) -> Known {
        let best_index = match (moves, meta.best) {
            (Some(list), Some(b)) => list.as_slice().iter().position(|&m| m == b),
            _ => None,
        };
        Known {
            raw,
            board: board_of(&sample),
            sample,
            meta,
            pos,
            best_index,
        }
    }
}

impl Known {
    /// The position and its best move, when the move is legal there.
    fn legal_best(&self) -> Option<(&Position, Move)> {
        match (&self.pos, self.meta.best, self.best_index) {
            (Some(pos), Some(m), Some(_)) => Some((pos, m)),
            _ => None,
        }
    }
}

/// How a record follows the one before it.
enum Link {
    /// The previous record's best move.
    Step,
    /// These moves (places among each position's sorted legal moves).
    Path(Vec<u8>),
    /// These points (index, code) changed.
    Delta(Vec<(u8, u8)>),
    /// Not at all: the record is stored whole.
    Full,
}

/// What a record's fields are expected to be from the previous one, once
/// its position is known: `plies` played between them, the move-limit
/// clock after them.
struct Expected {
    result: u8,
    ply: u16,
    halfmove: u16,
    score: i16,
}

fn expected(prev: &Known, stm: Color, plies: u16, halfmove: u16, version: u32) -> Expected {
    let flips = plies % 2 == 1;
    let (ply, halfmove) = if version == VERSION {
        (prev.meta.ply.wrapping_add(plies), halfmove)
    } else {
        (0, 0)
    };
    Expected {
        result: if flips {
            2u8.saturating_sub(prev.sample.result)
        } else {
            prev.sample.result
        },
        ply,
        halfmove,
        score: if stm != prev.sample.stm {
            prev.sample.score.wrapping_neg()
        } else {
            prev.sample.score
        },
    }
}

/// The plies a delta entry stands for: one when the side to move changed,
/// else two.
fn delta_plies(prev: &Known, stm: Color) -> u16 {
    if stm != prev.sample.stm {
        1
    } else {
        2
    }
}

/// The flags a version-2 record is expected to have: in check from its
/// position, a capture from its best move, decided from its score, a
/// winning capture from the codec's own exchange test, the adjudication
/// from the previous record. The tag stores what differs.
fn expected_flags(
    prev: &Known,
    pos: Option<&Position>,
    board: &Board,
    best: Option<Move>,
    score: i16,
) -> u8 {
    let mut f = Flags::default();
    f.set(Flags::IN_CHECK, pos.is_some_and(|p| p.in_check()));
    f.set(
        Flags::CAPTURE,
        best.is_some_and(|m| !m.is_pass() && board[m.to().index()] != EMPTY),
    );
    let s = (score as i32).abs();
    f.set(
        Flags::DECIDED,
        (DECIDED_SCORE as i32 - 1000..=DECIDED_SCORE as i32).contains(&s),
    );
    f.set(
        Flags::WINNING_CAPTURE,
        pos.is_some_and(exchange::winning_capture),
    );
    f.set(Flags::ADJUDICATED, prev.meta.flags.has(Flags::ADJUDICATED));
    f.0
}

fn zigzag(d: i16) -> u16 {
    ((d << 1) ^ (d >> 15)) as u16
}

fn unzigzag(z: u16) -> i16 {
    ((z >> 1) as i16) ^ -((z & 1) as i16)
}

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// The streams of a block as they are written.
#[derive(Default)]
struct Streams {
    tags: Vec<u8>,
    moves: Vec<u8>,
    scores: Vec<u8>,
    extra: Vec<u8>,
}

/// One block being encoded.
struct BlockEncoder {
    version: u32,
    size: usize,
    raws: Vec<Raw>,
    s: Streams,
    /// The last record, when anything may follow it.
    prev: Option<Known>,
}

impl BlockEncoder {
    fn new(version: u32) -> BlockEncoder {
        BlockEncoder {
            version,
            size: record_size(version).unwrap_or(RECORD_SIZE),
            raws: Vec::new(),
            s: Streams::default(),
            prev: None,
        }
    }

    /// Adds a record; false (nothing added) when the block is full.
    fn push(&mut self, raw: &Raw) -> bool {
        if self.raws.len() >= MAX_BLOCK {
            return false;
        }
        let known = Known::of_raw(raw, self.version);
        let link = match (&self.prev, &known) {
            (Some(p), Some(k)) => self.link(p, k),
            _ => Link::Full,
        };
        match (link, known) {
            (Link::Full, known) => {
                self.s.tags.push(FULL);
                self.s.extra.extend_from_slice(&raw[..self.size]);
                self.prev = known;
            }
            (link, Some(k)) => {
                let prev = self.prev.take().expect("linked records have one before");
                self.entry(&prev, &k, link);
                self.prev = Some(k);
            }
            (_, None) => unreachable!("only known records link"),
        }
        self.raws.push(*raw);
        true
    }

    /// How `k` follows `p`, the cheapest way that reproduces its board
    /// and side to move.
    fn link(&self, p: &Known, k: &Known) -> Link {
        if let Some((pos, m)) = p.legal_best() {
            let mut q = pos.clone();
            q.make(m);
            if q.side_to_move() == k.sample.stm && board_of_position(&q) == k.board {
                return Link::Step;
            }
        }
        let changed: Vec<usize> = (0..NUM_SQUARES)
            .filter(|&i| p.board[i] != k.board[i])
            .collect();
        if let Some(pos) = &p.pos {
            if changed.len() <= 2 * MAX_PATH {
                if let Some(path) = find_path(pos, &k.board, k.sample.stm, &changed) {
                    return Link::Path(path);
                }
            }
        }
        if changed.len() <= MAX_DELTA {
            return Link::Delta(changed.iter().map(|&i| (i as u8, k.board[i])).collect());
        }
        Link::Full
    }

    /// Writes the entry of `k` after `p`, in the order the decoder reads.
    fn entry(&mut self, p: &Known, k: &Known, link: Link) {
        let mut path_bits = 0;
        let (kind, plies, halfmove) = match &link {
            Link::Step => {
                let best = p.meta.best.expect("a step follows a best move");
                let capture = !best.is_pass() && p.board[best.to().index()] != EMPTY;
                let h = if capture {
                    0
                } else {
                    p.meta.halfmove.wrapping_add(1)
                };
                (STEP, 1, h)
            }
            Link::Path(path) => {
                if self.version == VERSION {
                    self.s.moves.push(path.len() as u8);
                } else {
                    path_bits = (path.len() as u8 - 1) << 2;
                }
                self.s.moves.extend_from_slice(path);
                let pos = p.pos.as_ref().expect("a path starts from a position");
                let (_, h) = replay(pos, path, p.meta.halfmove).expect("a found path replays");
                (PATH, path.len() as u16, h)
            }
            Link::Delta(changes) => {
                self.s
                    .extra
                    .push(changes.len() as u8 | (k.sample.stm.index() as u8) << 7);
                for &(sq, code) in changes {
                    self.s.extra.push(sq);
                    self.s.extra.push(code);
                }
                let plies = delta_plies(p, k.sample.stm);
                (DELTA, plies, p.meta.halfmove.wrapping_add(plies))
            }
            Link::Full => unreachable!("a full record has no entry"),
        };
        let e = expected(p, k.sample.stm, plies, halfmove, self.version);
        put_varint(
            &mut self.s.scores,
            zigzag(k.sample.score.wrapping_sub(e.score)) as u64,
        );
        let mut tag = kind | path_bits;
        if self.version == VERSION {
            match (k.meta.best, k.best_index) {
                (None, _) => self.s.moves.push(NO_MOVE),
                (Some(_), Some(i)) if i < NO_MOVE as usize => self.s.moves.push(i as u8),
                (Some(m), _) => {
                    self.s.moves.push(RAW_MOVE);
                    self.s.extra.extend_from_slice(&m.raw().to_le_bytes());
                }
            }
            if (k.sample.result, k.meta.ply, k.meta.halfmove) != (e.result, e.ply, e.halfmove) {
                tag |= EXPLICIT;
                self.s.extra.extend_from_slice(&k.meta.ply.to_le_bytes());
                self.s
                    .extra
                    .extend_from_slice(&k.meta.halfmove.to_le_bytes());
                self.s.extra.push(k.sample.result);
            }
            let f = expected_flags(p, k.pos.as_ref(), &k.board, k.meta.best, k.sample.score);
            tag |= (f ^ k.meta.flags.0) << 2;
        } else if k.sample.result != e.result {
            tag |= EXPLICIT;
            self.s.extra.push(k.sample.result);
        }
        self.s.tags.push(tag);
    }

    /// The block's bytes, checked by decoding them; a block that does not
    /// decode to its records (a codec bug) is written as full records.
    fn finish(&self) -> Result<Vec<u8>, String> {
        let bytes = assemble(&self.s, &self.raws, self.size);
        if decode_bytes(&bytes, self.version).as_ref() == Ok(&self.raws) {
            return Ok(bytes);
        }
        let mut s = Streams::default();
        for r in &self.raws {
            s.tags.push(FULL);
            s.extra.extend_from_slice(&r[..self.size]);
        }
        let bytes = assemble(&s, &self.raws, self.size);
        match decode_bytes(&bytes, self.version) {
            Ok(back) if back == self.raws => Ok(bytes),
            Ok(_) => Err("chained data: a block of full records decodes to other bytes".into()),
            Err(e) => Err(format!("chained data: a block of full records: {e}")),
        }
    }
}

fn decode_bytes(bytes: &[u8], version: u32) -> Result<Vec<Raw>, String> {
    let mut r = bytes;
    let b = read_block(&mut r, version)?.ok_or("an empty block")?;
    if !r.is_empty() {
        return Err("bytes after the block".into());
    }
    Ok(b)
}

/// The low half of the FNV-1a 64 of the records' stored bytes.
fn check_of(raws: &[Raw], size: usize) -> u32 {
    let mut all = Vec::with_capacity(raws.len() * size);
    for r in raws {
        all.extend_from_slice(&r[..size]);
    }
    fnv1a64(&all) as u32
}

fn assemble(s: &Streams, raws: &[Raw], size: usize) -> Vec<u8> {
    let mut out =
        Vec::with_capacity(24 + s.tags.len() + s.moves.len() + s.scores.len() + s.extra.len());
    put_varint(&mut out, raws.len() as u64);
    put_varint(&mut out, s.moves.len() as u64);
    put_varint(&mut out, s.scores.len() as u64);
    put_varint(&mut out, s.extra.len() as u64);
    out.extend_from_slice(&check_of(raws, size).to_le_bytes());
    out.extend_from_slice(&s.tags);
    out.extend_from_slice(&s.moves);
    out.extend_from_slice(&s.scores);
    out.extend_from_slice(&s.extra);
    out
}

/// Plays `path` (places among sorted legal moves) from `start`: the
/// position reached and the move-limit clock after it, `None` when a
/// place is past the moves there.
fn replay(start: &Position, path: &[u8], mut halfmove: u16) -> Option<(Position, u16)> {
    let mut pos = start.clone();
    for &i in path {
        let list = sorted_moves(&pos);
        let m = *list.as_slice().get(i as usize)?;
        let capture = !m.is_pass() && pos.piece_at(m.to()).is_some();
        halfmove = if capture { 0 } else { halfmove.wrapping_add(1) };
        pos.make(m);
    }
    Some((pos, halfmove))
}

/// A short run of legal moves (at most [`MAX_PATH`]) from `start` to
/// `target`'s board with `stm` to move, as places among sorted legal
/// moves: the encoder's search, bounded by [`PATH_BUDGET`] nodes. First
/// only moves between points that changed (and passes), shortest first;
/// then moves from or to such a point, for a piece that moved twice
/// (its middle point is the same at both ends).
fn find_path(start: &Position, target: &Board, stm: Color, changed: &[usize]) -> Option<Vec<u8>> {
    let mut inside = [false; NUM_SQUARES];
    for &i in changed {
        inside[i] = true;
    }
    let mut search = PathSearch {
        target,
        stm,
        inside,
        loose: false,
        budget: PATH_BUDGET,
        path: Vec::new(),
    };
    let mut pos = start.clone();
    for loose in [false, true] {
        search.loose = loose;
        for depth in 1..=MAX_PATH {
            if search.run(&mut pos, depth) {
                return Some(search.path);
            }
            if search.budget == 0 {
                return None;
            }
        }
    }
    None
}

struct PathSearch<'a> {
    target: &'a Board,
    stm: Color,
    /// The points that differ between the two records.
    inside: [bool; NUM_SQUARES],
    /// Whether a move needs only one end inside.
    loose: bool,
    budget: u32,
    path: Vec<u8>,
}

impl PathSearch<'_> {
    fn run(&mut self, pos: &mut Position, left: usize) -> bool {
        if left == 0 {
            return pos.side_to_move() == self.stm && board_of_position(pos) == *self.target;
        }
        // Each move changes at most two points.
        let wrong = Square::all()
            .filter(|&sq| {
                pos.piece_at(sq).map_or(EMPTY, |p| p.index() as u8) != self.target[sq.index()]
            })
            .count();
        if wrong > 2 * left {
            return false;
        }
        let list = sorted_moves(pos);
        for (i, &m) in list.as_slice().iter().enumerate() {
            let (from, to) = (self.inside[m.from().index()], self.inside[m.to().index()]);
            let wanted = if self.loose { from || to } else { from && to };
            if !m.is_pass() && !wanted {
                continue;
            }
            if self.budget == 0 || i > u8::MAX as usize {
                return false;
            }
            self.budget -= 1;
            pos.make(m);
            self.path.push(i as u8);
            let found = self.run(pos, left - 1);
            pos.unmake();
            if found {
                return true;
            }
            self.path.pop();
        }
        false
    }
}

/// A stream being read: every read checked against its end.
struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
    what: &'static str,
}

impl<'a> Cursor<'a> {
    fn new(bytes: &'a [u8], what: &'static str) -> Cursor<'a> {
        Cursor { bytes, at: 0, what }
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        match self.bytes.get(self.at..self.at + n) {
            Some(s) => {
                self.at += n;
                Ok(s)
            }
            None => Err(format!("the {} stream ends early", self.what)),
        }
    }

    fn byte(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    fn u16(&mut self) -> Result<u16, String> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    /// A varint of at most 16 bits.
    fn varint16(&mut self) -> Result<u16, String> {
        let mut v: u32 = 0;
        for shift in [0, 7, 14] {
            let b = self.byte()?;
            v |= ((b & 0x7f) as u32) << shift;
            if b & 0x80 == 0 {
                return u16::try_from(v)
                    .map_err(|_| format!("a {} varint past 16 bits", self.what));
            }
        }
        Err(format!("a {} varint past 16 bits", self.what))
    }

    fn finish(&self) -> Result<(), String> {
        if self.at != self.bytes.len() {
            return Err(format!(
                "{} bytes left in the {} stream",
                self.bytes.len() - self.at,
                self.what
            ));
        }
        Ok(())
    }
}

/// A file whose header counts more records than its blocks hold, in the
/// fixed-record formats' words.
fn cut_short(name: &str, count: u64, held: u64) -> String {
    format!(
        "{name}: the header counts {count} records but the file holds {held}: it was cut \
         short or damaged"
    )
}

/// What a block cut short by the end of the file reads as.
const ENDS_INSIDE: &str = "the file ends inside a block";

/// A varint (at most 32 bits) read from `input`; `None` at a clean end
/// of the input when `first` (before a block).
fn read_varint(input: &mut impl Read, first: bool) -> Result<Option<u32>, String> {
    let mut v: u64 = 0;
    for i in 0..5 {
        let mut b = [0u8; 1];
        loop {
            match input.read(&mut b) {
                Ok(0) if first && i == 0 => return Ok(None),
                Ok(0) => return Err(ENDS_INSIDE.into()),
                Ok(_) => break,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(e.to_string()),
            }
        }
        v |= ((b[0] & 0x7f) as u64) << (7 * i);
        if b[0] & 0x80 == 0 {
            return u32::try_from(v)
                .map(Some)
                .map_err(|_| "a block length past 32 bits".into());
        }
    }
    Err("a block length past 32 bits".into())
}

fn read_len(input: &mut impl Read, most: usize, what: &str) -> Result<usize, String> {
    let v = read_varint(input, false)?.unwrap_or(0) as usize;
    if v > most {
        return Err(format!("{what} stream of {v} bytes (at most {most})"));
    }
    Ok(v)
}

/// One block from `input`: its records, `None` at the end of the input.
fn read_block(input: &mut impl Read, version: u32) -> Result<Option<Vec<Raw>>, String> {
    let Some(n) = read_varint(input, true)? else {
        return Ok(None);
    };
    let n = n as usize;
    if n == 0 || n > MAX_BLOCK {
        return Err(format!("a block of {n} records (1 to {MAX_BLOCK})"));
    }
    let moves = read_len(input, n * (2 + MAX_PATH), "a move")?;
    let scores = read_len(input, n * 3, "a score")?;
    let extra = read_len(input, n * MAX_EXTRA_PER_RECORD, "an extra")?;
    let mut body = vec![0u8; 4 + n + moves + scores + extra];
    input.read_exact(&mut body).map_err(|e| match e.kind() {
        ErrorKind::UnexpectedEof => ENDS_INSIDE.to_string(),
        _ => e.to_string(),
    })?;
    let check = u32::from_le_bytes([body[0], body[1], body[2], body[3]]);
    let (tags, rest) = body[4..].split_at(n);
    let (m, rest) = rest.split_at(moves);
    let (s, x) = rest.split_at(scores);
    let raws = decode_block(
        tags,
        &mut Cursor::new(m, "move"),
        &mut Cursor::new(s, "score"),
        &mut Cursor::new(x, "extra"),
        version,
    )?;
    let size = record_size(version).unwrap_or(RECORD_SIZE);
    if check_of(&raws, size) != check {
        return Err(
            "the records do not match the block's check (a damaged file, or a build \
             whose rules or move order differ from the writer's)"
                .into(),
        );
    }
    Ok(Some(raws))
}

/// What [`skim`] finds in a chained file.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Skim {
    pub header: ChainHeader,
    /// Records of its whole blocks.
    pub records: u64,
    /// Bytes from the header's start to the end of its whole blocks.
    pub whole: u64,
    /// Bytes of a last block the file ends inside of (being written).
    pub tail: u64,
}

/// A chained file's records counted from its blocks' lengths, no block
/// decoded: a count as quick as a fixed-record file's length, held to
/// the readers' rules (lengths in range, at least the header's count,
/// only a last block may be cut short); the records' own checks are the
/// readers'.
pub fn skim(mut input: impl Read, name: &str) -> Result<Skim, String> {
    let mut h = [0u8; HEADER_SIZE];
    input
        .read_exact(&mut h)
        .map_err(|_| format!("{name}: too short for a data header"))?;
    let header = read_header(&h, name)?;
    let (mut records, mut consumed) = (0u64, HEADER_SIZE as u64);
    let mut whole = consumed;
    let mut tail = 0;
    loop {
        let mut counted = Counted {
            inner: &mut input,
            n: 0,
        };
        let block = skim_block(&mut counted);
        let at = consumed;
        consumed += counted.n;
        match block {
            Ok(Some(n)) => {
                records += n as u64;
                whole = consumed;
            }
            Ok(None) => break,
            Err(e) if e == ENDS_INSIDE && records >= header.count => {
                tail = consumed - whole;
                break;
            }
            Err(e) => {
                return Err(format!(
                    "{name}: block at byte {at}, after {records} positions: {e}"
                ))
            }
        }
    }
    if records < header.count {
        return Err(cut_short(name, header.count, records));
    }
    Ok(Skim {
        header,
        records,
        whole,
        tail,
    })
}

/// One block's record count, its bytes passed over; `None` at the end.
fn skim_block(input: &mut impl Read) -> Result<Option<usize>, String> {
    let Some(n) = read_varint(input, true)? else {
        return Ok(None);
    };
    let n = n as usize;
    if n == 0 || n > MAX_BLOCK {
        return Err(format!("a block of {n} records (1 to {MAX_BLOCK})"));
    }
    let moves = read_len(input, n * (2 + MAX_PATH), "a move")?;
    let scores = read_len(input, n * 3, "a score")?;
    let extra = read_len(input, n * MAX_EXTRA_PER_RECORD, "an extra")?;
    let body = (4 + n + moves + scores + extra) as u64;
    let passed =
        std::io::copy(&mut input.take(body), &mut std::io::sink()).map_err(|e| e.to_string())?;
    if passed < body {
        return Err(ENDS_INSIDE.into());
    }
    Ok(Some(n))
}

fn decode_block(
    tags: &[u8],
    moves: &mut Cursor,
    scores: &mut Cursor,
    extra: &mut Cursor,
    version: u32,
) -> Result<Vec<Raw>, String> {
    let size = record_size(version).unwrap_or(RECORD_SIZE);
    let mut out = Vec::with_capacity(tags.len());
    let mut prev: Option<Known> = None;
    for (i, &tag) in tags.iter().enumerate() {
        let k = if tag & 3 == FULL {
            if tag != FULL {
                return Err(format!("record {i}: tag {tag:#04x}"));
            }
            let mut raw = [0u8; RECORD_SIZE];
            raw[..size].copy_from_slice(extra.take(size)?);
            out.push(raw);
            prev = Known::of_raw(&raw, version);
            continue;
        } else {
            let p = prev
                .as_ref()
                .ok_or_else(|| format!("record {i} follows nothing"))?;
            decode_entry(p, tag, moves, scores, extra, version)
                .map_err(|e| format!("record {i}: {e}"))?
        };
        out.push(k.raw);
        prev = Some(k);
    }
    moves.finish()?;
    scores.finish()?;
    extra.finish()?;
    Ok(out)
}

fn decode_entry(
    p: &Known,
    tag: u8,
    moves: &mut Cursor,
    scores: &mut Cursor,
    extra: &mut Cursor,
    version: u32,
) -> Result<Known, String> {
    let (board, stm, plies, halfmove) = match tag & 3 {
        STEP => {
            let Some((pos, m)) = p.legal_best() else {
                return Err("a step from a record with no playable best move".into());
            };
            let capture = !m.is_pass() && p.board[m.to().index()] != EMPTY;
            let mut q = pos.clone();
            q.make(m);
            let h = if capture {
                0
            } else {
                p.meta.halfmove.wrapping_add(1)
            };
            (board_of_position(&q), q.side_to_move(), 1, h)
        }
        PATH => {
            let pos = p
                .pos
                .as_ref()
                .ok_or("a path from a record that is no position")?;
            let k = if version == VERSION {
                moves.byte()? as usize
            } else {
                (tag >> 2 & 7) as usize + 1
            };
            if !(1..=MAX_PATH).contains(&k) {
                return Err(format!("a path of {k} moves"));
            }
            let path = moves.take(k)?;
            let (q, h) = replay(pos, path, p.meta.halfmove)
                .ok_or("a path's move is past the legal moves")?;
            (board_of_position(&q), q.side_to_move(), k as u16, h)
        }
        DELTA => {
            let head = extra.byte()?;
            let c = (head & 0x7f) as usize;
            let stm = if head & 0x80 != 0 {
                Color::Han
            } else {
                Color::Cho
            };
            let mut board = p.board;
            let mut last: Option<u8> = None;
            for _ in 0..c {
                let sq = extra.byte()?;
                let code = extra.byte()?;
                if sq as usize >= NUM_SQUARES || last.is_some_and(|l| sq <= l) {
                    return Err(format!("a delta's point {sq}"));
                }
                if code > EMPTY {
                    return Err(format!("a delta's piece code {code}"));
                }
                board[sq as usize] = code;
                last = Some(sq);
            }
            let plies = delta_plies(p, stm);
            (board, stm, plies, p.meta.halfmove.wrapping_add(plies))
        }
        _ => unreachable!("FULL is read by the caller"),
    };
    let pieces = pieces_of(&board);
    if pieces.len() > super::record::MAX_PIECES {
        return Err(format!("{} pieces", pieces.len()));
    }
    let e = expected(p, stm, plies, halfmove, version);
    let score = unzigzag(scores.varint16()?).wrapping_add(e.score);
    let mut sample = Sample {
        pieces,
        stm,
        score,
        result: e.result,
    };
    let pos = playable(&sample);
    let mut meta = Meta::default();
    let mut list = None;
    if version == VERSION {
        let best = match moves.byte()? {
            NO_MOVE => None,
            RAW_MOVE => {
                let raw = extra.u16()?;
                Some(Move::from_raw(raw).ok_or_else(|| format!("best move {raw}"))?)
            }
            i => {
                let pos = pos.as_ref().ok_or("a best move's place in no position")?;
                let l = sorted_moves(pos);
                let m = *l
                    .as_slice()
                    .get(i as usize)
                    .ok_or_else(|| format!("best move {i} of {}", l.len()))?;
                list = Some(l);
                Some(m)
            }
        };
        let (ply, halfmove, result) = if tag & EXPLICIT != 0 {
            (extra.u16()?, extra.u16()?, extra.byte()?)
        } else {
            (e.ply, e.halfmove, e.result)
        };
        if result > 2 {
            return Err(format!("result {result}"));
        }
        sample.result = result;
        let f = expected_flags(p, pos.as_ref(), &board, best, score) ^ (tag >> 2 & Flags::ALL);
        meta = Meta {
            flags: Flags(f),
            ply,
            halfmove,
            best,
        };
        if list.is_none() && best.is_some() {
            list = pos.as_ref().map(sorted_moves);
        }
    } else {
        let path_bits = if tag & 3 == PATH { 0x1c } else { 0 };
        if tag & 0x7c & !path_bits != 0 {
            return Err(format!("tag {tag:#04x} in version-1 data"));
        }
        if tag & EXPLICIT != 0 {
            let r = extra.byte()?;
            if r > 2 {
                return Err(format!("result {r}"));
            }
            sample.result = r;
        }
    }
    let raw = sample
        .encode_with(&meta)
        .ok_or("more pieces than a record holds")?;
    Ok(Known::new(raw, sample, meta, pos, list.as_ref()))
}

mod exchange;
#[cfg(test)]
mod tests;
