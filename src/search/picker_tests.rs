//! The staged picker against an oracle that scores every legal move up
//! front (the ordering scores spelled out again here) and sorts them, best
//! first, equal scores in generation order: the same sequence, so each
//! legal move exactly once, the table move first when legal and never when
//! not, on the bench positions and on positions of random play.

use super::*;
use crate::board::notation::{parse_move, setup_fen, Notation, Setup};
use crate::board::{Piece, PieceKind, RuleSet, Square, NUM_SQUARES};
use crate::search::ordering::{is_bad_capture, Prevs};
use crate::util::rng::Rng;
use std::cmp::Reverse;

const BENCH: &str = include_str!("../tools/bench_positions.txt");

fn bench_positions() -> Vec<Position> {
    BENCH
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| Position::from_fen(l, RuleSet::Janggi).unwrap())
        .collect()
}

fn legal(pos: &Position) -> Vec<Move> {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    list.as_slice().to_vec()
}

/// The bench positions, and random games from them and from the setups
/// under the plain and the KJA rules (whose history can ban a pass).
fn positions() -> Vec<Position> {
    let mut rng = Rng::new(6);
    let mut out = bench_positions();
    let mut starts: Vec<Position> = out.clone();
    for (i, rules) in [RuleSet::Janggi, RuleSet::Kja, RuleSet::Modern]
        .iter()
        .enumerate()
    {
        for s in 0..4 {
            let fen = setup_fen(Setup::ALL[s], Setup::ALL[(s + i) % 4]);
            starts.push(Position::from_fen(&fen, *rules).unwrap());
        }
    }
    for start in starts {
        let mut pos = start;
        for ply in 0..60 {
            let moves = legal(&pos);
            if moves.is_empty() {
                break;
            }
            if ply % 6 == 5 {
                out.push(pos.clone());
            }
            pos.make(moves[rng.below(moves.len())]);
        }
    }
    // KJA: Han's pass would repeat the start a third time, so the picker
    // cannot count on a legal pass and generates everything at once.
    let mut pos = Position::from_fen(crate::board::START_FEN, RuleSet::Kja).unwrap();
    for s in ["b1c3", "e9e9", "c3b1", "e9e9", "b1c3", "e9e9", "c3b1"] {
        let m = parse_move(&pos, s, Notation::Uci).unwrap();
        pos.make(m);
    }
    assert!(!pos.in_check() && !legal(&pos).iter().any(|m| m.is_pass()));
    out.push(pos);
    out
}

/// A move value from anywhere on the board (most are illegal here).
fn any_move(rng: &mut Rng) -> Move {
    let sq = |rng: &mut Rng| Square::new(rng.below(NUM_SQUARES) as u8);
    Move::new(sq(rng), sq(rng))
}

/// Histories as a search leaves them: quiet moves rewarded and punished
/// after random previous moves, killers and counter moves set, some of
/// them legal here and some not (captures here, passes, other positions').
fn random_history(rng: &mut Rng, pos: &Position, ply: usize) -> (History, Prevs) {
    let mut hist = History::new();
    let moves = legal(pos);
    let pick = |rng: &mut Rng| {
        if rng.below(3) == 0 || moves.is_empty() {
            any_move(rng)
        } else {
            moves[rng.below(moves.len())]
        }
    };
    let prev_piece = |rng: &mut Rng| {
        let color = crate::board::Color::ALL[rng.below(2)];
        Piece::new(color, PieceKind::ALL[rng.below(PieceKind::ALL.len())])
    };
    let earlier = |rng: &mut Rng| (rng.below(4) != 0).then(|| (prev_piece(rng), any_move(rng)));
    let prev = [earlier(rng), earlier(rng)];
    for _ in 0..rng.below(60) {
        let best = pick(rng);
        let tried: Vec<(Piece, Move)> = (0..rng.below(8))
            .map(|_| (prev_piece(rng), pick(rng)))
            .collect();
        let p = if rng.below(2) == 0 {
            prev
        } else {
            [earlier(rng), earlier(rng)]
        };
        let depth = 1 + rng.below(12) as i32;
        hist.update_quiet(
            pos.side_to_move().index(),
            ply,
            depth,
            (prev_piece(rng), best),
            &tried,
            p,
        );
    }
    if rng.below(4) == 0 {
        // Both killers one move, which `update_quiet` never leaves.
        hist.killers[ply] = [Some(pick(rng)); 2];
    }
    (hist, prev)
}

