//! A search with the embedded net: the same positions give the same nodes
//! and moves run after run (the accumulators leave nothing behind between
//! searches), and the search finds moves.

use janggun::board::{Position, RuleSet};
use janggun::nnue::{Evaluator, NetChoice};
use janggun::search::{Control, Engine, Limits, Settings};

#[test]
fn nnue_search_is_deterministic() {
    let run = || {
        let mut engine = Engine::new(Settings {
            eval: Evaluator::load(&NetChoice::Embedded).unwrap(),
            ..Settings::default()
        });
        let limits = Limits {
            depth: Some(7),
            ..Limits::default()
        };
        janggun::tools::bench::fens()
            .iter()
            .take(12)
            .map(|fen| {
                let pos = Position::from_fen(fen, RuleSet::Janggi).unwrap();
                engine.clear();
                let r = engine.search(&pos, &limits, &Control::new(), &mut |_| {});
                (r.nodes, r.best)
            })
            .collect::<Vec<_>>()
    };
    let a = run();
    assert_eq!(a, run());
    let nodes: u64 = a.iter().map(|(n, _)| n).sum();
    assert!(nodes > 10_000, "{a:?}");
    assert!(a.iter().filter(|(_, b)| b.is_some()).count() >= 10, "{a:?}");
}
