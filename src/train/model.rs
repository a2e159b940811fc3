//! The float network the trainer fits: the same shape as `nnue::Network`
//! (feature transformer shared by both perspectives, with its rows per
//! input bucket when it has them (`data::input` picks them), CReLU or SCReLU on
//! `[0, 1]`, output weight sets chosen by the side to move and the
//! material bucket), with all parameters in one flat vector, the blocks of
//! `nnue::layout` in their file order, so that the optimiser and
//! checkpoints see one array.
//!
//! A net with input buckets may be trained factorised: a factor block of
//! one row per feature, shared by every bucket, follows the file's blocks,
//! and a feature's weights are its bucket's row plus its factor row. A
//! bucket the general seldom stands on then still learns what a piece on a
//! point is worth from every position, and only the general's place is
//! learnt per bucket; export folds the factor rows into every bucket's, so
//! the net file and the engine know nothing of it. Unfactorised, the nine
//! or six times as many rows as a bucket-less net overfit the data we have
//! (gen1 to gen3, about 8 M positions): palace6 lost about 107 Elo to the
//! bucket-less net trained on the same positions.

use crate::nnue::buckets;
use crate::nnue::features::INPUTS;
use crate::nnue::layout::{self, Activation, Arch, Block, Header, QA, QB};
use crate::nnue::net::Network;
use crate::util::rng::Rng;

/// Feature weights stay where `QA` times them fits an i16 sum of 33 rows.
pub const FT_CLIP: f32 = 1.98;
/// CReLU's output weights stay where `QB` times them is small (SCReLU's
/// limit is tighter and depends on the hidden size: [`Model::out_clip`]).
pub const OUT_CLIP: f32 = 8.0;

/// One training position as the net sees it.
#[derive(Clone, Debug)]
pub struct Input {
    /// Active features of the side to move's perspective, then the other's.
    pub us: Vec<u16>,
    pub them: Vec<u16>,
    /// 0 Cho, 1 Han.
    pub stm: usize,
    /// Pieces on the board, generals included (the bucket's measure).
    pub pieces: u32,
    /// The blended target in `[0, 1]`.
    pub target: f32,
}

#[derive(Clone, Debug)]
pub struct Model {
    pub arch: Arch,
    /// The factor block follows the file's blocks (input buckets only).
    pub factorized: bool,
    pub params: Vec<f32>,
}

/// Per-thread buffers of a forward pass.
pub struct Scratch {
    pub(crate) us: Vec<f32>,
    pub(crate) them: Vec<f32>,
}

impl Scratch {
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            us: vec![0.0; hidden],
            them: vec![0.0; hidden],
        }
    }
}

#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The activation of accumulator value `x`.
#[inline]
fn act(a: Activation, x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    match a {
        Activation::CRelu => c,
        Activation::SCRelu => c * c,
    }
}

/// Its derivative (zero at and beyond the clipping points).
#[inline]
fn act_grad(a: Activation, x: f32) -> f32 {
    if x <= 0.0 || x >= 1.0 {
        return 0.0;
    }
    match a {
        Activation::CRelu => 1.0,
        Activation::SCRelu => 2.0 * x,
    }
}

/// A scale (centipawns per unit of the net's output) an exported net can
/// carry: the loader's range, and finite.
pub fn check_scale(scale: f32) -> Result<(), String> {
    let max = crate::nnue::layout::MAX_SCALE as f32;
    if !scale.is_finite() || !(1.0..=max).contains(&scale) {
        return Err(format!("scale {scale} (must be 1 to {max})"));
    }
    Ok(())
}

impl Model {
    /// Parameters of a model of `arch`, with the factor block if
    /// `factorized`.
    pub fn len_for(arch: &Arch, factorized: bool) -> usize {
        layout::params(arch) + if factorized { INPUTS * arch.hidden } else { 0 }
    }

    /// Where the factor block starts: after the file's blocks.
    fn factor_at(&self) -> usize {
        layout::params(&self.arch)
    }

    /// The factor row of feature `f` (of whichever bucket), as indices
    /// into `params`.
    #[inline]
    fn factor_row(&self, f: usize) -> std::ops::Range<usize> {
        let r = layout::feature_row(f % INPUTS, self.hidden());
        self.factor_at() + r.start..self.factor_at() + r.end
    }

