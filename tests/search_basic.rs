//! Search behaviour: mates, rule-set endings, root restrictions, limits.

use janggun::board::movegen::is_legal;
use janggun::board::{Position, RuleSet};
use janggun::search::{Control, Engine, Limits, Report, Score, Settings};

fn search(fen: &str, rules: RuleSet, limits: Limits) -> (janggun::search::SearchResult, Vec<u32>) {
    let pos = Position::from_fen(fen, rules).expect("valid FEN");
    let mut engine = Engine::new(Settings::default());
    let mut multipvs = Vec::new();
    let r = engine.search(&pos, &limits, &Control::new(), &mut |rep| {
        if let Report::Info(i) = rep {
            multipvs.push(i.multipv);
        }
    });
    (r, multipvs)
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn finds_mate_in_one() {
    let (r, _) = search(
        "3k5/R8/9/9/9/9/9/9/4K4/1R7 w - - 0 1",
        RuleSet::Janggi,
        depth(4),
    );
    assert_eq!(r.best.map(|m| m.to_string()).as_deref(), Some("b1b10"));
    assert_eq!(r.score, Score::Mate(1));
}

#[test]
fn no_legal_move_gives_none() {
    // Mated: the position after b1b10 above.
    let (r, _) = search(
        "1R1k5/R8/9/9/9/9/9/9/4K4/9 b - - 1 1",
        RuleSet::Janggi,
        depth(3),
    );
    assert!(r.best.is_none());
}

#[test]
fn bikjang_pass_wins_the_count_for_han() {
    // Facing generals, equal material: Han (1.5 bonus) passes and wins by count.
    let fen = "4k4/9/9/9/9/9/9/9/4K4/9 b - - 0 1";
    let (r, _) = search(fen, RuleSet::Janggi, depth(3));
    assert_eq!(r.best.map(|m| m.to_string()).as_deref(), Some("e10e10"));
    // A win by the rules is reported as a mate, as Fairy-Stockfish does.
    assert_eq!(r.score, Score::Mate(1));
    // Without counting the same pass only draws.
    let (r, _) = search(fen, RuleSet::Traditional, depth(3));
    assert!(
        matches!(r.score, Score::Cp(c) if c.abs() < 10000),
        "{:?}",
        r.score
    );
    // Cho, behind on the count, must not pass in bikjang.
    let fen = "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1";
    let (r, _) = search(fen, RuleSet::Janggi, depth(3));
    let best = r.best.expect("has moves");
    assert!(!best.is_pass());
}

#[test]
fn banmoves_and_searchmoves_are_respected() {
    let fen = "3k5/R8/9/9/9/9/9/9/4K4/1R7 w - - 0 1";
    let pos = Position::from_fen(fen, RuleSet::Janggi).unwrap();
    let mate = janggun::board::parse_move(&pos, "b1b10", janggun::board::Notation::Uci).unwrap();
    let (r, _) = search(
        fen,
        RuleSet::Janggi,
        Limits {
            depth: Some(3),
            banmoves: vec![mate],
            ..Limits::default()
        },
    );
    assert_ne!(r.best, Some(mate));
    let only = janggun::board::parse_move(&pos, "e2d2", janggun::board::Notation::Uci).unwrap();
    let (r, _) = search(
        fen,
        RuleSet::Janggi,
        Limits {
            depth: Some(3),
            searchmoves: vec![only],
            ..Limits::default()
        },
    );
    assert_eq!(r.best, Some(only));
}

#[test]
fn a_forced_move_on_a_clock_stops_after_one_iteration() {
    // One root move (searchmoves leaves one) and a long clock: the time
    // manager answers after the first iteration, however much time there
    // is; a depth limit without a clock still searches to that depth.
    let fen = "3k5/R8/9/9/9/9/9/9/4K4/1R7 w - - 0 1";
    let pos = Position::from_fen(fen, RuleSet::Janggi).unwrap();
    let only = janggun::board::parse_move(&pos, "e2d2", janggun::board::Notation::Uci).unwrap();
    let clock = Limits {
        time: Some(600_000),
        inc: Some(10_000),
        searchmoves: vec![only],
        ..Limits::default()
    };
    let (r, _) = search(fen, RuleSet::Janggi, clock);
    assert_eq!((r.best, r.depth), (Some(only), 1));
    let fixed = Limits {
        depth: Some(4),
        searchmoves: vec![only],
        ..Limits::default()
    };
    let (r, _) = search(fen, RuleSet::Janggi, fixed);
    assert_eq!((r.best, r.depth), (Some(only), 4));
}

#[test]
fn multipv_reports_each_line() {
    let pos = Position::startpos(RuleSet::Janggi);
    let mut engine = Engine::new(Settings {
        multipv: 3,
        ..Settings::default()
    });
    let mut seen = [false; 4];
    let mut firsts = Vec::new();
    engine.search(&pos, &depth(4), &Control::new(), &mut |rep| {
        if let Report::Info(i) = rep {
            seen[i.multipv as usize] = true;
            if i.depth == 4 {
                firsts.push(i.pv[0]);
            }
        }
    });
    assert!(seen[1] && seen[2] && seen[3]);
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "three different first moves");
}

