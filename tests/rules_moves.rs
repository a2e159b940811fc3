//! One test per movement rule of docs/RULES.md, each on a position where a
//! generator without that rule would answer differently.

use janggun::board::rules::{count_winner, immediate_end};
use janggun::board::{
    legal_moves, Color, EndReason, Move, MoveList, Outcome, Position, RuleSet, Square,
};

fn pos(fen: &str, rules: RuleSet) -> Position {
    Position::from_fen(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn moves(p: &Position) -> Vec<String> {
    let mut list = MoveList::new();
    legal_moves(p, &mut list);
    list.iter().map(|m| m.to_string()).collect()
}

fn has(p: &Position, m: &str) -> bool {
    moves(p).iter().any(|x| x == m)
}

fn play(p: &mut Position, m: &str) {
    let mv = janggun::board::parse_move(p, m, janggun::board::Notation::Uci)
        .unwrap_or_else(|e| panic!("{m}: {e}"));
    p.make(mv);
}

#[test]
fn cannon_cannot_jump_a_cannon() {
    // Cho cannon a1; Han cannon a5 would be its only screen up the file.
    let p = pos("3k5/9/p8/9/9/c8/9/9/9/C3K4 w - - 0 1", RuleSet::Janggi);
    for r in 2..=8 {
        assert!(!has(&p, &format!("a1a{r}")), "a1a{r} jumps a cannon");
    }
    // Along the rank the own general is a valid screen.
    for m in ["a1f1", "a1g1", "a1h1", "a1i1"] {
        assert!(has(&p, m), "{m}");
    }
    assert!(!has(&p, "a1b1"), "a cannon needs a screen to move");
}

#[test]
fn cannon_cannot_take_a_cannon() {
    let p = pos("3k5/9/9/9/c8/9/9/P8/9/C3K4 w - - 0 1", RuleSet::Janggi);
    assert!(has(&p, "a1a4") && has(&p, "a1a5"));
    assert!(!has(&p, "a1a6"), "cannon took a cannon");
    // The same file with a soldier instead is a capture.
    let p = pos("3k5/9/9/9/p8/9/9/P8/9/C3K4 w - - 0 1", RuleSet::Janggi);
    assert!(has(&p, "a1a6"));
}

#[test]
fn cannon_jumps_along_palace_diagonal() {
    // d1 over the guard on e2 to f3 (empty) and, with Han's soldier there, capture.
    let p = pos("4k4/9/9/9/9/9/9/9/3KA4/3C5 w - - 0 1", RuleSet::Janggi);
    assert!(has(&p, "d1f3"));
    let p = pos("4k4/9/9/9/9/9/9/5p3/3KA4/3C5 w - - 0 1", RuleSet::Janggi);
    assert!(has(&p, "d1f3"));
    // No diagonal jump from a palace edge point.
    let p = pos("4k4/9/9/9/9/9/9/9/3CA4/4K4 w - - 0 1", RuleSet::Janggi);
    assert!(!moves(&p)
        .iter()
        .any(|m| m.starts_with("d2") && m.ends_with("f3")));
}

#[test]
fn chariot_slides_along_palace_diagonal() {
    let p = pos("4k4/9/9/9/9/9/9/9/5K3/3R5 w - - 0 1", RuleSet::Janggi);
    assert!(has(&p, "d1e2") && has(&p, "d1f3"));
    let p = pos("4k4/9/9/9/9/9/9/9/4pK3/3R5 w - - 0 1", RuleSet::Janggi);
    assert!(has(&p, "d1e2"), "capture on the diagonal");
    assert!(!has(&p, "d1f3"), "slid through a piece");
}

#[test]
fn soldier_diagonal_only_in_enemy_palace() {
    let p = pos("5k3/9/3P5/9/9/9/9/9/9/3PK4 w - - 0 1", RuleSet::Janggi);
    assert!(has(&p, "d8e9"), "forward diagonal in the enemy palace");
    assert!(!has(&p, "d1e2"), "diagonal in its own palace");
    assert!(
        !has(&p, "d8c9") && !has(&p, "d8d7"),
        "no backward or off-line diagonal"
    );
}

#[test]
fn horse_and_elephant_blocked_by_legs() {
    let p = pos("3k5/9/9/9/9/9/9/9/1P2K4/1N7 w - - 0 1", RuleSet::Janggi);
    assert!(!has(&p, "b1a3") && !has(&p, "b1c3"));
    assert!(has(&p, "b1d2"));
    let p = pos("3k5/9/9/9/9/9/9/3P5/4K4/2B6 w - - 0 1", RuleSet::Janggi);
    assert!(!has(&p, "c1e4"), "elephant jumped its second leg d3");
    assert!(has(&p, "c1a4"));
}

#[test]
fn pass_illegal_in_check() {
    // Cho's general on e2 is checked by the chariot on e8.
    let p = pos("3k5/4r4/9/9/9/9/9/9/4K4/9 w - - 0 1", RuleSet::Janggi);
    assert!(p.in_check());
    assert!(!has(&p, "e2e2"));
    let q = pos("3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1", RuleSet::Janggi);
    assert!(has(&q, "e2e2"), "a pass is always there when not in check");
}

#[test]
fn pass_legal_in_bikjang_even_in_check() {
    // pos45: bikjang and check by the cannon on e1 screened by Cho's own general.
    let fen = "9/4k4/9/3P5/1C7/9/2P3n1c/9/4K4/3ACA3 b - - 7 68";
    let p = pos(fen, RuleSet::Janggi);
    assert!(p.in_check() && p.bikjang());
    assert!(has(&p, "e9e9"));
    let c = pos(fen, RuleSet::Casual);
    assert!(
        !has(&c, "e9e9"),
        "no bikjang rule: the pass is illegal in check"
    );
}

#[test]
fn bikjang_must_be_broken_or_accepted() {
    let fen = "5a3/4a4/4k4/7p1/3p5/9/5C3/9/4K4/9 b - - 0 85";
    let mut p = pos(fen, RuleSet::Janggi);
    assert!(p.bikjang());
    // Every move except the pass breaks the facing.
    for m in moves(&p) {
        if m == "e8e8" {
            continue;
        }
        let mut q = p.clone();
        play(&mut q, &m);
        assert!(!q.facing(), "{m} left the generals facing");
    }
    assert!(moves(&pos(fen, RuleSet::Casual)).len() > moves(&p).len());
    // Passing accepts bikjang: the game ends on the count.
    play(&mut p, "e8e8");
    let end = immediate_end(&p).expect("bikjang accepted");
    assert_eq!(end.reason, EndReason::Bikjang);
    assert_eq!(end.outcome, Outcome::Win(count_winner(&p)));
    assert!(moves(&p).is_empty());
    // Traditional: the same ending is a draw.
    let mut t = pos(fen, RuleSet::Traditional);
    play(&mut t, "e8e8");
    assert_eq!(immediate_end(&t).map(|e| e.outcome), Some(Outcome::Draw));
}

#[test]
fn two_passes_end_the_game() {
    for rules in RuleSet::ALL {
        let mut p = Position::startpos(rules);
        play(&mut p, "e2e2");
        assert!(immediate_end(&p).is_none());
        play(&mut p, "e9e9");
        let end = immediate_end(&p).unwrap_or_else(|| panic!("{rules}: two passes"));
        assert_eq!(end.reason, EndReason::DoublePass);
        let expected = if rules.counting() {
            Outcome::Win(Color::Han)
        } else {
            Outcome::Draw
        };
        assert_eq!(
            end.outcome, expected,
            "{rules}: Han wins the count 72 to 73.5"
        );
    }
}

#[test]
fn counting_with_han_bonus() {
    // Cho soldier+guard (5) vs Han guard (3): 5 - 3 = 2 > 1.5, Cho wins.
    let p = pos("3k5/3a5/9/9/9/9/P8/9/4K4/3A5 w - - 0 1", RuleSet::Janggi);
    assert_eq!(count_winner(&p), Color::Cho);
    // Cho guard (3) vs Han soldier (2): 1 < 1.5, Han wins.
    let p = pos("3k5/9/9/9/9/p8/9/9/4K4/3A5 w - - 0 1", RuleSet::Janggi);
    assert_eq!(count_winner(&p), Color::Han);
    // Equal material: Han wins by the bonus.
    assert_eq!(
        count_winner(&Position::startpos(RuleSet::Janggi)),
        Color::Han
    );
}

#[test]
fn checkmate_wins() {
    let p = pos(
        "7Cb/5R3/3bkR1C1/3np3p/9/9/2PPPP1P1/9/9/4K1B2 b - - 0 49",
        RuleSet::Janggi,
    );
    let end = immediate_end(&p).unwrap();
    assert_eq!(
        (end.reason, end.outcome),
        (EndReason::Checkmate, Outcome::Win(Color::Cho))
    );
}

#[test]
fn kja_bikjang_only_under_30_points() {
    // Facing generals, Cho with two chariots and a cannon (33 points).
    let fen = "3a5/4k4/9/9/9/9/9/2R3RC1/4K4/9 b - - 0 1";
    let kja = pos(fen, RuleSet::Kja);
    let janggi = pos(fen, RuleSet::Janggi);
    assert!(kja.facing() && !kja.bikjang() && janggi.bikjang());
    assert!(moves(&kja).len() > moves(&janggi).len());
    // Below 30 each, the rule applies.
    let small = pos("3a5/4k4/9/9/9/9/9/2C6/4K4/9 b - - 0 1", RuleSet::Kja);
    assert!(small.bikjang());
}

#[test]
fn kojf_bikjang_only_after_first_capture() {
    let mut p = Position::startpos(RuleSet::Kojf);
    let mut j = Position::startpos(RuleSet::Janggi);
    for m in ["e4d4", "e7f7"] {
        play(&mut p, m);
        play(&mut j, m);
    }
    assert!(p.facing() && j.bikjang());
    assert!(!p.bikjang(), "32 pieces: no capture yet");
    assert!(moves(&p).len() > moves(&j).len());
    // One capture later the rule is in force.
    let q = pos(
        "rnba1abnr/4k4/1c5c1/p1p3p1p/9/9/P1P3P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
        RuleSet::Kojf,
    );
    assert!(q.bikjang());
}

#[test]
fn pass_move_encoding() {
    let e2 = Square::parse("e2", 1).unwrap();
    assert!(Move::pass(e2).is_pass());
    assert_eq!(Move::pass(e2).to_string(), "e2e2");
}
