//! Perft: counts the leaves of the legal move tree, as Fairy-Stockfish does
//! (passes are moves; bulk counting at the last ply).

use super::movegen::{count_legal, perft_moves};
use super::moves::{Move, MoveList};
use super::notation::{move_to_string, Notation};
use super::position::Position;
use rayon::prelude::*;

/// Leaves of the move tree `depth` plies deep.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return count_legal(pos);
    }
    let mut list = MoveList::new();
    perft_moves(pos, &mut list);
    let mut total = 0;
    for &m in list.iter() {
        pos.make(m);
        total += perft(pos, depth - 1);
        pos.unmake();
    }
    total
}

/// The count below each root move, sorted by move string as FSF's reference
/// files sort them.
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(String, u64)> {
    let mut list = MoveList::new();
    perft_moves(pos, &mut list);
    let moves: Vec<Move> = list.as_slice().to_vec();
    let count = |m: &Move| {
        let mut p = pos.clone();
        p.make(*m);
        (
            move_to_string(*m, Notation::Uci),
            perft(&mut p, depth.saturating_sub(1)),
        )
    };
    let mut out: Vec<(String, u64)> = if threads > 1 {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| moves.par_iter().map(count).collect()),
            Err(_) => moves.iter().map(count).collect(),
        }
    } else {
        moves.iter().map(count).collect()
    };
    out.sort();
    out
}
