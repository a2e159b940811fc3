//! Output buckets by material: which output row of a net (per side to move)
//! a position is evaluated with.
//!
//! The bucket is the number of pieces other than the two generals, cut
//! into `B` equal slices of `0..=30`: `bucket = n * B / 31` with `n` the
//! count (at most 30). With 8 buckets that is `n / 4`: 0-3 pieces, 4-7,
//! ..., 28-30.
//!
//! Why the count rather than the material value: it is one popcount of
//! the occupancy the position already keeps (the value would weigh each
//! kind apart, twelve counts a node), the trainer reads it from a record's
//! piece list alone, and it moves only on captures, which the search's
//! accumulators see anyway. It is a game-phase measure, the thing an
//! output bucket is for; the material balance the net reads from its
//! inputs.

/// Pieces other than the generals a Janggi position can hold.
pub const MAX_MEN: u32 = 30;

/// The bucket of a position holding `pieces` pieces (generals included)
/// for a net of `buckets` buckets. Counts beyond the game's (a placement
/// no game reaches) fall in the last bucket.
#[inline]
pub fn bucket(pieces: u32, buckets: usize) -> usize {
    let men = pieces.saturating_sub(2).min(MAX_MEN) as usize;
    men * buckets / (MAX_MEN as usize + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::layout::MAX_BUCKETS;

    #[test]
    fn eight_buckets_are_four_men_each_and_every_count_has_a_bucket() {
        for pieces in 2..=32u32 {
            assert_eq!(bucket(pieces, 8), (pieces as usize - 2) / 4, "{pieces}");
        }
        for b in 1..=MAX_BUCKETS {
            // Monotone, from the first bucket to the last, none skipped
            // while there are at least as many counts as buckets.
            let all: Vec<usize> = (0..=40).map(|p| bucket(p, b)).collect();
            assert_eq!(all[0], 0);
            assert_eq!(*all.last().unwrap(), b - 1, "{b}");
            assert!(all.windows(2).all(|w| w[1] == w[0] || w[1] == w[0] + 1));
        }
        assert_eq!(bucket(32, 1), 0);
    }
}
