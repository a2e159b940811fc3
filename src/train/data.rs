//! Training samples from data records: features of both perspectives
//! (optionally mirrored left-right), the side to move, and the target that
//! blends the search score with the game's result.

use super::model::{sigmoid, Input, Model, Scratch};
use super::record::Sample;
use crate::nnue::features::active;
use crate::nnue::layout::InputBuckets;
use rayon::prelude::*;

/// Gradients of a batch are summed in this many fixed slices, then added
/// in slice order, so a seed gives the same net on any number of threads.
pub const CHUNKS: usize = 16;

/// The sample `s` (its mirror image if `mirrored`) as a net with input
/// buckets `layout` reads it.
pub fn input(s: &Sample, layout: InputBuckets, mirrored: bool, scale: f32, wdl: f32) -> Input {
    let mut us = Vec::with_capacity(32);
    let mut them = Vec::with_capacity(32);
    active(layout, &s.pieces, s.stm, mirrored, &mut us);
    active(layout, &s.pieces, !s.stm, mirrored, &mut them);
    let result = s.result as f32 / 2.0;
    let score = sigmoid(s.score as f32 / scale);
    Input {
        us,
        them,
        stm: s.stm.index(),
        pieces: s.pieces.len() as u32,
        target: wdl * result + (1.0 - wdl) * score,
    }
}

/// The scale K for which `sigmoid(score / K)` best predicts the results
/// (least squares, golden-section search on log K).
pub fn fit_scale(samples: &[Sample]) -> f32 {
    let err = |k: f64| -> f64 {
        samples
            .par_chunks(4096)
            .map(|c| {
                c.iter()
                    .map(|s| {
                        let p = 1.0 / (1.0 + (-(s.score as f64) / k).exp());
                        let d = p - s.result as f64 / 2.0;
                        d * d
                    })
                    .sum::<f64>()
            })
            .collect::<Vec<f64>>()
            .iter()
            .sum()
    };
    let (mut a, mut b) = (20f64.ln(), 3000f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if err(c.exp()) < err(d.exp()) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp() as f32
}

/// Splits `0..n` into `CHUNKS` nearly equal ranges.
fn chunk_ranges(n: usize) -> Vec<std::ops::Range<usize>> {
    (0..CHUNKS)
        .map(|c| c * n / CHUNKS..(c + 1) * n / CHUNKS)
        .collect()
}

/// Sum of the batch's gradients into `total` (overwritten) and its summed
/// loss. `grads` holds one buffer per chunk.
pub fn gradient(model: &Model, batch: &[Input], grads: &mut [Vec<f32>], total: &mut [f32]) -> f64 {
    let ranges = chunk_ranges(batch.len());
    let losses: Vec<f64> = grads
        .par_iter_mut()
        .zip(ranges.into_par_iter())
        .map(|(g, r)| {
            g.iter_mut().for_each(|v| *v = 0.0);
            let mut s = Scratch::new(model.hidden());
            batch[r]
                .iter()
                .map(|x| model.backward(x, &mut s, g) as f64)
                .sum()
        })
        .collect();
    const PART: usize = 1 << 14;
    total.par_chunks_mut(PART).enumerate().for_each(|(j, out)| {
        let at = j * PART;
        let len = out.len();
        out.copy_from_slice(&grads[0][at..at + len]);
        for g in &grads[1..] {
            for (o, v) in out.iter_mut().zip(&g[at..at + len]) {
                *o += v;
            }
        }
    });
    losses.iter().sum()
}

/// Mean loss over `inputs`, summed in fixed chunks.
pub fn mean_loss(model: &Model, inputs: &[Input]) -> f64 {
    if inputs.is_empty() {
        return 0.0;
    }
    let parts: Vec<f64> = inputs
        .par_chunks(1024)
        .map(|c| {
            let mut s = Scratch::new(model.hidden());
            c.iter()
                .map(|x| {
                    let d = sigmoid(model.forward(x, &mut s)) - x.target;
                    (d * d) as f64
                })
                .sum()
        })
        .collect();
    parts.iter().sum::<f64>() / inputs.len() as f64
}
