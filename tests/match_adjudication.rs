//! Every ending the runner adjudicates, under every rule set, from a
//! position where that ending happens. Both engines replay a fixed script
//! (tests/fault_engine.py), so the runner and the rules core decide alone;
//! a script that runs out answers an unparsable move, which shows up as an
//! "illegal move" loss whenever a rule set lets the game go on.

mod match_common;

use janggun::arena::EndKind;
use janggun::board::{EndReason, RuleSet};
use match_common::*;

const START: &str = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";

/// Plays the script from `fen` under `rules` (both colour orders) and
/// checks the result, the end reason and whether material was counted.
fn check(name: &str, rules: &str, fen: &str, moves: &[&str], result: &str, kind: EndKind) {
    let book = temp_path(&format!("{name}-{rules}.epd"));
    std::fs::write(&book, format!("{fen}\n")).unwrap();
    let mut a = script_engine("first", moves);
    a.extend(script_engine("second", moves));
    a.extend(args(&[
        "--rules",
        rules,
        "--games",
        "2",
        "--movetime",
        "2000",
        "--quiet",
    ]));
    a.extend(args(&["--openings", book.to_str().unwrap()]));
    let out = run_match(&a);
    let _ = std::fs::remove_file(&book);
    assert_eq!(out.records.len(), 2, "{name} under {rules}");
    for r in out.records.values() {
        let what = format!("{name} under {rules}: {} [{}]", r.kind.name(), r.detail);
        assert_eq!(r.outcome.result_string(), result, "{what}");
        assert_eq!(r.kind, kind, "{what}");
        let script_len = moves.len().min(r.moves.len());
        assert_eq!(
            &r.moves.iter().map(|m| m.to_string()).collect::<Vec<_>>()[..script_len],
            &moves[..script_len],
            "{what}"
        );
    }
}

#[test]
fn checkmate_in_every_rule_set() {
    // Chariots on a9 and b10 leave the general on e10 no point.
    for rules in RuleSet::NAMES {
        check(
            "mate",
            rules,
            "4k4/R8/9/9/9/9/9/9/9/1R1K5 w - - 0 1",
            &["b1b10"],
            "1-0",
            EndKind::Rules(EndReason::Checkmate),
        );
    }
}

#[test]
fn double_pass_is_counted_or_drawn() {
    // Two passes at the start: Han wins the count 73.5 to 72.
    for (rules, result) in [
        ("janggi", "0-1"),
        ("janggitraditional", "1/2-1/2"),
        ("janggimodern", "0-1"),
        ("janggicasual", "1/2-1/2"),
        ("kja", "0-1"),
        ("kojf", "0-1"),
    ] {
        check(
            "double-pass",
            rules,
            START,
            &["e2e2", "e9e9"],
            result,
            EndKind::Rules(EndReason::DoublePass),
        );
    }
}

#[test]
fn bikjang_where_the_rule_is_in_force() {
    // Facing generals, Cho (with a chariot) passes: bikjang under the rule,
    // a plain pass (then a second one) without it.
    let fen = "4k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
    for (rules, result, kind) in [
        ("janggi", "1-0", EndKind::Rules(EndReason::Bikjang)),
        (
            "janggitraditional",
            "1/2-1/2",
            EndKind::Rules(EndReason::Bikjang),
        ),
        ("janggimodern", "1-0", EndKind::Rules(EndReason::DoublePass)),
        (
            "janggicasual",
            "1/2-1/2",
            EndKind::Rules(EndReason::DoublePass),
        ),
        // Both sides under 30 points: the KJA rule applies.
        ("kja", "1-0", EndKind::Rules(EndReason::Bikjang)),
        // Fewer than 32 pieces: the KOJF rule applies.
        ("kojf", "1-0", EndKind::Rules(EndReason::Bikjang)),
    ] {
        check("bikjang", rules, fen, &["e1e1", "e10e10"], result, kind);
    }
}

#[test]
fn bikjang_rule_not_yet_in_force_under_kja_and_kojf() {
    // Full armies with the generals facing: KJA needs both sides under 30
    // points and KOJF a first capture, so passing is no bikjang there.
    let fen = "rnba1abnr/4k4/1c5c1/p1p2pp1p/9/9/P1PP2P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
    check(
        "early-bikjang",
        "kja",
        fen,
        &["e2e2", "e9e9"],
        "0-1",
        EndKind::Rules(EndReason::DoublePass),
    );
    check(
        "early-bikjang",
        "kojf",
        fen,
        &["e2e2", "e9e9"],
        "0-1",
        EndKind::Rules(EndReason::DoublePass),
    );
    check(
        "early-bikjang",
        "janggi",
        fen,
        &["e2e2", "e9e9"],
        "0-1",
        EndKind::Rules(EndReason::Bikjang),
    );
}