#[test]
fn node_limit_and_stop() {
    let (r, _) = search(
        "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
        RuleSet::Janggi,
        Limits {
            nodes: Some(5000),
            ..Limits::default()
        },
    );
    assert!(r.best.is_some());
    assert!(r.nodes <= 5100, "{}", r.nodes);

    // An infinite search returns only once stopped.
    let pos = Position::startpos(RuleSet::Janggi);
    let control = Control::new();
    let c2 = control.clone();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(200));
        c2.stop();
    });
    let mut engine = Engine::new(Settings::default());
    let r = engine.search(
        &pos,
        &Limits {
            infinite: true,
            ..Limits::default()
        },
        &control,
        &mut |_| {},
    );
    stopper.join().unwrap();
    assert!(control.stopped());
    assert!(r.best.is_some_and(|m| is_legal(&pos, m)));
}

#[test]
fn two_threads_play_a_legal_move() {
    let pos = Position::startpos(RuleSet::Janggi);
    let mut engine = Engine::new(Settings {
        threads: 2,
        ..Settings::default()
    });
    let r = engine.search(&pos, &depth(6), &Control::new(), &mut |_| {});
    let m = r.best.expect("a move");
    assert!(is_legal(&pos, m));
}

#[test]
fn two_threads_report_the_line_they_play() {
    // Whichever thread supplies the move (a helper that got deeper, or
    // the main thread), the last info line has the depth reported with
    // the move, and the move is legal. (The main thread may still switch
    // to a better move found in an iteration cut short.)
    let pos = Position::startpos(RuleSet::Janggi);
    let mut engine = Engine::new(Settings {
        threads: 2,
        ..Settings::default()
    });
    for _ in 0..3 {
        let limits = Limits {
            movetime: Some(150),
            ..Limits::default()
        };
        let mut last = None;
        let r = engine.search(&pos, &limits, &Control::new(), &mut |rep| {
            if let Report::Info(i) = rep {
                last = Some((i.depth, i.pv.first().copied()));
            }
        });
        let (info_depth, info_move) = last.expect("an info line");
        assert!(info_move.is_some_and(|m| is_legal(&pos, m)));
        assert_eq!(r.depth, info_depth);
        assert!(r.best.is_some_and(|m| is_legal(&pos, m)));
    }
}

#[test]
fn weakened_levels_still_play_legal_moves() {
    let pos = Position::startpos(RuleSet::Janggi);
    for level in [-20, 0, 10] {
        let mut engine = Engine::new(Settings {
            skill_level: level,
            ..Settings::default()
        });
        let r = engine.search(&pos, &depth(20), &Control::new(), &mut |_| {});
        let m = r.best.expect("a move");
        assert!(is_legal(&pos, m));
        // The depth cap applies: level -20 searches one ply only.
        if level == -20 {
            assert_eq!(r.depth, 1);
        }
    }
}

#[test]
fn eval_report_lists_terms_and_matches_evaluate() {
    let pos = Position::startpos(RuleSet::Janggi);
    let text = Engine::eval_report(&pos);
    for term in [
        "material",
        "piece-square",
        "mobility",
        "palace attack",
        "tempo",
    ] {
        assert!(text.contains(term), "{text}");
    }
    let total = format!("{} (side to move)", Engine::evaluate(&pos));
    assert!(text.contains(&total), "{text}");
}

