//! `janggun tune <games>...`: Texel-style tuning of the evaluation weights
//! against game results. Games are lines `<start fen> | <result> | <moves>`
//! (`janggun selfplay` writes them). Every quiet position of every game
//! (not in check, no capture that wins material, past the opening plies)
//! becomes one sample: its feature counts (the evaluation is linear in the
//! weights), its phase and its result.
//! Full-batch Adam minimises the squared error between the result and
//! sigmoid(K * eval), with K fitted first and an L2 pull towards the current
//! weights; the new table is printed as Rust source for `tuned.rs`. Sums
//! run in parallel by fixed chunks and are added in chunk order, so the same
//! games always give the same table.

use crate::board::{legal_captures, parse_move, MoveList, Notation, Position, RuleSet};
use crate::search::eval::{evaluate_traced, Features};
use crate::search::params::{param_name, Params, MOB, NUM_PARAMS, PARAMS, PHASE_MAX, PST};
use crate::search::see::see_ge;
use rayon::prelude::*;

/// Samples per parallel work item.
const CHUNK: usize = 4096;

/// The longest game line read. Selfplay's longest game, 600 plies of at
/// most 5 characters each plus a FEN, is under 4 KB; a line 256 times
/// that is not a game (one endless line would otherwise be read whole).
const MAX_LINE: usize = 1 << 20;

struct Sample {
    game: usize,
    feats: Vec<(u16, i16)>,
    phase: f64,
    offset: f64,
    result: f64,
}

fn load(paths: &[String], skip_plies: usize) -> Result<Vec<Sample>, String> {
    let mut out = Vec::new();
    let mut game = 0;
    for path in paths {
        // A regular file only: a FIFO would block, a device never end.
        let (file, _) = crate::util::file::open_regular(std::path::Path::new(path))?;
        let mut r = std::io::BufReader::new(file);
        for ln in 0.. {
            let Some(line) = crate::util::file::read_line_capped(&mut r, MAX_LINE, ln + 1)
                .map_err(|e| format!("{path}: {e}"))?
            else {
                break;
            };
            let parts: Vec<&str> = line.split('|').map(str::trim).collect();
            if parts.len() != 3 {
                continue;
            }
            game += 1;
            // A result is a score in [0, 1]; NaN or inf would poison every
            // sum and still write a "tuned" table.
            let result: f64 = parts[1]
                .parse()
                .ok()
                .filter(|r: &f64| r.is_finite() && (0.0..=1.0).contains(r))
                .ok_or_else(|| {
                    format!(
                        "{path}:{}: bad result '{}' (expected a number from 0 to 1)",
                        ln + 1,
                        crate::util::text::clip(parts[1])
                    )
                })?;
            let mut pos = Position::from_fen(parts[0], RuleSet::Janggi)
                .map_err(|e| format!("{path}:{}: {e}", ln + 1))?;
            for (ply, s) in parts[2].split_whitespace().enumerate() {
                let Ok(m) = parse_move(&pos, s, Notation::Uci) else {
                    break;
                };
                pos.make(m);
                if ply + 1 < skip_plies || pos.in_check() {
                    continue;
                }
                let mut caps = MoveList::new();
                legal_captures(&pos, &mut caps);
                if caps.iter().any(|&c| see_ge(&pos, c, 1)) {
                    continue;
                }
                let (v, ph, f) = evaluate_traced(&pos, &PARAMS, Features(vec![0; NUM_PARAMS]));
                let feats: Vec<(u16, i16)> =
                    f.0.iter()
                        .enumerate()
                        .filter(|(_, &n)| n != 0)
                        .map(|(i, &n)| (i as u16, n as i16))
                        .collect();
                let linear = linear_eval(&feats, ph as f64 / PHASE_MAX as f64, &to_f64(&PARAMS));
                out.push(Sample {
                    game,
                    feats,
                    phase: ph as f64 / PHASE_MAX as f64,
                    // What the weights do not explain (the count term, rounding).
                    offset: v as f64 - linear,
                    result,
                });
            }
        }
    }
    Ok(out)
}

fn to_f64(p: &Params) -> Vec<[f64; 2]> {
    p.iter().map(|w| [w[0] as f64, w[1] as f64]).collect()
}

fn linear_eval(feats: &[(u16, i16)], phase: f64, w: &[[f64; 2]]) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, n) in feats {
        mg += w[i as usize][0] * n as f64;
        eg += w[i as usize][1] * n as f64;
    }
    mg * phase + eg * (1.0 - phase)
}

fn sigmoid(k: f64, v: f64) -> f64 {
    1.0 / (1.0 + (-k * v / 400.0).exp())
}

