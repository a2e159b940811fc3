//! The float network the trainer fits: the same shape as `nnue::Network`
//! (feature transformer shared by both perspectives, clipped ReLU to
//! `[0, 1]`, two output weight sets chosen by the side to move), with all
//! parameters in one flat vector, the blocks of `nnue::layout` in their
//! file order, so that the optimiser and checkpoints see one array.

use crate::nnue::layout::{self, Block, Header, QA, QB};
use crate::nnue::net::Network;
use crate::util::rng::Rng;

/// Feature weights stay where `QA` times them fits an i16 sum of 33 rows.
pub const FT_CLIP: f32 = 1.98;
/// Output weights stay where `QB` times them is small.
pub const OUT_CLIP: f32 = 8.0;

/// One training position as the net sees it.
#[derive(Clone, Debug)]
pub struct Input {
    /// Active features of the side to move's perspective, then the other's.
    pub us: Vec<u16>,
    pub them: Vec<u16>,
    /// 0 Cho, 1 Han.
    pub stm: usize,
    /// The blended target in `[0, 1]`.
    pub target: f32,
}

#[derive(Clone, Debug)]
pub struct Model {
    pub hidden: usize,
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

impl Model {
    pub fn len_for(hidden: usize) -> usize {
        layout::params(hidden)
    }

    fn ft_bias_at(&self) -> usize {
        Block::FtBias.range(self.hidden).start
    }

    pub(crate) fn out_at(&self) -> usize {
        Block::OutWeights.range(self.hidden).start
    }

    fn out_bias_at(&self) -> usize {
        Block::OutBias.range(self.hidden).start
    }

    /// The output weights for side to move `stm`, as indices into `params`.
    fn out_row(&self, stm: usize) -> std::ops::Range<usize> {
        let r = layout::out_row(stm, self.hidden);
        self.out_at() + r.start..self.out_at() + r.end
    }

    /// Small random weights, fixed by `seed`.
    pub fn new(hidden: usize, seed: u64) -> Model {
        let mut rng = Rng::stream(seed, 0x5EED);
        let mut m = Model {
            hidden,
            params: vec![0.0; Model::len_for(hidden)],
        };
        let (fb, oa, ob) = (m.ft_bias_at(), m.out_at(), m.out_bias_at());
        let out_range = 1.0 / (2.0 * hidden as f32).sqrt();
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

    /// Builds both accumulators (before the activation) into `s`.
    pub(crate) fn accumulate(&self, x: &Input, s: &mut Scratch) {
        let h = self.hidden;
        let bias = &self.params[self.ft_bias_at()..self.ft_bias_at() + h];
        for (acc, feats) in [(&mut s.us, &x.us), (&mut s.them, &x.them)] {
            acc.copy_from_slice(bias);
            for &f in feats.iter() {
                let row = &self.params[layout::feature_row(f as usize, h)];
                for (a, w) in acc.iter_mut().zip(row) {
                    *a += w;
                }
            }
        }
    }

    /// The raw output (in units of the fitted scale).
    pub fn forward(&self, x: &Input, s: &mut Scratch) -> f32 {
        self.accumulate(x, s);
        let h = self.hidden;
        let w = &self.params[self.out_row(x.stm)];
        let mut y = self.params[self.out_bias_at() + x.stm];
        for i in 0..h {
            y += s.us[i].clamp(0.0, 1.0) * w[i] + s.them[i].clamp(0.0, 1.0) * w[h + i];
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
        let h = self.hidden;
        let oa = self.out_row(x.stm).start;
        grad[self.out_bias_at() + x.stm] += g;
        // The accumulators become their own gradients, in place.
        for i in 0..h {
            let (u, t) = (s.us[i], s.them[i]);
            grad[oa + i] += g * u.clamp(0.0, 1.0);
            grad[oa + h + i] += g * t.clamp(0.0, 1.0);
            s.us[i] = if u > 0.0 && u < 1.0 {
                g * self.params[oa + i]
            } else {
                0.0
            };
            s.them[i] = if t > 0.0 && t < 1.0 {
                g * self.params[oa + h + i]
            } else {
                0.0
            };
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
            }
        }
        err * err
    }

    /// Keeps weights where the quantised net can represent them.
    pub fn clip(&mut self) {
        let oa = self.out_at();
        let ob = self.out_bias_at();
        for p in &mut self.params[..oa] {
            *p = p.clamp(-FT_CLIP, FT_CLIP);
        }
        for p in &mut self.params[oa..ob] {
            *p = p.clamp(-OUT_CLIP, OUT_CLIP);
        }
    }

    /// The quantised network: centipawns = output * `scale`. Every block
    /// is rounded on its own scale (`nnue::layout`) and clamped to what the
    /// file stores; the net is checked as the loader checks it.
    pub fn quantise(&self, scale: f32) -> Result<Network, String> {
        super::trainer::check_scale(scale)?;
        if let Some(i) = self.params.iter().position(|p| !p.is_finite()) {
            return Err(format!("parameter {i} is not finite; no net written"));
        }
        let head = Header {
            hidden: self.hidden,
            qa: QA,
            qb: QB,
            scale: scale.round().max(1.0) as i32,
        };
        let blocks = Block::ORDER.map(|b| {
            let (q, lim) = (b.scale(QA, QB) as f32, b.limit() as f32);
            self.params[b.range(self.hidden)]
                .iter()
                .map(|&v| (v * q).round().clamp(-lim, lim) as i32)
                .collect()
        });
        Network::from_blocks(head, blocks)
    }
}
