//! The quantised network the search evaluates with. Its file format and
//! parameter shapes are `layout.rs`'s, its output buckets `buckets.rs`'s.
//!
//! Evaluation: `acc = bias + sum of the active features' rows` per
//! perspective; `v = clamp(acc, 0, QA)` and `a = v` (CReLU) or `a = v * v`
//! (SCReLU); with `r` the output row of the side to move and the bucket,
//! `out = sum(a_stm * w[r][..N]) + sum(a_other * w[r][N..]) + b[r]`, then
//! `cp = out * scale / (peak * QB)` (integer division toward zero; `peak`
//! is QA or QA^2).

use super::layout::{self, Activation, Arch, Block, Header, InputBuckets, MAX_HEADER_SIZE};
use crate::util::file::open_regular;
use crate::util::hash::fnv1a64;
use std::io::Read;

/// The net's evaluation is kept well inside the search's decided scores.
pub const EVAL_LIMIT: i32 = 10_000;

pub struct Network {
    pub hidden: usize,
    pub activation: Activation,
    pub buckets: usize,
    /// Input buckets by the perspective's own general (`features::View`).
    pub input_buckets: InputBuckets,
    /// The format version it was read or made as (written back the same).
    pub version: u32,
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
    pub out_bias: Vec<i32>,
    /// [`Header::divisor`].
    divisor: i64,
    /// FNV-1a of the file's bytes.
    pub hash: u64,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Network({}, hidden {}, {}, {} buckets, input buckets {})",
            self.name(),
            self.hidden,
            self.activation,
            self.buckets,
            self.input_buckets
        )
    }
}

impl Network {
    /// A net from its header and its blocks' values in [`Block::ORDER`],
    /// checking the header, every block's length, every value's range as
    /// the file format stores it and every output row against the overflow
    /// bound ([`layout::check_output_row`]); the hash is that of its file.
    pub fn from_blocks(head: Header, blocks: [Vec<i32>; 4]) -> Result<Network, String> {
        head.check()?;
        let arch = head.arch;
        for (b, v) in Block::ORDER.iter().zip(&blocks) {
            if v.len() != b.len(&arch) {
                return Err(format!(
                    "{b:?} holds {} values, not {}",
                    v.len(),
                    b.len(&arch)
                ));
            }
            if v.iter().any(|&x| (x as i64).abs() > b.limit()) {
                return Err(format!("{b:?} has a value out of range"));
            }
        }
        for r in 0..arch.out_rows() {
            let row = &blocks[2][layout::out_row(r, arch.hidden)];
            layout::check_output_row(arch.activation, head.qa, row)
                .map_err(|e| format!("output row {r}: {e}"))?;
        }
        let i16s = |v: &[i32]| v.iter().map(|&x| x as i16).collect::<Vec<i16>>();
        let mut n = Network {
            hidden: arch.hidden,
            activation: arch.activation,
            buckets: arch.buckets,
            input_buckets: arch.input_buckets,
            version: head.version,
            qa: head.qa,
            qb: head.qb,
            scale: head.scale,
            ft_weights: i16s(&blocks[0]),
            ft_bias: i16s(&blocks[1]),
            out_weights: i16s(&blocks[2]),
            out_bias: blocks[3].clone(),
            divisor: head.divisor(),
            hash: 0,
        };
        n.hash = fnv1a64(&n.to_bytes());
        Ok(n)
    }

    pub fn arch(&self) -> Arch {
        Arch {
            hidden: self.hidden,
            activation: self.activation,
            buckets: self.buckets,
            input_buckets: self.input_buckets,
        }
    }

    pub fn header(&self) -> Header {
        Header {
            version: self.version,
            arch: self.arch(),
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
            Block::OutBias => self.out_bias.clone(),
        }
    }

    /// Reads a net file's bytes, checking everything; never panics.
    pub fn from_bytes(b: &[u8]) -> Result<Network, String> {
        let head = Header::parse(b)?;
        let want = head.file_size();
        if b.len() != want {
            return Err(format!(
                "net file is {} bytes, its header needs {want}",
                b.len()
            ));
        }
        let mut at = head.size();
        let blocks = Block::ORDER.map(|blk| {
            let w = blk.width();
            let bytes = &b[at..at + blk.len(&head.arch) * w];
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

    /// The file's bytes (what `from_bytes` reads), in the version the net
    /// was read or made as.
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
        // Every valid file is longer than the longest header, so reading
        // that much first never refuses a good one.
        let mut bytes = Vec::with_capacity(MAX_HEADER_SIZE);
        (&mut file)
            .take(MAX_HEADER_SIZE as u64)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("{name}: {e}"))?;
        let want = Header::parse(&bytes)
            .map_err(|e| format!("{name}: {e}"))?
            .file_size();
        if len != want as u64 {
            return Err(format!(
                "{name}: net file is {len} bytes, its header needs {want}"
            ));
        }
        bytes.reserve(want - bytes.len());
        file.take((want - bytes.len()) as u64)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("{name}: {e}"))?;
        Network::from_bytes(&bytes).map_err(|e| format!("{name}: {e}"))
    }

