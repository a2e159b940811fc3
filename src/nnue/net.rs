//! The quantised network the search evaluates with. Its file format and
//! parameter shapes are `layout.rs`'s.
//!
//! Evaluation: `acc = bias + sum of the active features' rows` per
//! perspective, clipped to `0..=QA`; `out = sum(clip(acc_stm) * w[stm][..N])
//! + sum(clip(acc_other) * w[stm][N..]) + b[stm]`, then
//! `cp = out * scale / (QA * QB)` (integer division toward zero).

use super::layout::{self, Block, Header, HEADER_SIZE};
use crate::util::file::open_regular;
use crate::util::hash::fnv1a64;
use std::io::Read;

/// The net's evaluation is kept well inside the search's decided scores.
pub const EVAL_LIMIT: i32 = 10_000;

pub struct Network {
    pub hidden: usize,
    pub qa: i32,
    pub qb: i32,
    pub scale: i32,
    /// [`Block::FtWeights`].
    pub ft_weights: Vec<i16>,
    /// [`Block::FtBias`].
    pub ft_bias: Vec<i16>,
    /// [`Block::OutWeights`].
    pub out_weights: Vec<i16>,
    /// [`Block::OutBias`].
    pub out_bias: [i32; 2],
    /// FNV-1a of the file's bytes.
    pub hash: u64,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({}, hidden {})", self.name(), self.hidden)
    }
}

impl Network {
    /// A net from its header and its blocks' values in [`Block::ORDER`],
    /// checking the header, every block's length and every value's range
    /// as the file format stores it; the hash is that of its file.
    pub fn from_blocks(head: Header, blocks: [Vec<i32>; 4]) -> Result<Network, String> {
        head.check()?;
        for (b, v) in Block::ORDER.iter().zip(&blocks) {
            if v.len() != b.len(head.hidden) {
                return Err(format!(
                    "{b:?} holds {} values, not {}",
                    v.len(),
                    b.len(head.hidden)
                ));
            }
            if v.iter().any(|&x| (x as i64).abs() > b.limit()) {
                return Err(format!("{b:?} has a value out of range"));
            }
        }
        let i16s = |v: &[i32]| v.iter().map(|&x| x as i16).collect::<Vec<i16>>();
        let mut n = Network {
            hidden: head.hidden,
            qa: head.qa,
            qb: head.qb,
            scale: head.scale,
            ft_weights: i16s(&blocks[0]),
            ft_bias: i16s(&blocks[1]),
            out_weights: i16s(&blocks[2]),
            out_bias: [blocks[3][0], blocks[3][1]],
            hash: 0,
        };
        n.hash = fnv1a64(&n.to_bytes());
        Ok(n)
    }

    pub fn header(&self) -> Header {
        Header {
            hidden: self.hidden,
            qa: self.qa,
            qb: self.qb,
            scale: self.scale,
        }
    }

    /// Block `b`'s values, widened to i32.
    pub fn block(&self, b: Block) -> Vec<i32> {
        let wide = |v: &[i16]| v.iter().map(|&x| x as i32).collect();
        match b {
            Block::FtWeights => wide(&self.ft_weights),
            Block::FtBias => wide(&self.ft_bias),
            Block::OutWeights => wide(&self.out_weights),
            Block::OutBias => self.out_bias.to_vec(),
        }
    }

    /// Reads a net file's bytes, checking everything; never panics.
    pub fn from_bytes(b: &[u8]) -> Result<Network, String> {
        let head = Header::parse(b)?;
        let want = head.file_size();
        if b.len() != want {
            return Err(format!(
                "net file is {} bytes, hidden size {} needs {want}",
                b.len(),
                head.hidden
            ));
        }
        let mut at = HEADER_SIZE;
        let blocks = Block::ORDER.map(|blk| {
            let w = blk.width();
            let bytes = &b[at..at + blk.len(head.hidden) * w];
            at += bytes.len();
            bytes
                .chunks_exact(w)
                .map(|c| match w {
                    2 => i16::from_le_bytes([c[0], c[1]]) as i32,
                    _ => i32::from_le_bytes([c[0], c[1], c[2], c[3]]),
                })
                .collect()
        });
        Network::from_blocks(head, blocks)
    }

