//! The gate metric: one fixed number for comparing nets trained with any
//! settings. It is the mean of `(sigmoid(eval / K) - sigmoid(score / K))^2`
//! over a held-out data file, where `eval` is the quantised net's
//! evaluation as the engine computes it (the `.jnn`, integer path,
//! centipawns) and `score` the record's search score: the score-only
//! target (result weight 0), whatever `--wdl` the net was trained with.
//!
//! K is fixed at [`GATE_K`] for every net, whatever scale a net carries:
//! 113 cp is the scale the shipped nets' data fitted (the K for which
//! `sigmoid(score / K)` best predicts the results of gen0 and gen1), so
//! differences count where a score still decides games and fade where a
//! position is won anyway.

use super::model::sigmoid;
use super::record::Sample;
use crate::nnue::{Accumulators, Network};
use rayon::prelude::*;

/// Centipawns per unit of the gate's sigmoid, the same for every net.
pub const GATE_K: f32 = 113.0;

/// Positions a parallel part sums; parts are added in order, so the loss
/// is the same on any number of threads.
const PART: usize = 4096;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GateLoss {
    pub positions: usize,
    /// The gate metric.
    pub loss: f64,
    /// Mean |eval - score| in centipawns, for reading alongside.
    pub mean_abs_cp: f64,
}

/// The gate metric of `net` over `samples`.
pub fn gate_loss(net: &Network, samples: &[Sample]) -> GateLoss {
    let parts: Vec<(f64, f64)> = samples
        .par_chunks(PART)
        .map(|c| {
            let mut acc = Accumulators::new(net, 1);
            let (mut loss, mut cp) = (0.0, 0.0);
            for s in c {
                let pos = s.placement();
                acc.refresh(net, &pos);
                let eval = acc.evaluate(net, &pos);
                let d = sigmoid(eval as f32 / GATE_K) - sigmoid(s.score as f32 / GATE_K);
                loss += (d * d) as f64;
                cp += (eval - s.score as i32).abs() as f64;
            }
            (loss, cp)
        })
        .collect();
    let n = samples.len().max(1) as f64;
    GateLoss {
        positions: samples.len(),
        loss: parts.iter().map(|p| p.0).sum::<f64>() / n,
        mean_abs_cp: parts.iter().map(|p| p.1).sum::<f64>() / n,
    }
}