/// Both sides cycle both horses, so no piece shuttles A-B-A-B and the
/// start position recurs every 8 plies.
fn horse_cycle(times: usize) -> Vec<&'static str> {
    let cycle = [
        "b1c3", "b10c8", "c3b1", "c8b10", "h1g3", "h10g8", "g3h1", "g8h10",
    ];
    cycle.iter().copied().cycle().take(8 * times).collect()
}

#[test]
fn repetition_in_every_rule_set() {
    let moves = horse_cycle(3);
    for (rules, result, kind) in [
        // Third occurrence at ply 16: counted (Han 73.5 to 72) or drawn.
        ("janggi", "0-1", EndKind::Rules(EndReason::Repetition)),
        (
            "janggitraditional",
            "1/2-1/2",
            EndKind::Rules(EndReason::Repetition),
        ),
        (
            "janggicasual",
            "1/2-1/2",
            EndKind::Rules(EndReason::Repetition),
        ),
        // KJA forbids the move that makes the third occurrence (30+ points).
        ("kja", "1-0", EndKind::IllegalMove),
        // Fourth occurrence at ply 24: counted, or lost by its maker (Han).
        ("janggimodern", "0-1", EndKind::Rules(EndReason::Repetition)),
        ("kojf", "1-0", EndKind::Rules(EndReason::Repetition)),
    ] {
        check("repetition", rules, START, &moves, result, kind);
    }
}

#[test]
fn perpetual_check_loses_in_every_rule_set() {
    // Cho's chariot checks from a10 and a9 in turn; the general steps
    // e10-e9-e10. Cho checks on every move of the cycle and loses.
    let fen = "4k4/R8/9/9/9/9/9/9/9/3K5 w - - 0 1";
    let cycle = ["a9a10", "e10e9", "a10a9", "e9e10"];
    let moves: Vec<&str> = cycle.iter().copied().cycle().take(12).collect();
    for rules in RuleSet::NAMES {
        // Under janggimodern the chariot's shuttle (its fifth move) ends the
        // game first, with the same loser.
        let kind = if rules == "janggimodern" {
            EndKind::Rules(EndReason::BackAndForth)
        } else {
            EndKind::Rules(EndReason::PerpetualCheck)
        };
        check("perpetual", rules, fen, &moves, "0-1", kind);
    }
}

#[test]
fn move_limit_in_every_rule_set() {
    for (rules, limit, result) in [
        ("janggi", 100, "1-0"),
        ("janggitraditional", 100, "1/2-1/2"),
        ("janggimodern", 200, "1-0"),
        ("janggicasual", 100, "1/2-1/2"),
        ("kja", 100, "1-0"),
        ("kojf", 100, "1-0"),
    ] {
        // One quiet ply reaches the limit; Cho's chariot wins the count.
        let fen = format!("4k4/9/9/9/9/9/9/9/9/R2K5 w - - {} 60", limit - 1);
        check(
            "move-limit",
            rules,
            &fen,
            &["a1a2"],
            result,
            EndKind::Rules(EndReason::MoveLimit),
        );
        // One ply short of it the game goes on (into the end of the script).
        let fen = format!("4k4/9/9/9/9/9/9/9/9/R2K5 w - - {} 60", limit - 2);
        check(
            "move-limit-short",
            rules,
            &fen,
            &["a1a2"],
            "1-0",
            EndKind::IllegalMove,
        );
    }
}

#[test]
fn back_and_forth_only_under_janggimodern() {
    // Cho brings a horse to c3 and shuttles it c3-b1-c3-b1-c3 while Han
    // advances a soldier: the fifth move loses (Fairy-Stockfish's rule).
    let moves = [
        "b1c3", "a7a6", "c3b1", "a6a5", "b1c3", "a5b5", "c3b1", "b5c5", "b1c3",
    ];
    for rules in RuleSet::NAMES {
        let (result, kind) = if rules == "janggimodern" {
            ("0-1", EndKind::Rules(EndReason::BackAndForth))
        } else {
            ("1-0", EndKind::IllegalMove)
        };
        check("back-and-forth", rules, START, &moves, result, kind);
    }
}
