//! UCCI output lines: ranks 0..9, option lines without `name`, scores as
//! plain numbers, `nobestmove`.

use super::dialect::Dialect;
use super::options::{self, Config};
use super::uci::{AUTHOR, ENGINE_NAME};
use crate::board::{move_to_string, Move, Notation};
use crate::search::{Info, Score};

/// UCCI has no mate score; engines write mates as values near this.
pub const MATE_VALUE: i32 = 30000;

pub fn hello(config: &Config) -> Vec<String> {
    let mut lines = vec![
        format!("id name {ENGINE_NAME} {}", env!("CARGO_PKG_VERSION")),
        format!("id author {AUTHOR}"),
    ];
    for d in options::listed(Dialect::Ucci) {
        lines.push(options::render(Dialect::Ucci, config, d));
    }
    lines.push("ucciok".to_string());
    lines
}

/// Mate in n moves is 2n-1 plies away; mated in n, 2n plies.
pub fn score(s: Score) -> i32 {
    match s {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n > 0 => MATE_VALUE - (2 * n - 1),
        Score::Mate(n) => -(MATE_VALUE + 2 * n),
    }
}

pub fn info(i: &Info, multipv: bool) -> String {
    let mut s = format!("info depth {}", i.depth);
    if multipv {
        s.push_str(&format!(" multipv {}", i.multipv));
    }
    s.push_str(&format!(
        " score {} nodes {} time {}",
        score(i.score),
        i.nodes,
        i.time_ms
    ));
    if !i.pv.is_empty() {
        let moves: Vec<String> =
            i.pv.iter()
                .map(|&m| move_to_string(m, Notation::Ucci))
                .collect();
        s.push_str(" pv ");
        s.push_str(&moves.join(" "));
    }
    s
}

pub fn bestmove(best: Option<Move>, ponder: Option<Move>) -> String {
    match (best, ponder) {
        (None, _) => "nobestmove".to_string(),
        (Some(b), None) => format!("bestmove {}", move_to_string(b, Notation::Ucci)),
        (Some(b), Some(p)) => format!(
            "bestmove {} ponder {}",
            move_to_string(b, Notation::Ucci),
            move_to_string(p, Notation::Ucci)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_keep_order() {
        assert_eq!(score(Score::Mate(0)), -MATE_VALUE);
        assert_eq!(score(Score::Mate(1)), MATE_VALUE - 1);
        assert_eq!(score(Score::Mate(-1)), -MATE_VALUE + 2);
        assert!(score(Score::Mate(2)) < score(Score::Mate(1)));
        // Being mated later is better.
        assert!(score(Score::Mate(-2)) > score(Score::Mate(-1)));
        assert!(score(Score::Mate(-1)) > score(Score::Mate(0)));
        assert!(score(Score::Mate(30)) > score(Score::Cp(5000)));
    }
}