    /// The feature row of feature `f`.
    #[inline]
    pub fn row(&self, f: usize) -> &[i16] {
        &self.ft_weights[layout::feature_row(f, self.hidden)]
    }

    /// The output row for side to move `stm` (0 Cho, 1 Han) in `bucket`
    /// ([`Arch::row_index`]).
    #[inline]
    pub fn out_row_index(&self, stm: usize, bucket: usize) -> usize {
        layout::row_index(stm, bucket, self.buckets)
    }

    /// Output weights of output row `row`.
    #[inline]
    pub fn out_row(&self, row: usize) -> &[i16] {
        &self.out_weights[layout::out_row(row, self.hidden)]
    }

    /// Centipawns from output row `row`'s integer sum.
    #[inline]
    pub fn to_cp(&self, row: usize, sum: i32) -> i32 {
        let out = sum as i64 + self.out_bias[row] as i64;
        let cp = out * self.scale as i64 / self.divisor;
        cp.clamp(-(EVAL_LIMIT as i64), EVAL_LIMIT as i64) as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::layout::{
        HEADER_SIZE_V1, HEADER_SIZE_V2, QA, QB, VERSION_1, VERSION_2, VERSION_3,
    };

    /// A random net of `arch`, its output weights within the trainer's
    /// limit.
    pub(crate) fn tiny(arch: Arch, seed: u64) -> Network {
        let mut rng = crate::util::rng::Rng::new(seed);
        let lim = layout::out_weight_limit(&arch, QA).min(30) as usize;
        let blocks = Block::ORDER.map(|b| {
            (0..b.len(&arch))
                .map(|i| match b {
                    Block::FtBias => rng.below(61) as i32 + 30,
                    Block::OutBias => (i as i32 % 3 - 1) * 1000,
                    Block::OutWeights => rng.below(2 * lim + 1) as i32 - lim as i32,
                    _ => rng.below(61) as i32 - 30,
                })
                .collect()
        });
        Network::from_blocks(Header::new(arch, QA, QB, 400), blocks).unwrap()
    }

    fn screlu(hidden: usize, buckets: usize) -> Arch {
        Arch {
            hidden,
            activation: Activation::SCRelu,
            buckets,
            input_buckets: InputBuckets::None,
        }
    }

    #[test]
    fn bytes_round_trip_and_bad_files_are_errors() {
        for arch in [Arch::v1(16), screlu(32, 8)] {
            let n = tiny(arch, 1);
            assert_eq!(n.version, arch.version());
            let b = n.to_bytes();
            let m = Network::from_bytes(&b).unwrap();
            assert_eq!(m.to_bytes(), b);
            assert_eq!(m.hash, n.hash);
            assert_eq!(m.arch(), arch);
            assert!(m.name().starts_with("nn-") && m.name().len() == 19);
            for cut in [b.len() - 1, 40, 33, 32, 12, 10, 0] {
                let e = Network::from_bytes(&b[..cut]).unwrap_err();
                assert!(e.contains("too short") || e.contains("needs"), "{cut}: {e}");
            }
            assert!(Network::from_bytes(b"garbage garbage garbage garbage garbage").is_err());
            let mut bad = b.clone();
            bad[16] = 17; // hidden 17
            assert!(Network::from_bytes(&bad).is_err());
            let mut bad = b.clone();
            bad[8] = 9;
            let e = Network::from_bytes(&bad).unwrap_err();
            assert!(e.contains("version 9"), "{e}");
            // An i16 block with a value the file cannot hold.
            let mut blocks = Block::ORDER.map(|blk| n.block(blk));
            blocks[0][3] = 40_000;
            assert!(Network::from_blocks(n.header(), blocks).is_err());
        }
    }

    #[test]
    fn version_two_fields_are_checked() {
        let b = tiny(screlu(16, 4), 2).to_bytes();
        assert_eq!(u32::from_le_bytes(b[8..12].try_into().unwrap()), VERSION_2);
        let mut bad = b.clone();
        bad[32] = 7; // activation 7
        let e = Network::from_bytes(&bad).unwrap_err();
        assert!(e.contains("activation"), "{e}");
        for buckets in [0u8, 17] {
            let mut bad = b.clone();
            bad[36] = buckets;
            let e = Network::from_bytes(&bad).unwrap_err();
            assert!(e.contains("buckets"), "{e}");
        }
        // A version 1 header on a version 2 body: the sizes disagree.
        let mut bad = b.clone();
        bad[8] = VERSION_1 as u8;
        assert!(Network::from_bytes(&bad).is_err());
        // The version 1 body under a version 2 header with its two fields:
        // the same net, read alike, written back as version 2.
        let v1 = tiny(Arch::v1(16), 3);
        let old = v1.to_bytes();
        let mut as_v2 = old[..HEADER_SIZE_V1].to_vec();
        as_v2[8] = VERSION_2 as u8;
        as_v2.extend([0, 0, 0, 0, 1, 0, 0, 0]);
        as_v2.extend_from_slice(&old[HEADER_SIZE_V1..]);
        let m = Network::from_bytes(&as_v2).unwrap();
        assert_eq!((m.version, m.arch()), (VERSION_2, Arch::v1(16)));
        assert_eq!(m.to_bytes(), as_v2);
        assert_eq!(m.block(Block::OutWeights), v1.block(Block::OutWeights));
    }

    #[test]
    fn version_three_fields_are_checked() {
        for (layout, k) in [(InputBuckets::Palace9, 9), (InputBuckets::Palace6, 6)] {
            let arch = Arch {
                input_buckets: layout,
                ..screlu(16, 2)
            };
            let n = tiny(arch, 6);
            let b = n.to_bytes();
            assert_eq!(u32::from_le_bytes(b[8..12].try_into().unwrap()), VERSION_3);
            assert_eq!(u32::from_le_bytes(b[12..16].try_into().unwrap()), k * 1260);
            assert_eq!(b[40] as u32, layout.code());
            assert_eq!(n.ft_weights.len(), k as usize * 1260 * 16);
            let m = Network::from_bytes(&b).unwrap();
            assert_eq!((m.to_bytes(), m.arch()), (b.clone(), arch));
            // An unknown layout code, the other layout's code (the sizes
            // then disagree), an inputs field that is not K * 1260, a
            // version 2 header over the body: each refused with its reason.
            let mut bad = b.clone();
            bad[40] = 3;
            let e = Network::from_bytes(&bad).unwrap_err();
            assert!(e.contains("input bucket layout code 3"), "{e}");
            let mut bad = b.clone();
            bad[40] = if k == 9 { 2 } else { 1 };
            let e = Network::from_bytes(&bad).unwrap_err();
            assert!(e.contains("inputs"), "{e}");
            let mut bad = b.clone();
            bad[12..16].copy_from_slice(&1260u32.to_le_bytes());
            let e = Network::from_bytes(&bad).unwrap_err();
            assert!(e.contains("net has 1260 inputs"), "{e}");
            let mut bad = b.clone();
            bad[8] = VERSION_2 as u8;
            assert!(Network::from_bytes(&bad).is_err());
            for cut in [b.len() - 1, 43, 40] {
                let e = Network::from_bytes(&b[..cut]).unwrap_err();
                assert!(e.contains("too short") || e.contains("needs"), "{cut}: {e}");
            }
            // Nothing but the net of the layout's size.
            let mut longer = b.clone();
            longer.extend([0, 0]);
            assert!(Network::from_bytes(&longer).unwrap_err().contains("needs"));
        }
        // A version 2 body under a version 3 header with no input buckets:
        // the same net, read alike, written back as version 3.
        let v2 = tiny(screlu(16, 2), 7);
        let old = v2.to_bytes();
        let mut as_v3 = old[..HEADER_SIZE_V2].to_vec();
        as_v3[8] = VERSION_3 as u8;
        as_v3.extend([0, 0, 0, 0]);
        as_v3.extend_from_slice(&old[HEADER_SIZE_V2..]);
        let m = Network::from_bytes(&as_v3).unwrap();
        assert_eq!((m.version, m.arch()), (VERSION_3, screlu(16, 2)));
        assert_eq!(m.to_bytes(), as_v3);
        assert_eq!(m.ft_weights, v2.ft_weights);
        // Versions 1 and 2 are still written for what they can say.
        assert_eq!(tiny(Arch::v1(16), 8).version, VERSION_1);
        assert_eq!(v2.version, VERSION_2);
    }

    #[test]
    fn output_weights_that_could_overflow_are_refused() {
        // SCReLU: QA^2 * 2N * |w| past i32 although each w is a small i16.
        let arch = screlu(256, 2);
        let n = tiny(arch, 4);
        let mut blocks = Block::ORDER.map(|blk| n.block(blk));
        let row = layout::out_row(3, arch.hidden);
        blocks[2][row].iter_mut().for_each(|w| *w = 100);
        let e = Network::from_blocks(n.header(), blocks.clone()).unwrap_err();
        assert!(e.contains("output row 3") && e.contains("overflow"), "{e}");
        // Through the bytes too, as `EvalFile` would read them.
        let mut bytes = n.header().to_bytes();
        for (blk, vals) in Block::ORDER.iter().zip(&blocks) {
            for &v in vals {
                match blk.width() {
                    2 => bytes.extend_from_slice(&(v as i16).to_le_bytes()),
                    _ => bytes.extend_from_slice(&v.to_le_bytes()),
                }
            }
        }
        let e = Network::from_bytes(&bytes).unwrap_err();
        assert!(e.contains("overflow"), "{e}");
        // CReLU: a row of the largest i16 weights.
        let n = tiny(Arch::v1(256), 5);
        let mut blocks = Block::ORDER.map(|blk| n.block(blk));
        blocks[2][..512]
            .iter_mut()
            .for_each(|w| *w = i16::MAX as i32);
        let e = Network::from_blocks(n.header(), blocks).unwrap_err();
        assert!(e.contains("output row 0") && e.contains("overflow"), "{e}");
    }
}
