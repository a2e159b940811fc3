//! Random play for tests that need positions from real-looking games.

use super::{legal_moves, Move, MoveList, Position};
use crate::util::rng::Rng;

/// A legal move at random, a capture half the time when there is one: a
/// walk of uniform moves keeps nearly every piece for a hundred plies,
/// while games thin out, exchange and reach the endings where checks,
/// bikjang and the low material buckets live. `None` when no move is legal.
pub(crate) fn capture_biased_move(pos: &Position, rng: &mut Rng) -> Option<Move> {
    let mut list = MoveList::new();
    legal_moves(pos, &mut list);
    if list.is_empty() {
        return None;
    }
    let captures: Vec<Move> = list
        .iter()
        .copied()
        .filter(|m| !m.is_pass() && pos.piece_at(m.to()).is_some())
        .collect();
    Some(if !captures.is_empty() && rng.below(2) == 0 {
        captures[rng.below(captures.len())]
    } else {
        list.as_slice()[rng.below(list.len())]
    })
}
