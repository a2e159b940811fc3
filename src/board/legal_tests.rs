//! `Legal`, the move generation by kind the search's staged picker uses,
//! against `legal_moves`: the same moves split into captures and quiet
//! moves in the same order, and a single-move test that agrees with the
//! list on every move value a table or a killer could hold.

use super::*;
use crate::board::notation::{parse_move, setup_fen, Notation, Setup};
use crate::board::walk::capture_biased_move;
use crate::board::{Color, RuleSet, NUM_SQUARES};
use crate::util::rng::Rng;

fn sq(s: &str) -> Square {
    Square::parse(s, 1).unwrap()
}

fn after(fen: &str, rules: RuleSet, moves: &[&str]) -> Position {
    let mut pos = Position::from_fen(fen, rules).unwrap();
    for s in moves {
        let m = parse_move(&pos, s, Notation::Uci).unwrap();
        pos.make(m);
    }
    pos
}

/// Horses out and back twice with the start position twice seen: Han's
/// return (or, with passes, Han's pass) would make it a third time.
const START: &str = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
const SHUFFLE: [&str; 7] = ["b1c3", "b10c8", "c3b1", "c8b10", "b1c3", "b10c8", "c3b1"];
const PASSES: [&str; 7] = ["b1c3", "e9e9", "c3b1", "e9e9", "b1c3", "e9e9", "c3b1"];

/// Positions that reach every branch: each rule set's random games from
/// the 16 setups (checks and captures among them), bikjang to break or
/// accept, the two ways KJA's history bans a move, a side with more pieces
/// than the kept reach holds, and a game over by two passes.
fn positions() -> Vec<Position> {
    let mut out = Vec::new();
    let mut rng = Rng::new(21);
    for (g, rules) in RuleSet::ALL.into_iter().cycle().take(24).enumerate() {
        let fen = setup_fen(Setup::ALL[g % 4], Setup::ALL[g / 4 % 4]);
        let mut pos = Position::from_fen(&fen, rules).unwrap();
        for _ in 0..80 {
            out.push(pos.clone());
            let Some(m) = capture_biased_move(&pos, &mut rng) else {
                break;
            };
            pos.make(m);
        }
    }
    // Bikjang on Cho's turn; made by Cho's general for Han; accepted.
    let bikjang = "4k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
    out.push(after(bikjang, RuleSet::Janggi, &[]));
    out.push(after(
        "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1",
        RuleSet::Janggi,
        &["d1e1"],
    ));
    out.push(after(bikjang, RuleSet::Janggi, &["e1e1"]));
    out.push(after(START, RuleSet::Kja, &SHUFFLE));
    out.push(after(START, RuleSet::Kja, &PASSES));
    out.push(after(START, RuleSet::Kja, &["e2e2", "e9e9"]));
    // Cho has a third chariot: 17 pieces.
    let crowded = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/R8/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
    out.push(Position::from_fen(crowded, RuleSet::Janggi).unwrap());
    out
}

fn is_capture(pos: &Position, m: Move) -> bool {
    !m.is_pass() && pos.piece_at(m.to()).is_some()
}

/// Every move value with points on the board, passes from every point and
/// the pass of either general among them.
fn every_move() -> impl Iterator<Item = Move> {
    (0..NUM_SQUARES as u8).flat_map(|f| {
        (0..NUM_SQUARES as u8).map(move |t| Move::new(Square::new(f), Square::new(t)))
    })
}

#[test]
fn captures_and_quiets_are_the_legal_moves_split_in_order() {
    let (mut captures_seen, mut quiets_seen) = (0, 0);
    for pos in positions() {
        let mut all = MoveList::new();
        legal_moves(&pos, &mut all);
        let mut legal = Legal::new(&pos);
        let mut caps = MoveList::new();
        legal.captures(&pos, &mut caps);
        let mut quiets = MoveList::new();
        legal.quiets(&pos, &mut quiets);
        let want_caps: Vec<Move> = all
            .iter()
            .copied()
            .filter(|&m| is_capture(&pos, m))
            .collect();
        let want_quiets: Vec<Move> = all
            .iter()
            .copied()
            .filter(|&m| !is_capture(&pos, m))
            .collect();
        assert_eq!(caps.as_slice(), &want_caps[..], "{}", pos.to_fen());
        assert_eq!(quiets.as_slice(), &want_quiets[..], "{}", pos.to_fen());
        // Without the kept reach (no capture generation first).
        let mut quiets = MoveList::new();
        Legal::new(&pos).quiets(&pos, &mut quiets);
        assert_eq!(quiets.as_slice(), &want_quiets[..], "{}", pos.to_fen());
        captures_seen += want_caps.len();
        quiets_seen += want_quiets.len();
    }
    assert!(captures_seen > 1000 && quiets_seen > 10000);
}

