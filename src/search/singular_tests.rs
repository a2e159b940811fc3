//! The exclusion search of singular extensions: it never answers with the
//! move it leaves out, and the table keeps what the full search stored.

use super::*;
use crate::board::RuleSet;
use crate::search::Limits;

fn with_searcher(pos: Position, tt: &TranspositionTable, f: impl FnOnce(&mut Searcher)) {
    let control = Control::new();
    let lmr = LmrTable::new(175);
    let shared = Shared {
        tt,
        abort: AtomicBool::new(false),
        nodes: vec![AtomicU64::new(0)],
        control: &control,
        node_limit: u64::MAX,
        soft_node_limit: u64::MAX,
        ablation: Ablation::None,
        net: None,
        margins: Default::default(),
        lmr: &lmr,
    };
    let mut hist = History::new();
    let tm = TimeManager::new(&Limits::default(), 0);
    let mut s = Searcher::new(0, pos, &shared, &mut hist, Vec::new(), tm);
    s.root_depth = 4;
    f(&mut s);
}

/// The moves that checkmate at once.
fn mates(pos: &Position) -> Vec<Move> {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    list.iter()
        .copied()
        .filter(|&m| {
            let mut p = pos.clone();
            p.make(m);
            let mut replies = MoveList::new();
            legal_moves(&p, &mut replies);
            p.in_check() && replies.is_empty()
        })
        .collect()
}

#[test]
fn the_exclusion_search_never_plays_the_left_out_move_nor_overwrites_the_table() {
    // Cho mates at once with one move only (b1b10); the node is searched
    // at ply 1, as every node below the root is.
    let pos = Position::from_fen("3k5/R8/9/9/9/9/9/9/4K4/1R7 w - - 0 1", RuleSet::Janggi).unwrap();
    let only = mates(&pos);
    assert_eq!(only.len(), 1, "{only:?}");
    let key = pos.key();
    let tt = TranspositionTable::new(1);
    with_searcher(pos, &tt, |s| {
        let full = s.search(-INF, INF, 4, 1, false);
        assert_eq!(full, MATE - 2);
        assert_eq!(s.pv[1][0], Some(only[0]));
        let before = tt.probe(key).expect("the full search stored the node");
        assert_eq!(before.mv, Some(only[0]));

        // Every window, with the mating move left out: no mate, no PV
        // through it, and the node's entry as the full search left it.
        for (alpha, beta) in [(-INF, INF), (MATE - 3, MATE - 2), (-1, 0)] {
            s.stack[1].excluded = Some(only[0]);
            let v = s.search(alpha, beta, 4, 1, false);
            s.stack[1].excluded = None;
            assert!(v < MATE - 2, "window ({alpha}, {beta}): {v}");
            assert!(s.pv_len[1] == 0 || s.pv[1][0] != Some(only[0]));
            let after = tt.probe(key).expect("the entry is still there");
            assert_eq!(
                (after.mv, after.score, after.depth, after.bound, after.eval),
                (
                    before.mv,
                    before.score,
                    before.depth,
                    before.bound,
                    before.eval
                ),
                "window ({alpha}, {beta})"
            );
        }
        // Nor does a left-out move outlive its search.
        assert_eq!(s.stack[1].excluded, None);
        assert_eq!(s.search(-INF, INF, 4, 1, false), MATE - 2);
    });
}
