//! Scores: the internal scale (centipawns, mates and rule wins measured
//! from the root), and its translation to what the protocols report.

/// Deepest ply a search reaches; decided scores leave room for a distance
/// of up to twice this below their value.
pub const MAX_PLY: usize = 128;
pub const INF: i32 = 32001;
/// A game won at the root: by checkmate, or by the rules (the count at a
/// bikjang, two passes or the move limit, perpetual check, repetition).
/// Both kinds are decided the same way and score alike, `MATE - plies to
/// the end`, as Fairy-Stockfish scores them: so mate-distance pruning, the
/// table's ply adjustment, `go mate` and `score mate N` treat them as one.
pub const MATE: i32 = 32000;
/// Scores beyond this are decided games.
pub const WIN_BOUND: i32 = MATE - 2 * MAX_PLY as i32;

/// A score from the side to move's view.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns; 100 = one soldier.
    Cp(i32),
    /// Mate in N moves (negative: being mated).
    Mate(i32),
}

/// Converts an internal score to the protocol's. A decided game is a mate
/// to the GUI, whether by checkmate or by the rules, as Fairy-Stockfish
/// reports it. A loss is counted in moves rounded up: a rule loss may come
/// on the loser's own move (the pass that accepts a bikjang lost on the
/// count is still to be played: an odd ply), and `mate 0` is only for a
/// game already over; a checkmate comes on even plies, where rounding up
/// changes nothing.
pub fn to_score(v: i32) -> Score {
    if v >= WIN_BOUND {
        Score::Mate((MATE - v + 1) / 2)
    } else if v <= -WIN_BOUND {
        Score::Mate(-((MATE + v + 1) / 2))
    } else {
        Score::Cp(v)
    }
}

/// Win/draw/loss per mille from a score (a plain logistic model).
pub fn wdl(v: i32) -> (u32, u32, u32) {
    if v >= WIN_BOUND {
        return (1000, 0, 0);
    }
    if v <= -WIN_BOUND {
        return (0, 0, 1000);
    }
    let f = |x: f64| 1.0 / (1.0 + (-x).exp());
    let w = (1000.0 * f((v as f64 - 80.0) / 120.0)) as u32;
    let l = (1000.0 * f((-v as f64 - 80.0) / 120.0)) as u32;
    (w, 1000 - w - l, l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decided_games_are_mates_both_ways() {
        // Mate or rule win in one move (1 ply), lost in one move (2 plies).
        assert_eq!(to_score(MATE - 1), Score::Mate(1));
        assert_eq!(to_score(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(to_score(MATE - 5), Score::Mate(3));
        assert_eq!(to_score(-(MATE - 4)), Score::Mate(-2));
        // Lost on the count after one's own pass: one move still to play.
        assert_eq!(to_score(-(MATE - 1)), Score::Mate(-1));
        assert_eq!(to_score(-(MATE - 3)), Score::Mate(-2));
        // Mated now.
        assert_eq!(to_score(-MATE), Score::Mate(0));
        assert_eq!(to_score(WIN_BOUND - 1), Score::Cp(WIN_BOUND - 1));
        assert_eq!(to_score(0), Score::Cp(0));
    }
}