    pub fn hidden(&self) -> usize {
        self.arch.hidden
    }

    fn ft_bias_at(&self) -> usize {
        Block::FtBias.range(&self.arch).start
    }

    pub(crate) fn out_at(&self) -> usize {
        Block::OutWeights.range(&self.arch).start
    }

    fn out_bias_at(&self) -> usize {
        Block::OutBias.range(&self.arch).start
    }

    /// The output row `x` is evaluated with ([`Arch::row_index`]).
    pub fn row_of(&self, x: &Input) -> usize {
        let bucket = buckets::bucket(x.pieces, self.arch.buckets);
        self.arch.row_index(x.stm, bucket)
    }

    /// Output row `row`'s weights, as indices into `params`.
    fn out_row(&self, row: usize) -> std::ops::Range<usize> {
        let r = layout::out_row(row, self.hidden());
        self.out_at() + r.start..self.out_at() + r.end
    }

    /// The largest |output weight| in float units: what quantises to at
    /// most [`layout::out_weight_limit`], so that an exported net always
    /// passes the loader's overflow check.
    pub fn out_clip(arch: &Arch) -> f32 {
        let lim = layout::out_weight_limit(arch, QA) as f32 / QB as f32;
        lim.min(OUT_CLIP)
    }

    /// Small random weights, fixed by `seed`, unfactorised.
    pub fn new(arch: Arch, seed: u64) -> Model {
        Model::with_factor(arch, false, seed)
    }

    /// Small random weights, fixed by `seed`, the factor block (where
    /// `factorized` and `arch` has input buckets) zero: the same starting
    /// net as unfactorised.
    pub fn with_factor(arch: Arch, factorized: bool, seed: u64) -> Model {
        let factorized = factorized && arch.input_buckets.count() > 1;
        let mut rng = Rng::stream(seed, 0x5EED);
        let mut m = Model {
            arch,
            factorized,
            params: vec![0.0; Model::len_for(&arch, factorized)],
        };
        let (fb, oa, ob) = (m.ft_bias_at(), m.out_at(), m.out_bias_at());
        let out_range = (1.0 / (2.0 * arch.hidden as f32).sqrt()).min(Model::out_clip(&arch));
        for (i, p) in m.params.iter_mut().enumerate() {
            *p = if i < fb {
                (rng.unit() * 2.0 - 1.0) * 0.1
            } else if i < oa {
                0.1
            } else if i < ob {
                (rng.unit() * 2.0 - 1.0) * out_range
            } else {
                0.0
            };
        }
        m
    }

