//! Search speed: static evaluation over the bench positions (classical,
//! and the net's output layer for each activation, with and without
//! output buckets), and a fixed-depth search of a few of them with one and
//! two threads.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use janggun::board::{Position, RuleSet};
use janggun::nnue::layout::{Activation, Arch};
use janggun::nnue::{embedded, Accumulators};
use janggun::search::{eval, Control, Engine, Limits, Settings};
use janggun::tools::bench::fens;

fn positions() -> Vec<Position> {
    fens()
        .into_iter()
        .filter_map(|f| Position::from_fen(f, RuleSet::Janggi).ok())
        .collect()
}

fn bench_search(c: &mut Criterion) {
    let positions = positions();
    c.bench_function("evaluate/bench positions", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| eval::evaluate(black_box(p)))
                .sum::<i32>()
        })
    });
    // The output layer alone (the accumulators are ready): what the
    // activation and the bucket cost a node. Untrained nets of the shipped
    // net's size, as `janggun net random` writes them; the shipped net too.
    let shipped = embedded::network().unwrap();
    let mut nets = vec![("shipped".to_string(), shipped)];
    for activation in Activation::ALL {
        for buckets in [1, 8] {
            let arch = Arch {
                hidden: 256,
                activation,
                buckets,
                input_buckets: janggun::nnue::layout::InputBuckets::None,
            };
            let net = janggun::train::model::Model::new(arch, 1)
                .quantise(113.0)
                .unwrap();
            nets.push((format!("{activation} {buckets}"), std::sync::Arc::new(net)));
        }
    }
    for (name, net) in &nets {
        let mut accs: Vec<Accumulators> = positions
            .iter()
            .map(|p| {
                let mut a = Accumulators::new(net, 1);
                a.refresh(net, p);
                a
            })
            .collect();
        c.bench_function(&format!("nnue output/{name}"), |b| {
            b.iter(|| {
                accs.iter_mut()
                    .zip(&positions)
                    .map(|(a, p)| a.evaluate(net, black_box(p)))
                    .sum::<i32>()
            })
        });
    }
    let limits = Limits {
        depth: Some(7),
        ..Limits::default()
    };
    for threads in [1, 2] {
        let mut engine = Engine::new(Settings {
            threads,
            ..Settings::default()
        });
        let control = Control::new();
        let mut group = c.benchmark_group("search");
        group.sample_size(10);
        group.bench_function(format!("depth 7, 6 positions, {threads} thread(s)"), |b| {
            b.iter(|| {
                let mut nodes = 0;
                for p in positions.iter().step_by(8) {
                    engine.clear();
                    nodes += engine.search(p, &limits, &control, &mut |_| {}).nodes;
                }
                nodes
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench_search);
criterion_main!(benches);