/// Every legal move scored up front, sorted best first; equal scores keep
/// their generation order.
fn oracle(
    pos: &Position,
    tt: Option<Move>,
    hist: &History,
    ply: usize,
    prev: Prevs,
) -> Vec<(Move, i32)> {
    let side = pos.side_to_move().index();
    let killers = hist.killers[ply];
    let counter = hist.counter_move(prev);
    let mut scored: Vec<(Move, i32)> = legal(pos)
        .into_iter()
        .map(|m| {
            let s = if Some(m) == tt {
                TT_SCORE
            } else if capture_victim(pos, m).is_some() {
                let attacker = pos.piece_at(m.from()).unwrap().kind();
                let mvv = crate::search::eval::piece_value(capture_victim(pos, m).unwrap()) * 8
                    - crate::search::eval::piece_value(attacker) / 8;
                if see_ge(pos, m, 0) {
                    GOOD_CAPTURE + mvv
                } else {
                    BAD_CAPTURE + mvv
                }
            } else if Some(m) == killers[0] {
                KILLER + 2
            } else if Some(m) == killers[1] {
                KILLER + 1
            } else if Some(m) == counter {
                KILLER
            } else {
                hist.quiet_score(side, moving_piece(pos, m), m, prev)
            };
            (m, s)
        })
        .collect();
    scored.sort_by_key(|&(_, s)| Reverse(s));
    scored
}

/// The picker's whole sequence; `skip_at`: call `skip_quiets` after that
/// many moves.
fn run(
    pos: &Position,
    tt: Option<Move>,
    hist: &History,
    ply: usize,
    prev: Prevs,
    skip_at: Option<usize>,
) -> Vec<(Move, i32)> {
    let mut picker = MovePicker::new(pos, tt, hist, ply, prev);
    assert_eq!(picker.has_moves(), !legal(pos).is_empty());
    let mut out = Vec::new();
    if skip_at == Some(0) {
        picker.skip_quiets();
    }
    while let Some(x) = picker.next(pos, hist) {
        out.push(x);
        if Some(out.len()) == skip_at {
            picker.skip_quiets();
        }
        assert!(out.len() <= MAX_MOVES, "endless picker in {}", pos.to_fen());
    }
    out
}

