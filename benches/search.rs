//! Search speed: static evaluation over the bench positions, and a
//! fixed-depth search of a few of them with one and two threads.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use janggun::board::{Position, RuleSet};
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
