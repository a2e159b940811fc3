//! `janggun train`: fits the float network to data records with AdamW on
//! the loss `(sigmoid(y) - target)^2`, where the target blends
//! `sigmoid(score / K)` with the game's result (weight `wdl`), K fitted to
//! the data unless given. Every epoch prints the training and held-out
//! losses and the speed, and writes a checkpoint; the end exports the
//! quantised net as `nn-<hash>.jnn`.

use super::checkpoint::{self, Checkpoint};
use super::data::{fit_scale, gradient, input, mean_loss, CHUNKS};
use super::model::{self, check_scale, Input, Model};
use super::optim::{cosine, AdamW};
use super::record::Sample;
use crate::nnue::layout::{Activation, Arch, InputBuckets};
use crate::util::rng::Rng;
use rayon::prelude::*;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub hidden: usize,
    pub activation: Activation,
    /// Output buckets by material (`nnue::buckets`); 1 for none.
    pub buckets: usize,
    /// Input buckets by the perspective's own general (`nnue::features::View`).
    pub input_buckets: InputBuckets,
    /// Train the bucketed feature rows factorised (`model`): ignored
    /// without input buckets.
    pub factorize: bool,
    pub epochs: u32,
    pub batch: usize,
    pub lr: f32,
    /// The cosine schedule ends at `lr * lr_floor`.
    pub lr_floor: f32,
    pub weight_decay: f32,
    pub wdl: f32,
    /// `None`: fitted to the training data.
    pub scale: Option<f32>,
    pub seed: u64,
    /// Train on each position and its mirror image.
    pub mirror: bool,
    /// A directory for the checkpoints, `epoch-N.ckpt` after epoch N.
    pub checkpoint: Option<PathBuf>,
    pub resume: Option<PathBuf>,
}

/// Most epochs and largest batch a run may ask for.
pub const MAX_EPOCHS: u32 = 100_000;
pub const MAX_BATCH: usize = 1 << 20;

/// `value` finite and in `lo..=hi`, or an error naming the setting.
fn check_range(name: &str, value: f32, lo: f32, hi: f32, open_lo: bool) -> Result<(), String> {
    let above_lo = if open_lo { value > lo } else { value >= lo };
    if !value.is_finite() || !above_lo || value > hi {
        let from = if open_lo { "above" } else { "from" };
        return Err(format!("--{name} {value} (must be {from} {lo} up to {hi})"));
    }
    Ok(())
}

impl TrainConfig {
    pub fn arch(&self) -> Arch {
        Arch {
            hidden: self.hidden,
            activation: self.activation,
            buckets: self.buckets,
            input_buckets: self.input_buckets,
        }
    }

    /// Whether the model is factorised: asked for, and input buckets to
    /// factorise.
    pub fn factorized(&self) -> bool {
        self.factorize && self.input_buckets != InputBuckets::None
    }

    /// Every setting checked before any work, each error naming its
    /// option: a NaN or an infinity would train a net of NaN, which
    /// exports as zeros, and a scale out of the loader's range exports a
    /// net `EvalFile` refuses.
    pub fn validate(&self) -> Result<(), String> {
        crate::nnue::layout::check_hidden(self.hidden).map_err(|e| format!("--hidden: {e}"))?;
        crate::nnue::layout::check_buckets(self.buckets).map_err(|e| format!("--buckets: {e}"))?;
        if !(1..=MAX_EPOCHS).contains(&self.epochs) {
            return Err(format!(
                "--epochs {} (must be 1 to {MAX_EPOCHS})",
                self.epochs
            ));
        }
        if !(1..=MAX_BATCH).contains(&self.batch) {
            return Err(format!("--batch {} (must be 1 to {MAX_BATCH})", self.batch));
        }
        check_range("lr", self.lr, 0.0, 1.0, true)?;
        check_range("lr-floor", self.lr_floor, 0.0, 1.0, false)?;
        check_range("weight-decay", self.weight_decay, 0.0, 1.0, false)?;
        check_range("wdl", self.wdl, 0.0, 1.0, false)?;
        if let Some(s) = self.scale {
            check_scale(s).map_err(|e| format!("--{e}"))?;
        }
        Ok(())
    }
}

/// What an epoch reports.
pub struct EpochReport {
    pub epoch: u32,
    pub train_loss: f64,
    pub val_loss: f64,
    pub positions_per_s: f64,
    pub lr: f32,
}

