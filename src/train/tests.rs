use super::data::input;
use super::model::{self, Input, Model};
use super::record::Sample;
use super::trainer::{fit, quantisation_error, TrainConfig};
use crate::board::{Color, Piece, PieceKind, Square, NUM_SQUARES};
use crate::nnue::layout::{Activation, Arch, InputBuckets};
use crate::util::rng::Rng;
use model::{sigmoid, Scratch};

/// Random positions: both generals in their palaces plus up to 14 other
/// pieces anywhere free; the score is a known linear function (piece
/// values, own minus theirs, plus 30 for Cho to move).
fn synthetic(n: usize, seed: u64) -> Vec<Sample> {
    let mut rng = Rng::new(seed);
    let value = [0i32, 30, 30, 50, 130, 70, 20];
    (0..n)
        .map(|_| {
            let mut used = [false; NUM_SQUARES];
            let mut pieces = Vec::new();
            let mut place = |p: Piece, sq: usize, used: &mut [bool; NUM_SQUARES]| {
                used[sq] = true;
                pieces.push((p, Square::new(sq as u8)));
            };
            place(Piece::new(Color::Cho, PieceKind::General), 4, &mut used);
            place(Piece::new(Color::Han, PieceKind::General), 85, &mut used);
            for _ in 0..rng.below(15) {
                let sq = rng.below(NUM_SQUARES);
                if used[sq] {
                    continue;
                }
                let c = if rng.below(2) == 0 {
                    Color::Cho
                } else {
                    Color::Han
                };
                let k = PieceKind::ALL[1 + rng.below(6)];
                place(Piece::new(c, k), sq, &mut used);
            }
            pieces.sort_by_key(|&(_, sq)| sq);
            let stm = if rng.below(2) == 0 {
                Color::Cho
            } else {
                Color::Han
            };
            let mut score: i32 = pieces
                .iter()
                .map(|&(p, _)| {
                    let v = value[p.kind().index()];
                    if p.color() == stm {
                        v
                    } else {
                        -v
                    }
                })
                .sum();
            if stm == Color::Cho {
                score += 30;
            }
            Sample {
                pieces,
                stm,
                score: score as i16,
                result: 1,
            }
        })
        .collect()
}

fn loss_of(m: &Model, xs: &[Input]) -> f64 {
    let mut s = Scratch::new(m.hidden());
    xs.iter()
        .map(|x| {
            let d = (sigmoid(m.forward(x, &mut s)) - x.target) as f64;
            d * d
        })
        .sum()
}

/// Every architecture the trainer offers, small: both activations, with
/// and without buckets.
fn archs(hidden: usize) -> Vec<Arch> {
    let mut v = Vec::new();
    for activation in Activation::ALL {
        for buckets in [1, 4] {
            v.push(Arch {
                hidden,
                activation,
                buckets,
                input_buckets: InputBuckets::None,
            });
        }
    }
    v
}

/// The architectures with input buckets: both layouts, one with output
/// buckets and SCReLU, one without.
fn bucketed_archs(hidden: usize) -> Vec<Arch> {
    let mut v = Vec::new();
    for input_buckets in [InputBuckets::Palace9, InputBuckets::Palace6] {
        v.push(Arch {
            input_buckets,
            ..Arch::v1(hidden)
        });
        v.push(Arch {
            hidden,
            activation: Activation::SCRelu,
            buckets: 4,
            input_buckets,
        });
    }
    v
}

fn config(arch: Arch) -> TrainConfig {
    TrainConfig {
        hidden: arch.hidden,
        activation: arch.activation,
        buckets: arch.buckets,
        input_buckets: arch.input_buckets,
        factorize: false,
        epochs: 12,
        batch: 256,
        lr: 0.01,
        lr_floor: 0.05,
        weight_decay: 0.0,
        wdl: 0.0,
        scale: Some(100.0),
        seed: 4,
        mirror: true,
        checkpoint: None,
        resume: None,
    }
}

