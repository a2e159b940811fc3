//! The net's parameters, described once: their blocks, shapes, order and
//! quantisation scales, the file header and its versions, and the bounds
//! that keep the integer evaluation inside i32. The loader (`net.rs`), the
//! trainer's flat float vector (`crate::train::model`) and the export all
//! read this description, so that none of them can disagree with another.
//!
//! A net file is little-endian:
//!
//! | bytes | content |
//! |---|---|
//! | 0..8 | magic `JANGNNUE` |
//! | 8..12 | format version (u32, 1, 2 or 3) |
//! | 12..16 | inputs (u32): feature rows, `K * 1260` for `K` input buckets (1260 in versions 1 and 2) |
//! | 16..20 | hidden size N (u32, a multiple of 16, 16..=2048) |
//! | 20..24 | QA, the feature transformer's scale (i32, 1..=1024) |
//! | 24..28 | QB, the output layer's scale (i32, 1..=1024) |
//! | 28..32 | centipawns per output unit (i32, 1..=100000) |
//! | 32..36 | versions 2 and 3: activation (u32, 0 CReLU, 1 SCReLU) |
//! | 36..40 | versions 2 and 3: output buckets B (u32, 1..=16) |
//! | 40..44 | version 3 only: input buckets (u32, 0 none, 1 palace9, 2 palace6; [`InputBuckets`]) |
//! | 32.., 40.. or 44.. | the blocks of [`Block::ORDER`]: feature weights i16 [K * 1260][N] (bucket `k`'s 1260 rows at `k * 1260`), feature biases i16 [N], output weights i16 [2][B][2N] (Cho to move, Han to move; a row per bucket; own half first), output biases i32 [2][B] |
//!
//! Version 1 is version 2 with CReLU and one bucket, without the two
//! fields; version 2 is version 3 with no input buckets, without the
//! third. A net is written as the oldest version that can say it, so the
//! nets trained before a version existed keep their bytes and names.
//!
//! The size of a file follows from its header alone
//! ([`Header::file_size`]).

use super::features::INPUTS;
use std::ops::Range;

pub const MAGIC: &[u8; 8] = b"JANGNNUE";
/// CReLU, the output row chosen by the side to move only.
pub const VERSION_1: u32 = 1;
/// Adds the activation and the output buckets to the header.
pub const VERSION_2: u32 = 2;
/// Adds the input buckets (by the perspective's own general's palace
/// point) to the header.
pub const VERSION_3: u32 = 3;
pub const HEADER_SIZE_V1: usize = 32;
pub const HEADER_SIZE_V2: usize = 40;
pub const HEADER_SIZE_V3: usize = 44;
/// The longest header of any version: what a loader reads first.
pub const MAX_HEADER_SIZE: usize = HEADER_SIZE_V3;
/// Hidden sizes are multiples of this: the SIMD loops take 16 lanes at once.
pub const HIDDEN_STEP: usize = 16;
/// Largest hidden size a file may declare.
pub const MAX_HIDDEN: usize = 2048;
/// Most output buckets a file may declare.
pub const MAX_BUCKETS: usize = 16;
/// The hidden size `janggun train` and `janggun net random` give a net
/// unless told otherwise. Not the shipped net's: that one has 512 (its
/// recipe is in docs/TRAINING.md).
pub const DEFAULT_HIDDEN: usize = 256;
/// The scales the trainer exports with: accumulator values in `0..=QA`
/// stand for activations in `0..=1`, output weights are multiplied by QB.
pub const QA: i32 = 255;
pub const QB: i32 = 64;
/// Largest QA or QB a file may declare (keeps every product in i32).
pub const MAX_Q: i32 = 1024;
/// Largest centipawns-per-unit a file may declare.
pub const MAX_SCALE: i32 = 100_000;

/// What the hidden layer does to an accumulator value `x` (on the scale
/// where `QA` is 1) before the output layer weighs it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Activation {
    /// Clipped ReLU, `clamp(x, 0, 1)`.
    #[default]
    CRelu,
    /// Squared clipped ReLU, `clamp(x, 0, 1)^2`.
    SCRelu,
}