#[test]
fn ponder_search_waits_for_ponderhit_then_uses_its_time() {
    let pos = Position::startpos(RuleSet::Janggi);
    let control = Control::new();
    let c2 = control.clone();
    let hitter = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(150));
        c2.ponderhit();
    });
    let mut engine = Engine::new(Settings::default());
    let r = engine.search(
        &pos,
        &Limits {
            ponder: true,
            movetime: Some(50),
            ..Limits::default()
        },
        &control,
        &mut |_| {},
    );
    // It cannot have returned before the ponderhit arrived.
    let hit_before_return = control.pondering_hit();
    hitter.join().unwrap();
    assert!(hit_before_return);
    assert!(!control.stopped());
    assert!(r.best.is_some_and(|m| is_legal(&pos, m)));
}

#[test]
fn every_ablation_changes_the_tree_and_keeps_mates() {
    use janggun::search::Ablation;
    let nodes = |ablation: Ablation, fen: &str, d: u32| {
        let pos = Position::from_fen(fen, RuleSet::Janggi).expect("valid FEN");
        let mut engine = Engine::new(Settings {
            ablation,
            ..Settings::default()
        });
        engine.search(&pos, &depth(d), &Control::new(), &mut |_| {})
    };
    let middlegame =
        "1rba1abr1/4k4/2n1c2c1/p1p3p1p/4n4/2P6/P3p1P1P/1CN2C1N1/4K4/R1BA1AB1R w - - 0 1";
    let full = nodes(Ablation::None, middlegame, 9).nodes;
    for &a in &Ablation::ALL[1..] {
        let r = nodes(a, middlegame, 9);
        assert_ne!(r.nodes, full, "{a:?} did not change the search");
        let mate = nodes(a, "3k5/R8/9/9/9/9/9/9/4K4/1R7 w - - 0 1", 4);
        assert_eq!(mate.score, Score::Mate(1), "{a:?}");
    }
}

#[test]
fn experimental_margins_change_the_tree_and_keep_decided_scores() {
    use janggun::search::margins::{Margins, CORR_WEIGHT, SINGULAR_DEPTH};
    let defaults = Margins::default();
    // Correction history passed its SPRT at a clock; singular extensions
    // are on from depth 7, as in Fairy-Stockfish.
    assert_eq!(defaults.get(CORR_WEIGHT), 100);
    assert_eq!(defaults.get(SINGULAR_DEPTH), 7);
    let mut bare = defaults;
    bare.0[CORR_WEIGHT] = 0;
    bare.0[SINGULAR_DEPTH] = 0;
    let search = |engine: &mut Engine, fen: &str, d: u32| {
        let pos = Position::from_fen(fen, RuleSet::Janggi).expect("valid FEN");
        engine.search(&pos, &depth(d), &Control::new(), &mut |_| {})
    };
    let middlegame =
        "1rba1abr1/4k4/2n1c2c1/p1p3p1p/4n4/2P6/P3p1P1P/1CN2C1N1/4K4/R1BA1AB1R w - - 0 1";
    let mate_in_3 = "3k5/9/9/9/9/9/9/9/4K4/RR7 w - - 0 1";
    let bikjang = "4k4/9/9/9/9/9/9/9/4K4/9 b - - 0 1";
    let mut off = Engine::new(Settings {
        margins: bare,
        ..Settings::default()
    });
    let plain = search(&mut off, middlegame, 10).nodes;
    assert_eq!(search(&mut off, mate_in_3, 6).score, Score::Mate(3));
    for variant in [
        &[(CORR_WEIGHT, 100)][..],
        &[(SINGULAR_DEPTH, 6)],
        &[(CORR_WEIGHT, 100), (SINGULAR_DEPTH, 6)],
    ] {
        let mut margins = bare;
        for &(i, v) in variant {
            margins.0[i] = v;
        }
        let mut on = Engine::new(Settings {
            margins,
            ..Settings::default()
        });
        let r = search(&mut on, middlegame, 10);
        assert_ne!(r.nodes, plain, "{variant:?} did not change the tree");
        // The same engine, its tables full of what the middlegame taught
        // it: decided scores stay exact.
        assert_eq!(
            search(&mut on, mate_in_3, 6).score,
            Score::Mate(3),
            "{variant:?}"
        );
        let r = search(&mut on, bikjang, 3);
        assert_eq!(r.best.map(|m| m.to_string()).as_deref(), Some("e10e10"));
        assert_eq!(r.score, Score::Mate(1), "{variant:?}");
    }
}