#[test]
fn gradients_match_finite_differences() {
    // Up to 16 pieces: buckets 0 and 1 of 4 both occur.
    let samples = synthetic(12, 3);
    let xs: Vec<Input> = samples
        .iter()
        .map(|s| input(s, InputBuckets::None, false, 100.0, 0.0))
        .collect();
    for arch in archs(8) {
        let mut m = Model::new(arch, 5);
        // Larger output weights than at initialisation make every gradient
        // visible at f32 precision.
        let h = m.hidden();
        let oa = m.out_at();
        for (i, p) in m.params[oa..].iter_mut().enumerate() {
            *p = ((i * 37 % 11) as f32 - 5.0) * 0.3;
        }
        let rows: std::collections::BTreeSet<usize> = xs.iter().map(|x| m.row_of(x)).collect();
        if arch.buckets > 1 {
            assert!(rows.len() > 2, "{arch:?}: rows {rows:?}");
        }
        // Parameters in use: rows of active features, biases, output layer.
        let mut candidates: Vec<usize> = xs
            .iter()
            .flat_map(|x| x.us.iter().chain(&x.them))
            .flat_map(|&f| (0..h).map(move |i| f as usize * h + i))
            .collect();
        candidates.extend(oa - h..m.params.len());
        check_gradients(&mut m, &xs, &candidates);
    }
}

/// `m`'s analytic gradients on `xs` against central differences at 400
/// parameters drawn from `candidates`; at least 300 of them must be off
/// every clipping kink, and each within 3% (or 1e-4).
fn check_gradients(m: &mut Model, xs: &[Input], candidates: &[usize]) {
    let (h, arch) = (m.hidden(), m.arch);
    let mut grad = vec![0f32; m.params.len()];
    let mut s = Scratch::new(h);
    for x in xs {
        m.backward(x, &mut s, &mut grad);
    }
    let eps = 1e-3f32;
    let mut checked = 0;
    let mut rng = Rng::new(9);
    for _ in 0..400 {
        let i = candidates[rng.below(candidates.len())];
        let orig = m.params[i];
        m.params[i] = orig + eps;
        let up = loss_of(m, xs);
        m.params[i] = orig - eps;
        let down = loss_of(m, xs);
        m.params[i] = orig;
        let numeric = (up - down) / (2.0 * eps as f64);
        let analytic = grad[i] as f64;
        // A step across a clipping kink has no derivative; skip those.
        m.params[i] = orig + eps;
        let above = regions(m, xs);
        m.params[i] = orig - eps;
        let below = regions(m, xs);
        m.params[i] = orig;
        if above != below {
            continue;
        }
        assert!(
            (numeric - analytic).abs() <= 1e-4 + 0.03 * analytic.abs(),
            "{arch:?} param {i}: numeric {numeric}, analytic {analytic}"
        );
        checked += 1;
    }
    assert!(checked > 300, "{arch:?}: only {checked} parameters checked");
}

/// Which piece of the clipped ReLU every accumulator unit is on.
fn regions(m: &Model, xs: &[Input]) -> Vec<u8> {
    let mut s = Scratch::new(m.hidden());
    let mut out = Vec::new();
    for x in xs {
        m.accumulate(x, &mut s);
        for v in s.us.iter().chain(&s.them) {
            out.push((*v > 0.0) as u8 + (*v >= 1.0) as u8);
        }
    }
    out
}

#[test]
fn training_recovers_a_linear_function_and_quantises_faithfully() {
    let train = synthetic(12000, 1);
    let val = synthetic(1000, 2);
    for arch in archs(16) {
        let opts = config(arch);
        let mut losses = Vec::new();
        let (m, scale) = fit(&train, &val, &opts, &mut |r| losses.push(r.val_loss)).unwrap();
        assert_eq!(losses.len(), 12);
        // The target's own spread, for scale: predicting the mean scores this.
        let xs: Vec<Input> = val
            .iter()
            .map(|s| input(s, arch.input_buckets, false, scale, 0.0))
            .collect();
        let mean = xs.iter().map(|x| x.target as f64).sum::<f64>() / xs.len() as f64;
        let var = xs
            .iter()
            .map(|x| (x.target as f64 - mean).powi(2))
            .sum::<f64>()
            / xs.len() as f64;
        let last = *losses.last().unwrap();
        assert!(
            last < var * 0.05,
            "{arch:?}: val loss {last} vs variance {var}"
        );
        assert!(last < losses[0], "{arch:?}: {losses:?}");
        // Centipawns: the net predicts the linear function within a few cp.
        let mut s = Scratch::new(m.hidden());
        let err: f64 = val
            .iter()
            .zip(&xs)
            .map(|(smp, x)| (m.forward(x, &mut s) * scale - smp.score as f32).abs() as f64)
            .sum::<f64>()
            / val.len() as f64;
        assert!(err < 15.0, "{arch:?}: mean error {err} cp");
        // Quantised against float on the held-out positions: within 2 cp on
        // average and 8 cp at worst.
        let (mean_q, worst_q) = quantisation_error(&m, scale, &val).unwrap();
        assert!(
            mean_q < 2.0 && worst_q <= 8,
            "{arch:?}: mean {mean_q}, worst {worst_q}"
        );
        // The exported net is of the architecture trained, in the oldest
        // format that holds it.
        let net = m.quantise(scale).unwrap();
        assert_eq!(net.arch(), arch);
        assert_eq!(net.version, arch.version());
    }
}