    /// The parameters of the net file's blocks, the factor rows folded
    /// into every bucket's: what the exported net holds.
    pub fn folded(&self) -> std::borrow::Cow<'_, [f32]> {
        let fa = self.factor_at();
        if !self.factorized {
            return std::borrow::Cow::Borrowed(&self.params[..fa]);
        }
        let mut p = self.params[..fa].to_vec();
        let (factor, ft) = (&self.params[fa..], Block::FtWeights.range(&self.arch));
        for (i, w) in p[ft].iter_mut().enumerate() {
            *w += factor[i % factor.len()];
        }
        std::borrow::Cow::Owned(p)
    }

    /// Builds both accumulators (before the activation) into `s`.
    pub(crate) fn accumulate(&self, x: &Input, s: &mut Scratch) {
        let h = self.hidden();
        let bias = &self.params[self.ft_bias_at()..self.ft_bias_at() + h];
        for (acc, feats) in [(&mut s.us, &x.us), (&mut s.them, &x.them)] {
            acc.copy_from_slice(bias);
            for &f in feats.iter() {
                let row = &self.params[layout::feature_row(f as usize, h)];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += w;
                }
                if self.factorized {
                    for (a, w) in acc
                        .iter_mut()
                        .zip(&self.params[self.factor_row(f as usize)])
                    {
                        *a += w;
                    }
                }
            }
        }
    }

    /// The raw output (in units of the fitted scale).
    pub fn forward(&self, x: &Input, s: &mut Scratch) -> f32 {
        self.accumulate(x, s);
        let h = self.hidden();
        let a = self.arch.activation;
        let row = self.row_of(x);
        let w = &self.params[self.out_row(row)];
        let mut y = self.params[self.out_bias_at() + row];
        for i in 0..h {
            y += act(a, s.us[i]) * w[i] + act(a, s.them[i]) * w[h + i];
        }
        y
    }

    /// Adds `d loss / d params` of one sample to `grad`; returns its loss
    /// `(sigmoid(y) - target)^2`.
    pub fn backward(&self, x: &Input, s: &mut Scratch, grad: &mut [f32]) -> f32 {
        let y = self.forward(x, s);
        let p = sigmoid(y);
        let err = p - x.target;
        let g = 2.0 * err * p * (1.0 - p);
        let h = self.hidden();
        let a = self.arch.activation;
        let row = self.row_of(x);
        let oa = self.out_row(row).start;
        grad[self.out_bias_at() + row] += g;
        // The accumulators become their own gradients, in place.
        for i in 0..h {
            let (u, t) = (s.us[i], s.them[i]);
            grad[oa + i] += g * act(a, u);
            grad[oa + h + i] += g * act(a, t);
            s.us[i] = g * self.params[oa + i] * act_grad(a, u);
            s.them[i] = g * self.params[oa + h + i] * act_grad(a, t);
        }
        let fb = self.ft_bias_at();
        for i in 0..h {
            grad[fb + i] += s.us[i] + s.them[i];
        }
        for (d, feats) in [(&s.us, &x.us), (&s.them, &x.them)] {
            for &f in feats.iter() {
                let row = &mut grad[layout::feature_row(f as usize, h)];
                for (r, v) in row.iter_mut().zip(d.iter()) {
                    *r += v;
                }
                if self.factorized {
                    let row = &mut grad[self.factor_row(f as usize)];
                    for (r, v) in row.iter_mut().zip(d.iter()) {
                        *r += v;
                    }
                }
            }
        }
        err * err
    }

    /// Keeps weights where the quantised net can represent them, and the
    /// output weights where the integer output cannot overflow. Factorised,
    /// it is each folded weight (bucket row plus factor row) that is kept
    /// in range, so the export needs no clamp the float model did not have.
    pub fn clip(&mut self) {
        let oa = self.out_at();
        let ob = self.out_bias_at();
        let out = Model::out_clip(&self.arch);
        let fa = self.factor_at();
        let ft = Block::FtWeights.range(&self.arch);
        let (file, factor) = self.params.split_at_mut(fa);
        for p in factor.iter_mut() {
            *p = p.clamp(-FT_CLIP, FT_CLIP);
        }
        if self.factorized {
            for bucket in file[ft.clone()].chunks_mut(factor.len()) {
                for (p, u) in bucket.iter_mut().zip(factor.iter()) {
                    *p = p.clamp(-FT_CLIP - u, FT_CLIP - u);
                }
            }
        } else {
            for p in &mut file[ft.clone()] {
                *p = p.clamp(-FT_CLIP, FT_CLIP);
            }
        }
        for p in &mut file[ft.end..oa] {
            *p = p.clamp(-FT_CLIP, FT_CLIP);
        }
        for p in &mut file[oa..ob] {
            *p = p.clamp(-out, out);
        }
    }

    /// The quantised network: centipawns = output * `scale`. Every block
    /// is rounded on its own scale (`nnue::layout`) and clamped to what the
    /// file stores (the output weights to the overflow limit); the net is
    /// checked as the loader checks it, and written as the oldest format
    /// version that holds its architecture.
    pub fn quantise(&self, scale: f32) -> Result<Network, String> {
        check_scale(scale)?;
        if let Some(i) = self.params.iter().position(|p| !p.is_finite()) {
            return Err(format!("parameter {i} is not finite; no net written"));
        }
        let head = Header::new(self.arch, QA, QB, scale.round().max(1.0) as i32);
        let out_lim = layout::out_weight_limit(&self.arch, QA) as f32;
        let params = self.folded();
        // In f32, as the nets before SCReLU were made (every scale, QA^2 *
        // QB included, is exact in f32), so that they come out the same.
        let blocks = Block::ORDER.map(|b| {
            let q = b.scale(QA, QB, self.arch.activation) as f32;
            let lim = match b {
                Block::OutWeights => out_lim,
                _ => b.limit() as f32,
            };
            params[b.range(&self.arch)]
                .iter()
                .map(|&v| (v * q).round().clamp(-lim, lim) as i32)
                .collect()
        });
        Network::from_blocks(head, blocks)
    }
}
