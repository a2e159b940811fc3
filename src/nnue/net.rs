//! The quantised network and its file format (little-endian):
//!
//! | bytes | content |
//! |---|---|
//! | 0..8 | magic `JANGNNUE` |
//! | 8..12 | format version (u32, 1) |
//! | 12..16 | inputs (u32, 1260) |
//! | 16..20 | hidden size N (u32, a multiple of 16, 16..=2048) |
//! | 20..24 | QA, the feature transformer's scale (i32) |
//! | 24..28 | QB, the output layer's scale (i32) |
//! | 28..32 | centipawns per output unit (i32) |
//! | 32.. | feature weights i16 [1260][N], biases i16 [N], output weights i16 [2][2N] (Cho to move, Han to move; own half first), output biases i32 [2] |
//!
//! Evaluation: `acc = bias + sum of the active features' rows` per
//! perspective, clipped to `0..=QA`; `out = sum(clip(acc_stm) * w[stm][..N])
//! + sum(clip(acc_other) * w[stm][N..]) + b[stm]`, then
//! `cp = out * scale / (QA * QB)` (integer division toward zero).

use super::features::INPUTS;
use crate::util::hash::fnv1a64;

pub const MAGIC: &[u8; 8] = b"JANGNNUE";
pub const VERSION: u32 = 1;
pub const HEADER_SIZE: usize = 32;
pub const MAX_HIDDEN: usize = 2048;
/// The net's evaluation is kept well inside the search's decided scores.
pub const EVAL_LIMIT: i32 = 10_000;

pub struct Network {
    pub hidden: usize,
    pub qa: i32,
    pub qb: i32,
    pub scale: i32,
    /// `[INPUTS][hidden]`, one row per feature.
    pub ft_weights: Vec<i16>,
    pub ft_bias: Vec<i16>,
    /// `[2][2 * hidden]`, indexed by the side to move's colour.
    pub out_weights: Vec<i16>,
    pub out_bias: [i32; 2],
    /// FNV-1a of the file's bytes.
    pub hash: u64,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Network({}, hidden {})", self.name(), self.hidden)
    }
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl Network {
    /// Reads a net file's bytes, checking everything; never panics.
    pub fn from_bytes(b: &[u8]) -> Result<Network, String> {
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
        let hidden = u32_at(b, 16) as usize;
        if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(16) {
            return Err(format!(
                "hidden size {hidden} (must be a multiple of 16 up to {MAX_HIDDEN})"
            ));
        }
        let (qa, qb, scale) = (
            u32_at(b, 20) as i32,
            u32_at(b, 24) as i32,
            u32_at(b, 28) as i32,
        );
        if !(1..=1024).contains(&qa) || !(1..=1024).contains(&qb) || !(1..=100_000).contains(&scale)
        {
            return Err(format!("bad scales QA {qa}, QB {qb}, scale {scale}"));
        }
        let want = HEADER_SIZE + 2 * (INPUTS * hidden + hidden + 4 * hidden) + 8;
        if b.len() != want {
            return Err(format!(
                "net file is {} bytes, hidden size {hidden} needs {want}",
                b.len()
            ));
        }
        let mut at = HEADER_SIZE;
        let mut i16s = |n: usize| {
            let v: Vec<i16> = b[at..at + 2 * n]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * n;
            v
        };
        let ft_weights = i16s(INPUTS * hidden);
        let ft_bias = i16s(hidden);
        let out_weights = i16s(4 * hidden);
        let end = b.len();
        let out_bias = [u32_at(b, end - 8) as i32, u32_at(b, end - 4) as i32];
        Ok(Network {
            hidden,
            qa,
            qb,
            scale,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
            hash: fnv1a64(b),
        })
    }

    /// The file's bytes (what `from_bytes` reads).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(HEADER_SIZE + 2 * self.ft_weights.len() + 4096);
        b.extend_from_slice(MAGIC);
        for v in [
            VERSION,
            INPUTS as u32,
            self.hidden as u32,
            self.qa as u32,
            self.qb as u32,
            self.scale as u32,
        ] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for w in self
            .ft_weights
            .iter()
            .chain(&self.ft_bias)
            .chain(&self.out_weights)
        {
            b.extend_from_slice(&w.to_le_bytes());
        }
        for v in self.out_bias {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b
    }

    /// `nn-<first 12 hex digits of the hash>.jnn`.
    pub fn name(&self) -> String {
        format!("nn-{:012x}.jnn", self.hash >> 16)
    }

    /// Reads a net file from disk.
    pub fn load(path: &std::path::Path) -> Result<Network, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Network::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The feature row of feature `f`.
    #[inline]
    pub fn row(&self, f: usize) -> &[i16] {
        &self.ft_weights[f * self.hidden..(f + 1) * self.hidden]
    }

    /// Output weights for the side to move (`stm` 0 Cho, 1 Han).
    #[inline]
    pub fn out_row(&self, stm: usize) -> &[i16] {
        &self.out_weights[stm * 2 * self.hidden..(stm + 1) * 2 * self.hidden]
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

    pub(crate) fn tiny(hidden: usize) -> Network {
        let mut rng = crate::util::rng::Rng::new(1);
        let mut next = move || rng.below(61) as i16 - 30;
        let n = Network {
            hidden,
            qa: 255,
            qb: 64,
            scale: 400,
            ft_weights: (0..INPUTS * hidden).map(|_| next()).collect(),
            ft_bias: (0..hidden).map(|_| next() + 60).collect(),
            out_weights: (0..4 * hidden).map(|_| next()).collect(),
            out_bias: [1000, -2000],
            hash: 0,
        };
        Network::from_bytes(&n.to_bytes()).unwrap()
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
    }
}