#[test]
fn training_is_deterministic_and_resumes_exactly() {
    let train = synthetic(3000, 7);
    let val = synthetic(200, 8);
    let dir = std::env::temp_dir().join(format!("janggun-ckpt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut opts = TrainConfig {
        hidden: 16,
        activation: Activation::SCRelu,
        buckets: 8,
        input_buckets: InputBuckets::None,
        factorize: false,
        epochs: 3,
        batch: 128,
        lr: 0.005,
        lr_floor: 0.01,
        weight_decay: 0.01,
        wdl: 0.5,
        scale: None,
        seed: 11,
        mirror: true,
        checkpoint: Some(dir.clone()),
        resume: None,
    };
    let (a, _) = fit(&train, &val, &opts, &mut |_| {}).unwrap();
    opts.checkpoint = None;
    let (b, _) = fit(&train, &val, &opts, &mut |_| {}).unwrap();
    assert_eq!(a.params, b.params);
    // Three epochs straight equal two, a checkpoint, then the third.
    opts.resume = Some(dir.join("epoch-2.ckpt"));
    let (d, _) = fit(&train, &val, &opts, &mut |_| {}).unwrap();
    assert_eq!(a.params, d.params);
    // A checkpoint of another architecture is refused, saying which.
    opts.buckets = 4;
    let e = fit(&train, &val, &opts, &mut |_| {}).err().unwrap();
    assert!(e.contains("8 buckets") && e.contains("4"), "{e}");
    opts.buckets = 8;
    // A different seed gives a different net.
    opts.resume = None;
    opts.seed = 12;
    let (e, _) = fit(&train, &val, &opts, &mut |_| {}).unwrap();
    assert_ne!(a.params, e.params);
    std::fs::remove_dir_all(&dir).ok();
}

/// Positions of random games from every setup, captures preferred half
/// the time so that all buckets are reached.
fn game_samples(seed: u64) -> Vec<Sample> {
    use crate::board::notation::setup_fen;
    use crate::board::{legal_moves, MoveList, Position, RuleSet, Setup};
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    for g in 0..16 {
        let fen = setup_fen(Setup::ALL[g / 4], Setup::ALL[g % 4]);
        let mut pos = Position::from_fen(&fen, RuleSet::Janggi).unwrap();
        for _ in 0..150 {
            out.push(Sample::from_position(&pos, 0, 1));
            let mut list = MoveList::new();
            legal_moves(&pos, &mut list);
            if list.is_empty() {
                break;
            }
            let moves = list.as_slice();
            let caps: Vec<_> = moves
                .iter()
                .filter(|m| !m.is_pass() && pos.piece_at(m.to()).is_some())
                .collect();
            let m = if !caps.is_empty() && rng.below(2) == 0 {
                *caps[rng.below(caps.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            pos.make(m);
        }
    }
    out
}

#[test]
fn float_and_quantised_nets_agree_on_random_positions() {
    let samples = game_samples(21);
    for arch in archs(64).into_iter().chain(bucketed_archs(64)) {
        let mut m = Model::new(arch, 7);
        // Weights of a trained net's size rather than the initial ones:
        // accumulators spread over the whole clipping range, output weights
        // up to the clip.
        let mut rng = Rng::new(8);
        let clip = Model::out_clip(&arch);
        let (fb, oa) = (m.out_at() - arch.hidden, m.out_at());
        let ob = m.params.len() - arch.out_rows();
        for (i, p) in m.params.iter_mut().enumerate() {
            let u = rng.unit() * 2.0 - 1.0;
            *p = if i < fb {
                u * 0.15
            } else if i < oa {
                0.25 + u * 0.35
            } else if i < ob {
                u * clip.min(1.0)
            } else {
                u
            };
        }
        let scale = 100.0;
        let net = m.quantise(scale).unwrap();
        let mut s = Scratch::new(arch.hidden);
        let spread = samples
            .iter()
            .map(|smp| {
                (m.forward(&input(smp, arch.input_buckets, false, scale, 0.0), &mut s) * scale)
                    .abs() as f64
            })
            .sum::<f64>()
            / samples.len() as f64;
        let (mean, worst) = quantisation_error(&m, scale, &samples).unwrap();
        assert!(
            spread > 100.0,
            "{arch:?}: evaluations too flat ({spread} cp)"
        );
        // The rounding of the feature weights to 1/QA alone gives about 1%
        // of the spread on average (CReLU and SCReLU alike); twice that is
        // a fault, as is a worst case past 8%. (The input bucket nets here
        // happen to spread less, about 150 cp, the rounding alike: their
        // worst case may reach 10%. A feature the trainer and the engine
        // read differently would cost far more: a row of 64 weights up to
        // 0.15 each.)
        let worst_part = if arch.input_buckets == InputBuckets::None {
            0.08
        } else {
            0.1
        };
        assert!(
            mean < 0.02 * spread && (worst as f64) < worst_part * spread,
            "{arch:?}: mean {mean}, worst {worst}, spread {spread}"
        );
        assert_eq!(net.arch(), arch);
    }
}

#[test]
fn trainer_and_inference_pick_the_same_bucket() {
    // Output weights zero and each row's bias its own index: the output
    // names the row, float and quantised alike.
    let samples = game_samples(22);
    for arch in archs(16).into_iter().chain(bucketed_archs(16)) {
        let mut m = Model::new(arch, 1);
        let (oa, ob) = (m.out_at(), m.params.len() - arch.out_rows());
        m.params[oa..ob].iter_mut().for_each(|p| *p = 0.0);
        for r in 0..arch.out_rows() {
            m.params[ob + r] = r as f32;
        }
        let net = m.quantise(100.0).unwrap();
        let mut s = Scratch::new(arch.hidden);
        let mut rows = std::collections::BTreeSet::new();
        for smp in &samples {
            let x = input(smp, arch.input_buckets, false, 100.0, 0.0);
            let row = m.forward(&x, &mut s).round() as usize;
            assert_eq!(row, m.row_of(&x));
            assert_eq!(net.evaluate(&smp.placement()), 100 * row as i32);
            let bucket = crate::nnue::buckets::bucket(smp.pieces.len() as u32, arch.buckets);
            assert_eq!(row, arch.row_index(smp.stm.index(), bucket));
            rows.insert(row);
        }
        assert_eq!(rows.len(), arch.out_rows(), "{arch:?}: {rows:?}");
    }
}

/// `m` exports a version 3 net of its own architecture whose integer
/// evaluation of `val` follows the float model's: within 2 cp on average,
/// 8 at worst.
fn assert_exports_faithfully(m: &Model, scale: f32, val: &[Sample]) {
    let arch = m.arch;
    let net = m.quantise(scale).unwrap();
    assert_eq!((net.version, net.arch()), (3, arch));
    let (mean, worst) = quantisation_error(m, scale, val).unwrap();
    assert!(
        mean < 2.0 && worst <= 8,
        "{arch:?}: mean {mean}, worst {worst}"
    );
}

/// The positions of `game_samples(seed)` split 4:1 into training and
/// held-out, and a new checkpoint directory named after `name`.
fn games_and_dir(seed: u64, name: &str) -> (Vec<Sample>, Vec<Sample>, std::path::PathBuf) {
    let all = game_samples(seed);
    let cut = all.len() * 4 / 5;
    let dir = std::env::temp_dir().join(format!("janggun-ckpt-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    (all[..cut].to_vec(), all[cut..].to_vec(), dir)
}

/// Input buckets in training: a short fit on game positions (whose
/// generals move about their palaces) lowers the loss, resumes exactly
/// from a checkpoint and exports a version 3 net of the layout trained,
/// whose integer evaluation follows the float model's.
#[test]
fn input_bucket_nets_train_resume_and_export() {
    let (train, val, dir) = games_and_dir(23, "ib");
    for arch in bucketed_archs(16) {
        let mut opts = config(arch);
        opts.epochs = 3;
        opts.checkpoint = Some(dir.clone());
        let mut losses = Vec::new();
        let (a, scale) = fit(&train, &val, &opts, &mut |r| losses.push(r.train_loss)).unwrap();
        assert!(losses[2] < losses[0], "{arch:?}: {losses:?}");
        opts.checkpoint = None;
        opts.resume = Some(dir.join("epoch-2.ckpt"));
        let (b, _) = fit(&train, &val, &opts, &mut |_| {}).unwrap();
        assert_eq!(a.params, b.params, "{arch:?}");
        // A checkpoint of the other layout is refused, naming both.
        let other = match arch.input_buckets {
            InputBuckets::Palace9 => InputBuckets::Palace6,
            _ => InputBuckets::Palace9,
        };
        opts.input_buckets = other;
        let e = fit(&train, &val, &opts, &mut |_| {}).err().unwrap();
        assert!(
            e.contains(&format!("input buckets {}", arch.input_buckets)),
            "{e}"
        );
        assert_exports_faithfully(&a, scale, &val);
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The mirror augmentation with palace6: the image of a position whose
/// general stands on the d- or f-file reads exactly the position's own
/// features (the view mirrors it back), one on the e-file other ones.
/// With palace9 the image has its general on another point, so another
/// bucket, unless on the e-file.
#[test]
fn mirrored_samples_under_input_buckets() {
    let samples = game_samples(24);
    let (mut same, mut differ) = (0, 0);
    for smp in &samples {
        for persp in [smp.stm, !smp.stm] {
            let g = crate::nnue::features::general_in(&smp.pieces, persp).unwrap();
            let x = input(smp, InputBuckets::Palace6, false, 100.0, 0.0);
            let y = input(smp, InputBuckets::Palace6, true, 100.0, 0.0);
            let (a, b) = if persp == smp.stm {
                (&x.us, &y.us)
            } else {
                (&x.them, &y.them)
            };
            if g.file() != 4 {
                assert_eq!(a, b);
                same += 1;
            } else {
                differ += (a != b) as u32;
            }
        }
    }
    assert!(same > 100 && differ > 100, "{same} {differ}");
}

/// A factorised model of `arch` with weights of a trained net's size in
/// every block, the factor block included.
fn factorized_model(arch: Arch, seed: u64) -> Model {
    let mut m = Model::with_factor(arch, true, seed);
    assert!(m.factorized);
    let file = crate::nnue::layout::params(&arch);
    assert_eq!(
        m.params.len(),
        file + crate::nnue::features::INPUTS * arch.hidden
    );
    let mut rng = Rng::new(seed);
    let (fb, oa) = (m.out_at() - arch.hidden, m.out_at());
    let ob = file - arch.out_rows();
    let clip = Model::out_clip(&arch).min(1.0);
    for (i, p) in m.params.iter_mut().enumerate() {
        let u = rng.unit() * 2.0 - 1.0;
        *p = match i {
            i if i < fb || i >= file => u * 0.08,
            i if i < oa => 0.25 + u * 0.35,
            i if i < ob => u * clip,
            _ => u,
        };
    }
    m
}

/// Factorised training: the gradient reaches the bucket row and the
/// factor row of every active feature, as central differences say.
#[test]
fn factorized_gradients_match_finite_differences() {
    let samples: Vec<Sample> = game_samples(25).into_iter().step_by(97).take(16).collect();
    for arch in bucketed_archs(8) {
        let mut m = factorized_model(arch, 5);
        let xs: Vec<Input> = samples
            .iter()
            .map(|s| input(s, arch.input_buckets, false, 100.0, 0.0))
            .collect();
        let (h, file) = (arch.hidden, crate::nnue::layout::params(&arch));
        let inputs = crate::nnue::features::INPUTS;
        let buckets: std::collections::BTreeSet<usize> = xs
            .iter()
            .flat_map(|x| x.us.iter().chain(&x.them))
            .map(|&f| f as usize / inputs)
            .collect();
        assert!(buckets.len() > 1, "{arch:?}: buckets {buckets:?}");
        let mut candidates = Vec::new();
        for &f in xs.iter().flat_map(|x| x.us.iter().chain(&x.them)) {
            let f = f as usize;
            candidates.extend((0..h).map(|i| f * h + i));
            candidates.extend((0..h).map(|i| file + (f % inputs) * h + i));
        }
        candidates.extend(m.out_at() - h..file);
        check_gradients(&mut m, &xs, &candidates);
    }
}

/// The factor block is folded into every bucket's rows at export: the
/// factorised model, an unfactorised one holding the folded weights and
/// the exported net all evaluate alike, and clipping keeps each folded
/// weight where the net file can hold it.
#[test]
fn factorized_models_fold_into_the_net_file() {
    let samples = game_samples(26);
    for arch in bucketed_archs(32) {
        let fm = factorized_model(arch, 9);
        let plain = Model {
            arch,
            factorized: false,
            params: fm.folded().into_owned(),
        };
        assert_eq!(plain.params.len(), Model::len_for(&arch, false));
        let mut s = Scratch::new(arch.hidden);
        for smp in samples.iter().step_by(7) {
            let x = input(smp, arch.input_buckets, false, 100.0, 0.0);
            let (a, b) = (fm.forward(&x, &mut s), plain.forward(&x, &mut s));
            assert!((a - b).abs() < 1e-4, "{arch:?}: {a} vs {b}");
        }
        let (net, again) = (fm.quantise(100.0).unwrap(), plain.quantise(100.0).unwrap());
        assert_eq!(net.to_bytes(), again.to_bytes(), "{arch:?}");
        let (mean, worst) = quantisation_error(&fm, 100.0, &samples).unwrap();
        assert!(
            mean < 3.0 && worst <= 15,
            "{arch:?}: mean {mean}, worst {worst}"
        );
        // Weights driven past the clip from either side: clipped, every
        // folded feature weight and every factor weight is within it.
        let mut big = fm.clone();
        let mut rng = Rng::new(3);
        for p in big.params.iter_mut() {
            *p = (rng.unit() * 2.0 - 1.0) * 3.0 * model::FT_CLIP;
        }
        big.clip();
        let ft = crate::nnue::layout::Block::FtWeights.range(&arch);
        let folded = big.folded();
        let lim = model::FT_CLIP + 1e-5;
        assert!(folded[ft].iter().all(|w| w.abs() <= lim));
        let file = crate::nnue::layout::params(&arch);
        assert!(big.params[file..].iter().all(|w| w.abs() <= lim));
        // An unfactorised model is its own folding.
        let m = Model::new(arch, 2);
        assert!(!m.factorized && m.folded()[..] == m.params[..]);
    }
}

/// Factorised training on game positions lowers the loss, resumes exactly
/// from its checkpoint, refuses an unfactorised checkpoint (and the other
/// way round), and exports a net of the layout trained that follows the
/// float model.
#[test]
fn factorized_training_resumes_and_exports() {
    let (train, val, dir) = games_and_dir(27, "fac");
    for arch in bucketed_archs(16) {
        let mut opts = config(arch);
        opts.factorize = true;
        opts.epochs = 3;
        opts.checkpoint = Some(dir.clone());
        let mut losses = Vec::new();
        let (a, scale) = fit(&train, &val, &opts, &mut |r| losses.push(r.train_loss)).unwrap();
        assert!(a.factorized);
        assert!(losses[2] < losses[0], "{arch:?}: {losses:?}");
        opts.checkpoint = None;
        opts.resume = Some(dir.join("epoch-2.ckpt"));
        let (b, _) = fit(&train, &val, &opts, &mut |_| {}).unwrap();
        assert_eq!(a.params, b.params, "{arch:?}");
        opts.factorize = false;
        let e = fit(&train, &val, &opts, &mut |_| {}).err().unwrap();
        assert!(
            e.contains("factorised; not") && e.contains("unfactorised"),
            "{e}"
        );
        assert_exports_faithfully(&a, scale, &val);
        // The other way round: an unfactorised checkpoint, a factorised run.
        opts.resume = None;
        opts.epochs = 1;
        opts.checkpoint = Some(dir.clone());
        fit(&train, &val, &opts, &mut |_| {}).unwrap();
        opts.factorize = true;
        opts.checkpoint = None;
        opts.resume = Some(dir.join("epoch-1.ckpt"));
        let e = fit(&train, &val, &opts, &mut |_| {}).err().unwrap();
        assert!(
            e.contains("unfactorised; not") && e.ends_with("factorised"),
            "{e}"
        );
    }
    // Without input buckets there is nothing to factorise: the same net.
    let arch = archs(16)[0];
    let mut opts = config(arch);
    opts.epochs = 1;
    let (plain, _) = fit(&train, &val, &opts, &mut |_| {}).unwrap();
    opts.factorize = true;
    let (same, _) = fit(&train, &val, &opts, &mut |_| {}).unwrap();
    assert!(!same.factorized);
    assert_eq!(plain.params, same.params);
    std::fs::remove_dir_all(&dir).ok();
}
