//! The net's parameters, described once: their blocks, shapes, order and
//! quantisation scales, and the file header. The loader (`net.rs`), the
//! trainer's flat float vector (`crate::train::model`) and the export all
//! read this description, so that none of them can disagree with another.
//!
//! A net file is little-endian:
//!
//! | bytes | content |
//! |---|---|
//! | 0..8 | magic `JANGNNUE` |
//! | 8..12 | format version (u32, 1) |
//! | 12..16 | inputs (u32, 1260) |
//! | 16..20 | hidden size N (u32, a multiple of 16, 16..=2048) |
//! | 20..24 | QA, the feature transformer's scale (i32, 1..=1024) |
//! | 24..28 | QB, the output layer's scale (i32, 1..=1024) |
//! | 28..32 | centipawns per output unit (i32, 1..=100000) |
//! | 32.. | the blocks of [`Block::ORDER`]: feature weights i16 [1260][N], feature biases i16 [N], output weights i16 [2][2N] (Cho to move, Han to move; own half first), output biases i32 [2] |
//!
//! The size of a file follows from its header alone
//! ([`Header::file_size`]).

use super::features::INPUTS;
use std::ops::Range;

pub const MAGIC: &[u8; 8] = b"JANGNNUE";
pub const VERSION: u32 = 1;
pub const HEADER_SIZE: usize = 32;
/// Hidden sizes are multiples of this: the SIMD loops take 16 lanes at once.
pub const HIDDEN_STEP: usize = 16;
/// Largest hidden size a file may declare.
pub const MAX_HIDDEN: usize = 2048;
/// The hidden size `janggun train` fits unless told otherwise (the shipped
/// net's).
pub const DEFAULT_HIDDEN: usize = 256;
/// The scales the trainer exports with: accumulator values in `0..=QA`
/// stand for activations in `0..=1`, output weights are multiplied by QB.
pub const QA: i32 = 255;
pub const QB: i32 = 64;
/// Largest QA or QB a file may declare (keeps every product in i32).
pub const MAX_Q: i32 = 1024;
/// Largest centipawns-per-unit a file may declare.
pub const MAX_SCALE: i32 = 100_000;

/// One block of parameters.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// `[INPUTS][hidden]`, one row per feature.
    FtWeights,
    /// `[hidden]`.
    FtBias,
    /// `[2][2 * hidden]`: a row per side to move, its own perspective's
    /// half first.
    OutWeights,
    /// `[2]`, one per side to move.
    OutBias,
}

impl Block {
    /// The blocks in file order, which is also their order in the
    /// trainer's flat parameter vector.
    pub const ORDER: [Block; 4] = [
        Block::FtWeights,
        Block::FtBias,
        Block::OutWeights,
        Block::OutBias,
    ];

    /// Number of values for hidden size `hidden`.
    pub fn len(self, hidden: usize) -> usize {
        match self {
            Block::FtWeights => INPUTS * hidden,
            Block::FtBias => hidden,
            Block::OutWeights => 4 * hidden,
            Block::OutBias => 2,
        }
    }

    /// Bytes a value takes in the file: i16, or i32 for the output biases
    /// (they sit on the scale QA * QB).
    pub fn width(self) -> usize {
        match self {
            Block::OutBias => 4,
            _ => 2,
        }
    }

    /// Largest magnitude a stored value may have.
    pub fn limit(self) -> i64 {
        match self.width() {
            2 => i16::MAX as i64,
            _ => i32::MAX as i64,
        }
    }

    /// What a float parameter is multiplied by before it is rounded.
    pub fn scale(self, qa: i32, qb: i32) -> i32 {
        match self {
            Block::FtWeights | Block::FtBias => qa,
            Block::OutWeights => qb,
            Block::OutBias => qa * qb,
        }
    }

    /// Where the block lies in a flat vector of all the parameters in
    /// `ORDER`.
    pub fn range(self, hidden: usize) -> Range<usize> {
        let mut at = 0;
        for b in Block::ORDER {
            if b == self {
                break;
            }
            at += b.len(hidden);
        }
        at..at + self.len(hidden)
    }
}

/// Number of parameters of a net with `hidden` units.
pub fn params(hidden: usize) -> usize {
    Block::ORDER.iter().map(|b| b.len(hidden)).sum()
}