/// Trains on `train` and measures on `val`; `report` sees every epoch.
/// Returns the model and the scale it was trained with.
pub fn fit(
    train: &[Sample],
    val: &[Sample],
    opts: &TrainConfig,
    report: &mut dyn FnMut(&EpochReport),
) -> Result<(Model, f32), String> {
    if train.is_empty() {
        return Err("no training positions".into());
    }
    opts.validate()?;
    let (mut model, mut adam, first_epoch, scale) = match &opts.resume {
        Some(p) => {
            let c = checkpoint::load(p, opts.weight_decay)?;
            if c.model.arch != opts.arch() || c.model.factorized != opts.factorized() {
                let (a, b) = (c.model.arch, opts.arch());
                let fac = |f: bool| if f { "factorised" } else { "unfactorised" };
                return Err(format!(
                    "checkpoint has hidden size {}, {}, {} buckets, input buckets {}, {}; \
                     not {}, {}, {}, {}, {}",
                    a.hidden,
                    a.activation,
                    a.buckets,
                    a.input_buckets,
                    fac(c.model.factorized),
                    b.hidden,
                    b.activation,
                    b.buckets,
                    b.input_buckets,
                    fac(opts.factorized())
                ));
            }
            (c.model, c.adam, c.epochs_done, c.scale)
        }
        None => {
            let model = Model::with_factor(opts.arch(), opts.factorized(), opts.seed);
            let adam = AdamW::new(model.params.len(), opts.weight_decay);
            let scale = opts.scale.unwrap_or_else(|| fit_scale(train));
            (model, adam, 0, scale)
        }
    };
    let layout = opts.input_buckets;
    let variants = if opts.mirror { 2 } else { 1 };
    let n = train.len() * variants;
    let val_inputs: Vec<Input> = val
        .par_iter()
        .map(|s| input(s, layout, false, scale, opts.wdl))
        .collect();
    let steps_per_epoch = n.div_ceil(opts.batch) as u64;
    let total_steps = steps_per_epoch * opts.epochs as u64;
    let mut grads = vec![vec![0f32; model.params.len()]; CHUNKS];
    let mut total = vec![0f32; model.params.len()];
    for epoch in first_epoch..opts.epochs {
        let start = Instant::now();
        let mut order: Vec<u32> = (0..n as u32).collect();
        let mut rng = Rng::stream(opts.seed, 1 + epoch as u64);
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut loss_sum = 0.0;
        let mut lr = opts.lr;
        for batch_idx in order.chunks(opts.batch) {
            let inputs: Vec<Input> = batch_idx
                .par_iter()
                .map(|&i| {
                    let i = i as usize;
                    let s = &train[i / variants];
                    input(s, layout, i % variants == 1, scale, opts.wdl)
                })
                .collect();
            loss_sum += gradient(&model, &inputs, &mut grads, &mut total);
            let inv = 1.0 / inputs.len() as f32;
            total.par_iter_mut().for_each(|g| *g *= inv);
            lr = cosine(opts.lr, adam.t, total_steps, opts.lr_floor);
            adam.step(&mut model.params, &total, lr);
            model.clip();
        }
        let secs = start.elapsed().as_secs_f64().max(1e-9);
        let train_loss = loss_sum / n as f64;
        // A diverged model is never checkpointed or exported.
        if !train_loss.is_finite() || model.params.iter().any(|p| !p.is_finite()) {
            return Err(format!(
                "training diverged in epoch {} (loss {train_loss}); try a lower --lr",
                epoch + 1
            ));
        }
        report(&EpochReport {
            epoch: epoch + 1,
            train_loss,
            val_loss: mean_loss(&model, &val_inputs),
            positions_per_s: n as f64 / secs,
            lr,
        });
        if let Some(dir) = &opts.checkpoint {
            let path = dir.join(format!("epoch-{}.ckpt", epoch + 1));
            let c = Checkpoint {
                model,
                adam,
                epochs_done: epoch + 1,
                scale,
            };
            checkpoint::save(&path, &c)?;
            (model, adam) = (c.model, c.adam);
        }
    }
    Ok((model, scale))
}

/// Records of one game are neighbours in a data file, so held-out records
/// come in blocks of this many: a game's positions fall on one side (but
/// at block edges), and the validation loss is not flattered by games the
/// net has seen.
pub const VAL_BLOCK: usize = 1024;

/// The held-out split: every 20th block of records, unless a validation
/// file is given.
pub fn split(records: Vec<Sample>, val: Option<Vec<Sample>>) -> (Vec<Sample>, Vec<Sample>) {
    match val {
        Some(v) => (records, v),
        None => {
            // Too little data for 20 blocks: every 20th record instead.
            let block = if records.len() >= 20 * VAL_BLOCK {
                VAL_BLOCK
            } else {
                1
            };
            let (mut t, mut v) = (Vec::new(), Vec::new());
            for (i, s) in records.into_iter().enumerate() {
                if (i / block) % 20 == 19 {
                    v.push(s);
                } else {
                    t.push(s);
                }
            }
            (t, v)
        }
    }
}

/// Mean and largest |quantised - float| in centipawns over `samples`.
pub fn quantisation_error(
    model: &Model,
    scale: f32,
    samples: &[Sample],
) -> Result<(f64, i32), String> {
    let net = model.quantise(scale)?;
    let mut s = model::Scratch::new(model.hidden());
    let (mut sum, mut worst) = (0.0, 0);
    for smp in samples {
        let x = input(smp, model.arch.input_buckets, false, scale, 0.0);
        let f = (model.forward(&x, &mut s) * net.scale as f32) as f64;
        let q = net.evaluate(&smp.placement()) as f64;
        let d = (q - f).abs();
        sum += d;
        worst = worst.max(d.ceil() as i32);
    }
    Ok((sum / samples.len().max(1) as f64, worst))
}