#[test]
fn hands_out_exactly_the_legal_moves_in_the_oracle_order() {
    let mut rng = Rng::new(2024);
    let (mut tt_legal, mut tt_illegal, mut killers_used, mut bad, mut quiet_stage) =
        (0, 0, 0, 0, 0);
    for pos in positions() {
        let moves = legal(&pos);
        for trial in 0..6 {
            let ply = rng.below(8);
            let (hist, prev) = random_history(&mut rng, &pos, ply);
            // No table move, a legal one, and what a table could hold that
            // is illegal here: any move value, either general's pass.
            let tt = match trial {
                0 => None,
                1 | 2 if !moves.is_empty() => Some(moves[rng.below(moves.len())]),
                3 => Some(Move::pass(pos.king(!pos.side_to_move()))),
                4 => Some(Move::pass(pos.king(pos.side_to_move()))),
                _ => Some(any_move(&mut rng)),
            };
            let got = run(&pos, tt, &hist, ply, prev, None);
            let want = oracle(&pos, tt, &hist, ply, prev);
            assert_eq!(got, want, "{} tt {:?}", pos.to_fen(), tt);

            // The same facts said plainly.
            let mut seen: Vec<Move> = got.iter().map(|&(m, _)| m).collect();
            seen.sort_by_key(|m| m.raw());
            let mut all = moves.clone();
            all.sort_by_key(|m| m.raw());
            assert_eq!(seen, all, "each legal move once in {}", pos.to_fen());
            match tt {
                Some(m) if moves.contains(&m) => {
                    assert_eq!(got[0], (m, TT_SCORE));
                    tt_legal += 1;
                }
                Some(m) => {
                    assert!(got.iter().all(|&(x, _)| x != m));
                    tt_illegal += 1;
                }
                None => {}
            }
            for &(m, order) in &got {
                if Some(m) != tt {
                    let losing = capture_victim(&pos, m).is_some() && !see_ge(&pos, m, 0);
                    assert_eq!(is_bad_capture(order), losing, "{:?} in {}", m, pos.to_fen());
                    bad += losing as usize;
                }
                killers_used += (KILLER..GOOD_CAPTURE).contains(&order) as usize;
                quiet_stage +=
                    (order.abs() < KILLER / 2 && capture_victim(&pos, m).is_none()) as usize;
            }
        }
    }
    assert!(
        tt_legal > 100 && tt_illegal > 100 && killers_used > 100 && bad > 100 && quiet_stage > 1000
    );
}

#[test]
fn skipping_quiet_moves_leaves_the_checks_in_order() {
    let mut rng = Rng::new(77);
    let mut dropped = 0;
    for pos in positions() {
        let moves = legal(&pos);
        for _ in 0..3 {
            let ply = rng.below(8);
            let (hist, prev) = random_history(&mut rng, &pos, ply);
            let tt =
                (!moves.is_empty() && rng.below(2) == 0).then(|| moves[rng.below(moves.len())]);
            let want = oracle(&pos, tt, &hist, ply, prev);
            // The search asks after its first move at the earliest.
            let at = 1 + rng.below(want.len().max(1));
            let got = run(&pos, tt, &hist, ply, prev, Some(at));
            // Up to the call, everything; after it, quiet moves only if
            // they give check.
            let kept: Vec<(Move, i32)> = want
                .iter()
                .enumerate()
                .filter(|&(i, &(m, _))| {
                    i < at
                        || capture_victim(&pos, m).is_some()
                        || pos.gives_check(m)
                        || (m.is_pass() && pos.bikjang())
                })
                .map(|(_, &x)| x)
                .collect();
            assert_eq!(got, kept, "{} skip after {}", pos.to_fen(), at);
            dropped += want.len() - got.len();
        }
    }
    assert!(dropped > 1000);
}

#[test]
fn skipping_quiet_moves_keeps_the_pass_that_accepts_a_bikjang() {
    // The generals face each other on the e-file: passing accepts the
    // bikjang and ends the game on the count, so late move pruning spares
    // the pass and the picker must still hand it out.
    let pos = Position::from_fen("r3k4/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", RuleSet::Janggi).unwrap();
    assert!(pos.bikjang());
    let hist = History::new();
    for at in [0, 1, 2] {
        let got = run(&pos, None, &hist, 0, [None, None], Some(at));
        assert!(
            got.iter().any(|&(m, _)| m.is_pass()),
            "skip after {at}: the pass is missing"
        );
    }
}

#[test]
fn first_best_is_the_first_of_the_highest_scores() {
    let mut rng = Rng::new(11);
    for _ in 0..2000 {
        let n = 1 + rng.below(70);
        // Few distinct values, so that ties are the rule.
        let scores: Vec<i32> = (0..n).map(|_| rng.below(5) as i32 - 2).collect();
        let mut best = 0;
        for i in 1..n {
            if scores[i] > scores[best] {
                best = i;
            }
        }
        assert_eq!(first_best(&scores), best, "{scores:?}");
    }
}
