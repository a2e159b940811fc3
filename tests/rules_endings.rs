//! Game endings per rule set: repetition, perpetual check, the move limit,
//! the janggimodern shuttle rule, KJA's repetition ban, KOJF's fourth
//! repetition. Each position is built so a missing rule changes the answer.

use janggun::board::rules::{game_end, optional_end};
use janggun::board::{
    legal_moves, parse_move, Color, EndReason, MoveList, Notation, Outcome, Position, RuleSet,
};

const HORSE_SHUTTLE: [&str; 4] = ["b1c3", "b10c8", "c3b1", "c8b10"];
const GENERAL_SHUTTLE: [&str; 4] = ["e2d2", "e9d9", "d2e2", "d9e9"];

fn play(rules: RuleSet, fen: Option<&str>, moves: &[&str]) -> Position {
    let mut p = match fen {
        Some(f) => Position::from_fen(f, rules).unwrap(),
        None => Position::startpos(rules),
    };
    for m in moves {
        let mv = parse_move(&p, m, Notation::Uci).unwrap_or_else(|e| panic!("{rules}: {m}: {e}"));
        p.make(mv);
    }
    p
}

fn repeat(cycle: &[&'static str], times: usize) -> Vec<&'static str> {
    cycle
        .iter()
        .copied()
        .cycle()
        .take(cycle.len() * times)
        .collect()
}

#[test]
fn threefold_repetition_by_rule_set() {
    let moves = repeat(&HORSE_SHUTTLE, 2);
    // One ply short: nothing yet.
    assert!(optional_end(&play(RuleSet::Janggi, None, &moves[..7])).is_none());
    for (rules, outcome) in [
        (RuleSet::Janggi, Outcome::Win(Color::Han)),
        (RuleSet::Traditional, Outcome::Draw),
        (RuleSet::Casual, Outcome::Draw),
    ] {
        let end = optional_end(&play(rules, None, &moves))
            .unwrap_or_else(|| panic!("{rules}: no repetition"));
        assert_eq!(end.reason, EndReason::Repetition, "{rules}");
        assert_eq!(end.outcome, outcome, "{rules}");
        assert_eq!(end.counted, rules.counting(), "{rules}");
    }
}

#[test]
fn modern_needs_fourfold_and_kojf_blames_the_repeater() {
    let three = repeat(&GENERAL_SHUTTLE, 2);
    let four = repeat(&GENERAL_SHUTTLE, 3);
    assert!(optional_end(&play(RuleSet::Modern, None, &three)).is_none());
    assert!(optional_end(&play(RuleSet::Kojf, None, &three)).is_none());
    let end = optional_end(&play(RuleSet::Modern, None, &four)).unwrap();
    assert_eq!(
        (end.reason, end.outcome, end.counted),
        (EndReason::Repetition, Outcome::Win(Color::Han), true)
    );
    // KOJF: Han made the fourth occurrence, so Han loses despite the count.
    let end = optional_end(&play(RuleSet::Kojf, None, &four)).unwrap();
    assert_eq!(
        (end.reason, end.outcome),
        (EndReason::Repetition, Outcome::Win(Color::Cho))
    );
}

#[test]
fn modern_shuttle_loses() {
    // Cho's horse arrives on c3 and goes back and forth four more times.
    let moves = [
        "b1c3", "a7a6", "c3b1", "a6a5", "b1c3", "a5b5", "c3b1", "b5c5", "b1c3",
    ];
    let end = optional_end(&play(RuleSet::Modern, None, &moves)).expect("shuttle");
    assert_eq!(
        (end.reason, end.outcome),
        (EndReason::BackAndForth, Outcome::Win(Color::Han))
    );
    assert!(optional_end(&play(RuleSet::Modern, None, &moves[..8])).is_none());
    // Other rule sets have no such rule, and the general may shuttle freely.
    assert!(optional_end(&play(RuleSet::Janggi, None, &moves)).is_none());
    let generals = [
        "e2d2", "a7a6", "d2e2", "a6a5", "e2d2", "a5b5", "d2e2", "b5c5", "e2d2",
    ];
    assert!(optional_end(&play(RuleSet::Modern, None, &generals)).is_none());
}

#[test]
fn perpetual_check_loses() {
    // Cho's chariot checks on every move while Han's general steps d9-d10.
    let fen = "9/3k5/9/9/9/9/9/9/9/R3K4 w - - 0 1";
    let cycle = [
        "a1a9", "d9d10", "a9a10", "d10d9", "a10a9", "d9d10", "a9a10", "d10d9", "a10a9", "d9d10",
        "a9a10",
    ];
    for rules in [RuleSet::Janggi, RuleSet::Casual, RuleSet::Traditional] {
        let p = play(rules, Some(fen), &cycle);
        let end = optional_end(&p).unwrap_or_else(|| panic!("{rules}: no ending"));
        assert_eq!(
            (end.reason, end.outcome),
            (EndReason::PerpetualCheck, Outcome::Win(Color::Han)),
            "{rules}"
        );
    }
}

#[test]
fn move_limit_by_rule_set() {
    let fen99 = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 99 1";
    for (rules, outcome) in [
        (RuleSet::Janggi, Some(Outcome::Win(Color::Han))),
        (RuleSet::Traditional, Some(Outcome::Draw)),
        (RuleSet::Casual, Some(Outcome::Draw)),
        (RuleSet::Modern, None),
    ] {
        // A pass does not reset the count.
        for m in ["b1c3", "e2e2"] {
            let end = optional_end(&play(rules, Some(fen99), &[m]));
            assert_eq!(end.map(|e| e.outcome), outcome, "{rules} after {m}");
            if let Some(e) = end {
                assert_eq!(e.reason, EndReason::MoveLimit);
            }
        }
    }
    // janggimodern's limit is 200 plies.
    let fen199 = fen99.replace(" 99 1", " 199 1");
    let end = optional_end(&play(RuleSet::Modern, Some(&fen199), &["b1c3"])).unwrap();
    assert_eq!(
        (end.reason, end.outcome),
        (EndReason::MoveLimit, Outcome::Win(Color::Han))
    );
    // A capture resets it.
    let p = play(
        RuleSet::Janggi,
        Some("4k4/9/9/9/9/9/p8/9/3K5/R8 w - - 99 1"),
        &["a1a4"],
    );
    assert!(game_end(&p).is_none());
}

#[test]
fn kja_bans_the_third_repetition_above_30_points() {
    let moves = repeat(&HORSE_SHUTTLE, 2);
    let mut list = MoveList::new();
    let kja = play(RuleSet::Kja, None, &moves[..7]);
    legal_moves(&kja, &mut list);
    assert!(
        !list.iter().any(|m| m.to_string() == "c8b10"),
        "KJA: third repetition must be illegal"
    );
    let janggi = play(RuleSet::Janggi, None, &moves[..7]);
    legal_moves(&janggi, &mut list);
    assert!(list.iter().any(|m| m.to_string() == "c8b10"));
    // Below 30 points each, the repetition is allowed (and ends the game by count).
    let fen = "3k5/4a4/9/9/9/9/9/9/4A4/5K3 w - - 0 1";
    let small = [
        "f1f2", "d10d9", "f2f1", "d9d10", "f1f2", "d10d9", "f2f1", "d9d10",
    ];
    let p = play(RuleSet::Kja, Some(fen), &small[..7]);
    legal_moves(&p, &mut list);
    assert!(list.iter().any(|m| m.to_string() == "d9d10"));
    let end = optional_end(&play(RuleSet::Kja, Some(fen), &small)).expect("threefold under KJA");
    assert_eq!(
        (end.reason, end.outcome, end.counted),
        (EndReason::Repetition, Outcome::Win(Color::Han), true)
    );
}