impl Activation {
    pub const ALL: [Activation; 2] = [Activation::CRelu, Activation::SCRelu];

    /// The header's code.
    pub fn code(self) -> u32 {
        match self {
            Activation::CRelu => 0,
            Activation::SCRelu => 1,
        }
    }

    pub fn from_code(c: u32) -> Result<Activation, String> {
        match c {
            0 => Ok(Activation::CRelu),
            1 => Ok(Activation::SCRelu),
            _ => Err(format!("unknown activation code {c} (0 CReLU, 1 SCReLU)")),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Activation::CRelu => "crelu",
            Activation::SCRelu => "screlu",
        }
    }

    /// The largest value one activation takes in the integer path, on the
    /// scale of the output's sum: `QA` for CReLU, `QA^2` for SCReLU (its
    /// output layer multiplies `v * v * w` with `v` in `0..=QA`).
    pub fn peak(self, qa: i32) -> i64 {
        match self {
            Activation::CRelu => qa as i64,
            Activation::SCRelu => qa as i64 * qa as i64,
        }
    }
}

impl std::fmt::Display for Activation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Activation {
    type Err = String;
    fn from_str(s: &str) -> Result<Activation, String> {
        Activation::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("activation {s:?} (crelu or screlu)"))
    }
}

/// How a net splits its feature transformer by where the perspective's
/// own general stands ([`super::features::View`] says which bucket a
/// general's point picks): each bucket has its own 1260 feature rows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum InputBuckets {
    /// One set of rows: the nets of versions 1 and 2.
    #[default]
    None,
    /// A bucket per palace point: 9.
    Palace9,
    /// The palace points merged by the board's left-right symmetry: a
    /// perspective whose general stands on the f-file sees the whole board
    /// mirrored (file f to 8 - f), so 2 files x 3 ranks: 6.
    Palace6,
}

impl InputBuckets {
    pub const ALL: [InputBuckets; 3] = [
        InputBuckets::None,
        InputBuckets::Palace9,
        InputBuckets::Palace6,
    ];

    /// The header's code.
    pub fn code(self) -> u32 {
        match self {
            InputBuckets::None => 0,
            InputBuckets::Palace9 => 1,
            InputBuckets::Palace6 => 2,
        }
    }

    pub fn from_code(c: u32) -> Result<InputBuckets, String> {
        match c {
            0 => Ok(InputBuckets::None),
            1 => Ok(InputBuckets::Palace9),
            2 => Ok(InputBuckets::Palace6),
            _ => Err(format!(
                "unknown input bucket layout code {c} (0 none, 1 palace9, 2 palace6)"
            )),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            InputBuckets::None => "none",
            InputBuckets::Palace9 => "palace9",
            InputBuckets::Palace6 => "palace6",
        }
    }

    /// Number of buckets, `K`.
    pub fn count(self) -> usize {
        match self {
            InputBuckets::None => 1,
            InputBuckets::Palace9 => 9,
            InputBuckets::Palace6 => 6,
        }
    }
}

impl std::fmt::Display for InputBuckets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for InputBuckets {
    type Err = String;
    fn from_str(s: &str) -> Result<InputBuckets, String> {
        InputBuckets::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("input buckets {s:?} (none, palace9 or palace6)"))
    }
}

/// What decides the number and the meaning of a net's parameters.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Arch {
    pub hidden: usize,
    pub activation: Activation,
    /// Output buckets by material ([`super::buckets`]), each with its own
    /// output row per side to move.
    pub buckets: usize,
    /// Input buckets by the perspective's own general.
    pub input_buckets: InputBuckets,
}

impl Arch {
    /// The architecture of the version 1 nets.
    pub fn v1(hidden: usize) -> Arch {
        Arch {
            hidden,
            activation: Activation::CRelu,
            buckets: 1,
            input_buckets: InputBuckets::None,
        }
    }

    /// Feature rows: 1260 per input bucket.
    pub fn inputs(&self) -> usize {
        self.input_buckets.count() * INPUTS
    }

    /// Output rows: one per side to move and bucket.
    pub fn out_rows(&self) -> usize {
        2 * self.buckets
    }

