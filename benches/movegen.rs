//! Move generation speed: legal moves over the reference positions,
//! make/unmake, and perft(4) from the start position.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use janggun::board::perft::perft;
use janggun::board::{legal_moves, MoveList, Position, RuleSet};

fn positions() -> Vec<Position> {
    let path = format!("{}/tests/data/positions.epd", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .expect("tests/data/positions.epd")
        .lines()
        .filter_map(|l| l.split(';').next())
        .filter_map(|fen| Position::from_fen(fen.trim(), RuleSet::Janggi).ok())
        .collect()
}

fn bench_movegen(c: &mut Criterion) {
    let positions = positions();
    c.bench_function("legal_moves/reference positions", |b| {
        let mut list = MoveList::new();
        b.iter(|| {
            let mut n = 0;
            for p in &positions {
                legal_moves(black_box(p), &mut list);
                n += list.len();
            }
            n
        })
    });

    let mut pos_moves: Vec<(Position, MoveList)> = positions
        .iter()
        .map(|p| {
            let mut l = MoveList::new();
            legal_moves(p, &mut l);
            (p.clone(), l)
        })
        .collect();
    c.bench_function("make_unmake/reference positions", |b| {
        b.iter(|| {
            for (p, list) in pos_moves.iter_mut() {
                for &m in list.iter() {
                    p.make(black_box(m));
                    p.unmake();
                }
            }
        })
    });

    let mut start = Position::startpos(RuleSet::Janggi);
    c.bench_function("perft(4)/start position", |b| {
        b.iter(|| perft(black_box(&mut start), 4))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = bench_movegen
}
criterion_main!(benches);