fn error(samples: &[Sample], w: &[[f64; 2]], k: f64) -> f64 {
    let partial: Vec<f64> = samples
        .par_chunks(CHUNK)
        .map(|chunk| {
            chunk
                .iter()
                .map(|s| {
                    let e = s.result - sigmoid(k, linear_eval(&s.feats, s.phase, w) + s.offset);
                    e * e
                })
                .sum::<f64>()
        })
        .collect();
    partial.iter().sum::<f64>() / samples.len().max(1) as f64
}

pub fn run(paths: &[String], epochs: usize, lambda: f64, freeze_pst: bool) -> Result<(), String> {
    let all = load(paths, 12)?;
    if all.len() < 100 {
        return Err(format!("only {} samples; need more games", all.len()));
    }
    // Every tenth game is held out: the weights kept are those with the
    // lowest error on games the tuner never saw.
    let (held, samples): (Vec<Sample>, Vec<Sample>) =
        all.into_iter().partition(|s| s.game % 10 == 0);
    if held.is_empty() {
        return Err("need at least 10 games: every tenth is held out".into());
    }
    let init = to_f64(&PARAMS);
    let mut w = init.clone();
    // Fit K by a coarse then fine scan.
    let mut k = 1.0;
    let mut best = f64::MAX;
    for step in [0.5, 0.1, 0.02] {
        let centre = k;
        for i in -10..=10 {
            let kk = centre + step * i as f64;
            if kk <= 0.0 {
                continue;
            }
            let e = error(&samples, &w, kk);
            if e < best {
                best = e;
                k = kk;
            }
        }
    }
    eprintln!(
        "{} samples ({} held out), K = {k:.3}, initial error {best:.6}, held-out {:.6}",
        samples.len(),
        held.len(),
        error(&held, &w, k)
    );
    let mut best_w = w.clone();
    let mut best_held = error(&held, &w, k);
    let mut best_epoch = 0;
    let (b1, b2, lr) = (0.9, 0.999, 1.0);
    let mut m = vec![[0.0f64; 2]; NUM_PARAMS];
    let mut v = vec![[0.0f64; 2]; NUM_PARAMS];
    let n = samples.len() as f64;
    for epoch in 1..=epochs {
        let partial: Vec<Vec<[f64; 2]>> = samples
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut grad = vec![[0.0f64; 2]; NUM_PARAMS];
                for s in chunk {
                    let p = sigmoid(k, linear_eval(&s.feats, s.phase, &w) + s.offset);
                    // d/dw of (r - p)^2 = -2 (r - p) p (1 - p) k / 400 * feature
                    let g = -2.0 * (s.result - p) * p * (1.0 - p) * k / 400.0;
                    for &(i, c) in &s.feats {
                        grad[i as usize][0] += g * c as f64 * s.phase / n;
                        grad[i as usize][1] += g * c as f64 * (1.0 - s.phase) / n;
                    }
                }
                grad
            })
            .collect();
        let mut grad = vec![[0.0f64; 2]; NUM_PARAMS];
        for part in &partial {
            for (x, y) in grad.iter_mut().zip(part) {
                x[0] += y[0];
                x[1] += y[1];
            }
        }
        for i in 0..NUM_PARAMS {
            // Piece-square entries each see few samples: with little data
            // they only learn noise, so they can be kept as they are.
            if freeze_pst && (PST..MOB).contains(&i) {
                continue;
            }
            for j in 0..2 {
                let g = grad[i][j] + lambda * (w[i][j] - init[i][j]);
                m[i][j] = b1 * m[i][j] + (1.0 - b1) * g;
                v[i][j] = b2 * v[i][j] + (1.0 - b2) * g * g;
                let mh = m[i][j] / (1.0 - b1.powi(epoch as i32));
                let vh = v[i][j] / (1.0 - b2.powi(epoch as i32));
                w[i][j] -= lr * mh / (vh.sqrt() + 1e-8);
            }
        }
        if epoch % 25 == 0 || epoch == epochs {
            let h = error(&held, &w, k);
            if h < best_held {
                best_held = h;
                best_w = w.clone();
                best_epoch = epoch;
            }
            if epoch % 100 == 0 {
                eprintln!(
                    "epoch {epoch}: error {:.6}, held-out {h:.6}",
                    error(&samples, &w, k)
                );
            }
        }
    }
    eprintln!("kept epoch {best_epoch}: held-out error {best_held:.6}");
    let w = best_w;
    crate::outln!(
        "// Tuned by `janggun tune` over {} samples (K = {k:.3}, held-out error {best_held:.6}).",
        samples.len()
    );
    crate::outln!("pub static TUNED: Params = [");
    for (i, x) in w.iter().enumerate() {
        crate::outln!(
            "    [{}, {}], // {}",
            x[0].round() as i16,
            x[1].round() as i16,
            param_name(i)
        );
    }
    crate::outln!("];");
    Ok(())
}
