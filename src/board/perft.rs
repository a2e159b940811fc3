//! Perft: counts the leaves of the legal move tree, as Fairy-Stockfish does
//! (passes are moves; bulk counting at the last ply).

use super::movegen::{count_legal, perft_moves};
use super::moves::{Move, MoveList};
use super::notation::{move_to_string, Notation};
use super::position::Position;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// The deepest perft run, by `janggun perft` and `go perft` alike. The
/// start position's count at depth 7 already takes minutes, so a deeper
/// one never finishes; and the recursion takes a move list of stack per
/// ply, so a depth in the thousands would overflow the stack before it
/// counted anything.
pub const MAX_DEPTH: u32 = 20;

/// `depth` as perft takes it, or why it is refused.
pub fn check_depth(depth: u64) -> Result<u32, String> {
    u32::try_from(depth)
        .ok()
        .filter(|&d| d <= MAX_DEPTH)
        .ok_or_else(|| format!("depth {depth} is above the limit {MAX_DEPTH}"))
}

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

/// `perft`, but gives up (`None`) soon after `stop` is set: a deep perft
/// runs for hours, and the protocol's `stop` must end it like a search.
pub fn perft_until(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= 2 {
        return Some(perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut list = MoveList::new();
    perft_moves(pos, &mut list);
    let mut total = 0;
    for &m in list.iter() {
        pos.make(m);
        let n = perft_until(pos, depth - 1, stop);
        pos.unmake();
        total += n?;
    }
    Some(total)
}

/// The count below each root move, sorted by move string as FSF's reference
/// files sort them.
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(String, u64)> {
    divide_until(pos, depth, threads, &AtomicBool::new(false)).unwrap_or_default()
}

/// `divide` that gives up (`None`) once `stop` is set.
pub fn divide_until(
    pos: &Position,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Option<Vec<(String, u64)>> {
    let mut list = MoveList::new();
    perft_moves(pos, &mut list);
    let moves: Vec<Move> = list.as_slice().to_vec();
    let count = |m: &Move| {
        let mut p = pos.clone();
        p.make(*m);
        let n = perft_until(&mut p, depth.saturating_sub(1), stop)?;
        Some((move_to_string(*m, Notation::Uci), n))
    };
    let out: Option<Vec<(String, u64)>> = if threads > 1 {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| moves.par_iter().map(count).collect()),
            Err(_) => moves.iter().map(count).collect(),
        }
    } else {
        moves.iter().map(count).collect()
    };
    let mut out = out?;
    out.sort();
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_stop_ends_a_deep_perft_at_once() {
        let pos = Position::startpos(crate::board::RuleSet::Janggi);
        let stop = AtomicBool::new(true);
        // Depth 12 would take years; a set flag answers at once.
        assert_eq!(divide_until(&pos, 12, 1, &stop), None);
        assert_eq!(divide_until(&pos, 12, 2, &stop), None);
        let go = AtomicBool::new(false);
        let counted = divide_until(&pos, 3, 1, &go).unwrap();
        let mut p = pos.clone();
        assert_eq!(
            counted.iter().map(|(_, n)| n).sum::<u64>(),
            perft(&mut p, 3)
        );
    }

    #[test]
    fn depth_is_bounded() {
        assert_eq!(check_depth(0), Ok(0));
        assert_eq!(check_depth(u64::from(MAX_DEPTH)), Ok(MAX_DEPTH));
        for d in [u64::from(MAX_DEPTH) + 1, 10_000, u64::MAX] {
            assert!(check_depth(d).unwrap_err().contains("above the limit 20"));
        }
    }
}