    /// The file's bytes (what `from_bytes` reads).
    pub fn to_bytes(&self) -> Vec<u8> {
        let head = self.header();
        let mut b = Vec::with_capacity(head.file_size());
        b.extend_from_slice(&head.to_bytes());
        for blk in Block::ORDER {
            for v in self.block(blk) {
                match blk.width() {
                    2 => b.extend_from_slice(&(v as i16).to_le_bytes()),
                    _ => b.extend_from_slice(&v.to_le_bytes()),
                }
            }
        }
        b
    }

    /// `nn-<first 12 hex digits of the hash>.jnn`.
    pub fn name(&self) -> String {
        format!("nn-{:012x}.jnn", self.hash >> 16)
    }

    /// Reads a net file from disk: a regular file only, its header first,
    /// then exactly the size the header implies (a file of another size is
    /// refused before its body is read).
    pub fn load(path: &std::path::Path) -> Result<Network, String> {
        let name = path.display();
        let (mut file, len) = open_regular(path)?;
        let mut head = [0u8; HEADER_SIZE];
        file.read_exact(&mut head)
            .map_err(|_| format!("{name}: net file too short ({len} bytes)"))?;
        let want = Header::parse(&head)
            .map_err(|e| format!("{name}: {e}"))?
            .file_size();
        if len != want as u64 {
            return Err(format!(
                "{name}: net file is {len} bytes, its header needs {want}"
            ));
        }
        let mut bytes = Vec::with_capacity(want);
        bytes.extend_from_slice(&head);
        file.take((want - HEADER_SIZE) as u64)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("{name}: {e}"))?;
        Network::from_bytes(&bytes).map_err(|e| format!("{name}: {e}"))
    }

    /// The feature row of feature `f`.
    #[inline]
    pub fn row(&self, f: usize) -> &[i16] {
        &self.ft_weights[layout::feature_row(f, self.hidden)]
    }

    /// Output weights for the side to move (`stm` 0 Cho, 1 Han).
    #[inline]
    pub fn out_row(&self, stm: usize) -> &[i16] {
        &self.out_weights[layout::out_row(stm, self.hidden)]
    }

    /// Centipawns from the output layer's integer sum.
    #[inline]
    pub fn to_cp(&self, stm: usize, sum: i32) -> i32 {
        let out = sum as i64 + self.out_bias[stm] as i64;
        let cp = out * self.scale as i64 / (self.qa as i64 * self.qb as i64);
        cp.clamp(-(EVAL_LIMIT as i64), EVAL_LIMIT as i64) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny(hidden: usize) -> Network {
        let mut rng = crate::util::rng::Rng::new(1);
        let head = Header {
            hidden,
            qa: layout::QA,
            qb: layout::QB,
            scale: 400,
        };
        let blocks = Block::ORDER.map(|b| {
            (0..b.len(hidden))
                .map(|i| match b {
                    Block::FtBias => rng.below(61) as i32 + 30,
                    Block::OutBias => [1000, -2000][i],
                    _ => rng.below(61) as i32 - 30,
                })
                .collect()
        });
        Network::from_blocks(head, blocks).unwrap()
    }

    #[test]
    fn bytes_round_trip_and_bad_files_are_errors() {
        let n = tiny(16);
        let b = n.to_bytes();
        let m = Network::from_bytes(&b).unwrap();
        assert_eq!(m.to_bytes(), b);
        assert_eq!(m.hash, n.hash);
        assert!(m.name().starts_with("nn-") && m.name().len() == 19);
        assert!(Network::from_bytes(&b[..b.len() - 1]).is_err());
        assert!(Network::from_bytes(&b[..10]).is_err());
        assert!(Network::from_bytes(b"garbage garbage garbage garbage garbage").is_err());
        let mut bad = b.clone();
        bad[16] = 17; // hidden 17
        assert!(Network::from_bytes(&bad).is_err());
        let mut bad = b;
        bad[8] = 9;
        assert!(Network::from_bytes(&bad).is_err());
        // An i16 block with a value the file cannot hold.
        let mut blocks = Block::ORDER.map(|blk| n.block(blk));
        blocks[0][3] = 40_000;
        assert!(Network::from_blocks(n.header(), blocks).is_err());
    }
}