/// Feature `f`'s row within [`Block::FtWeights`].
#[inline]
pub fn feature_row(f: usize, hidden: usize) -> Range<usize> {
    f * hidden..(f + 1) * hidden
}

/// The output weights for side to move `stm` (0 Cho, 1 Han) within
/// [`Block::OutWeights`].
#[inline]
pub fn out_row(stm: usize, hidden: usize) -> Range<usize> {
    stm * 2 * hidden..(stm + 1) * 2 * hidden
}

/// Whether a net may have `hidden` units.
pub fn check_hidden(hidden: usize) -> Result<(), String> {
    if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(HIDDEN_STEP) {
        return Err(format!(
            "hidden size {hidden} (must be a multiple of {HIDDEN_STEP} up to {MAX_HIDDEN})"
        ));
    }
    Ok(())
}

/// What a net file's first `HEADER_SIZE` bytes say.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub hidden: usize,
    pub qa: i32,
    pub qb: i32,
    /// Centipawns per output unit.
    pub scale: i32,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl Header {
    /// Reads and checks a header; `b` may be longer than the header.
    pub fn parse(b: &[u8]) -> Result<Header, String> {
        if b.len() < HEADER_SIZE {
            return Err(format!("net file too short ({} bytes)", b.len()));
        }
        if &b[0..8] != MAGIC {
            return Err("not a Janggun net file (bad magic)".into());
        }
        if u32_at(b, 8) != VERSION {
            return Err(format!(
                "net format version {}, this build reads {VERSION}",
                u32_at(b, 8)
            ));
        }
        if u32_at(b, 12) as usize != INPUTS {
            return Err(format!("net has {} inputs, not {INPUTS}", u32_at(b, 12)));
        }
        let h = Header {
            hidden: u32_at(b, 16) as usize,
            qa: u32_at(b, 20) as i32,
            qb: u32_at(b, 24) as i32,
            scale: u32_at(b, 28) as i32,
        };
        h.check()?;
        Ok(h)
    }

    /// The ranges a loadable net keeps to.
    pub fn check(&self) -> Result<(), String> {
        check_hidden(self.hidden)?;
        let (qa, qb, scale) = (self.qa, self.qb, self.scale);
        if !(1..=MAX_Q).contains(&qa)
            || !(1..=MAX_Q).contains(&qb)
            || !(1..=MAX_SCALE).contains(&scale)
        {
            return Err(format!("bad scales QA {qa}, QB {qb}, scale {scale}"));
        }
        Ok(())
    }

    pub fn to_bytes(&self) -> [u8; HEADER_SIZE] {
        let mut b = [0u8; HEADER_SIZE];
        b[0..8].copy_from_slice(MAGIC);
        let words = [
            VERSION,
            INPUTS as u32,
            self.hidden as u32,
            self.qa as u32,
            self.qb as u32,
            self.scale as u32,
        ];
        for (i, w) in words.iter().enumerate() {
            b[8 + 4 * i..12 + 4 * i].copy_from_slice(&w.to_le_bytes());
        }
        b
    }

    /// The whole file's size in bytes.
    pub fn file_size(&self) -> usize {
        HEADER_SIZE
            + Block::ORDER
                .iter()
                .map(|b| b.len(self.hidden) * b.width())
                .sum::<usize>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_tile_the_parameters_in_order() {
        let h = 32;
        let mut at = 0;
        for b in Block::ORDER {
            assert_eq!(b.range(h).start, at);
            at = b.range(h).end;
        }
        assert_eq!(at, params(h));
        let head = Header {
            hidden: h,
            qa: QA,
            qb: QB,
            scale: 400,
        };
        assert_eq!(Header::parse(&head.to_bytes()), Ok(head));
        // i16 values except the two i32 output biases.
        assert_eq!(head.file_size(), HEADER_SIZE + 2 * params(h) + 2 * 2);
        assert!(check_hidden(17).is_err() && check_hidden(0).is_err());
        assert!(check_hidden(MAX_HIDDEN + HIDDEN_STEP).is_err());
        assert!(Header { scale: 0, ..head }.check().is_err());
    }
}