#[test]
fn one_move_test_agrees_with_the_list_on_every_move_value() {
    let (mut checks, mut bikjang, mut kept, mut fresh) = (0, 0, 0, 0);
    for pos in positions() {
        let mut all = MoveList::new();
        legal_moves(&pos, &mut all);
        checks += pos.in_check() as usize;
        bikjang += pos.bikjang() as usize;
        // Before captures are generated the test computes each piece's
        // reach; after, it reads the kept one (unless the side is crowded).
        let before = Legal::new(&pos);
        let mut after = Legal::new(&pos);
        after.captures(&pos, &mut MoveList::new());
        for m in every_move() {
            let want = all.contains(m);
            assert_eq!(
                before.is_legal(&pos, m),
                want,
                "{:?} in {}",
                m,
                pos.to_fen()
            );
            assert_eq!(after.is_legal(&pos, m), want, "{:?} in {}", m, pos.to_fen());
            assert_eq!(is_legal(&pos, m), want);
            kept += (want && after.reach_known > 0) as usize;
            fresh += (want && after.reach_known == 0) as usize;
        }
    }
    assert!(checks > 20 && bikjang >= 2 && kept > 10000 && fresh > 0);
}

#[test]
fn history_bans_reach_the_single_move_test_and_the_quiet_moves() {
    // Han's horse back to b10 would repeat the start a third time.
    let pos = after(START, RuleSet::Kja, &SHUFFLE);
    let back = Move::new(sq("c8"), sq("b10"));
    assert!(!is_legal(&pos, back));
    let mut quiets = MoveList::new();
    Legal::new(&pos).quiets(&pos, &mut quiets);
    assert!(!quiets.contains(back) && !quiets.is_empty());
    // Twin: the same line under the plain rules bans nothing.
    let free = after(START, RuleSet::Janggi, &SHUFFLE);
    assert!(is_legal(&free, back));

    // Han's pass would repeat it: the pass is banned, out of check.
    let pos = after(START, RuleSet::Kja, &PASSES);
    let pass = Move::pass(pos.king(Color::Han));
    assert!(!pos.in_check() && !is_legal(&pos, pass));
    let mut quiets = MoveList::new();
    Legal::new(&pos).quiets(&pos, &mut quiets);
    assert!(!quiets.contains(pass) && quiets.contains(Move::new(sq("b10"), sq("c8"))));
    assert!(is_legal(&after(START, RuleSet::Janggi, &PASSES), pass));
}

#[test]
fn no_move_is_legal_once_the_game_ended_by_rule() {
    let pos = after(START, RuleSet::Janggi, &["e2e2", "e9e9"]);
    let mut legal = Legal::new(&pos);
    let mut list = MoveList::new();
    legal.captures(&pos, &mut list);
    legal.quiets(&pos, &mut list);
    assert!(list.is_empty());
    assert!(every_move().all(|m| !legal.is_legal(&pos, m)));
    // Twin: one pass leaves the game on.
    let pos = after(START, RuleSet::Janggi, &["e2e2"]);
    assert!(is_legal(&pos, Move::pass(pos.king(Color::Han))));
}

/// The filter's shortcuts (moves passed untested, and in check moves
/// dropped untested) against the exact test on every pseudo-legal move:
/// the same moves, and the same bulk count, on random games rich in checks.
#[test]
fn the_filter_agrees_with_the_exact_test_on_every_pseudo_legal_move() {
    let mut rng = Rng::new(33);
    let mut checks = 0;
    let mut list = MoveList::new();
    for g in 0..128 {
        let fen = setup_fen(Setup::ALL[g % 4], Setup::ALL[g / 4 % 4]);
        let mut pos = Position::from_fen(&fen, RuleSet::Janggi).unwrap();
        for _ in 0..150 {
            perft_moves(&pos, &mut list);
            let mut exact = Vec::new();
            if !no_moves_by_rule(&pos) {
                for_each_pseudo(&pos, Bitboard::ALL, |from, targets| {
                    for to in targets {
                        if exact_legal(&pos, from, to) {
                            exact.push(Move::new(from, to));
                        }
                    }
                });
                if pass_legal(&pos) {
                    exact.push(Move::pass(pos.king(pos.side_to_move())));
                }
            }
            let listed: Vec<Move> = list.as_slice().to_vec();
            let (mut a, mut b) = (listed.clone(), exact.clone());
            a.sort_by_key(|m| (m.from().index(), m.to().index()));
            b.sort_by_key(|m| (m.from().index(), m.to().index()));
            assert_eq!(a, b, "{}", pos.to_fen());
            assert_eq!(count_legal(&pos), exact.len() as u64, "{}", pos.to_fen());
            checks += pos.in_check() as u32;
            let Some(m) = capture_biased_move(&pos, &mut rng) else {
                break;
            };
            pos.make(m);
        }
    }
    assert!(checks > 300, "only {checks} positions in check");
}
