//! Singular extensions' numbers, in Fairy-Stockfish's form (the search's
//! part is in `search`): the table move is searched one ply deeper when
//! every other move, searched at half the depth without it, falls more
//! than `MARGIN` a ply of depth short of its table score; two plies deeper
//! when they fall far short, a few times a path.
//!
//! The least depth is the margin `SingularDepth` (7, Fairy-Stockfish's; this
//! search also takes a ply off its depth each ply, so the scales agree).

/// Centipawns a ply of depth below the table score that the other moves
/// must stay under: Fairy-Stockfish's 2 (its non-PV `(4 d) / 2`), on a
/// scale where a chariot is worth ~480 here against ~1280 there, so the
/// same constant is a little wider here, as the earlier form had it.
pub const MARGIN: i32 = 2;

/// How far under the singular bound the other moves' best must stay for
/// a second ply: about a third of a soldier, as Stockfish's 75 is of its
/// pawn.
pub const DOUBLE_MARGIN: i32 = 25;

/// Double extensions allowed on one path, so that a line of forced moves
/// cannot double the depth it was given.
pub const MAX_DOUBLE: u8 = 6;

/// The extension of a singular table move, given the other moves' best
/// `v` (below `s_beta`), whether the node is on the principal variation
/// (never doubled there) and the double extensions already on the path.
#[inline]
pub fn extension(v: i32, s_beta: i32, pv_node: bool, doubles: u8) -> i32 {
    debug_assert!(v < s_beta);
    if !pv_node && v < s_beta - DOUBLE_MARGIN && doubles < MAX_DOUBLE {
        2
    } else {
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doubled_only_far_below_off_the_pv_and_within_the_path_limit() {
        let s_beta = 100;
        assert_eq!(extension(s_beta - 1, s_beta, false, 0), 1);
        assert_eq!(extension(s_beta - DOUBLE_MARGIN, s_beta, false, 0), 1);
        assert_eq!(extension(s_beta - DOUBLE_MARGIN - 1, s_beta, false, 0), 2);
        assert_eq!(extension(s_beta - DOUBLE_MARGIN - 1, s_beta, true, 0), 1);
        assert_eq!(extension(-30_000, s_beta, false, MAX_DOUBLE - 1), 2);
        assert_eq!(extension(-30_000, s_beta, false, MAX_DOUBLE), 1);
    }
}
