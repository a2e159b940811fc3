//! A FEN read from a file (an openings book, a PGN's `[FEN]` tag, a
//! report's game), checked before the board's parser sees it. Its own
//! module so that the openings and the PGN reader both use it without
//! depending on each other.

use crate::board::{Position, RuleSet};

/// Reads a FEN from a file. A run of several digits is refused here,
/// before the board's parser sees it: no rank is wider than 9 points, and
/// a long run could overflow a count of files.
pub fn read_fen(fen: &str, rules: RuleSet) -> Result<Position, String> {
    let placement = fen.split_whitespace().next().unwrap_or("");
    let long_run = placement
        .split(|c: char| !c.is_ascii_digit())
        .find(|run| run.len() > 1);
    if let Some(run) = long_run {
        let run: String = run.chars().take(24).collect();
        return Err(format!(
            "bad FEN: '{run}' is not a number of empty points (at most 9)"
        ));
    }
    Position::from_fen(fen, rules).map_err(|e| format!("bad FEN: {e}"))
}