    /// The row of side to move `stm` (0 Cho, 1 Han) in bucket `bucket`.
    #[inline]
    pub fn row_index(&self, stm: usize, bucket: usize) -> usize {
        row_index(stm, bucket, self.buckets)
    }

    /// The oldest format version that can hold this architecture.
    pub fn version(&self) -> u32 {
        if self.input_buckets != InputBuckets::None {
            VERSION_3
        } else if self.activation == Activation::CRelu && self.buckets == 1 {
            VERSION_1
        } else {
            VERSION_2
        }
    }

    pub fn check(&self) -> Result<(), String> {
        check_hidden(self.hidden)?;
        check_buckets(self.buckets)
    }
}

/// One block of parameters.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// `[inputs][hidden]` ([`Arch::inputs`]), one row per feature.
    FtWeights,
    /// `[hidden]`.
    FtBias,
    /// `[2][buckets][2 * hidden]`: a row per side to move and bucket, its
    /// own perspective's half first.
    OutWeights,
    /// `[2][buckets]`, one per output row.
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

    /// Number of values in a net of `arch`.
    pub fn len(self, arch: &Arch) -> usize {
        let h = arch.hidden;
        match self {
            Block::FtWeights => arch.inputs() * h,
            Block::FtBias => h,
            Block::OutWeights => arch.out_rows() * 2 * h,
            Block::OutBias => arch.out_rows(),
        }
    }

    /// Bytes a value takes in the file: i16, or i32 for the output biases
    /// (they sit on the scale of the output's sum).
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

    /// What a float parameter is multiplied by before it is rounded: the
    /// output biases sit where the output's sum does, `peak * QB`.
    pub fn scale(self, qa: i32, qb: i32, act: Activation) -> i64 {
        match self {
            Block::FtWeights | Block::FtBias => qa as i64,
            Block::OutWeights => qb as i64,
            Block::OutBias => act.peak(qa) * qb as i64,
        }
    }

    /// Where the block lies in a flat vector of all the parameters in
    /// `ORDER`.
    pub fn range(self, arch: &Arch) -> Range<usize> {
        let mut at = 0;
        for b in Block::ORDER {
            if b == self {
                break;
            }
            at += b.len(arch);
        }
        at..at + self.len(arch)
    }
}

/// Number of parameters of a net of `arch`.
pub fn params(arch: &Arch) -> usize {
    Block::ORDER.iter().map(|b| b.len(arch)).sum()
}

/// Feature `f`'s row within [`Block::FtWeights`].
#[inline]
pub fn feature_row(f: usize, hidden: usize) -> Range<usize> {
    f * hidden..(f + 1) * hidden
}

/// The output row of side to move `stm` (0 Cho, 1 Han) in `bucket` of a
/// net with `buckets` buckets: the rows of Cho to move come first.
#[inline]
pub fn row_index(stm: usize, bucket: usize, buckets: usize) -> usize {
    stm * buckets + bucket
}

