//! AdamW with a cosine learning-rate schedule. Every parameter is updated
//! on its own, so the parallel loop gives the same result on any number of
//! threads.

use rayon::prelude::*;

pub struct AdamW {
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    /// Steps taken so far (for the bias correction).
    pub t: u64,
    pub beta1: f32,
    pub beta2: f32,
    pub weight_decay: f32,
}

impl AdamW {
    pub fn new(len: usize, weight_decay: f32) -> AdamW {
        AdamW {
            m: vec![0.0; len],
            v: vec![0.0; len],
            t: 0,
            beta1: 0.9,
            beta2: 0.999,
            weight_decay,
        }
    }

    pub fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        self.t += 1;
        let (b1, b2, wd) = (self.beta1, self.beta2, self.weight_decay);
        let c1 = 1.0 - b1.powi(self.t.min(1 << 20) as i32);
        let c2 = 1.0 - b2.powi(self.t.min(1 << 20) as i32);
        const CHUNK: usize = 1 << 14;
        params
            .par_chunks_mut(CHUNK)
            .zip(self.m.par_chunks_mut(CHUNK))
            .zip(self.v.par_chunks_mut(CHUNK))
            .zip(grad.par_chunks(CHUNK))
            .for_each(|(((p, m), v), g)| {
                for i in 0..p.len() {
                    m[i] = b1 * m[i] + (1.0 - b1) * g[i];
                    v[i] = b2 * v[i] + (1.0 - b2) * g[i] * g[i];
                    let update = (m[i] / c1) / ((v[i] / c2).sqrt() + 1e-8);
                    p[i] -= lr * (update + wd * p[i]);
                }
            });
    }
}

/// Cosine decay from `lr` to `lr * floor` over `total` steps.
pub fn cosine(lr: f32, step: u64, total: u64, floor: f32) -> f32 {
    let x = (step as f32 / total.max(1) as f32).min(1.0);
    lr * (floor + (1.0 - floor) * 0.5 * (1.0 + (std::f32::consts::PI * x).cos()))
}
