//! Standard algebraic notation for Janggi as Fairy-Stockfish (pyffish's
//! `get_san`) writes it: `K A E H R C P` for general, guard, elephant,
//! horse, chariot, cannon and soldier; the origin's file, rank or square
//! when another piece of the kind could reach the same point (soldiers
//! included, no file on soldier captures); `x` for captures; `+` for check
//! and `#` for mate. A pass is the general "moving" to its own point (`Ke2`).

use super::movegen::{legal_moves, perft_moves};
use super::moves::{Move, MoveList};
use super::notation::{parse_move, Notation};
use super::position::Position;
use super::square::PieceKind;

fn letter(k: PieceKind) -> char {
    match k {
        PieceKind::General => 'K',
        PieceKind::Guard => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Chariot => 'R',
        PieceKind::Cannon => 'C',
        PieceKind::Soldier => 'P',
    }
}

/// SAN of a legal move `m` in `pos`. `pos` is left as it was.
pub fn to_san(pos: &mut Position, m: Move) -> String {
    let from = m.from();
    let to = m.to();
    let Some(piece) = pos.piece_at(from) else {
        return m.to_string();
    };
    let mut s = String::with_capacity(8);
    s.push(letter(piece.kind()));
    if !m.is_pass() {
        // Disambiguation is judged on the board rules alone, as FSF does.
        let mut list = MoveList::new();
        perft_moves(pos, &mut list);
        let others: Vec<Move> = list
            .iter()
            .copied()
            .filter(|o| {
                o.to() == to
                    && o.from() != from
                    && !o.is_pass()
                    && pos.piece_at(o.from()).map(|p| p.kind()) == Some(piece.kind())
            })
            .collect();
        if !others.is_empty() {
            let same_file = others.iter().any(|o| o.from().file() == from.file());
            let same_rank = others.iter().any(|o| o.from().rank() == from.rank());
            let sq = from.to_string();
            if !same_file {
                s.push_str(&sq[..1]);
            } else if !same_rank {
                s.push_str(&sq[1..]);
            } else {
                s.push_str(&sq);
            }
        }
    }
    if !m.is_pass() && pos.piece_at(to).is_some() {
        s.push('x');
    }
    s.push_str(&to.to_string());
    pos.make(m);
    if pos.in_check() {
        let mut list = MoveList::new();
        perft_moves(pos, &mut list);
        s.push(if list.is_empty() { '#' } else { '+' });
    }
    pos.unmake();
    s
}

/// SAN of a whole line from `pos` (which is left unchanged).
pub fn line_to_san(pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    moves
        .iter()
        .map(|&m| {
            let s = to_san(&mut p, m);
            p.make(m);
            s
        })
        .collect()
}

fn strip(s: &str) -> &str {
    s.trim_end_matches(['+', '#', '!', '?'])
}

/// Reads a SAN move (or a UCI move string) and returns the legal move it
/// names. Matching against the SAN of every legal move keeps the reader
/// exactly as strict as the writer.
pub fn from_san(pos: &mut Position, san: &str) -> Result<Move, String> {
    let want = strip(san);
    if want.is_empty() {
        return Err("empty move".into());
    }
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    for &m in list.iter() {
        if strip(&to_san(pos, m)) == want {
            return Ok(m);
        }
    }
    // Also accept coordinates (`h1g3`, passes as `e2e2`/`pass`).
    parse_move(pos, want, Notation::Uci).map_err(|_| {
        format!(
            "'{}' is not a legal move here",
            want.chars().take(16).collect::<String>()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::RuleSet;

    fn mv(p: &Position, s: &str) -> Move {
        parse_move(p, s, Notation::Uci).unwrap()
    }

    #[test]
    fn start_position_san() {
        let mut p = Position::startpos(RuleSet::Janggi);
        for (uci, san) in [
            ("a1a2", "Ra2"),
            ("c4b4", "Pcb4"),
            ("c4c5", "Pc5"),
            ("b1c3", "Hc3"),
            ("d1e1", "Ade1"),
            ("d1d2", "Ad2"),
            ("e2e2", "Ke2"),
            ("e2f3", "Kf3"),
        ] {
            let m = mv(&p, uci);
            assert_eq!(to_san(&mut p, m), san, "{uci}");
            assert_eq!(from_san(&mut p, san), Ok(m));
        }
    }

    #[test]
    fn captures_checks_and_rank_ten() {
        // Chariot on d5 gives check along the d-file into the palace corner.
        let fen = "4k4/9/9/9/9/3R5/9/9/9/3K5 w - - 0 1";
        let mut p = Position::from_fen(fen, RuleSet::Janggi).unwrap();
        let m = mv(&p, "d5d10");
        let san = to_san(&mut p, m);
        assert!(san.starts_with("Rd10"), "{san}");
        let fen2 = "3rk4/9/9/9/9/3R5/9/9/9/3K5 w - - 0 1";
        let mut p2 = Position::from_fen(fen2, RuleSet::Janggi).unwrap();
        let m2 = mv(&p2, "d5d10");
        assert!(to_san(&mut p2, m2).starts_with("Rxd10"));
        assert!(from_san(&mut p2, "Rxd10").is_ok());
        assert!(from_san(&mut p2, "Rxd9").is_err());
    }
}