/// Output row `row` ([`row_index`]) within [`Block::OutWeights`].
#[inline]
pub fn out_row(row: usize, hidden: usize) -> Range<usize> {
    row * 2 * hidden..(row + 1) * 2 * hidden
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

/// Whether a net may have `buckets` output buckets.
pub fn check_buckets(buckets: usize) -> Result<(), String> {
    if !(1..=MAX_BUCKETS).contains(&buckets) {
        return Err(format!(
            "{buckets} output buckets (must be 1 to {MAX_BUCKETS})"
        ));
    }
    Ok(())
}

/// The overflow bound of the output layer.
///
/// The integer output is `sum_i a_i * w_i` over the `2N` units of both
/// perspectives, summed in i32 lanes, where `a_i` is the activation on the
/// integer scale: CReLU `a = v`, SCReLU `a = v * v`, with `v` the
/// accumulator clamped to `0..=QA`, so `0 <= a <= peak` (`QA` or `QA^2`).
/// Then every partial sum, in whatever order the lanes add, is at most
/// `peak * sum_i |w_i|` in magnitude; if that is at most `i32::MAX` no sum
/// can overflow, and the bias is added in i64 afterwards. SCReLU also
/// forms `v * w` in a 16-bit lane before multiplying by `v` again (the
/// AVX2 path's `mullo`), which is exact when `QA * |w_i| <= i16::MAX`.
/// (CReLU's products `v * w` are formed in 32 bits: at most
/// `1024 * 32767`, and a pair of them, `madd`'s unit, is below `2^27`.)
///
/// This checks one output row as a net holds it; the loader refuses a net
/// with a row that fails, so no net that loads can overflow.
pub fn check_output_row(act: Activation, qa: i32, row: &[i32]) -> Result<(), String> {
    if act == Activation::SCRelu {
        let wide = i16::MAX as i64 / qa as i64;
        if let Some(w) = row.iter().find(|w| (w.unsigned_abs() as i64) > wide) {
            return Err(format!(
                "output weight {w}: SCReLU with QA {qa} allows at most {wide} \
                 (QA * |w| must fit 16 bits)"
            ));
        }
    }
    let l1: i64 = row.iter().map(|w| w.unsigned_abs() as i64).sum();
    let worst = l1 * act.peak(qa);
    if worst > i32::MAX as i64 {
        return Err(format!(
            "output weights could overflow: their worst-case sum is {worst}, \
             beyond i32 ({} with QA {qa}, sum of |w| {l1})",
            act.name()
        ));
    }
    Ok(())
}

/// The largest |output weight| (quantised) the trainer lets a net of `arch`
/// have, so that any row of such weights passes [`check_output_row`]:
/// `2N * limit * peak <= i32::MAX` and, for SCReLU, `QA * limit <=
/// i16::MAX`. With QA 255 and 256 hidden units SCReLU allows 64 (1.0 after
/// QB = 64), CReLU 16448.
pub fn out_weight_limit(arch: &Arch, qa: i32) -> i32 {
    let n = 2 * arch.hidden as i64;
    let by_sum = i32::MAX as i64 / (n * arch.activation.peak(qa));
    let by_lane = match arch.activation {
        Activation::CRelu => i16::MAX as i64,
        Activation::SCRelu => i16::MAX as i64 / qa as i64,
    };
    by_sum.min(by_lane) as i32
}

/// What a net file's header says.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub version: u32,
    pub arch: Arch,
    pub qa: i32,
    pub qb: i32,
    /// Centipawns per output unit.
    pub scale: i32,
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

impl Header {
    /// The header a net of `arch` is written with: the oldest version that
    /// holds it.
    pub fn new(arch: Arch, qa: i32, qb: i32, scale: i32) -> Header {
        Header {
            version: arch.version(),
            arch,
            qa,
            qb,
            scale,
        }
    }

    /// Reads and checks a header; `b` may be longer than the header.
    pub fn parse(b: &[u8]) -> Result<Header, String> {
        if b.len() < 12 {
            return Err(format!("net file too short ({} bytes)", b.len()));
        }
        if &b[0..8] != MAGIC {
            return Err("not a Janggun net file (bad magic)".into());
        }
        let version = u32_at(b, 8);
        let size = match version {
            VERSION_1 => HEADER_SIZE_V1,
            VERSION_2 => HEADER_SIZE_V2,
            VERSION_3 => HEADER_SIZE_V3,
            v => {
                return Err(format!(
                    "net format version {v}, this build reads {VERSION_1} to {VERSION_3}"
                ))
            }
        };
        if b.len() < size {
            return Err(format!("net file too short ({} bytes)", b.len()));
        }
        let hidden = u32_at(b, 16) as usize;
        let arch = match version {
            VERSION_1 => Arch::v1(hidden),
            _ => Arch {
                hidden,
                activation: Activation::from_code(u32_at(b, 32))?,
                buckets: u32_at(b, 36) as usize,
                input_buckets: match version {
                    VERSION_2 => InputBuckets::None,
                    _ => InputBuckets::from_code(u32_at(b, 40))?,
                },
            },
        };
        let inputs = u32_at(b, 12) as usize;
        if inputs != arch.inputs() {
            return Err(format!(
                "net has {inputs} inputs, not {} ({} input buckets of {INPUTS})",
                arch.inputs(),
                arch.input_buckets
            ));
        }
        let h = Header {
            version,
            arch,
            qa: u32_at(b, 20) as i32,
            qb: u32_at(b, 24) as i32,
            scale: u32_at(b, 28) as i32,
        };
        h.check()?;
        Ok(h)
    }

    /// The ranges a loadable net keeps to.
    pub fn check(&self) -> Result<(), String> {
        self.arch.check()?;
        match self.version {
            VERSION_1 if self.arch.version() != VERSION_1 => {
                return Err(format!(
                    "a version 1 net has CReLU and one bucket, not {} and {}",
                    self.arch.activation, self.arch.buckets
                ))
            }
            VERSION_2 if self.arch.version() == VERSION_3 => {
                return Err(format!(
                    "a version 2 net has no input buckets, not {}",
                    self.arch.input_buckets
                ))
            }
            VERSION_1 | VERSION_2 | VERSION_3 => {}
            v => return Err(format!("net format version {v}")),
        }
        let (qa, qb, scale) = (self.qa, self.qb, self.scale);
        if !(1..=MAX_Q).contains(&qa)
            || !(1..=MAX_Q).contains(&qb)
            || !(1..=MAX_SCALE).contains(&scale)
        {
            return Err(format!("bad scales QA {qa}, QB {qb}, scale {scale}"));
        }
        Ok(())
    }

    /// The header's own length in bytes.
    pub fn size(&self) -> usize {
        match self.version {
            VERSION_1 => HEADER_SIZE_V1,
            VERSION_2 => HEADER_SIZE_V2,
            _ => HEADER_SIZE_V3,
        }
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(self.size());
        b.extend_from_slice(MAGIC);
        let mut words = vec![
            self.version,
            self.arch.inputs() as u32,
            self.arch.hidden as u32,
            self.qa as u32,
            self.qb as u32,
            self.scale as u32,
        ];
        if self.version != VERSION_1 {
            words.extend([self.arch.activation.code(), self.arch.buckets as u32]);
        }
        if self.version == VERSION_3 {
            words.push(self.arch.input_buckets.code());
        }
        for w in words {
            b.extend_from_slice(&w.to_le_bytes());
        }
        b
    }

    /// The whole file's size in bytes.
    pub fn file_size(&self) -> usize {
        self.size()
            + Block::ORDER
                .iter()
                .map(|b| b.len(&self.arch) * b.width())
                .sum::<usize>()
    }

    /// What the output's sum (bias included) is divided by to give output
    /// units: `peak * QB`.
    pub fn divisor(&self) -> i64 {
        self.arch.activation.peak(self.qa) * self.qb as i64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_tile_the_parameters_in_order() {
        for arch in [
            Arch::v1(32),
            Arch {
                hidden: 48,
                activation: Activation::SCRelu,
                buckets: 8,
                input_buckets: InputBuckets::None,
            },
            Arch {
                hidden: 16,
                activation: Activation::CRelu,
                buckets: 1,
                input_buckets: InputBuckets::Palace6,
            },
        ] {
            let mut at = 0;
            for b in Block::ORDER {
                assert_eq!(b.range(&arch).start, at);
                at = b.range(&arch).end;
            }
            assert_eq!(at, params(&arch));
            let head = Header::new(arch, QA, QB, 400);
            let bytes = head.to_bytes();
            assert_eq!(bytes.len(), head.size());
            assert_eq!(Header::parse(&bytes), Ok(head));
            // i16 values except the i32 output biases.
            assert_eq!(
                head.file_size(),
                head.size() + 2 * params(&arch) + 2 * arch.out_rows()
            );
            assert!(Header { scale: 0, ..head }.check().is_err());
        }
        assert_eq!(Arch::v1(32).version(), VERSION_1);
        assert_eq!(Header::new(Arch::v1(32), QA, QB, 1).size(), HEADER_SIZE_V1);
        assert!(check_hidden(17).is_err() && check_hidden(0).is_err());
        assert!(check_hidden(MAX_HIDDEN + HIDDEN_STEP).is_err());
        assert!(check_buckets(0).is_err() && check_buckets(MAX_BUCKETS + 1).is_err());
        // A version 1 header cannot claim what only version 2 says.
        let bad = Header {
            version: VERSION_1,
            ..Header::new(
                Arch {
                    buckets: 2,
                    ..Arch::v1(32)
                },
                QA,
                QB,
                1,
            )
        };
        assert!(bad.check().is_err());
        for a in Activation::ALL {
            assert_eq!(a.name().parse(), Ok(a));
            assert_eq!(Activation::from_code(a.code()), Ok(a));
        }
        assert!("relu".parse::<Activation>().is_err());
        assert!(Activation::from_code(2).is_err());
        for (l, k) in InputBuckets::ALL.into_iter().zip([1, 9, 6]) {
            assert_eq!(l.name().parse(), Ok(l));
            assert_eq!(InputBuckets::from_code(l.code()), Ok(l));
            let arch = Arch {
                input_buckets: l,
                ..Arch::v1(16)
            };
            assert_eq!(arch.inputs(), k * INPUTS);
            assert_eq!(Block::FtWeights.len(&arch), k * INPUTS * 16);
            let head = Header::new(arch, QA, QB, 1);
            assert_eq!(
                head.version,
                [VERSION_1, VERSION_3, VERSION_3][l.code() as usize]
            );
            assert_eq!(Header::parse(&head.to_bytes()), Ok(head));
        }
        assert_eq!(Header::new(Arch::v1(16), QA, QB, 1).size(), HEADER_SIZE_V1);
        assert!("palace".parse::<InputBuckets>().is_err());
        assert!(InputBuckets::from_code(3).is_err());
        // A version 2 header cannot claim input buckets.
        let bad = Header {
            version: VERSION_2,
            ..Header::new(
                Arch {
                    input_buckets: InputBuckets::Palace9,
                    ..Arch::v1(16)
                },
                QA,
                QB,
                1,
            )
        };
        assert!(bad.check().unwrap_err().contains("version 2"));
    }

    #[test]
    fn the_weight_limit_passes_the_overflow_check_and_one_more_fails() {
        for act in Activation::ALL {
            for hidden in [16, 256, 1024, MAX_HIDDEN] {
                let arch = Arch {
                    hidden,
                    activation: act,
                    buckets: 1,
                    input_buckets: InputBuckets::None,
                };
                let lim = out_weight_limit(&arch, QA);
                assert!(lim >= 1, "{act} {hidden}");
                let row = vec![lim; 2 * hidden];
                assert_eq!(check_output_row(act, QA, &row), Ok(()), "{act} {hidden}");
                // Every weight at the limit with one alternating sign too.
                let alt: Vec<i32> = (0..2 * hidden as i32)
                    .map(|i| if i % 2 == 0 { lim } else { -lim })
                    .collect();
                assert_eq!(check_output_row(act, QA, &alt), Ok(()));
                // One more is refused, unless the limit is the i16 range
                // itself (CReLU at small sizes), which the file cannot exceed.
                let over = vec![lim + 1; 2 * hidden];
                assert!(
                    lim == i16::MAX as i32 || check_output_row(act, QA, &over).is_err(),
                    "{act} {hidden}"
                );
            }
        }
        // The figures the documentation quotes.
        let screlu = Arch {
            hidden: 256,
            activation: Activation::SCRelu,
            buckets: 8,
            input_buckets: InputBuckets::None,
        };
        assert_eq!(out_weight_limit(&screlu, QA), 64);
        assert_eq!(out_weight_limit(&Arch::v1(256), QA), 16448);
        // One weight past the 16-bit product alone is refused.
        let mut row = vec![0; 512];
        row[7] = i16::MAX as i32 / QA + 1;
        let e = check_output_row(Activation::SCRelu, QA, &row).unwrap_err();
        assert!(e.contains("16 bits"), "{e}");
        assert_eq!(check_output_row(Activation::CRelu, QA, &row), Ok(()));
    }
}
